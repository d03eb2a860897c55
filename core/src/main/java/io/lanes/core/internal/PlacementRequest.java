package io.lanes.core.internal;

import io.lanes.core.Placement;
import java.util.Arrays;

/**
 * The one placement request the dispatching thread fills in per transaction through the scheduler (worker, waits,
 * barrier), reset and reused for the next: the {@link Placement} a {@link io.lanes.core.Scheduler} sees.
 *
 * <p>Dispatching thread only.
 */
final class PlacementRequest extends PlacementBase {
    long afterAllUpTo;
    long[] deps = new long[8];
    int depCount;

    @Override
    protected void reset(long s) {
        super.reset(s);
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
    public Placement after(long s) {
        checkEarlier(s);
        // The same wait given again in a row (a scheduler reporting one per key) is kept once.
        if (s > 0 && s > afterAllUpTo && (depCount == 0 || deps[depCount - 1] != s)) {
            if (depCount == deps.length) {
                deps = Arrays.copyOf(deps, depCount * 2);
            }
            deps[depCount++] = s;
        }
        return this;
    }

    @Override
    public Placement afterAllUpTo(long s) {
        checkEarlier(s);
        afterAllUpTo = Math.max(afterAllUpTo, s);
        return this;
    }
}
