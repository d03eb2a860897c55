package io.lanes.core;

import java.util.List;

/**
 * The engine's counters at one instant. Immutable; taken by {@link Engine#stats()} or handed to a {@link StatsListener}.
 *
 * @param uptimeNanos nanoseconds since the engine started
 * @param lowWaterMark every transaction at or below this sequence number has committed
 * @param dispatched sequence number of the last transaction submitted
 * @param committed transactions the workers committed (each worker's {@link WorkerStats#transactions()} summed)
 * @param queuedTransactions transactions dispatched and not yet committed
 * @param queuedBytes bytes of those transactions (counted against the budget)
 * @param achievedParallelism time all workers spent applying divided by the time since start: the average number of
 *     workers busy applying
 * @param barriers barrier transactions seen (own flag, scheduler decision, or larger than the budget)
 * @param retries batches rolled back and retried after a failure
 * @param commitOrderRetries batches rolled back after waiting too long for commit order (suspected commit-order deadlock)
 * @param skipped transactions skipped because recovery found them already applied
 * @param dispatcherState what the dispatching thread is doing
 * @param workers each worker's counters, by worker id
 * @param commitOrderDeadlocksBroken commit-order deadlocks broken: a later transaction, its worker in
 *     {@link WaitState#WAITING_FOR_COMMIT_ORDER} ("Waiting for preceding transaction to commit"), held a lock in the
 *     target that an earlier transaction's worker, in {@link WaitState#APPLYING}, waited for; the target's lock views
 *     ({@link Applier#sessionsWaitingForThis()}) showed it, and the later batch was rolled back at once so that the
 *     earlier one could commit first, then applied again. Deadlocks the lock views could not show and that the
 *     commit-order timeout broke instead are {@code commitOrderRetries}
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
        List<WorkerStats> workers,
        long commitOrderDeadlocksBroken) {

    public EngineStats {
        workers = List.copyOf(workers);
    }

    /** Bytes of the transactions all workers committed ({@link WorkerStats#bytes()} summed). */
    public long bytesApplied() {
        long sum = 0;
        for (WorkerStats w : workers) {
            sum += w.bytes();
        }
        return sum;
    }

    /** Target commits of all workers. */
    public long commits() {
        long sum = 0;
        for (WorkerStats w : workers) {
            sum += w.commits();
        }
        return sum;
    }
}
