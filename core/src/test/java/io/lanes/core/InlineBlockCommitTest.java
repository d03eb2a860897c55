package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * With 0 workers the dispatching thread keeps a block-commit batch open across submits: one target commit per
 * {@code blockCommit} transactions rather than per transaction, committed on flush, barrier, checkpoint-group
 * window, budget, period, awaitLowWaterMark and stop; aborted batches are rolled back and recovered exactly.
 */
class InlineBlockCommitTest {

    /** Records every commit's size and the checkpoints, on whichever thread calls it. */
    static final class Recording implements Applier<String> {
        final List<Integer> commits = new CopyOnWriteArrayList<>();
        final List<String> committed = new CopyOnWriteArrayList<>();
        final List<Checkpoint> checkpoints = new CopyOnWriteArrayList<>();
        final Set<Thread> threads = ConcurrentHashMap.newKeySet();
        final List<String> pending = new ArrayList<>();
        int rollbacks;

        @Override
        public void apply(Transaction<String> txn, ApplyContext ctx) {
            threads.add(Thread.currentThread());
            assertEquals(pending.size(), ctx.indexInBatch());
            pending.add(txn.position());
        }

        @Override
        public void commit(Batch<String> batch, Checkpoint checkpoint) {
            threads.add(Thread.currentThread());
            assertEquals(pending.size(), batch.size());
            commits.add(batch.size());
            committed.addAll(pending);
            checkpoints.add(checkpoint);
            pending.clear();
        }

        @Override
        public void rollback(Batch<String> batch) {
            rollbacks++;
            pending.clear();
        }
    }

    /** Keeps the worker checkpoints the applier is handed, like a target would in its own transactions. */
    static final class Store implements CheckpointStore {
        final List<Checkpoint> saved = new CopyOnWriteArrayList<>();

        @Override
        public Collection<Checkpoint> load() {
            return List.copyOf(saved);
        }

        @Override
        public void saveWorkerCheckpoint(Checkpoint checkpoint) {
            saved.add(checkpoint);
        }

        @Override
        public void saveLowWaterMark(Checkpoint checkpoint) {
            saved.add(checkpoint);
        }
    }

    private static Transaction<String> txn(int i) {
        return Transaction.builder("t" + i).position(Integer.toString(i)).partitionKey("s" + (i % 3)).build();
    }

    @Test
    void commitsOncePerBlockNotPerTransaction() throws Exception {
        Recording r = new Recording();
        try (Engine<String> e = Engine.builder(w -> r).workers(0).blockCommit(16)
                .checkpointPeriod(Duration.ofDays(1)).build()) {
            e.start();
            for (int i = 1; i <= 100; i++) {
                e.submit(txn(i));
            }
            assertEquals(List.of(16, 16, 16, 16, 16, 16), r.commits, "full blocks commit inside submit");
            assertEquals(96, e.lowWaterMark());
            e.flush();
            assertEquals(100, e.lowWaterMark(), "flush commits the open block");
            assertEquals(4, r.commits.get(r.commits.size() - 1));
            e.flush(); // nothing open: no empty commit
            assertEquals(7, r.commits.size());
        }
        assertEquals(Set.of(Thread.currentThread()), r.threads, "everything on the dispatching thread");
        assertEquals(100, r.committed.size());
    }

    @Test
    void theConfiguredSchedulerIsNeverAskedWithoutWorkers() throws Exception {
        Recording r = new Recording();
        Scheduler refusing = new Scheduler() {
            @Override
            public void init(SchedulingContext context) {
                throw new AssertionError("init with 0 workers");
            }

            @Override
            public void schedule(Transaction<?> txn, Placement placement) {
                throw new AssertionError("schedule with 0 workers");
            }
        };
        try (Engine<String> e = Engine.builder(w -> r).workers(0).scheduler(refusing)
                .checkpointPeriod(Duration.ofDays(1)).build()) {
            e.start();
            for (int i = 1; i <= 5; i++) {
                e.submit(txn(i));
            }
        }
        assertEquals(5, r.committed.size(), "everything applied in order on the dispatching thread");
    }

