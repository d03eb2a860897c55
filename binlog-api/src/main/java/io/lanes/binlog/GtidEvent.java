package io.lanes.binlog;

import io.lanes.binlog.gtid.MySqlGtid;
import java.util.UUID;

/**
 * MySQL GTID (33), ANONYMOUS_GTID (34) and GTID_TAGGED (42): opens a transaction and carries its identity and logical
 * clock. Fields a server version did not write are -1.
 *
 * @param anonymous whether this is an ANONYMOUS_GTID (gtid_mode=OFF): {@link #gtid()} is then {@code null}
 * @param flags bit 0: the transaction may contain statement-based changes
 * @param sourceId the source UUID (all zero for anonymous transactions)
 * @param tag the GTID tag of a GTID_TAGGED event, else {@code null}
 * @param gno the transaction number (0 for anonymous transactions)
 * @param lastCommitted logical clock: the sequence number this transaction depends on, or -1
 * @param sequenceNumber logical clock: this transaction's number, or -1
 * @param immediateCommitTimestamp microseconds since the epoch of the commit on the immediate source, or -1
 * @param originalCommitTimestamp microseconds since the epoch of the commit on the originating source, or -1
 * @param transactionLength the transaction's size in bytes, this event included, or -1
 * @param immediateServerVersion the immediate source's version as a number (80028 for 8.0.28), or -1
 * @param originalServerVersion the originating source's version as a number, or -1
 * @param commitGroupTicket the binlog commit group ticket of a GTID_TAGGED event, or -1
 */
public record GtidEvent(EventHeader header, boolean anonymous, int flags, UUID sourceId, String tag, long gno,
        long lastCommitted, long sequenceNumber, long immediateCommitTimestamp, long originalCommitTimestamp,
        long transactionLength, long immediateServerVersion, long originalServerVersion, long commitGroupTicket)
        implements BinlogEvent {

    /** The GTID, or {@code null} for an anonymous transaction. */
    public MySqlGtid gtid() {
        return anonymous ? null : new MySqlGtid(sourceId, tag, gno);
    }

    /** Whether the logical clock ({@link #lastCommitted()}, {@link #sequenceNumber()}) was logged. */
    public boolean hasLogicalClock() {
        return sequenceNumber >= 0;
    }
}
