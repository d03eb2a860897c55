package io.lanes.binlog;

import io.lanes.binlog.internal.ByteArrayRecords;

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
        return ByteArrayRecords.equals(this, other);
    }

    @Override
    public int hashCode() {
        return ByteArrayRecords.hashCode(this);
    }
}
