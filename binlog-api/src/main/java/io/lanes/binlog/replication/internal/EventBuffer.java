package io.lanes.binlog.replication.internal;

import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ReplicationException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The hand-off between the network thread and the consumer, bounded by bytes.
 *
 * <p><b>Batches.</b> The network thread hands over events in batches ({@link #offerAll}: one lock, at most one wake-up
 * per batch; the buffer keeps the batch's list as it is, without copying it), and a consumer takes every batch queued at
 * once into its own side of the buffer and then returns it event by event without touching the producer's lock. A
 * wake-up per event (what a plain blocking queue does when the consumer keeps up) costs more than decoding the event;
 * batching is what lets the stream run at socket speed.
 *
 * <p><b>Budget.</b> An event counts against the budget ({@link #weight}) from the moment it is offered until a consumer
 * has taken it with {@link #poll} or {@link #drainTo} (events moved to the consumer's side but not yet returned still
 * count). {@link #poll} gives the bytes of the events it returned back to the budget in steps of at most
 * {@link #releaseStep()} (1/64 of the budget, at most 64 KiB) and whenever the consumer's side runs empty, rather than
 * per event (one atomic update per event shared with the producer costs as much as the rest of the hand-off): so
 * the count can be higher than what is really held, never lower. The producer never blocks: when the buffered bytes
 * exceed the budget, {@link #offerAll} returns false and the producer must stop reading the socket; the buffer runs the
 * registered resume action once the consumer has drained it to half the budget. The producer can ask
 * {@link #wouldExceed} or {@link #headroom} before offering, so it hands over a batch as soon as the budget would be
 * crossed. So the memory
 * held is at most the budget plus the event that crossed it plus what one socket read can still hold (already received
 * when reading stopped).
 *
 * <p><b>Inline delivery.</b> Instead of consumers, an {@link InlineSink} can take the events ({@link #deliverInline}):
 * the producer then hands each batch to the sink itself, on its own thread, as it offers it, and nothing is buffered;
 * events buffered before the sink came are delivered first, in order. The sink is called by one thread at a time (a
 * lock held per batch orders the calls, also across connections, whose producers are different threads).
 *
 * <p>Thread-safe: one producer (the current connection's event loop) and any number of consumers (each event goes to
 * exactly one of them, in order for a single consumer), or one inline sink. Everything written to an event before it
 * is offered is visible to the thread that takes it.
 */
public final class EventBuffer {
    private final long budget;
    private final long releaseStep;
    /** Guards {@link #queue}, {@link #waiting}, {@link #resume}, {@link #failure}, {@link #highWater}. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    /** Serialises consumers; guards {@link #taken}, {@link #current}, {@link #next}, {@link #unreleased}. Never held by the producer. */
    private final ReentrantLock takeLock = new ReentrantLock();
    /** Batches offered and not yet moved to the consumer's side; never holds an empty batch. */
    private ArrayDeque<List<ReplicationEvent>> queue = new ArrayDeque<>();
    /** The consumer's side: batches after {@link #current}. */
    private ArrayDeque<List<ReplicationEvent>> taken = new ArrayDeque<>();
    /** The batch the consumer is returning events from (index {@link #next} on), or null. */
    private List<ReplicationEvent> current;
    private int next;
    /** Weight of events returned by {@link #poll} and not yet given back to the budget. */
    private long unreleased;
    private final AtomicLong bytes = new AtomicLong();
    private int waiting;
    private long highWater;
    private volatile boolean paused;
    private Runnable resume;
    private volatile ReplicationException failure;
    private volatile boolean closed;
    /** Takes every event on the producer's thread once set ({@link #deliverInline}); never unset. */
    private volatile InlineSink inline;
    /** Held while the inline sink is called: one batch at a time, in order. Taken before {@link #lock}, never after. */
    private final ReentrantLock inlineLock = new ReentrantLock();
    /** Whether the inline sink was told of the failure. Guarded by {@link #inlineLock}. */
    private boolean failureReported;

    /**
     * Receives the events of a buffer in inline mode ({@link #deliverInline}), on the producer's thread (or, for events
     * and the failure that came before it was set, on the thread that drains them), one call at a time, in order.
     */
    public interface InlineSink {
        /** One event. Must not throw. */
        void onEvent(ReplicationEvent event);

        /** The stream ended for good, after every event before the failure. Called at most once. */
        void onFailure(ReplicationException failure);
    }

    public EventBuffer(long budgetBytes) {
        this.budget = budgetBytes;
        this.releaseStep = Math.max(1, Math.min(64 * 1024, budgetBytes / 64));
    }

    /** Bytes an event counts for: its bytes plus a fixed allowance for the objects around them. */
    public static long weight(ReplicationEvent e) {
        return e.bytes().length + 96L;
    }

    /** The most bytes {@link #poll} returns to the consumer before giving them back to the budget. */
    long releaseStep() {
        return releaseStep;
    }

    /** True when {@code moreBytes} on top of what is buffered now would exceed the budget. Any thread. */
    public boolean wouldExceed(long moreBytes) {
        return moreBytes > headroom();
    }

    /**
     * Bytes that can still be offered before the budget is exceeded (negative once it is). Only the producer adds to the
     * count, so for the producer a value read earlier is a lower bound of the current one. Any thread.
     */
    public long headroom() {
        return budget - bytes.get();
    }

    /**
     * Queues one event; see {@link #offerAll}.
     *
     * @return true to keep reading, false when the budget is exhausted and the caller must stop reading
     */
    public boolean offer(ReplicationEvent e, Runnable resumeReading) {
        return offerAll(List.of(e), weight(e), resumeReading);
    }

    /**
     * Queues a batch of events, in order, waking a waiting consumer once. The buffer keeps {@code batch} itself: the
     * caller must not change it afterwards.
     *
     * @param batchBytes the sum of the events' {@link #weight}s
     * @param resumeReading what to run (from a consumer thread) once the buffer drained after this call returned false
     * @return true to keep reading, false when the budget is exhausted and the caller must stop reading
     */
    public boolean offerAll(List<ReplicationEvent> batch, long batchBytes, Runnable resumeReading) {
        if (batch.isEmpty()) {
            return !paused;
        }
        InlineSink sink = inline;
        if (sink != null) {
            deliverNow(sink, batch);
            return true;
        }
        lock.lock();
        try {
            if (closed) {
                return true;
            }
            queue.add(batch);
            long now = bytes.addAndGet(batchBytes);
            highWater = Math.max(highWater, now);
            if (waiting > 0) {
                notEmpty.signal();
            }
            if (now > budget) {
                paused = true;
                resume = resumeReading;
                if (inline == null) {
                    return false;
                }
            }
        } finally {
            lock.unlock();
        }
        if (inline != null) {
            // the sink came while this batch was being queued: whichever of this and deliverInline's drain runs last
            // finds the batch queued and delivers it
            drainInline();
        }
        return true;
    }

    /**
     * From now on, hands every event to {@code sink} instead of keeping it for consumers: on the producer's thread as
     * it is offered, after the events already queued (which the next drain delivers: {@link #drainInline}, run by the
     * caller on the producer's thread, or the next offer). Consumers must not take events any more ({@link #poll},
     * {@link #take} and {@link #drainTo} throw); none may have taken any before.
     *
     * @throws IllegalStateException when a sink is already set, or a consumer already took events
     */
    public void deliverInline(InlineSink sink) {
        java.util.Objects.requireNonNull(sink, "sink");
        takeLock.lock();
        try {
            if (inline != null) {
                throw new IllegalStateException("events are already delivered inline");
            }
            if (current != null || !taken.isEmpty() || unreleased > 0) {
                throw new IllegalStateException("a consumer already takes the events: inline delivery must be chosen"
                        + " before events are taken");
            }
            inline = sink;
        } finally {
            takeLock.unlock();
        }
    }

    /** Whether events go to an inline sink ({@link #deliverInline}). Any thread. */
    public boolean isInline() {
        return inline != null;
    }

    /** Delivers to the inline sink (if any) what is queued, then the failure (if any). Any thread. */
    public void drainInline() {
        InlineSink sink = inline;
        if (sink == null) {
            return;
        }
        inlineLock.lock();
        try {
            deliverQueued(sink);
            ReplicationException f = failure;
            if (f != null && !failureReported && !closed) {
                failureReported = true;
                sink.onFailure(f);
            }
        } finally {
            inlineLock.unlock();
        }
    }

    /** Hands a batch to the inline sink, after anything still queued. Producer only. */
    private void deliverNow(InlineSink sink, List<ReplicationEvent> batch) {
        inlineLock.lock();
        try {
            deliverQueued(sink);
            for (int i = 0, n = batch.size(); i < n && !closed; i++) {
                sink.onEvent(batch.get(i));
            }
        } finally {
            inlineLock.unlock();
        }
    }

    /** Hands what is queued to the sink and gives its bytes back to the budget. Holding {@link #inlineLock}. */
    private void deliverQueued(InlineSink sink) {
        ArrayDeque<List<ReplicationEvent>> queued;
        lock.lock();
        try {
            if (queue.isEmpty() || closed) {
                return;
            }
            queued = queue;
            queue = new ArrayDeque<>();
        } finally {
            lock.unlock();
        }
        long delivered = 0;
        for (List<ReplicationEvent> batch : queued) {
            for (int i = 0, n = batch.size(); i < n && !closed; i++) {
                ReplicationEvent e = batch.get(i);
                delivered += weight(e);
                sink.onEvent(e);
            }
        }
        release(delivered);
    }

    private void checkNotInline() {
        if (inline != null) {
            throw new IllegalStateException("the events are delivered inline: they cannot be taken");
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
        drainInline();
    }

    /** Drops every buffered event; consumers get null from then on. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            queue.clear();
            bytes.set(0);
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
        checkNotInline();
        // the common case (events on the consumer's side, no other consumer) reads no clock and waits for nothing
        if (!takeLock.tryLock() && !takeLock.tryLock(unit.toNanos(timeout), TimeUnit.NANOSECONDS)) {
            return null;
        }
        try {
            if (closed) {
                dropTaken();
                return null;
            }
            ReplicationEvent e = nextTaken();
            if (e == null) {
                // nothing left on this side: what was returned goes back to the budget before waiting for more
                releaseUnreleased();
                if (!refill(System.nanoTime() + unit.toNanos(timeout))) {
                    return null;
                }
                e = nextTaken();
            }
            unreleased += weight(e);
            if (unreleased >= releaseStep) {
                releaseUnreleased();
            }
            return e;
        } finally {
            takeLock.unlock();
        }
    }

    /**
     * Moves up to {@code max} events into {@code sink}, waiting up to the timeout for the first: what a consumer that
     * handles events one after another takes in one call, so that the buffer's locking and budget accounting are paid
     * per batch, not per event. The budget counts the moved events as taken, as {@link #poll} does.
     *
     * @return how many were moved; 0 on timeout or once closed
     * @throws ReplicationException once every event before a failure was taken
     */
    public int take(List<ReplicationEvent> sink, int max, long timeout, TimeUnit unit) throws InterruptedException {
        checkNotInline();
        if (!takeLock.tryLock() && !takeLock.tryLock(unit.toNanos(timeout), TimeUnit.NANOSECONDS)) {
            return 0;
        }
        try {
            if (closed) {
                dropTaken();
                return 0;
            }
            ReplicationEvent e = nextTaken();
            if (e == null) {
                releaseUnreleased();
                if (!refill(System.nanoTime() + unit.toNanos(timeout))) {
                    return 0;
                }
                e = nextTaken();
            }
            long moved = 0;
            int n = 0;
            do {
                sink.add(e);
                moved += weight(e);
                n++;
            } while (n < max && (e = nextTaken()) != null);
            unreleased += moved;
            if (unreleased >= releaseStep) {
                releaseUnreleased();
            }
            return n;
        } finally {
            takeLock.unlock();
        }
    }

    /** The next event on the consumer's side, or null when it is empty. Holding {@link #takeLock}. */
    private ReplicationEvent nextTaken() {
        while (true) {
            List<ReplicationEvent> c = current;
            if (c != null && next < c.size()) {
                return c.get(next++);
            }
            current = taken.pollFirst();
            next = 0;
            if (current == null) {
                return null;
            }
        }
    }

    private void dropTaken() {
        taken.clear();
        current = null;
        unreleased = 0;
    }

    /** Holding {@link #takeLock}. */
    private void releaseUnreleased() {
        if (unreleased > 0) {
            long w = unreleased;
            unreleased = 0;
            release(w);
        }
    }

    /**
     * Moves everything queued to the consumer's side, waiting until the deadline for something to come. Holding
     * {@link #takeLock}; the consumer's side is empty.
     *
     * @return false on timeout or once closed
     */
    private boolean refill(long deadline) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (queue.isEmpty()) {
                if (closed) {
                    return false;
                }
                if (failure != null) {
                    throw failure;
                }
                long nanos = deadline - System.nanoTime();
                if (nanos <= 0) {
                    return false;
                }
                waiting++;
                try {
                    notEmpty.awaitNanos(nanos);
                } finally {
                    waiting--;
                }
            }
            // swap the deques: the producer keeps appending to the (empty) other one
            ArrayDeque<List<ReplicationEvent>> all = queue;
            queue = taken;
            taken = all;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Moves up to {@code max} queued events into {@code sink} without waiting; returns how many. */
    public int drainTo(List<ReplicationEvent> sink, int max) {
        checkNotInline();
        takeLock.lock();
        try {
            if (closed) {
                dropTaken();
                return 0;
            }
            long moved = 0;
            int n = 0;
            ReplicationEvent e;
            while (n < max && (e = nextTaken()) != null) {
                moved += weight(e);
                sink.add(e);
                n++;
            }
            if (n < max) {
                lock.lock();
                try {
                    if (n == 0 && queue.isEmpty() && failure != null) {
                        throw failure;
                    }
                    ArrayDeque<List<ReplicationEvent>> all = queue;
                    queue = taken;
                    taken = all;
                } finally {
                    lock.unlock();
                }
                while (n < max && (e = nextTaken()) != null) {
                    moved += weight(e);
                    sink.add(e);
                    n++;
                }
            }
            unreleased += moved;
            releaseUnreleased();
            return n;
        } finally {
            takeLock.unlock();
        }
    }

    /** Counts taken bytes off the budget; runs the resume action when this brought the buffer down to half. */
    private void release(long weight) {
        if (closed) {
            return; // close() zeroed the count; what consumers still return is not part of it
        }
        long now = bytes.addAndGet(-weight);
        if (!paused || now > budget / 2) {
            return;
        }
        // paused is set under the lock together with the batch that crossed the budget, and this consumer took
        // (some of) that batch after the lock: so a pause is always seen by a later release
        Runnable toRun = null;
        lock.lock();
        try {
            if (paused && bytes.get() <= budget / 2) {
                paused = false;
                toRun = resume;
                resume = null;
            }
        } finally {
            lock.unlock();
        }
        if (toRun != null) {
            toRun.run();
        }
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
        return paused;
    }

    /** Bytes offered and not yet taken by a consumer. */
    public long bufferedBytes() {
        return bytes.get();
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