    @Test
    void barriersCommitAloneAndAwaitLowWaterMarkFlushes() throws Exception {
        Recording r = new Recording();
        try (Engine<String> e = Engine.builder(w -> r).workers(0).checkpointPeriod(Duration.ofDays(1)).build()) {
            e.start();
            e.submit(txn(1));
            e.submit(txn(2));
            e.submit(Transaction.builder("ddl").position("3").barrier(true).build());
            assertEquals(List.of(2, 1), r.commits, "the open block commits before the barrier, the barrier alone");
            assertEquals(3, e.lowWaterMark());
            long last = e.submit(txn(4));
            assertEquals(3, e.lowWaterMark());
            assertTrue(e.awaitLowWaterMark(last, Duration.ofSeconds(30)), "the dispatching thread's wait commits");
            assertEquals(List.of(2, 1, 1), r.commits);
            e.submit(txn(5));
        }
        assertEquals(List.of(2, 1, 1, 1), r.commits, "close commits the open block");
    }

    @Test
    void theCheckpointGroupAndTheBudgetEndTheBlock() throws Exception {
        Recording r = new Recording();
        try (Engine<String> e = Engine.builder(w -> r).workers(0).checkpointGroupSize(5).checkpointPeriod(
                Duration.ofDays(1)).build()) {
            e.start();
            for (int i = 1; i <= 12; i++) {
                e.submit(txn(i)); // would wait for itself for ever if the open block held the window
            }
            assertEquals(List.of(5, 5), r.commits);
        }
        Recording b = new Recording();
        try (Engine<String> e = Engine.builder(w -> b).workers(0).queueBudgetBytes(1_000)
                .checkpointPeriod(Duration.ofDays(1)).build()) {
            e.start();
            for (int i = 1; i <= 10; i++) {
                e.submit(Transaction.builder("t").position(Integer.toString(i)).sizeBytes(300).partitionKey("a")
                        .build());
            }
            assertEquals(List.of(3, 3, 3), b.commits);
        }
    }

    @Test
    void aSubmitAfterTheCheckpointPeriodCommitsTheBlock() throws Exception {
        Recording r = new Recording();
        try (Engine<String> e = Engine.builder(w -> r).workers(0).checkpointPeriod(Duration.ofMillis(1)).build()) {
            e.start();
            e.submit(txn(1));
            Thread.sleep(20);
            e.submit(txn(2));
            assertTrue(e.lowWaterMark() >= 1, "the block older than the period committed on the next submit");
        }
    }

    @Test
    void anotherThreadWaitsForTheDispatchingThreadToCommit() throws Exception {
        Recording r = new Recording();
        try (Engine<String> e = Engine.builder(w -> r).workers(0).checkpointPeriod(Duration.ofDays(1)).build()) {
            e.start();
            long last = e.submit(txn(1));
            boolean[] result = new boolean[1];
            Thread other = new Thread(() -> {
                try {
                    result[0] = e.awaitLowWaterMark(last, Duration.ofMillis(50));
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            });
            other.start();
            other.join();
            assertFalse(result[0], "only the dispatching thread commits the open block");
            assertEquals(Set.of(Thread.currentThread()), r.threads);
            e.flush();
            assertEquals(1, e.lowWaterMark());
        }
    }

    @Test
    void flushNeedsAStartedEngineAndIsANoOpWithWorkers() throws Exception {
        Recording r = new Recording();
        Engine<String> notStarted = Engine.builder(w -> r).workers(0).build();
        assertThrows(IllegalStateException.class, notStarted::flush);
        try (Engine<String> e = Engine.builder(w -> new Recording()).workers(2).build()) {
            e.start();
            long last = e.submit(txn(1));
            e.flush();
            assertTrue(e.awaitLowWaterMark(last, Duration.ofSeconds(60)), "workers commit without a flush");
        }
    }

    @Test
    void anAbortRollsTheOpenBlockBackAndRecoveryResumesBeforeIt() throws Exception {
        Store store = new Store();
        Recording r = new Recording();
        Engine<String> e = Engine.builder(w -> r).workers(0).blockCommit(4).checkpointStore(store)
                .checkpointPeriod(Duration.ofDays(1)).build();
        e.start();
        for (int i = 1; i <= 6; i++) {
            e.submit(txn(i));
        }
        e.abort();
        assertEquals(1, r.rollbacks, "the open block of 2 rolled back");
        assertEquals(List.of("1", "2", "3", "4"), r.committed);
        assertThrows(IllegalStateException.class, () -> e.submit(txn(7)));

        Recording again = new Recording();
        try (Engine<String> e2 = Engine.builder(w -> again).workers(0).blockCommit(4).checkpointStore(store)
                .build()) {
            RecoveryPoint rp = e2.start();
            assertEquals(0, rp.lowWaterMark());
            assertEquals(4, rp.alreadyApplied().length, "the committed block, from its checkpoint");
            for (int i = 1; i <= 6; i++) {
                e2.submit(txn(i));
            }
        }
        assertEquals(List.of("5", "6"), again.committed);
    }
}
