package io.lanes.core;

import java.util.List;

/**
 * The engine's counters at one instant. Immutable; taken by {@link Engine#stats()} or handed to a {@link StatsListener}.
 *
 * @param lowWaterMark every transaction at or below this sequence number has committed
 * @param dispatched sequence number of the last transaction submitted
 * @param queuedTransactions transactions dispatched and not yet committed
 * @param queuedBytes bytes of those transactions (counted against the budget)
 * @param achievedParallelism time all workers spent applying divided by the time since start: the average number of
 *     workers busy applying
 * @param barriers barrier transactions seen (own flag, scheduler decision, or larger than the budget)
 * @param retries batches rolled back and retried after a failure
 * @param commitOrderRetries batches rolled back after waiting too long for commit order (suspected commit-order deadlock)
 * @param skipped transactions skipped because recovery found them already applied
 * @param dispatcherState what the dispatching thread is doing
 */
public record EngineStats(
        long uptimeNanos,
        long lowWaterMark,
        long dispatched,
        long committed,
        long queuedTransactions,
        long queuedBytes,
        double achievedParallelism,
        long barriers,
        long retries,
        long commitOrderRetries,
        long skipped,
        WaitState dispatcherState,
        List<WorkerStats> workers) {
}
