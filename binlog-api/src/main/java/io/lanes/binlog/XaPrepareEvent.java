package io.lanes.binlog;

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
        if (!(other instanceof XaPrepareEvent o)) {
            return false;
        }
        return java.util.Objects.equals(header, o.header)
                && onePhase == o.onePhase
                && formatId == o.formatId
                && java.util.Arrays.equals(gtrid, o.gtrid)
                && java.util.Arrays.equals(bqual, o.bqual);
    }

    @Override
    public int hashCode() {
        int h = 1;
        h = 31 * h + java.util.Objects.hashCode(header);
        h = 31 * h + Boolean.hashCode(onePhase);
        h = 31 * h + Integer.hashCode(formatId);
        h = 31 * h + java.util.Arrays.hashCode(gtrid);
        h = 31 * h + java.util.Arrays.hashCode(bqual);
        return h;
    }
}
