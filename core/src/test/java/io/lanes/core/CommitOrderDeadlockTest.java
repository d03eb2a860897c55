package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/**
 * MySQL's most reported replica hang: a later transaction holds a row lock an earlier one needs, and waits for the
 * earlier one to commit first (commit order). Here the scheduler (like a logical clock that missed a unique key) lets
 * both run at once; the target's row lock blocks the earlier one; the engine must notice the later one waited too long
 * for commit order, roll it back (releasing the lock), let the earlier one commit, and apply the later one again.
 */
class CommitOrderDeadlockTest {

    @Test
    void laterTransactionHoldingALockIsRolledBackAndRetried() throws Exception {
        ReentrantLock rowLock = new ReentrantLock();
        CountDownLatch laterHoldsLock = new CountDownLatch(1);
        List<String> commits = new CopyOnWriteArrayList<>();
        List<String> rollbacks = new CopyOnWriteArrayList<>();
        Scheduler independent = new Scheduler() {
            @Override
            public void init(SchedulingContext context) {
            }

            @Override
            public void schedule(Transaction<?> txn, Placement placement) {
                placement.toWorker((int) (placement.sequence() % 2)); // 1 -> worker 1, 2 -> worker 0; no dependency
            }
        };
        ApplierFactory<String> factory = wid -> new Applier<>() {
            boolean holding;

            @Override
            public void apply(Transaction<String> txn, ApplyContext ctx) throws Exception {
                if (txn.payload().equals("earlier")) {
                    if (ctx.attempt() == 0) {
                        assertTrue(laterHoldsLock.await(10, TimeUnit.SECONDS));
                    }
                    // innodb_lock_wait_timeout: far longer than the engine's commit-order timeout
                    assertTrue(rowLock.tryLock(30, TimeUnit.SECONDS), "lock wait timeout");
                } else {
                    rowLock.lock();
                    laterHoldsLock.countDown();
                }
                holding = true;
            }

            @Override
            public void commit(Batch<String> batch, Checkpoint checkpoint) {
                commits.add(batch.transaction(0).payload());
                release();
            }

            @Override
            public void rollback(Batch<String> batch) {
                rollbacks.add(batch.transaction(0).payload());
                release();
            }

            private void release() {
                if (holding) {
                    holding = false;
                    rowLock.unlock();
                }
            }
        };
        try (Engine<String> engine = Engine.builder(factory).scheduler(independent).workers(2)
                .commitOrder(CommitOrder.STRICT).commitOrderTimeout(Duration.ofMillis(200)).build()) {
            engine.start();
            engine.submit(Transaction.builder("earlier").position("1").build());
            engine.submit(Transaction.builder("later").position("2").build());
            assertTrue(engine.awaitLowWaterMark(2, Duration.ofSeconds(20)), "commit-order deadlock not resolved");
            assertEquals(1, engine.stats().commitOrderRetries());
        }
        assertEquals(List.of("earlier", "later"), commits);
        assertEquals(List.of("later"), rollbacks);
    }

    /**
     * The same deadlock with an applier that can tell who waits for its locks (as the JDBC applier reads the target's
     * lock views): the engine breaks it within milliseconds, though its commit-order timeout is 30 s, and counts it as a
     * commit-order deadlock broken, not as a timeout. With detection off, the same run waits out the timeout.
     */
    @Test
    void deadlockSeenInTheLockViewsIsBrokenInMilliseconds() throws Exception {
        Result on = runWithLockViews(true, Duration.ofSeconds(30));
        assertTrue(on.millis < 1_000, "took " + on.millis + " ms");
        assertEquals(1, on.stats.commitOrderDeadlocksBroken());
        assertEquals(0, on.stats.commitOrderRetries());
        assertEquals(List.of("earlier", "later"), on.commits);
        assertEquals(List.of("later"), on.rollbacks);

        Result off = runWithLockViews(false, Duration.ofMillis(1_500));
        assertTrue(off.millis >= 1_500, "took " + off.millis + " ms");
        assertEquals(0, off.stats.commitOrderDeadlocksBroken());
        assertEquals(1, off.stats.commitOrderRetries());
        assertEquals(List.of("earlier", "later"), off.commits);
    }

    /**
     * A slow earlier transaction (2 s) and no lock between them: the later one waits for its turn longer than the
     * commit-order timeout (300 ms), but the lock views say nobody waits for it, so it is not rolled back for nothing
     * (the timeout becomes a backstop at 10 times its value). An applier that cannot tell still times out.
     */
    @Test
    void aSlowEarlierTransactionIsNotTakenForADeadlockWhenTheLockViewsAnswer() throws Exception {
        assertEquals(List.of(), slowEarlier(true));
        assertEquals(List.of("later"), slowEarlier(false));
    }

