package io.lanes.binlog;

import io.lanes.binlog.internal.ByteArrayRecords;

/**
 * XA_PREPARE (38): ends an XA transaction's prepare (or a one-phase XA COMMIT). Identifies the XA transaction by its XID.
 */
public record XaPrepareEvent(EventHeader header, boolean onePhase, int formatId, byte[] gtrid, byte[] bqual)
        implements BinlogEvent {
    public XaPrepareEvent {
        gtrid = gtrid.clone();
        bqual = bqual.clone();
    }

    @Override
    public byte[] gtrid() {
        return gtrid.clone();
    }

    @Override
    public byte[] bqual() {
        return bqual.clone();
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
