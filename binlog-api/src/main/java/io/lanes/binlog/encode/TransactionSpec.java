package io.lanes.binlog.encode;

import io.lanes.binlog.gtid.Gtid;

/**
 * How {@link BinlogWriter#beginTransaction(TransactionSpec)} opens a transaction. Every field has an automatic default
 * ({@link #auto()}): the next GTID of the writer's source, a serial logical clock, no group commit id, session 1.
 * Immutable; the {@code with*} methods return modified copies.
 *
 * @param gtid the transaction's GTID: a {@link io.lanes.binlog.gtid.MySqlGtid} for MySQL flavour, a
 *     {@link io.lanes.binlog.gtid.MariaDbGtid} for MariaDB (its server id becomes the events' server id), or {@code null} for
 *     the writer's next one
 * @param lastCommitted MySQL logical clock: the sequence number this transaction depends on, or -1 for "the previous
 *     transaction" (serial). Transactions with equal {@code lastCommitted} below each other's sequence numbers may be
 *     applied in parallel.
 * @param commitId MariaDB group commit id (transactions with equal ids committed together), or -1 for none
 * @param session the thread id written in QUERY events (a source connection)
 */
public record TransactionSpec(Gtid gtid, long lastCommitted, long commitId, long session) {

    private static final TransactionSpec AUTO = new TransactionSpec(null, -1, -1, 1);

    /** The writer's next GTID, serial logical clock, no commit id, session 1. */
    public static TransactionSpec auto() {
        return AUTO;
    }

    public TransactionSpec withGtid(Gtid g) {
        return new TransactionSpec(g, lastCommitted, commitId, session);
    }

    public TransactionSpec withLastCommitted(long sequenceNumber) {
        return new TransactionSpec(gtid, sequenceNumber, commitId, session);
    }

    public TransactionSpec withCommitId(long id) {
        return new TransactionSpec(gtid, lastCommitted, id, session);
    }

    public TransactionSpec withSession(long threadId) {
        return new TransactionSpec(gtid, lastCommitted, commitId, threadId);
    }
}
