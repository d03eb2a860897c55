package io.lanes.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.core.Applier;
import io.lanes.core.ApplyContext;
import io.lanes.core.Batch;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import io.lanes.core.CommitOrder;
import io.lanes.core.EngineSettings;
import io.lanes.core.SequentialScheduler;
import io.lanes.core.Transaction;
import org.junit.jupiter.api.Test;

/**
 * The placement strategy alone: workers whose queue lengths, parking, current step and measured cost the test sets,
 * and the choices it makes for them, with no engine running and no thread started.
 */
class WorkerPlacementTest {
    private static final int WORKERS = 4;

    private final Worker<String>[] workers;
    private final long[] dispatchedTo = new long[WORKERS];
    private final long[] lastSeqTo = new long[WORKERS];
    private final WorkerPlacement<String> placement;

    @SuppressWarnings("unchecked")
    WorkerPlacementTest() {
        RuntimeConfig<String> config = new RuntimeConfig<>(id -> new NoOp(), new SequentialScheduler(),
                CheckpointStore.none(), Runnable::run, null, EngineSettings.defaults().withWorkers(WORKERS)
                        .withCommitOrder(CommitOrder.NONE).withName("placement-test"));
        workers = new Worker[WORKERS];
        IdleWorkers idle = new IdleWorkers(WORKERS);
        placement = new WorkerPlacement<>(workers, dispatchedTo, lastSeqTo, WORKERS, idle);
        // No engine: the workers are only made, never run, so their handle is never asked anything.
        WorkerSetup<String> setup = new WorkerSetup<>(config, null, new long[0], new UnusedHost(), placement, idle,
                new WorkerCounters(), workers);
        long now = System.nanoTime();
        for (int i = 0; i < WORKERS; i++) {
            workers[i] = new Worker<>(i, setup);
            workers[i].parked = false;
            workers[i].stepStartedAt = now;
        }
    }

    /** The handle of workers that never run. */
    private static final class UnusedHost implements WorkerHost {
        @Override
        public void fail(long seq, String position, int worker, String message, Throwable cause) {
            throw new AssertionError(message, cause);
        }

        @Override
        public boolean halted() {
            return false;
        }

        @Override
        public boolean workersMayExit() {
            return false;
        }

        @Override
        public boolean dispatcherWaits() {
            return false;
        }

        @Override
        public void release(long bytes) {
        }

        @Override
        public void wakeDispatcherIfWaiting() {
        }
    }

    /** Work that costs more than a wake-up: measured at 5 ms a transaction, every worker's own estimate too. */
    private void expensiveWork() {
        placement.recordServiceTime(5_000_000);
        for (Worker<String> w : workers) {
            w.serviceNanos = 5_000_000;
        }
    }

    private void queued(long... lengths) {
        for (int i = 0; i < WORKERS; i++) {
            dispatchedTo[i] = lengths[i];
            workers[i].finished = 0;
        }
    }

    @Test
    void expensiveWorkGoesToTheShortestQueue() {
        expensiveWork();
        assertFalse(placement.isCheap());
        queued(3, 1, 2, 5);
        assertEquals(1, placement.leastLoadedWorker());
        queued(3, 4, 0, 5);
        assertEquals(2, placement.leastLoadedWorker());
    }

    @Test
    void aWorkerStuckInOneStepIsPassedOverWhileAnotherCanTakeTheWork() {
        expensiveWork();
        queued(3, 1, 2, 5);
        // worker 1 has been in its current step for a minute: far beyond 8 times its 5 ms
        workers[1].stepStartedAt = System.nanoTime() - 60_000_000_000L;
        assertEquals(2, placement.leastLoadedWorker());
    }

    @Test
    void aParkedWorkerCostsItsWakeUp() {
        expensiveWork();
        queued(0, 0, 3, 3);
        workers[0].parked = true;
        // both empty; waking worker 0 costs the measured wake-up, worker 1 is awake
        assertEquals(1, placement.leastLoadedWorker());
    }

    @Test
    void cheapWorkPacksOntoTheFirstProcessorsWorth() {
        placement.recordServiceTime(1_000); // the first measurement replaces the pessimistic guess
        assertTrue(placement.isCheap());
        queued(0, 0, 0, 0);
        for (int i = 0; i < 100; i++) {
            int w = placement.leastLoadedWorker();
            assertTrue(w < Math.min(WORKERS, EngineRuntime.HOT_WORKERS) || WORKERS <= EngineRuntime.HOT_WORKERS,
                    "cheap work went to worker " + w + " beyond the first " + EngineRuntime.HOT_WORKERS);
            placement.dispatched(w, i + 1);
            workers[w].finished++; // done at once: cheap
        }
    }

    @Test
    void aTransactionWaitingForTheOneDispatchedJustBeforeGoesBehindIt() {
        expensiveWork();
        queued(0, 0, 0, 0);
        placement.dispatched(2, 10);
        // worker 2 holds transaction 10; the next waits for everything up to 10: behind it, no hand-off between threads
        assertEquals(2, placement.workerToWaitFor(10));
    }

    @Test
    void aTransactionWaitingForAnEarlierGroupAvoidsQueuesHoldingLaterWork() {
        expensiveWork();
        queued(0, 0, 0, 0);
        placement.dispatched(0, 20);
        placement.dispatched(1, 21);
        placement.dispatched(3, 22);
        // waits for everything up to 19: workers 0, 1 and 3 hold later work it could run beside; worker 2 holds none
        assertEquals(2, placement.workerToWaitFor(19));
    }

    @Test
    void anIdleKeyReturnsToItsPreviousWorkerWhenThatOneIsFree() {
        expensiveWork();
        queued(1, 1, 0, 1);
        assertEquals(2, placement.workerForIdleKey(2));
        queued(1, 1, 2, 0);
        assertEquals(3, placement.workerForIdleKey(2), "the previous worker is busy: the least loaded");
    }

    private static final class NoOp implements Applier<String> {
        @Override
        public void apply(Transaction<String> txn, ApplyContext context) {
        }

        @Override
        public void commit(Batch<String> batch, Checkpoint checkpoint) {
        }

        @Override
        public void rollback(Batch<String> batch) {
        }

        @Override
        public void close() {
        }
    }
}
