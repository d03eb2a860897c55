package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Retries, then a clean stop naming the failing transaction, then an exact resume. */
class FailureTest {

    /** A tiny transactional target: per-worker pending list, commit publishes data and checkpoint together. */
    static final class Target implements CheckpointStore {
        final Map<Long, Integer> appliedCount = new ConcurrentHashMap<>();
        final Map<Integer, Checkpoint> rows = new HashMap<>();
        Checkpoint lwm;
        final Map<Integer, Checkpoint> staged = new ConcurrentHashMap<>();
        volatile long poison = -1;
        volatile int transientFailures;
        final AtomicInteger failuresThrown = new AtomicInteger();

        Applier<Long> applier(int worker) {
            List<Long> pending = new ArrayList<>();
            return new Applier<>() {
                @Override
                public void apply(Transaction<Long> txn, ApplyContext ctx) {
                    if (txn.payload() == poison) {
                        failuresThrown.incrementAndGet();
                        throw new IllegalArgumentException("poison " + txn.payload());
                    }
                    if (txn.payload() == 7 && failuresThrown.get() < transientFailures) {
                        failuresThrown.incrementAndGet();
                        throw new IllegalStateException("deadlock found when trying to get lock; try restarting");
                    }
                    pending.add(txn.payload());
                }

                @Override
                public void commit(Batch<Long> batch, Checkpoint checkpoint) {
                    synchronized (Target.this) {
                        for (long p : pending) {
                            appliedCount.merge(p, 1, Integer::sum);
                        }
                        rows.put(worker, staged.remove(worker));
                    }
                    pending.clear();
                }

                @Override
                public void rollback(Batch<Long> batch) {
                    pending.clear();
                    staged.remove(worker);
                }
            };
        }

        @Override
        public synchronized Collection<Checkpoint> load() {
            List<Checkpoint> all = new ArrayList<>(rows.values());
            if (lwm != null) {
                all.add(lwm);
            }
            return all;
        }

        @Override
        public void saveWorkerCheckpoint(Checkpoint checkpoint) {
            staged.put(checkpoint.workerId(), checkpoint);
        }

        @Override
        public synchronized void saveLowWaterMark(Checkpoint checkpoint) {
            lwm = checkpoint;
        }
    }

    private static Engine<Long> engine(Target t, int workers) {
        return Engine.builder(t::applier).scheduler(new PartitionScheduler()).workers(workers)
                .commitOrder(CommitOrder.STRICT).checkpointStore(t).retries(3)
                .retryBackoff(Duration.ofMillis(1), Duration.ofMillis(2)).build();
    }

    private static Transaction<Long> txn(long i) {
        return Transaction.builder(i).position("pos-" + i).partitionKey("s" + (i % 3)).build();
    }

    @Test
    void transientFailuresAreRetried() throws Exception {
        Target t = new Target();
        t.transientFailures = 2;
        try (Engine<Long> e = engine(t, 3)) {
            e.start();
            for (long i = 1; i <= 20; i++) {
                e.submit(txn(i));
            }
            assertTrue(e.awaitLowWaterMark(20, Duration.ofSeconds(10)));
            assertEquals(2, e.stats().retries());
        }
        for (long i = 1; i <= 20; i++) {
            assertEquals(1, t.appliedCount.get(i), "txn " + i);
        }
    }

