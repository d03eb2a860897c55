package io.lanes.core;

/**
 * One worker's counters at one instant. Immutable. Times are cumulative nanoseconds since the worker started, split by
 * what the worker was doing; they add up to the worker's lifetime.
 *
 * @param workerId the worker's index, 0-based
 * @param transactions transactions this worker committed
 * @param bytes bytes ({@link Transaction#sizeBytes()}) of those transactions
 * @param commits target commits (one commits a batch of up to the block-commit size)
 * @param queuedTransactions transactions dispatched to this worker and not yet committed
 * @param state what the worker is doing now
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

    /** The states a worker's time is split into ({@link #nanosIn}), in the order of the fields. */
    public static final java.util.List<WaitState> TIMED_STATES = java.util.List.of(WaitState.IDLE, WaitState.APPLYING,
            WaitState.WAITING_FOR_DEPENDENCY, WaitState.WAITING_FOR_COMMIT_ORDER, WaitState.RETRYING);

    /** Cumulative nanoseconds in {@code state}: one of {@link #TIMED_STATES}, else 0 (a worker is never in it). */
    public long nanosIn(WaitState state) {
        return switch (state) {
            case IDLE -> idleNanos;
            case APPLYING -> applyingNanos;
            case WAITING_FOR_DEPENDENCY -> waitingForDependencyNanos;
            case WAITING_FOR_COMMIT_ORDER -> waitingForCommitOrderNanos;
            case RETRYING -> retryingNanos;
            default -> 0;
        };
    }

    /** The MySQL-style name of {@link #state()}. */
    public String stateDescription() {
        return state.description();
    }
}
