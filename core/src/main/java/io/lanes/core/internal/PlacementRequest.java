package io.lanes.core.internal;

import io.lanes.core.Placement;
import java.util.Arrays;

/**
 * The one placement request the dispatching thread fills in per transaction through the scheduler (worker, waits,
 * barrier), reset and reused for the next: the {@link Placement} a {@link io.lanes.core.Scheduler} sees.
 *
 * <p>Dispatching thread only.
 */
final class PlacementRequest implements Placement {
    long seq;
    int worker;
    boolean barrier;
    long afterAllUpTo;
    long[] deps = new long[8];
    int depCount;

    void reset(long s) {
        seq = s;
        worker = -1;
        barrier = false;
        afterAllUpTo = 0;
        depCount = 0;
    }

    long[] dependencies(InFlightWindow w) {
        int n = 0;
        for (int i = 0; i < depCount; i++) {
            if (!w.isCommitted(deps[i])) {
                deps[n++] = deps[i];
            }
        }
        return n == 0 ? Task.NONE : Arrays.copyOf(deps, n);
    }

    @Override
    public long sequence() {
        return seq;
    }

    @Override
    public Placement toWorker(int w) {
        if (w < 0) {
            throw new IllegalArgumentException("worker " + w);
        }
        worker = w;
        return this;
    }

    @Override
    public Placement after(long s) {
        if (s >= seq) {
            throw new IllegalArgumentException("transaction " + seq + " cannot wait for a later one, " + s);
        }
        if (s > 0 && s > afterAllUpTo) {
            if (depCount == deps.length) {
                deps = Arrays.copyOf(deps, depCount * 2);
            }
            deps[depCount++] = s;
        }
        return this;
    }

    @Override
    public Placement afterAllUpTo(long s) {
        if (s >= seq) {
            throw new IllegalArgumentException("transaction " + seq + " cannot wait for a later one, " + s);
        }
        afterAllUpTo = Math.max(afterAllUpTo, s);
        return this;
    }

    @Override
    public Placement asBarrier() {
        barrier = true;
        return this;
    }
}