    @Test
    void persistentFailureStopsCleanlyNamingTheTransactionAndRecoveryResumesExactly() throws Exception {
        Target t = new Target();
        t.poison = 12;
        Engine<Long> e = engine(t, 3);
        e.start();
        ApplierFailedException failure = assertThrows(ApplierFailedException.class, () -> {
            for (long i = 1; i <= 200; i++) {
                e.submit(txn(i));
            }
            e.stop();
        });
        assertEquals(12, failure.failedSequence());
        assertEquals("pos-12", failure.failedPosition());
        assertEquals(11, failure.lowWaterMark(), "STRICT: everything before the failing transaction committed");
        assertEquals(4, t.failuresThrown.get(), "first attempt plus three retries");
        assertThrows(ApplierFailedException.class, e::stop, "stop keeps reporting the failure");
        assertEquals(11, t.lwm.lowWaterMark(), "the final low-water mark was saved");
        assertEquals("pos-11", t.lwm.position());

        t.poison = -1; // the operator fixed the cause
        long[] before = t.appliedCount.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        try (Engine<Long> resumed = engine(t, 5)) {
            RecoveryPoint rp = resumed.start();
            assertEquals(11, rp.lowWaterMark());
            assertEquals("pos-11", rp.position());
            for (long i = rp.nextSequence(); i <= 200; i++) {
                assertEquals(i, resumed.submit(txn(i)));
            }
        }
        assertArrayEquals(java.util.stream.LongStream.rangeClosed(1, 11).toArray(), before);
        for (long i = 1; i <= 200; i++) {
            assertEquals(1, t.appliedCount.get(i), "txn " + i);
        }
    }

    /**
     * A batch that fails on its second transaction: the first, rolled back with it, is applied again and committed
     * before the engine stops, so the target holds everything before the failing transaction (not a prefix that
     * depends on whether they happened to share a batch).
     */
    @Test
    void theTransactionsBeforeTheFailingOneInItsBatchAreCommittedBeforeTheEngineStops() throws Exception {
        Target t = new Target();
        t.poison = 3;
        java.util.concurrent.CountDownLatch queued = new java.util.concurrent.CountDownLatch(1);
        Engine<Long> e = Engine.<Long>builder(w -> {
            Applier<Long> inner = t.applier(w);
            return new Applier<>() {
                @Override
                public void apply(Transaction<Long> txn, ApplyContext ctx) throws Exception {
                    if (txn.payload() == 1) {
                        // Holds the worker until 2 and 3 are queued, so that they are taken together as one batch.
                        assertTrue(queued.await(30, java.util.concurrent.TimeUnit.SECONDS));
                    }
                    inner.apply(txn, ctx);
                }

                @Override
                public void commit(Batch<Long> batch, Checkpoint checkpoint) throws Exception {
                    inner.commit(batch, checkpoint);
                }

                @Override
                public void rollback(Batch<Long> batch) throws Exception {
                    inner.rollback(batch);
                }
            };
        }).scheduler(new SequentialScheduler()).workers(1).commitOrder(CommitOrder.STRICT).checkpointStore(t)
                .retries(1).retryBackoff(Duration.ofMillis(1), Duration.ofMillis(2)).build();
        e.start();
        e.submit(txn(1));
        e.submit(txn(2));
        e.submit(txn(3));
        queued.countDown();
        ApplierFailedException failure = assertThrows(ApplierFailedException.class, e::stop);
        assertEquals(3, failure.failedSequence());
        assertEquals(2, failure.lowWaterMark(), "the transaction before the failing one committed");
        assertEquals(1, t.appliedCount.get(1L));
        assertEquals(1, t.appliedCount.get(2L));
        assertEquals(null, t.appliedCount.get(3L));
        assertEquals(2, t.lwm.lowWaterMark(), "and the saved low-water mark says so");
    }

