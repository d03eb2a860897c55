package io.lanes.binlog.replication;

/**
 * One binlog event as the source server sent it: the full event bytes (19-byte header, body, and the 4-byte CRC32 when the
 * stream is checksummed), without the protocol's leading OK byte, together with where it is in the source's binlog.
 *
 * <p>Immutable once handed over; {@link #bytes()} returns the array itself (no copy), which the consumer must not
 * change. The client never touches an event again after queueing it, and the queue hand-off makes every write to it
 * visible to the consuming thread.
 */
public final class ReplicationEvent {
    private final byte[] bytes;
    private final String binlogFile;
    private final long position;
    private final boolean synthetic;
    private final boolean endsTransaction;
    private final StartPosition resumePosition;

    public ReplicationEvent(byte[] bytes, String binlogFile, long position, boolean synthetic, boolean endsTransaction,
            StartPosition resumePosition) {
        this.bytes = bytes;
        this.binlogFile = binlogFile;
        this.position = position;
        this.synthetic = synthetic;
        this.endsTransaction = endsTransaction;
        this.resumePosition = resumePosition;
    }

    /** The event's bytes from the header's first byte to the end of the checksum (if any). */
    public byte[] bytes() {
        return bytes;
    }

    /** The event type code (header byte 4). */
    public int eventType() {
        return bytes[4] & 0xff;
    }

    /** The binlog file the event is in (for a synthetic event: the file the stream is in). */
    public String binlogFile() {
        return binlogFile;
    }

    /**
     * The byte offset of the event in {@link #binlogFile()}; for a synthetic event, the stream's current position (the
     * offset of the next real event).
     */
    public long position() {
        return position;
    }

    /** The offset just past the event in its file (the header's log_pos); for a synthetic event, {@link #position()}. */
    public long nextPosition() {
        return synthetic ? position : position + bytes.length;
    }

    /**
     * True for events the server made up for the stream and that are not at this position in the file: the rotate sent
     * first, the FORMAT_DESCRIPTION re-sent at a start position after 4, MariaDB's GTID list at a GTID start.
     */
    public boolean isSynthetic() {
        return synthetic;
    }

    /** True when this event ends a transaction (XID, COMMIT, a standalone DDL) or is not part of any transaction. */
    public boolean endsTransaction() {
        return endsTransaction;
    }

    /**
     * Where to start a new stream so that nothing after this event's transaction is lost and nothing of a transaction
     * that ended at or before this event comes again: past this event when {@link #endsTransaction()}, else the start of
     * its transaction (so the transaction, with its TABLE_MAPs, is sent again whole). Persist the value of the last
     * event whose effects are durable and pass it to {@link ReplicationClient.Builder#startPosition(StartPosition)}.
     * Its kind matches the kind of start position the client was built with.
     */
    public StartPosition resumePosition() {
        return resumePosition;
    }

    @Override
    public String toString() {
        return "ReplicationEvent[type=" + eventType() + ", " + binlogFile + ":" + position + ", " + bytes.length
                + " bytes" + (synthetic ? ", synthetic" : "") + "]";
    }
}
