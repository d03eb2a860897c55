package io.lanes.binlog.replication.internal;

import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ReplicationException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The hand-off between the network thread and the consumer, bounded by bytes. The network thread {@link #offer}s events
 * and never blocks: when the buffered bytes exceed the budget it is told to stop reading the socket, and the buffer calls
 * the registered resume action once the consumer has drained it to half the budget. So the memory held is at most the
 * budget plus what one socket read can still hold (already received when reading stopped).
 *
 * <p>Thread-safe: one producer (the current connection's event loop) and any number of consumers. Everything written to
 * an event before {@link #offer} is visible to the thread that takes it.
 */
public final class EventBuffer {
    private final long budget;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<ReplicationEvent> queue = new ArrayDeque<>();
    private long bytes;
    private long highWater;
    private boolean paused;
    private Runnable resume;
    private ReplicationException failure;
    private boolean closed;

    public EventBuffer(long budgetBytes) {
        this.budget = budgetBytes;
    }

    /** Bytes an event counts for: its bytes plus a fixed allowance for the objects around them. */
    public static long weight(ReplicationEvent e) {
        return e.bytes().length + 96L;
    }

    /**
     * Queues an event.
     *
     * @param resumeReading what to run (from a consumer thread) once the buffer drained after this call returned false
     * @return true to keep reading, false when the budget is exhausted and the caller must stop reading
     */
    public boolean offer(ReplicationEvent e, Runnable resumeReading) {
        lock.lock();
        try {
            queue.addLast(e);
            bytes += weight(e);
            highWater = Math.max(highWater, bytes);
            notEmpty.signal();
            if (bytes > budget) {
                paused = true;
                resume = resumeReading;
                return false;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Ends the stream with a failure, reported to the consumer after the events already queued. */
    public void fail(ReplicationException e) {
        lock.lock();
        try {
            if (failure == null) {
                failure = e;
            }
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public void close() {
        lock.lock();
        try {
            closed = true;
            queue.clear();
            bytes = 0;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next event, waiting up to the timeout; null on timeout or once closed.
     *
     * @throws ReplicationException once every event before a failure was taken
     */
    public ReplicationEvent poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        Runnable toRun = null;
        ReplicationEvent e;
        lock.lockInterruptibly();
        try {
            while (queue.isEmpty()) {
                if (closed) {
                    return null;
                }
                if (failure != null) {
                    throw failure;
                }
                if (nanos <= 0) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            e = queue.pollFirst();
            bytes -= weight(e);
            toRun = maybeResume();
        } finally {
            lock.unlock();
        }
        if (toRun != null) {
            toRun.run();
        }
        return e;
    }

    /** Moves up to {@code max} queued events into {@code sink} without waiting; returns how many. */
    public int drainTo(List<ReplicationEvent> sink, int max) {
        Runnable toRun;
        int n = 0;
        lock.lock();
        try {
            if (queue.isEmpty() && failure != null && !closed) {
                throw failure;
            }
            while (n < max && !queue.isEmpty()) {
                ReplicationEvent e = queue.pollFirst();
                bytes -= weight(e);
                sink.add(e);
                n++;
            }
            toRun = maybeResume();
        } finally {
            lock.unlock();
        }
        if (toRun != null) {
            toRun.run();
        }
        return n;
    }

    private Runnable maybeResume() {
        if (paused && bytes <= budget / 2) {
            paused = false;
            Runnable r = resume;
            resume = null;
            return r;
        }
        return null;
    }

    /**
     * For a new connection: when the budget is still exhausted, registers its resume action and returns true (the caller
     * starts with reading stopped).
     */
    public boolean pauseIfFull(Runnable resumeReading) {
        lock.lock();
        try {
            if (paused) {
                resume = resumeReading;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Drops the pause request of a connection that is gone (its reads cannot be resumed). */
    public void forgetPause() {
        lock.lock();
        try {
            resume = null;
        } finally {
            lock.unlock();
        }
    }

    /** True while reading is paused because the budget is exhausted. */
    public boolean isPaused() {
        lock.lock();
        try {
            return paused;
        } finally {
            lock.unlock();
        }
    }

    public long bufferedBytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    /** The most bytes ever buffered at once. */
    public long highWaterBytes() {
        lock.lock();
        try {
            return highWater;
        } finally {
            lock.unlock();
        }
    }

    public long budget() {
        return budget;
    }
}
