package io.lanes.core.internal;

import io.lanes.core.ApplyContext;
import java.util.function.IntPredicate;

/**
 * What a worker tells its applier about the transaction it hands over: the worker, the sequence number, the attempt,
 * whether it ends the batch and where in the batch it stands. One per worker, set before each apply and reused.
 *
 * <p>Confined to its worker's thread.
 */
final class WorkerApplyContext implements ApplyContext {
    private final int workerId;
    /** Answers {@link #dependsOnEarlierInBatch} on demand: most appliers never ask, so it costs them nothing. */
    private final IntPredicate dependsOnEarlierInBatch;
    private long seq;
    private int attempt;
    private boolean end;
    private int index;

    /** @param dependsOnEarlierInBatch given the index in the batch, whether that transaction waits for an earlier one */
    WorkerApplyContext(int workerId, IntPredicate dependsOnEarlierInBatch) {
        this.workerId = workerId;
        this.dependsOnEarlierInBatch = dependsOnEarlierInBatch;
    }

    void set(long seq, int attempt, boolean end, int index) {
        this.seq = seq;
        this.attempt = attempt;
        this.end = end;
        this.index = index;
    }

    @Override
    public int workerId() {
        return workerId;
    }

    @Override
    public long sequence() {
        return seq;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public boolean endOfBatch() {
        return end;
    }

    @Override
    public int indexInBatch() {
        return index;
    }

    @Override
    public boolean dependsOnEarlierInBatch() {
        return dependsOnEarlierInBatch.test(index);
    }
}
