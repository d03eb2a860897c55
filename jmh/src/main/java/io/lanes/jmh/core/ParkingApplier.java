package io.lanes.jmh.core;

import io.lanes.core.Applier;
import io.lanes.core.ApplyContext;
import io.lanes.core.Batch;
import io.lanes.core.Checkpoint;
import io.lanes.core.Transaction;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine benchmarks' applier: each apply parks for a fixed time, like a round trip to a database (0: returns at
 * once); commit and rollback do nothing. One instance per worker, called by that worker only.
 */
final class ParkingApplier implements Applier<Object> {
    private final long nanos;

    ParkingApplier(long nanos) {
        this.nanos = nanos;
    }

    @Override
    public void apply(Transaction<Object> txn, ApplyContext context) {
        if (nanos == 0) {
            return;
        }
        long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    @Override
    public void commit(Batch<Object> batch, Checkpoint checkpoint) {
    }

    @Override
    public void rollback(Batch<Object> batch) {
    }
}
