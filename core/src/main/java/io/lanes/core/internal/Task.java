package io.lanes.core.internal;

import io.lanes.core.Transaction;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One dispatched transaction with what its worker must wait for; also the link of its worker's intrusive queue.
 * Written by the dispatcher before it is queued, read by the worker after it is polled (the queue's volatile link is
 * the hand-off: everything the dispatcher wrote before {@code offer} is visible to the worker after {@code peek}).
 */
final class Task<P> {
    static final long[] NONE = new long[0];
    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(Task.class, "next", Task.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    Transaction<P> txn;
    long seq;
    long bytes;
    boolean barrier;
    /** Must have committed (or sit earlier in the same batch) before this starts. */
    long[] startDeps = NONE;
    /** Every transaction up to this must have committed before this starts; 0 for none. */
    long startLwm;
    /** Must have committed before this commits (commit order). */
    long[] commitDeps = NONE;
    /** Every transaction up to this must have committed before this commits; 0 for none. */
    long commitLwm;
    @SuppressWarnings("unused")
    private volatile Task<P> next;

    @SuppressWarnings("unchecked")
    Task<P> next() {
        return (Task<P>) NEXT.getVolatile(this);
    }

    void next(Task<P> t) {
        NEXT.setVolatile(this, t);
    }

    /** The consumer, once it took this task's successor: the producer never touches this task again. */
    void unlink() {
        NEXT.setOpaque(this, (Task<P>) null);
    }
}
