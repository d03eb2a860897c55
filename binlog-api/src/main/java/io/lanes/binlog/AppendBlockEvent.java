package io.lanes.binlog;

/** APPEND_BLOCK (9): another block of the LOAD DATA file {@code fileId}. */
public record AppendBlockEvent(EventHeader header, long fileId, byte[] block) implements BinlogEvent {
    public AppendBlockEvent {
        block = block.clone();
    }

    @Override
    public byte[] block() {
        return block.clone();
    }


    /** Value equality, byte arrays compared by content. */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof AppendBlockEvent o)) {
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
