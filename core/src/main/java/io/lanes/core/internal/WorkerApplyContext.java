package io.lanes.core.internal;

import io.lanes.core.ApplyContext;

/**
 * What a worker tells its applier about the transaction it hands over: the worker, the sequence number, the attempt,
 * whether it ends the batch and where in the batch it stands. One per worker, set before each apply and reused.
 *
 * <p>Confined to its worker's thread.
 */
final class WorkerApplyContext implements ApplyContext {
    private final int workerId;
    private long seq;
    private int attempt;
    private boolean end;
    private int index;
    private boolean dependsOnBatch;

    WorkerApplyContext(int workerId) {
        this.workerId = workerId;
    }

    void set(long seq, int attempt, boolean end, int index, boolean dependsOnBatch) {
        this.seq = seq;
        this.attempt = attempt;
        this.end = end;
        this.index = index;
        this.dependsOnBatch = dependsOnBatch;
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
        return dependsOnBatch;
    }
}
