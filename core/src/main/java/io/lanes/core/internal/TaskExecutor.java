package io.lanes.core.internal;

import io.lanes.core.WorkerStats;
import java.util.List;

/**
 * Where the engine's tasks are applied, chosen once when the engine starts: {@link WorkerThreads} (worker threads, each
 * with its queue, fed by the dispatching thread) or {@link InlineExecutor} (0 workers: one applier on the dispatching
 * thread itself). {@link EngineRuntime} numbers, orders and accounts for the transactions the same way for both and
 * dispatches through this interface; the executor applies them and commits.
 *
 * <p>Threads: {@link #start} on the thread starting the engine; {@link #execute}, {@link #hasRoom} and
 * {@link #dispatcherParked} on the dispatching thread; {@link #commitHeld} on the dispatching thread, or on the thread
 * stopping the engine once no submit can run; {@link #drain} and {@link #close} on the thread stopping the engine
 * ({@link #close} under the runtime's lock, once); {@link #wakeAll} and {@link #addWorkerStats} on any thread.
 */
interface TaskExecutor<P> {
    /**
     * Makes the executor ready before the first task: the inline applier is created, or worker 0 is started (so that a
     * target refusing connections fails the start) and the scheduler initialised.
     *
     * @throws InterruptedException when the starting thread was interrupted while waiting for worker 0
     * @throws io.lanes.core.ApplierFailedException when the inline applier could not be created
     */
    void start() throws InterruptedException;

    /**
     * Applies or queues one task the runtime has numbered and accounted for; the runtime records it as dispatched
     * ({@link EngineRuntime#dispatched}) once its worker is known. The one executor call per transaction.
     *
     * @param placedWorker the worker the scheduler placed it on, or -1 when it left the choice to the engine
     * @throws RuntimeException what {@code submit} throws when the engine failed meanwhile
     */
    void execute(Task<P> task, int placedWorker);

    /**
     * Commits what the dispatching thread itself holds open (the inline executor's open block-commit batch), which
     * holds the low-water mark and the queued bytes back and which no other thread can commit. Workers commit on their
     * own: nothing to do.
     *
     * @return false when the engine failed
     */
    boolean commitHeld();

    /** Whether {@code worker}'s queue has room for one more task; asked while the dispatcher waits for that. */
    boolean hasRoom(int worker);

    /** The dispatching thread was parked (a wait): choices it made before are stale. */
    void dispatcherParked();

    /**
     * Returns once every task up to {@code lastDispatched} committed, or the engine halted; an inline executor has
     * committed everything in {@link #commitHeld} by then.
     *
     * @throws InterruptedException when the stopping thread was interrupted while waiting (the runtime then aborts)
     */
    void drain(long lastDispatched) throws InterruptedException;

    /** The engine halted: wakes every thread of this executor that may be parked, so that it sees it. */
    void wakeAll();

    /**
     * Shutdown, after the runtime let workers exit: wakes and waits for every worker thread (one never started can no
     * longer start); the inline executor rolls back its open batch when {@code rollback}, and closes its applier.
     */
    void close(boolean rollback);

    /** Appends a snapshot of each worker's counters, in worker order (read racily: each field once). */
    void addWorkerStats(List<WorkerStats> out);
}
