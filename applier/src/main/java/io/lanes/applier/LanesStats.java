package io.lanes.applier;

import io.lanes.core.EngineStats;
import io.lanes.core.WorkerStats;
import java.util.List;

/**
 * A snapshot of a {@link Lanes} pipeline's progress. Immutable; each field was read once, not all at one instant.
 *
 * @param state the pipeline's state when the snapshot was taken
 * @param seconds seconds since {@link Lanes#start()} (until {@link Lanes#stop()} once stopped)
 * @param transactions transactions committed to the target by this run
 * @param transactionsRead transactions read from the source and handed to the engine by this run
 * @param transactionsSkipped transactions passed over at the start because the target's checkpoint already held them
 * @param events binlog events of the transactions handed to the engine (GTID, TABLE_MAP, row events, XID, ...)
 * @param rows row changes (one per inserted, updated or deleted row) of the transactions handed to the engine
 * @param sourceBytesRead bytes of source input consumed (decompressed bytes for .gz files)
 * @param sourceBytesTotal bytes of source input in all (estimated from the gzip trailer for .gz files), -1 when unknown
 * @param sourcePosition the position after the last transaction read ({@code file:offset[ gtid=...]}), null before any
 * @param resumedFrom the checkpointed position this run resumed after, null for a fresh start
 * @param transactionsSkippedByErrorPolicy transactions the skip list ({@code lanes.skip-errors}) skipped and whose
 *     batch committed: each was logged with its position; 0 unless a skip list is configured
 * @param engine the engine's own counters (low-water mark, queues, per-worker times and wait states); null before start
 * @param statements what became of the statements the source logged as text that were not applied: account management
 *     skipped, statements filtered out, triggers not created, definitions not translated
 */
public record LanesStats(
        Lanes.State state,
        double seconds,
        long transactions,
        long transactionsRead,
        long transactionsSkipped,
        long events,
        long rows,
        long sourceBytesRead,
        long sourceBytesTotal,
        String sourcePosition,
        String resumedFrom,
        long transactionsSkippedByErrorPolicy,
        EngineStats engine,
        StatementStats statements) {

    /** Committed transactions per second over {@link #seconds()}. */
    public double transactionsPerSecond() {
        return seconds <= 0 ? 0 : transactions / seconds;
    }

    /** Per-worker counters (empty before start). */
    public List<WorkerStats> workers() {
        return engine == null ? List.of() : engine.workers();
    }

    /** Fraction of the source consumed, 0..1, or -1 when the total is unknown. */
    public double sourceFraction() {
        if (sourceBytesTotal <= 0) {
            return -1;
        }
        return Math.min(1.0, (double) sourceBytesRead / sourceBytesTotal);
    }
}
