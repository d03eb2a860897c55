package io.lanes.core.internal;

/**
 * What a worker may ask of the engine it works for: report a failure, learn whether to stop, give back the bytes of the
 * transactions it committed and tell the dispatching thread that the low-water mark may have moved. A {@link Worker}
 * reaches the engine through this handle only; the rest of what it is given ({@link WorkerSetup}) is immutable or owned
 * by another part (the window, the placement estimates, the counters).
 *
 * <p>Threads: every method is called by a worker: on its own thread, or with 0 workers on the dispatching thread (the
 * {@link InlineExecutor}); any number of workers call at once, so each method is thread-safe.
 */
interface WorkerHost {
    /**
     * Stops the engine after a failure; the first failure reported wins and halts every worker.
     *
     * @param seq the failing transaction's sequence number, or -1 when none
     * @param position the failing transaction's position, or null
     */
    void fail(long seq, String position, int worker, String message, Throwable cause);

    /** True once the engine halted after a failure (or an abort): a worker rolls back its open batch and returns. */
    boolean halted();

    /** True once the engine shuts down: a worker whose queue is empty returns. */
    boolean workersMayExit();

    /**
     * True while the dispatching thread waits for the workers (for room in the queue budget, in a worker's queue or in
     * the checkpoint group): a commit may be what it waits for.
     */
    boolean dispatcherWaits();

    /** Gives back the queue-budget bytes charged for transactions this worker just committed; called once per commit. */
    void release(long bytes);

    /** After a commit moved the window: wakes the dispatching thread if it waits for the low-water mark or memory. */
    void wakeDispatcherIfWaiting();
}
