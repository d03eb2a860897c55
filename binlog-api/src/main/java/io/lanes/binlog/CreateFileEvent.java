package io.lanes.binlog;

import io.lanes.binlog.internal.ByteArrayRecords;

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
        return ByteArrayRecords.equals(this, other);
    }

    @Override
    public int hashCode() {
        return ByteArrayRecords.hashCode(this);
    }
}
