package io.lanes.binlog;

/** BEGIN_LOAD_QUERY (17): the first block of a LOAD DATA file (MySQL 5.0+); EXECUTE_LOAD_QUERY runs the statement. */
public record BeginLoadQueryEvent(EventHeader header, long fileId, byte[] block) implements BinlogEvent {
    public BeginLoadQueryEvent {
        block = block.clone();
    }

    @Override
    public byte[] block() {
        return block.clone();
    }


    /** Value equality, byte arrays compared by content. */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof BeginLoadQueryEvent o)) {
            return false;
        }
        return java.util.Objects.equals(header, o.header)
                && fileId == o.fileId
                && java.util.Arrays.equals(block, o.block);
    }

    @Override
    public int hashCode() {
        int h = 1;
        h = 31 * h + java.util.Objects.hashCode(header);
        h = 31 * h + Long.hashCode(fileId);
        h = 31 * h + java.util.Arrays.hashCode(block);
        return h;
    }
}
