package io.lanes.core;

/** What the engine tells an {@link Applier} about one apply call. Owned by the worker and reused: valid during the call. */
public interface ApplyContext {
    /** The worker applying (0-based). */
    int workerId();

    /** The engine's sequence number of the transaction. */
    long sequence();

    /** 0 on the first attempt, then 1, 2, ... after failures or commit-order deadlocks rolled the batch back. */
    int attempt();

    /**
     * True when a commit follows this apply immediately (like the Disruptor's endOfBatch): flush statement batches. False
     * does not promise another apply before the commit (with 0 workers the dispatching thread may end its batch later,
     * on {@link Engine#flush()}): {@link Applier#commit} must flush too.
     */
    boolean endOfBatch();

    /** Position of this transaction in the current batch (0 for the first). */
    int indexInBatch();

    /**
     * True when this transaction depends, as its scheduler stated, on a transaction earlier in the same batch: applied,
     * not yet committed. An applier whose work takes effect only at commit (a sink acknowledging asynchronously) must
     * let that earlier work take effect first. Always false for the first transaction of a batch. This default, for
     * contexts other than the engine's, answers conservatively: true for every transaction after the first.
     */
    default boolean dependsOnEarlierInBatch() {
        return indexInBatch() > 0;
    }
}
