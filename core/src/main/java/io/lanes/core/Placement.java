package io.lanes.core;

/**
 * The decision a {@link Scheduler} records for one transaction. Owned by the engine and reused: valid only during the
 * {@link Scheduler#schedule} call it is passed to. Dependencies on transactions that already committed are dropped.
 */
public interface Placement {
    /** The sequence number the engine assigned to the transaction being placed. */
    long sequence();

    /**
     * Runs the transaction on this worker (0-based). Without this call the engine picks one with
     * {@link SchedulingContext#leastLoadedWorker()}.
     */
    Placement toWorker(int worker);

    /** The transaction must not start before the transaction with sequence number {@code sequence} has committed. */
    Placement after(long sequence);

    /** The transaction must not start before every transaction with a sequence number up to {@code sequence} committed. */
    Placement afterAllUpTo(long sequence);

    /** Makes the transaction a barrier: it starts after all before it committed and all after it wait for its commit. */
    Placement asBarrier();
}
