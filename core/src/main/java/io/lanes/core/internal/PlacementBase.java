package io.lanes.core.internal;

import io.lanes.core.Placement;

/**
 * What every {@link Placement} filled in by a scheduler shares: the transaction's sequence number, the worker named (-1:
 * none), the barrier flag, and the rule that a transaction may only wait for earlier ones. Subclasses record the waits
 * ({@link #after}, {@link #afterAllUpTo}) their own way: the engine's request keeps them, the schedule simulation folds
 * them into depths. Reset and reused per transaction; confined to the thread calling the scheduler.
 */
public abstract class PlacementBase implements Placement {
    protected long seq;
    protected int worker;
    protected boolean barrier;

    /** Starts the placement of transaction {@code sequence}: no worker, no barrier. */
    protected void reset(long sequence) {
        seq = sequence;
        worker = -1;
        barrier = false;
    }

    /** The worker the scheduler named, -1 when none. */
    public final int worker() {
        return worker;
    }

    /** Whether the scheduler made it a barrier. */
    public final boolean isBarrier() {
        return barrier;
    }

    @Override
    public final long sequence() {
        return seq;
    }

    @Override
    public final Placement toWorker(int w) {
        if (w < 0) {
            throw new IllegalArgumentException("worker " + w);
        }
        worker = w;
        return this;
    }

    @Override
    public final Placement asBarrier() {
        barrier = true;
        return this;
    }

    /** @throws IllegalArgumentException when {@code s} is not earlier than this transaction */
    protected final void checkEarlier(long s) {
        if (s >= seq) {
            throw new IllegalArgumentException("transaction " + seq + " cannot wait for a later one, " + s);
        }
    }
}
