package io.lanes.connect.internal;

import io.lanes.applier.Change;
import io.lanes.core.LogicalClock;

/**
 * One Kafka record of a change stream, read into what the sink needs (by {@link ChangeEventReader}). Immutable.
 *
 * @param kind what the record is
 * @param offset the record's Kafka offset
 * @param transactionId the source transaction it belongs to (Debezium's {@code transaction.id}, or the Lanes source's
 *     transaction sequence), null when the record carries none
 * @param order the record's 1-based place in its transaction ({@code total_order}), 0 when unknown
 * @param eventCount for a transaction END record or a Lanes-format record: the transaction's number of change events;
 *     0 when unknown
 * @param source where the source logged it
 * @param snapshot true for a snapshot read (Debezium {@code op = r}), which belongs to no transaction
 * @param lastInSnapshot true for the snapshot's last record
 * @param change the row change or statement (null for transaction markers and tombstones)
 * @param sizeBytes an estimate of the memory the change holds, for the queue budget
 * @param lanes what a Lanes-format record's headers add (null for other records)
 * @param row the row's number within its binlog event (Debezium's {@code source.row}), -1 when unknown: with the
 *     source position it identifies the change in the binlog
 */
public record ChangeEvent(Kind kind, long offset, String transactionId, long order, long eventCount, SourceOrder source,
        boolean snapshot, boolean lastInSnapshot, Change change, long sizeBytes, LanesMetadata lanes, int row) {

    /** An event without a row number. */
    public ChangeEvent(Kind kind, long offset, String transactionId, long order, long eventCount, SourceOrder source,
            boolean snapshot, boolean lastInSnapshot, Change change, long sizeBytes, LanesMetadata lanes) {
        this(kind, offset, transactionId, order, eventCount, source, snapshot, lastInSnapshot, change, sizeBytes, lanes, -1);
    }

    /** Where the source logged this change ({@code file:pos:row}), or its place in its transaction when unknown. */
    public String identity() {
        return source.isKnown() && row >= 0 ? source.file() + ":" + source.position() + ":" + row : "#" + order;
    }

    public enum Kind {
        /** A row inserted, updated or deleted (or read by a snapshot). */
        ROW,
        /** A schema change (DDL): applied alone, as a barrier. */
        DDL,
        /** A transaction's BEGIN marker (carries nothing the sink needs). */
        BEGIN,
        /** A transaction's END marker with its event count. */
        END,
        /** A record with no value (a tombstone after a delete, for log compaction). */
        TOMBSTONE
    }

    /**
     * The scheduling facts a Lanes source put in the record's headers.
     *
     * @param writeKeys the transaction's write keys (may be empty)
     * @param clock the transaction's logical clock, or null
     * @param barrier whether the transaction must run alone
     * @param startsAfterAllBefore whether it starts only after every transaction before it committed
     */
    public record LanesMetadata(long[] writeKeys, LogicalClock clock, boolean barrier, boolean startsAfterAllBefore) {
    }
}
