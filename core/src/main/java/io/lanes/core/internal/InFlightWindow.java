package io.lanes.core.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The transactions between the low-water mark (LWM) and the dispatch frontier: one slot per sequence number in a ring,
 * the LWM itself, and the published LWM (sequence plus source position) that workers put in their checkpoints.
 *
 * <p>Threads: the dispatching thread fills slots ({@link #dispatch}, {@link #markSkipped}); workers mark them committed
 * ({@link #markCommitted}) and advance the LWM ({@link #advance}, lock-free, any number of threads at once); any thread
 * may wait for a slot's commit or for the LWM to pass a slot. The dispatcher never fills a slot more than
 * {@code window} sequence numbers beyond the LWM, and the ring holds at least twice that, so a slot is reused only long
 * after the LWM passed its previous transaction.
 *
 * <p>Happens-before: {@link #markCommitted} of a sequence number happens-before {@link #isCommitted} returning true for
 * it and before the return of a {@link #awaitCommitted} or {@link #awaitLwm} it satisfies.
 */
public final class InFlightWindow {
    /** The LWM with the source position of its transaction, as published to checkpoints. Immutable. */
    public record Mark(long sequence, String position, long publishedAtNanos) {
    }

    static final class Slot {
        /** The sequence number this slot currently holds; -1 while the dispatcher rewrites it (seqlock, see SEQ). */
        long seq = -1;
        /** Equals {@link #seq} once that transaction committed (or was found already applied). */
        volatile long committedSeq = -1;
        /** Written by the dispatcher before {@link #seq}; read after a volatile read of seq or committedSeq. */
        String position;
        int worker = -1;
        volatile boolean hasWaiters;
        /** Threads parked on this slot; guarded by this slot's monitor. */
        private Thread[] waiters = new Thread[2];
        private int waiterCount;

        synchronized void addWaiter(Thread t) {
            if (waiterCount == waiters.length) {
                waiters = java.util.Arrays.copyOf(waiters, waiterCount * 2);
            }
            waiters[waiterCount++] = t;
            hasWaiters = true;
        }

        void wakeAll() {
            Thread[] toWake;
            int n;
            synchronized (this) {
                n = waiterCount;
                if (n == 0) {
                    hasWaiters = false;
                    return;
                }
                toWake = java.util.Arrays.copyOf(waiters, n);
                java.util.Arrays.fill(waiters, 0, n, null);
                waiterCount = 0;
                hasWaiters = false;
            }
            for (int i = 0; i < n; i++) {
                LockSupport.unpark(toWake[i]);
            }
        }
    }

    private static final java.lang.invoke.VarHandle SEQ;

    static {
        try {
            SEQ = java.lang.invoke.MethodHandles.lookup().findVarHandle(Slot.class, "seq", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Slot[] slots;
    private final int mask;
    private final int window;
    private final long groupSize;
    private final long periodNanos;
    private final AtomicLong lwm;
    private final AtomicReference<Mark> published;
    /** Called (with no locks held) whenever the LWM moves; wakes the dispatching thread when it waits. */
    private final Runnable onAdvance;

    public InFlightWindow(int window, int groupSize, long periodNanos, long startLwm, String startPosition,
            Runnable onAdvance) {
        int size = Integer.highestOneBit(Math.max(2, window) * 4 - 1);
        this.slots = new Slot[size];
        for (int i = 0; i < size; i++) {
            slots[i] = new Slot();
        }
        this.mask = size - 1;
        this.window = window;
        this.groupSize = groupSize;
        this.periodNanos = periodNanos;
        this.lwm = new AtomicLong(startLwm);
        this.published = new AtomicReference<>(new Mark(startLwm, startPosition, System.nanoTime()));
        this.onAdvance = onAdvance;
    }

    public int window() {
        return window;
    }

    public long lwm() {
        return lwm.get();
    }

    public Mark published() {
        return published.get();
    }

    /**
     * Consecutive sequence numbers go to slots this far apart. The slots were allocated one after another, several to
     * a cache line, and the dispatcher fills the slot of a new transaction while a worker that keeps pace marks the one
     * just before it committed: neighbours on one line made the two threads take the line from each other at every
     * transaction. Any odd stride maps the ring onto itself one to one.
     */
    private static final int SLOT_STRIDE = 37;

    private Slot slot(long seq) {
        return slots[(int) (seq * SLOT_STRIDE) & mask];
    }

    /** Dispatcher: fills the slot of a new transaction. */
    public void dispatch(long seq, int worker, String position) {
        Slot s = slot(seq);
        SEQ.setOpaque(s, -1L);
        java.lang.invoke.VarHandle.storeStoreFence();
        s.position = position;
        s.worker = worker;
        SEQ.setRelease(s, seq);
    }

    /** Dispatcher: a transaction recovery found already applied: committed without running. */
    public void markSkipped(long seq, String position) {
        dispatch(seq, -1, position);
        markCommitted(seq);
        advance();
    }

    public boolean isCommitted(long seq) {
        return seq <= lwm.get() || slot(seq).committedSeq == seq;
    }

    /** Dispatcher thread only: the worker of a dispatched, uncommitted transaction, else -1. */
    public int workerOf(long seq) {
        if (isCommitted(seq)) {
            return -1;
        }
        Slot s = slot(seq);
        return (long) SEQ.getOpaque(s) == seq ? s.worker : -1;
    }

    /** Worker: its transaction committed. Call {@link #advance} after marking a batch. */
    public void markCommitted(long seq) {
        Slot s = slot(seq);
        s.committedSeq = seq;
        if (s.hasWaiters) {
            s.wakeAll();
        }
    }

    /** Moves the LWM over every committed transaction that follows it. Lock-free; safe from any number of threads. */
    public void advance() {
        long l = lwm.get();
        long advancedTo = -1;
        String advancedPos = null;
        for (;;) {
            long n = l + 1;
            Slot s = slot(n);
            if (s.committedSeq != n) {
                break;
            }
            // Read before the CAS: until the LWM passes n, the dispatcher cannot reuse this slot.
            String pos = s.position;
            if (!lwm.compareAndSet(l, n)) {
                l = lwm.get();
                continue;
            }
            l = n;
            advancedTo = n;
            advancedPos = pos;
            if (s.hasWaiters) {
                s.wakeAll();
            }
            Mark p = published.get();
            if (n - p.sequence() >= groupSize) {
                publish(n, pos, System.nanoTime());
            }
        }
        if (advancedTo >= 0) {
            long now = System.nanoTime();
            Mark p = published.get();
            if (advancedTo > p.sequence() && now - p.publishedAtNanos() >= periodNanos) {
                publish(advancedTo, advancedPos, now);
            }
            onAdvance.run();
        }
    }

    private void publish(long seq, String pos, long now) {
        Mark next = new Mark(seq, pos, now);
        for (;;) {
            Mark cur = published.get();
            if (cur.sequence() >= seq || published.compareAndSet(cur, next)) {
                return;
            }
        }
    }

    /**
     * Publishes the current LWM if it is ahead of the published one (checkpoint thread, or any thread once workers are
     * stopped). Reads the slot like a seqlock so a concurrent reuse is detected; returns the published mark.
     */
    public Mark publishCurrent() {
        for (int attempt = 0; attempt < 8; attempt++) {
            long l = lwm.get();
            Mark p = published.get();
            if (l <= p.sequence()) {
                return p;
            }
            Slot s = slot(l);
            long before = (long) SEQ.getAcquire(s);
            String pos = s.position;
            java.lang.invoke.VarHandle.loadLoadFence();
            long after = (long) SEQ.getAcquire(s);
            if (before == l && after == l && lwm.get() >= l) {
                publish(l, pos, System.nanoTime());
                return published.get();
            }
        }
        return published.get();
    }

    /**
     * Parks until the transaction {@code seq} committed, the deadline passes or {@code halted} turns true.
     *
     * @return true when committed
     */
    public boolean awaitCommitted(long seq, long deadlineNanos, java.util.function.BooleanSupplier halted) {
        return await(seq, false, deadlineNanos, halted);
    }

    /** Parks until the LWM reached {@code seq}; see {@link #awaitCommitted}. */
    public boolean awaitLwm(long seq, long deadlineNanos, java.util.function.BooleanSupplier halted) {
        return await(seq, true, deadlineNanos, halted);
    }

    private boolean await(long seq, boolean forLwm, long deadlineNanos, java.util.function.BooleanSupplier halted) {
        Thread me = Thread.currentThread();
        Slot s = slot(seq);
        for (;;) {
            if (forLwm ? lwm.get() >= seq : isCommitted(seq)) {
                return true;
            }
            if (halted.getAsBoolean()) {
                return false;
            }
            // Register first, then re-check: the committer marks first, then looks for waiters.
            s.addWaiter(me);
            if (forLwm ? lwm.get() >= seq : isCommitted(seq)) {
                return true;
            }
            if ((long) SEQ.getAcquire(s) != seq && lwm.get() >= seq) {
                return true;
            }
            if (deadlineNanos == Long.MAX_VALUE) {
                LockSupport.park(this);
            } else {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return forLwm ? lwm.get() >= seq : isCommitted(seq);
                }
                LockSupport.parkNanos(this, left);
            }
        }
    }

    /** Wakes every thread parked on any slot (abort, failure): they re-check their halted condition. */
    public void wakeEveryone() {
        for (Slot s : slots) {
            if (s.hasWaiters) {
                s.wakeAll();
            }
        }
    }
}
