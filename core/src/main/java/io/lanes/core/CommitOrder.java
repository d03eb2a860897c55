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
     * <p>The cost: commits are serial, and a worker's batch (one target transaction) may only hold a transaction whose
     * every predecessor has committed or sits earlier in the same batch, so a batch is a run of <em>consecutive</em>
     * sequence numbers queued on one worker. When consecutive transactions go to different workers, each batch holds
     * one transaction and its commit cannot start before the previous transaction's commit has returned on another
     * worker: commits form a chain of round trips, at most {@code 1 / (commit latency + wake-up)} transactions per
     * second whatever the number of workers. Nothing sound lets one connection's commit overtake another's, so the
     * placement has to make the runs: {@link WritesetScheduler} sends up to {@link WritesetScheduler#DEFAULT_RUN_LENGTH}
     * transactions consecutive in source order to one worker under a commit order (each run one target commit, runs
     * applied in parallel), and {@link PartitionScheduler} keeps a schema's transactions on one worker. Use STRICT when
     * readers of the target must never see a state the source never had.
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
