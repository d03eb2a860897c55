package io.lanes.core.internal;

/**
 * A single-producer single-consumer unbounded linked queue of {@link Task}s, linked through the tasks themselves (no
 * allocation per element). The producer is the dispatching thread, the consumer one worker. Bounds are enforced by the
 * engine (per-worker limit, byte budget, checkpoint window), not here.
 *
 * <p>The consumer's and the producer's ends sit on cache lines of their own (padding through superclasses, whose fields
 * the JVM lays out first): each end is written once per transaction by its own thread, and on a shared line the two
 * threads would take it from each other at every transaction. (Measured together with the engine's other such changes,
 * docs/benchmarks-core.md "Session 5"; this one alone could not be told apart from the machine's noise.)
 */
final class TaskQueue<P> extends TaskQueueProducerEnd<P> {
    @SuppressWarnings("unused")
    private long q0, q1, q2, q3, q4, q5, q6, q7;

    TaskQueue() {
        Task<P> stub = new Task<>();
        consumed = stub;
        last = stub;
    }

    /** Producer only. The volatile link write publishes the task's fields to the consumer. */
    void offer(Task<P> t) {
        Task<P> prev = last;
        last = t;
        prev.next(t);
    }

    /** Consumer only. */
    Task<P> peek() {
        return consumed.next();
    }

    /**
     * Consumer only: removes the head returned by {@link #peek}. The task taken before it is unlinked: the producer is
     * done with it (it linked {@code head} to it), and a link left in place would let one task that reached the old
     * generation keep every task queued after it alive through young collections (measured: a no-op stream's heap grew
     * to 1.5 GB within seconds, with young pauses of 750 ms, whenever one task had been promoted).
     */
    void remove(Task<P> head) {
        Task<P> previous = consumed;
        consumed = head;
        previous.unlink();
    }
}

/** Padding before the consumer's end. */
abstract class TaskQueueLeftPad {
    @SuppressWarnings("unused")
    private long p0, p1, p2, p3, p4, p5, p6, p7;
}

/** The consumer's end: the last task taken (or the initial stub); its successor is the head. */
abstract class TaskQueueConsumerEnd<P> extends TaskQueueLeftPad {
    Task<P> consumed;
}

/** Padding between the two ends. */
abstract class TaskQueueMiddlePad<P> extends TaskQueueConsumerEnd<P> {
    @SuppressWarnings("unused")
    private long m0, m1, m2, m3, m4, m5, m6, m7;
}

/** The producer's end: the last task offered. */
abstract class TaskQueueProducerEnd<P> extends TaskQueueMiddlePad<P> {
    Task<P> last;
}
