package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StatsAndLifecycleTest {

    /** An applier that does nothing but can be told to block on a latch for one payload. */
    static class Blocking implements Applier<String> {
        static final ConcurrentHashMap<String, CountDownLatch> GATES = new ConcurrentHashMap<>();
        static final Set<Thread> THREADS = ConcurrentHashMap.newKeySet();

        @Override
        public void apply(Transaction<String> txn, ApplyContext ctx) throws Exception {
            THREADS.add(Thread.currentThread());
            CountDownLatch gate = GATES.get(txn.payload());
            if (gate != null) {
                assertTrue(gate.await(20, TimeUnit.SECONDS), "test gate never opened");
            }
        }

        @Override
        public void commit(Batch<String> batch, Checkpoint checkpoint) {
        }

        @Override
        public void rollback(Batch<String> batch) {
        }
    }

    private static Scheduler fixed(int... workerBySeq) {
        return new Scheduler() {
            @Override
            public void init(SchedulingContext context) {
            }

            @Override
            public void schedule(Transaction<?> txn, Placement placement) {
                placement.toWorker(workerBySeq[(int) placement.sequence()]);
                if (txn.payload().toString().startsWith("dep")) {
                    placement.after(placement.sequence() - 1);
                }
            }
        };
    }

    private static WorkerStats awaitState(Engine<?> e, int worker, WaitState state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        WorkerStats s;
        do {
            s = e.stats().workers().get(worker);
            if (s.state() == state) {
                return s;
            }
            Thread.sleep(1);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("worker " + worker + " never reached " + state + ": " + s);
    }

    @Test
    void waitStatesCarryMySqlNames() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Blocking.GATES.put("blocker", gate);
        try (Engine<String> e = Engine.builder(w -> new Blocking()).scheduler(fixed(0, 0, 1, 2)).workers(3)
                .commitOrder(CommitOrder.STRICT).commitOrderTimeout(Duration.ofSeconds(30)).build()) {
            e.start();
            e.submit(Transaction.builder("blocker").position("1").build());
            e.submit(Transaction.builder("dep-on-1").position("2").build());
            e.submit(Transaction.builder("independent").position("3").build());
            assertEquals("Applying transaction", awaitState(e, 0, WaitState.APPLYING).stateDescription());
            assertEquals("Waiting for dependent transaction to commit",
                    awaitState(e, 1, WaitState.WAITING_FOR_DEPENDENCY).stateDescription());
            assertEquals("Waiting for preceding transaction to commit",
                    awaitState(e, 2, WaitState.WAITING_FOR_COMMIT_ORDER).stateDescription());
            gate.countDown();
            assertTrue(e.awaitLowWaterMark(3, Duration.ofSeconds(10)));
            assertEquals("Waiting for an event from Coordinator", awaitState(e, 1, WaitState.IDLE).stateDescription());
            EngineStats s = e.stats();
            assertTrue(s.workers().get(1).waitingForDependencyNanos() > 0);
            assertTrue(s.workers().get(2).waitingForCommitOrderNanos() > 0);
            assertEquals(WaitState.WAITING_FOR_SOURCE, s.dispatcherState());
        } finally {
            Blocking.GATES.remove("blocker");
        }
    }

    @Test
    void countersAndListener() throws Exception {
        List<EngineStats> seen = new CopyOnWriteArrayList<>();
        ApplierFactory<String> slow = w -> new Blocking() {
            @Override
            public void apply(Transaction<String> txn, ApplyContext ctx) throws Exception {
                Thread.sleep(1);
            }
        };
        int n = 200;
        try (Engine<String> e = Engine.builder(slow).scheduler(new PartitionScheduler()).workers(4)
                .commitOrder(CommitOrder.NONE).statsListener(seen::add, Duration.ofMillis(20)).build()) {
            e.start();
            for (int i = 1; i <= n; i++) {
                e.submit(Transaction.builder("t" + i).position(Integer.toString(i)).partitionKey("s" + (i % 4))
                        .sizeBytes(100).barrier(i % 50 == 0).build());
            }
            assertTrue(e.awaitLowWaterMark(n, Duration.ofSeconds(20)));
            Thread.sleep(60);
            EngineStats s = e.stats();
            assertEquals(n, s.lowWaterMark());
            assertEquals(n, s.dispatched());
            assertEquals(n, s.committed());
            assertEquals(0, s.queuedTransactions());
            assertEquals(0, s.queuedBytes());
            assertEquals(4, s.barriers());
            assertEquals(n, s.workers().stream().mapToLong(WorkerStats::transactions).sum());
            assertEquals(100L * n, s.workers().stream().mapToLong(WorkerStats::bytes).sum());
            assertTrue(s.achievedParallelism() > 1.2, "4 partitions on 4 workers: " + s.achievedParallelism());
            for (WorkerStats w : s.workers()) {
                long accounted = w.idleNanos() + w.applyingNanos() + w.waitingForDependencyNanos()
                        + w.waitingForCommitOrderNanos() + w.retryingNanos();
                assertTrue(accounted > 0 && accounted <= s.uptimeNanos() + 50_000_000L, w + " vs " + s.uptimeNanos());
            }
        }
        assertTrue(seen.size() >= 2, "listener called " + seen.size() + " times");
        assertTrue(seen.get(seen.size() - 1).lowWaterMark() >= seen.get(0).lowWaterMark());
    }

    @Test
    void lifecycle() throws Exception {
        Engine<String> e = Engine.builder(w -> new Blocking()).workers(2).build();
        assertThrows(IllegalStateException.class, () -> e.submit(Transaction.builder("x").position("1").partitionKey("a")
                .build()));
        e.start();
        assertThrows(IllegalStateException.class, e::start);
        e.submit(Transaction.builder("x").position("1").partitionKey("a").build());
        e.stop();
        e.stop();
        e.close();
        assertEquals(1, e.lowWaterMark());
        assertThrows(IllegalStateException.class, () -> e.submit(Transaction.builder("y").position("2")
                .partitionKey("a").build()));
        e.abort();
    }

    @Test
    void zeroWorkersApplyOnTheDispatchingThread() throws Exception {
        Blocking.THREADS.clear();
        try (Engine<String> e = Engine.builder(w -> new Blocking()).workers(0).blockCommit(1).build()) {
            e.start();
            for (int i = 1; i <= 10; i++) {
                e.submit(Transaction.builder("t").position(Integer.toString(i)).partitionKey("a").build());
                assertEquals(i, e.lowWaterMark(), "a batch of one commits inside submit");
            }
        }
        assertEquals(Set.of(Thread.currentThread()), Set.copyOf(Blocking.THREADS));
    }

    @Test
    void injectedExecutorAndThreadFactory() throws Exception {
        AtomicInteger tasks = new AtomicInteger();
        ExecutorService pool = Executors.newCachedThreadPool();
        try (Engine<String> e = Engine.builder(w -> new Blocking()).workers(5).scheduler(fixed(0, 0, 1, 2, 3, 4))
                .executor(r -> {
                    tasks.incrementAndGet();
                    pool.execute(r);
                }).build()) {
            e.start();
            assertEquals(2, tasks.get(), "worker 0 and the checkpoint thread start with the engine");
            // Each worker starts when first given work.
            for (int i = 0; i < 5; i++) {
                e.submit(Transaction.builder("t").position(Integer.toString(i)).partitionKey("p" + i).build());
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(6, tasks.get(), "five workers and the checkpoint thread");

        Blocking.THREADS.clear();
        try (Engine<String> e = Engine.builder(w -> new Blocking()).workers(1).threadFactory(r -> new Thread(r, "mine"))
                .build()) {
            e.start();
            e.submit(Transaction.builder("t").position("1").partitionKey("a").build());
        }
        Thread worker = Blocking.THREADS.iterator().next();
        assertEquals("mine", worker.getName());
        assertSame(1, Blocking.THREADS.size());
    }

    @Test
    void anInterruptedSubmitLeavesTheEngineConsistent() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Blocking.GATES.put("slow", gate);
        try (Engine<String> e = Engine.builder(w -> new Blocking()).workers(2).checkpointGroupSize(4)
                .commitOrder(CommitOrder.NONE).build()) {
            e.start();
            e.submit(Transaction.builder("slow").position("1").partitionKey("a").build());
            for (int i = 2; i <= 4; i++) {
                e.submit(Transaction.builder("t").position(Integer.toString(i)).partitionKey("b").build());
            }
            Thread me = Thread.currentThread();
            Thread interrupter = new Thread(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (e.stats().dispatcherState() != WaitState.WAITING_FOR_CHECKPOINT_GROUP
                        && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                me.interrupt();
            });
            interrupter.start();
            assertThrows(InterruptedException.class,
                    () -> e.submit(Transaction.builder("t").position("5").partitionKey("b").build()));
            interrupter.join();
            assertEquals(4, e.lastSubmitted(), "the interrupted transaction was not dispatched");
            gate.countDown();
            assertEquals(5, e.submit(Transaction.builder("t").position("5").partitionKey("b").build()));
            assertTrue(e.awaitLowWaterMark(5, Duration.ofSeconds(10)));
        } finally {
            Blocking.GATES.remove("slow");
        }
    }

    @Test
    void aSchedulerPlacingOnAMissingWorkerIsRejectedWithoutLosingASequenceNumber() throws Exception {
        try (Engine<String> e = Engine.builder(w -> new Blocking()).workers(2).scheduler(fixed(0, 1, 7, 0)).build()) {
            e.start();
            assertEquals(1, e.submit(Transaction.builder("t").position("1").build()));
            assertThrows(IllegalStateException.class, () -> e.submit(Transaction.builder("t").position("2").build()));
            assertEquals(1, e.lastSubmitted());
        }
    }
}
