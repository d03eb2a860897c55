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

    /** Consumer only: removes the head returned by {@link #peek}. */
    void remove(Task<P> head) {
        consumed = head;
    }
}
