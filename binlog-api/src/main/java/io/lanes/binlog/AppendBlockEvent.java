package io.lanes.binlog;

import io.lanes.binlog.internal.ByteArrayRecords;

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
        return ByteArrayRecords.equals(this, other);
    }

    @Override
    public int hashCode() {
        return ByteArrayRecords.hashCode(this);
    }
}
