package io.lanes.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Stress of the hand-off and checkpoint core without the rest of the engine: one dispatcher fills slots within the
 * window, several committers mark random interleavings committed and advance the low-water mark concurrently, waiters
 * park on random slots, and a checkpoint thread publishes the mark while slots are being reused. Bounded in time (a few
 * seconds; {@code -Dlanes.long=true} runs a minute).
 */
class InFlightWindowStressTest {
    private static final boolean LONG = Boolean.getBoolean("lanes.long");

    @Test
    void lowWaterMarkPublishedMarksAndWaitersStayConsistent() throws Exception {
        long endAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(LONG ? 60 : 3);
        int rounds = 0;
        while (System.nanoTime() < endAt) {
            runRound(ThreadLocalRandom.current().nextInt(2, 70), ThreadLocalRandom.current().nextInt(1, 6));
            rounds++;
        }
        assertTrue(rounds > 0);
    }

    private void runRound(int windowSize, int committers) throws Exception {
        int total = 20_000;
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        Thread[] dispatcherRef = new Thread[1];
        InFlightWindow w = new InFlightWindow(windowSize, windowSize, 1_000, 0, "p0", () -> {
            Thread d = dispatcherRef[0];
            if (d != null) {
                java.util.concurrent.locks.LockSupport.unpark(d);
            }
        });
        List<LinkedBlockingQueue<Long>> queues = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < committers; c++) {
            LinkedBlockingQueue<Long> q = new LinkedBlockingQueue<>();
            queues.add(q);
            threads.add(new Thread(() -> {
                try {
                    for (;;) {
                        long s = q.take();
                        if (s < 0) {
                            return;
                        }
                        if (ThreadLocalRandom.current().nextInt(8) == 0) {
                            Thread.yield();
                        }
                        w.markCommitted(s);
                        w.advance();
                    }
                } catch (InterruptedException e) {
                    errors.add("interrupted");
                }
            }));
        }
        AtomicLong waits = new AtomicLong();
        for (int k = 0; k < 2; k++) {
            threads.add(new Thread(() -> {
                while (!done.get()) {
                    long target = w.lwm() + 1 + ThreadLocalRandom.current().nextInt(windowSize);
                    if (target > total) {
                        return;
                    }
                    boolean forLwm = ThreadLocalRandom.current().nextBoolean();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    boolean ok = forLwm ? w.awaitLwm(target, deadline, done::get)
                            : w.awaitCommitted(target, deadline, done::get);
                    if (ok && (forLwm ? w.lwm() < target : !w.isCommitted(target))) {
                        errors.add("woke for " + target + " but the condition does not hold");
                    }
                    if (!ok && !done.get()) {
                        errors.add("waiter for " + target + " timed out (lost wake-up)");
                    }
                    waits.incrementAndGet();
                }
            }));
        }
        threads.add(new Thread(() -> {
            long last = 0;
            while (!done.get()) {
                InFlightWindow.Mark m = w.publishCurrent();
                if (!m.position().equals("p" + m.sequence())) {
                    errors.add("published mark " + m.sequence() + " carries position " + m.position());
                }
                if (m.sequence() < last) {
                    errors.add("published mark went back from " + last + " to " + m.sequence());
                }
                last = m.sequence();
                Thread.onSpinWait();
            }
        }));
        threads.forEach(Thread::start);
        Thread dispatcher = new Thread(() -> {
            dispatcherRef[0] = Thread.currentThread();
            for (long s = 1; s <= total; s++) {
                while (s - w.lwm() > windowSize) {
                    java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                }
                w.dispatch(s, 0, "p" + s);
                queues.get(ThreadLocalRandom.current().nextInt(queues.size())).add(s);
            }
        });
        dispatcher.start();
        dispatcher.join(60_000);
        assertTrue(w.awaitLwm(total, System.nanoTime() + TimeUnit.SECONDS.toNanos(30), () -> false),
                "low-water mark stuck at " + w.lwm());
        done.set(true);
        w.wakeEveryone();
        for (LinkedBlockingQueue<Long> q : queues) {
            q.add(-1L);
        }
        for (Thread t : threads) {
            t.join(30_000);
            assertTrue(!t.isAlive(), "thread did not finish");
        }
        assertEquals(List.of(), List.copyOf(errors));
        assertEquals(total, w.lwm());
        InFlightWindow.Mark m = w.publishCurrent();
        assertEquals(total, m.sequence());
        assertEquals("p" + total, m.position());
    }
}