    private static List<String> slowEarlier(boolean answers) throws Exception {
        List<String> rollbacks = new CopyOnWriteArrayList<>();
        Scheduler independent = new Scheduler() {
            @Override
            public void init(SchedulingContext context) {
            }

            @Override
            public void schedule(Transaction<?> txn, Placement placement) {
                placement.toWorker((int) (placement.sequence() % 2));
            }
        };
        ApplierFactory<String> factory = wid -> new Applier<>() {
            @Override
            public void apply(Transaction<String> txn, ApplyContext ctx) throws Exception {
                if (txn.payload().equals("earlier")) {
                    Thread.sleep(2_000);
                }
            }

            @Override
            public long targetSession() {
                return wid;
            }

            @Override
            public long[] sessionsWaitingForThis() {
                return answers ? new long[0] : null;
            }

            @Override
            public void commit(Batch<String> batch, Checkpoint checkpoint) {
            }

            @Override
            public void rollback(Batch<String> batch) {
                rollbacks.add(batch.transaction(0).payload());
            }
        };
        try (Engine<String> engine = Engine.builder(factory).scheduler(independent).workers(2)
                .commitOrder(CommitOrder.STRICT).commitOrderTimeout(Duration.ofMillis(300)).build()) {
            engine.start();
            engine.submit(Transaction.builder("earlier").position("1").build());
            engine.submit(Transaction.builder("later").position("2").build());
            assertTrue(engine.awaitLowWaterMark(2, Duration.ofSeconds(20)));
            assertEquals(answers ? 0 : 1, engine.stats().commitOrderRetries());
            assertEquals(0, engine.stats().commitOrderDeadlocksBroken());
        }
        return List.copyOf(rollbacks);
    }

    private record Result(long millis, EngineStats stats, List<String> commits, List<String> rollbacks) {
    }

    private static Result runWithLockViews(boolean detection, Duration commitOrderTimeout) throws Exception {
        ReentrantLock rowLock = new ReentrantLock();
        CountDownLatch laterHoldsLock = new CountDownLatch(1);
        List<String> commits = new CopyOnWriteArrayList<>();
        List<String> rollbacks = new CopyOnWriteArrayList<>();
        java.util.Map<Thread, Integer> sessions = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.Set<Thread> waiting = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Scheduler independent = new Scheduler() {
            @Override
            public void init(SchedulingContext context) {
            }

            @Override
            public void schedule(Transaction<?> txn, Placement placement) {
                placement.toWorker((int) (placement.sequence() % 2));
            }
        };
        ApplierFactory<String> factory = wid -> new Applier<>() {
            boolean holding;

            @Override
            public void apply(Transaction<String> txn, ApplyContext ctx) throws Exception {
                sessions.put(Thread.currentThread(), wid);
                if (txn.payload().equals("earlier")) {
                    if (ctx.attempt() == 0) {
                        assertTrue(laterHoldsLock.await(10, TimeUnit.SECONDS));
                    }
                    waiting.add(Thread.currentThread());
                    try {
                        assertTrue(rowLock.tryLock(30, TimeUnit.SECONDS), "lock wait timeout");
                    } finally {
                        waiting.remove(Thread.currentThread());
                    }
                } else {
                    rowLock.lock();
                    laterHoldsLock.countDown();
                }
                holding = true;
            }

            @Override
            public long targetSession() {
                return wid;
            }

            @Override
            public long[] sessionsWaitingForThis() {
                if (!rowLock.isHeldByCurrentThread()) {
                    return new long[0];
                }
                return waiting.stream().mapToLong(sessions::get).toArray();
            }

            @Override
            public void commit(Batch<String> batch, Checkpoint checkpoint) {
                commits.add(batch.transaction(0).payload());
                release();
            }

            @Override
            public void rollback(Batch<String> batch) {
                rollbacks.add(batch.transaction(0).payload());
                release();
            }

            private void release() {
                if (holding) {
                    holding = false;
                    rowLock.unlock();
                }
            }
        };
        try (Engine<String> engine = Engine.builder(factory).scheduler(independent).workers(2)
                .commitOrder(CommitOrder.STRICT).commitOrderTimeout(commitOrderTimeout)
                .commitOrderDeadlockDetection(detection).build()) {
            engine.start();
            long start = System.nanoTime();
            engine.submit(Transaction.builder("earlier").position("1").build());
            engine.submit(Transaction.builder("later").position("2").build());
            assertTrue(engine.awaitLowWaterMark(2, Duration.ofSeconds(20)), "commit-order deadlock not resolved");
            long millis = (System.nanoTime() - start) / 1_000_000;
            return new Result(millis, engine.stats(), List.copyOf(commits), List.copyOf(rollbacks));
        }
    }
}
