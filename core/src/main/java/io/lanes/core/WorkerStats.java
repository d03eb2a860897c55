package io.lanes.core;

/**
 * One worker's counters at one instant. Immutable. Times are cumulative nanoseconds since the worker started, split by
 * what the worker was doing; they add up to the worker's lifetime.
 */
public record WorkerStats(
        int workerId,
        long transactions,
        long bytes,
        long commits,
        long idleNanos,
        long applyingNanos,
        long waitingForDependencyNanos,
        long waitingForCommitOrderNanos,
        long retryingNanos,
        int queuedTransactions,
        WaitState state) {

    /** The MySQL-style name of {@link #state()}. */
    public String stateDescription() {
        return state.description();
    }
}
