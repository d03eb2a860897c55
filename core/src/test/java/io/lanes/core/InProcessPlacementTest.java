package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Work declared to apply on this process's processors ({@link ApplierFactory#appliesInProcess()}: an embedded database,
 * a computing sink) stays on at most the processors less one of the configured workers, whatever their number; the
 * others never start. The same slow work not so declared spreads over every worker (PartitionPlacementTest).
 */
class InProcessPlacementTest {
    private static final int HOT = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);

    @Test
    void inProcessWorkStaysOnTheProcessorsWorkersUnderThePartitionScheduler() throws Exception {
        runTenKeys(new PartitionScheduler(), true);
    }

    @Test
    void inProcessWorkStaysOnTheProcessorsWorkersUnderTheWritesetScheduler() throws Exception {
        runTenKeys(new WritesetScheduler(), true);
    }

    @Test
    void theSameWorkNotDeclaredInProcessSpreads() throws Exception {
        runTenKeys(new PartitionScheduler(), false);
    }

    private static void runTenKeys(Scheduler scheduler, boolean inProcess) throws Exception {
        int keys = 10;
        int perKey = 20;
        Set<Integer> created = ConcurrentHashMap.newKeySet();
        ApplierFactory<Integer> plain = workerId -> {
            created.add(workerId);
            return new Applier<>() {
                @Override
                public void apply(Transaction<Integer> txn, ApplyContext ctx) {
                    LockSupport.parkNanos(200_000); // slow enough to spread when not declared in process
                }

                @Override
                public void commit(Batch<Integer> batch, Checkpoint checkpoint) {
                }

                @Override
                public void rollback(Batch<Integer> batch) {
                }
            };
        };
        ApplierFactory<Integer> factory = inProcess ? ApplierFactory.inProcess(plain) : plain;
        assertEquals(inProcess, factory.appliesInProcess());
        try (Engine<Integer> e = Engine.builder(factory).scheduler(scheduler).workers(keys)
                .commitOrder(CommitOrder.PER_PARTITION).build()) {
            e.start();
            long last = 0;
            for (int i = 0; i < keys * perKey; i++) {
                int k = i % keys;
                Transaction.Builder<Integer> t = Transaction.builder(i).position(Integer.toString(i)).partitionKey("t" + k);
                last = e.submit(t.writeKeys(k).build());
            }
            assertTrue(e.awaitLowWaterMark(last, Duration.ofSeconds(60)), "stalled at " + e.stats());
            List<WorkerStats> workers = e.stats().workers();
            long used = workers.stream().filter(w -> w.transactions() > 0).count();
            assertEquals(keys * perKey, workers.stream().mapToLong(WorkerStats::transactions).sum());
            if (inProcess) {
                assertTrue(used <= HOT, "in-process work on " + used + " workers, at most " + HOT + ": " + workers);
                assertTrue(created.stream().allMatch(w -> w < HOT), "appliers created for workers " + created);
            } else {
                assertTrue(used > Math.min(HOT, keys - 1), "slow work on only " + used + " workers: " + workers);
            }
        }
    }
}
