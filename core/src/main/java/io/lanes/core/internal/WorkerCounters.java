package io.lanes.core.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * The engine-wide counts of what the workers had to do again: retried batches, commit-order waits that gave up, and
 * commit-order deadlocks broken. One per engine, shared by its workers.
 *
 * <p>Threads: the workers count (any number at once); {@link EngineRuntime#stats} reads the sums from any thread.
 */
final class WorkerCounters {
    private final LongAdder retries = new LongAdder();
    private final LongAdder commitOrderRetries = new LongAdder();
    private final LongAdder commitOrderDeadlocksBroken = new LongAdder();

    /** A batch failed and is applied again. */
    void retried() {
        retries.increment();
    }

    /** A commit-order wait ran past the commit-order timeout: the later batch was rolled back and is applied again. */
    void commitOrderRetried() {
        commitOrderRetries.increment();
    }

    /** A commit-order deadlock seen in the target's lock views was broken by rolling the later batch back. */
    void commitOrderDeadlockBroken() {
        commitOrderDeadlocksBroken.increment();
    }

    long retries() {
        return retries.sum();
    }

    long commitOrderRetries() {
        return commitOrderRetries.sum();
    }

    long commitOrderDeadlocksBroken() {
        return commitOrderDeadlocksBroken.sum();
    }
}
