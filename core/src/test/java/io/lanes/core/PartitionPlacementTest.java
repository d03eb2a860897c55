package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Partition keys with slow applies spread over the workers, one active key per worker while a worker is free, and keep
 * their worker (affinity): 10 schemas on 10 workers use all 10 (before, placement packed two schemas on some workers
 * while others applied nothing).
 */
class PartitionPlacementTest {

    @Test
    void tenSlowKeysOnTenWorkersUseTenDistinctWorkers() throws Exception {
        int keys = 10;
        int rounds = 10;
        // The first round's applies wait until every key has been dispatched, so all ten keys are new and active
        // together when placed: each must get a worker of its own.
        CountDownLatch allDispatched = new CountDownLatch(1);
        Applier<Integer> slow = new Applier<>() {
            @Override
            public void apply(Transaction<Integer> txn, ApplyContext ctx) throws Exception {
                if (txn.payload() < keys) {
                    assertTrue(allDispatched.await(60, TimeUnit.SECONDS), "the test never released the first round");
                }
                LockSupport.parkNanos(300_000); // like a round trip to a database: far above the packing threshold
            }

            @Override
            public void commit(Batch<Integer> batch, Checkpoint checkpoint) {
            }

            @Override
            public void rollback(Batch<Integer> batch) {
            }
        };
        try (Engine<Integer> e = Engine.builder(w -> slow).scheduler(new PartitionScheduler()).workers(keys)
                .commitOrder(CommitOrder.PER_PARTITION).build()) {
            e.start();
            for (int round = 0; round < rounds; round++) {
                long last = 0;
                for (int k = 0; k < keys; k++) {
                    int i = round * keys + k;
                    last = e.submit(Transaction.builder(i).position(Integer.toString(i)).partitionKey("sbtest" + k)
                            .build());
                }
                allDispatched.countDown();
                // Every key idle between rounds: it must come back to its own worker (affinity), not to the worker
                // chosen last nor to another key's.
                assertTrue(e.awaitLowWaterMark(last, Duration.ofSeconds(60)), "stalled at " + e.stats());
                // The low-water mark moves at the commit; a worker drops its in-flight count just after. On a loaded
                // machine a worker can be descheduled in between, and its key, not yet idle, would rightly go to
                // another worker: wait until every worker is idle, which is what this test means by "between rounds".
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!e.stats().workers().stream().allMatch(w -> w.queuedTransactions() == 0
                        && w.state() == WaitState.IDLE)) {
                    assertTrue(System.nanoTime() < deadline, "workers not idle: " + e.stats().workers());
                    LockSupport.parkNanos(100_000);
                }
            }
            List<WorkerStats> workers = e.stats().workers();
            for (WorkerStats w : workers) {
                assertEquals(rounds, w.transactions(), "each key on a worker of its own: " + workers);
            }
        }
    }
}
