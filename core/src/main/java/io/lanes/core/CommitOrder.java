package io.lanes.core;

/**
 * In which order the workers commit. Whatever the mode, a transaction never starts before the transactions it depends on
 * (as its {@link Scheduler} says) have committed.
 */
public enum CommitOrder {
    /**
     * Commit in source order, like MySQL's {@code replica_preserve_commit_order=ON}: the target never shows a state the
     * source did not have. Transactions still apply in parallel; only their commits wait.
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