    /**
     * A failure raised at the commit of a batch (an applier that defers its writes, as a JDBC batch does) names no
     * transaction of the batch: the engine applies the batch again one transaction at a time, each committed alone,
     * and stops at the one that fails again, with everything before it committed. Before, it blamed the batch's first
     * transaction and committed nothing.
     */
    @Test
    void aFailureAtTheCommitOfABatchIsPinnedToItsTransactionWithTheOnesBeforeItCommitted() throws Exception {
        java.util.Set<Long> committed = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.CountDownLatch queued = new java.util.concurrent.CountDownLatch(1);
        Engine<Long> e = Engine.<Long>builder(w -> new Applier<>() {
            private final java.util.List<Long> pending = new java.util.ArrayList<>();

            @Override
            public void apply(Transaction<Long> txn, ApplyContext ctx) throws Exception {
                if (txn.payload() == 1) {
                    // Holds the worker until 2, 3 and 4 are queued, so that they are taken together as one batch.
                    assertTrue(queued.await(30, java.util.concurrent.TimeUnit.SECONDS));
                }
                pending.add(txn.payload());
            }

            @Override
            public void commit(Batch<Long> batch, Checkpoint checkpoint) {
                if (pending.contains(3L)) {
                    pending.clear();
                    throw new IllegalStateException("duplicate key in transaction 3, found at commit");
                }
                committed.addAll(pending);
                pending.clear();
            }

            @Override
            public void rollback(Batch<Long> batch) {
                pending.clear();
            }

            @Override
            public boolean isRetryable(Throwable failure) {
                return false;
            }
        }).scheduler(new SequentialScheduler()).workers(1).commitOrder(CommitOrder.STRICT).build();
        e.start();
        for (long i = 1; i <= 4; i++) {
            e.submit(txn(i));
        }
        queued.countDown();
        ApplierFailedException failure = assertThrows(ApplierFailedException.class, e::stop);
        assertEquals(3, failure.failedSequence(), failure.getMessage());
        assertEquals(2, failure.lowWaterMark(), "the transactions before the failing one committed");
        assertEquals(java.util.Set.of(1L, 2L), committed);
        assertTrue(failure.getMessage().contains("duplicate key in transaction 3")
                || String.valueOf(failure.getCause()).contains("duplicate key in transaction 3"), failure.toString());
    }

    @Test
    void anApplierThatCannotBeCreatedFailsStart() {
        Engine<Long> e = Engine.<Long>builder(w -> {
            throw new java.io.IOException("connection refused");
        }).workers(4).build();
        ApplierFailedException f = assertThrows(ApplierFailedException.class, e::start);
        assertEquals(0, f.workerId(), "worker 0 starts with the engine, so an unreachable target fails start");
        assertEquals(-1, f.failedSequence());
        e.abort();
    }

    /** Workers other than the first start when first given work; one whose applier cannot be made stops the engine. */
    @Test
    void aLaterWorkerWhoseApplierCannotBeCreatedStopsTheEngine() throws Exception {
        Target t = new Target();
        Scheduler toWorker2After5 = new Scheduler() {
            @Override
            public void init(SchedulingContext context) {
            }

            @Override
            public void schedule(Transaction<?> txn, Placement placement) {
                placement.toWorker((Long) txn.payload() <= 5 ? 0 : 2);
                placement.afterAllUpTo(placement.sequence() - 1);
            }
        };
        AtomicInteger created = new AtomicInteger();
        Engine<Long> e = Engine.<Long>builder(w -> {
            created.incrementAndGet();
            if (w == 2) {
                throw new java.io.IOException("too many connections");
            }
            return t.applier(w);
        }).workers(4).scheduler(toWorker2After5).checkpointStore(t).build();
        e.start();
        assertEquals(1, created.get(), "only worker 0 starts with the engine");
        for (long i = 1; i <= 5; i++) {
            e.submit(txn(i));
        }
        assertTrue(e.awaitLowWaterMark(5, Duration.ofSeconds(30)));
        ApplierFailedException f = assertThrows(ApplierFailedException.class, () -> {
            for (long i = 6; i <= 10_000; i++) {
                e.submit(txn(i));
                Thread.sleep(1);
            }
            e.stop();
        });
        assertEquals(2, f.workerId());
        e.abort();
        for (long i = 1; i <= 5; i++) {
            assertEquals(1, t.appliedCount.get(i), "txn " + i);
        }
        assertEquals(5, t.appliedCount.size(), "nothing placed on the worker that never started was applied");
    }
}
