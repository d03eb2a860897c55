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
 * @param rowsApplied row changes of the transactions this run applied up to the low-water mark (a transaction
 *     committed beyond it is counted once the mark passes it)
 * @param lastAppliedSourceMillis the source commit time (epoch milliseconds; the binlog's second resolution) of the last
 *     transaction this run applied up to the low-water mark, -1 before any
 * @param appliedPosition the source position after that transaction, null before any
 * @param sourceLagSeconds seconds the target is behind the source now, as MySQL's Seconds_Behind_Source: now minus the
 *     source commit time of the oldest transaction read and not yet committed; 0 when caught up with a source heard
 *     from within twice its heartbeat period (a live source idle for longer counts from its last sign of life); NaN
 *     when nothing tells yet. Assumes the source's clock and this one agree (NTP)
 * @param sourceEndPosition a live source's binlog end ({@code file:position}) when last asked (every
 *     {@code lanes.source.status-interval-seconds}), null for files or when unknown
 * @param sourceBehindBytes binlog bytes between {@code appliedPosition} (or the position resumed from) and that end,
 *     -1 when unknown (files, the question refused, or the position's file no longer on the server)
 * @param statements what became of the statements the source logged as text that were not applied: account management
 *     skipped, statements filtered out, triggers not created, definitions not translated
 * @param largeTransactions transactions handed to the engine as large ({@code lanes.large-transaction-bytes}): each ran
 *     alone and was converted while its worker applied it
 * @param spilledTransactions transactions read whose row images beyond {@code lanes.spill-threshold-bytes} waited in a
 *     temporary file until their worker converted them
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
        long rowsApplied,
        long lastAppliedSourceMillis,
        String appliedPosition,
        double sourceLagSeconds,
        String sourceEndPosition,
        long sourceBehindBytes,
        StatementStats statements,
        long largeTransactions,
        long spilledTransactions) {

    /** One line for logs: committed transactions and seconds. */
    String summary() {
        return transactions + " transactions in " + String.format(java.util.Locale.ROOT, "%.3f", seconds) + " s";
    }

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

    /** The counters of a pipeline that never started (or whose start failed). */
    static LanesStats notStarted(Lanes.State state, LanesConfig config) {
        return of(state, 0, config.engine.workers() == 0, null, null, null, new PipelineProgress().snapshot(0,
                config.sourceClient != null, false, null, null, null), 0,
                new io.lanes.applier.internal.StatementCounters().snapshot(null));
    }

    /** The counters of a running or stopped pipeline, each read once. */
    static LanesStats of(Lanes.State state, double seconds, boolean inline, Pipeline p, EngineStats es,
            String resumedAfter, PipelineProgress.Snapshot progress, long skippedByErrorPolicy,
            StatementStats statements) {
        long read = p == null ? 0 : p.transactionsRead();
        long committed = es == null ? 0 : es.committed();
        if (es != null && inline) {
            // Without workers everything submitted is committed when submit returns.
            committed = Math.max(committed, read);
        }
        return new LanesStats(state, seconds, committed, read, p == null ? 0 : p.transactionsSkipped(),
                p == null ? 0 : p.events(), p == null ? 0 : p.rows(), p == null ? 0 : p.sourceBytesRead(),
                p == null ? -1 : p.sourceBytesTotal(), p == null ? null : p.sourcePosition(), resumedAfter,
                skippedByErrorPolicy, es, progress.rowsApplied(), progress.lastAppliedSourceMillis(),
                progress.appliedPosition(), progress.lagSeconds(), progress.sourceEndPosition(),
                progress.sourceBehindBytes(), statements, p == null ? 0 : p.largeTransactions(),
                p == null ? 0 : p.spilledTransactions());
    }
}
