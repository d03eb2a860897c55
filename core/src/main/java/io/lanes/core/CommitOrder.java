package io.lanes.core;

/**
 * In which order the workers commit. Whatever the mode, a transaction never starts before the transactions it depends on
 * (as its {@link Scheduler} says) have committed.
 */
public enum CommitOrder {
    /**
     * Commit in source order, like MySQL's {@code replica_preserve_commit_order=ON}: the target never shows a state the
     * source did not have. Transactions still apply in parallel; only their commits wait.
     *
     * <p>The cost: commits are serial, and block commit mostly disappears. A worker's batch (one target transaction) may
     * only hold a transaction whose every predecessor has committed or sits earlier in the same batch, so a batch is a
     * run of <em>consecutive</em> sequence numbers queued on one worker. Whenever consecutive transactions go to
     * different workers (the normal case once work is spread: e.g. schemas interleaved in the source), each batch holds
     * one transaction and its commit cannot start before the previous transaction's commit has returned on another
     * worker and that worker has woken this one. Commits then form a chain of round trips: throughput is at most
     * {@code 1 / (commit latency + wake-up)} whatever the number of workers, e.g. about 1,000 transactions/s against a
     * target that syncs each commit in 1 ms, against up to {@code blockCommit} transactions per sync per
     * worker with {@link #PER_PARTITION} or {@link #NONE}. Nothing sound avoids this over independent connections: a
     * batch holding non-consecutive transactions would either commit before an earlier transaction of another
     * connection (breaking the order) or wait for it while holding row locks that the earlier transaction may need
     * (a deadlock). Use STRICT when readers of the target must never see a state the source never had; otherwise
     * {@link #PER_PARTITION} keeps each schema's order with block commit.
     */
    STRICT,
    /**
     * Commit in source order within each partition key (schema): transactions sharing a partition key commit in source
     * order; a transaction without partition keys commits after every transaction before it.
     */
    PER_PARTITION,
    /** No order beyond the dependencies: the fastest, and the target may briefly show states the source never had. */
    NONE
}
