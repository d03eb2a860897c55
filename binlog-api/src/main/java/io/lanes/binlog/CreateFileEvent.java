package io.lanes.binlog;

/**
 * CREATE_FILE (8): the first block of a LOAD DATA file (MySQL 3.23 / 4.x). Only the file id is decoded; {@link #body()}
 * keeps the rest of the event (the embedded LOAD description and the data block) as logged.
 */
public record CreateFileEvent(EventHeader header, long fileId, byte[] body) implements BinlogEvent {
    public CreateFileEvent {
        body = body.clone();
    }

    @Override
    public byte[] body() {
        return body.clone();
    }


    /** Value equality, byte arrays compared by content. */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof CreateFileEvent o)) {
            return false;
        }
        return java.util.Objects.equals(header, o.header)
                && fileId == o.fileId
                && java.util.Arrays.equals(body, o.body);
    }

    @Override
    public int hashCode() {
        int h = 1;
        h = 31 * h + java.util.Objects.hashCode(header);
        h = 31 * h + Long.hashCode(fileId);
        h = 31 * h + java.util.Arrays.hashCode(body);
        return h;
    }
}
