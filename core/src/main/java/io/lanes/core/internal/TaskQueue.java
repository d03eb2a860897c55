package io.lanes.core.internal;

/**
 * A single-producer single-consumer unbounded linked queue of {@link Task}s, linked through the tasks themselves (no
 * allocation per element). The producer is the dispatching thread, the consumer one worker. Bounds are enforced by the
 * engine (per-worker limit, byte budget, checkpoint window), not here.
 */
final class TaskQueue<P> {
    /** Consumer side: the last task taken (or the initial stub); its successor is the head. */
    private Task<P> consumed;
    /** Producer side: the last task offered. */
    private Task<P> last;

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
