package io.lanes.core;

/**
 * What a {@link Scheduler} may ask the engine. Every method is to be called on the dispatching thread only (inside
 * {@link Scheduler#schedule}); answers about other threads' progress may be stale by the time they are used, but only in
 * the safe direction: a transaction reported committed stays committed.
 */
public interface SchedulingContext {
    /**
     * Number of workers a placement may name, 0 to this less one (at least 1; the engine never calls a scheduler when it
     * applies on the dispatching thread): the configured count, or fewer for work that applies on this process's
     * processors ({@link ApplierFactory#appliesInProcess()}).
     */
    int workerCount();

    /** True when the transaction with this sequence number has committed (or was already applied before a restart). */
    boolean isCommitted(long sequence);

    /** The worker a dispatched, not yet committed transaction sits on; -1 when it has committed. */
    int workerOf(long sequence);

    /**
     * The worker where a transaction would start soonest, in O(1) (never a scan of all workers): the one with the lowest
     * expected delay among the worker chosen last, an idle worker and a few sampled ones. The expected delay is the
     * worker's queued transactions times its measured time per transaction, plus a wake-up if it is parked; a worker
     * stuck in one step far longer than usual is avoided. So cheap work packs onto few awake workers (waking a parked
     * thread costs more than it saves) and slow work spreads onto idle ones.
     */
    int leastLoadedWorker();

    /**
     * The worker for a partition key (schema) that has nothing in flight: new, or idle since its last transaction
     * committed; in O(1). Work that costs more than waking a parked thread spreads: the key's {@code previous} worker
     * when that worker has nothing in flight (affinity), else a worker with nothing in flight (so no two active keys
     * share a worker while one is free), else {@link #leastLoadedWorker()}. Cheap work (measured time per transaction
     * below both the measured wake-up time and 20 microseconds) packs: {@link #leastLoadedWorker()}, so many
     * workers cost nothing on no-op applies.
     *
     * <p>Not a pure query: a free worker it names is taken off the engine's list of idle workers (it is about to get
     * work, and goes back on the list when its queue next runs dry). Ask only where the transaction may go there.
     *
     * @param previous the worker the key's last transaction ran on, or -1 for a new key
     * @return the engine's choice; this default (for contexts other than the engine's, e.g. in tests) is
     *     {@link #leastLoadedWorker()}
     */
    default int workerForIdleKey(int previous) {
        return leastLoadedWorker();
    }

    /**
     * Whether this machine's processors had time to spare lately: at least one whole processor idle, and at most 85%
     * busy on 7 processors or more, over the last tenth of a second, every process counted, a target database on the
     * same machine included (50% busy on 2 processors, 75% on 4). A scheduler asks before it moves work that could also
     * stay where it is onto another worker: without a processor free for it the other worker cannot apply sooner, it
     * only splits the block commits. Stale by up to a tenth of a second; a hint, never a condition for correctness.
     *
     * @return the engine's reading; this default (for contexts other than the engine's) is true
     */
    default boolean processorsToSpare() {
        return true;
    }

    /** Transactions dispatched to {@code worker} and not yet committed. */
    int pendingTransactions(int worker);

    /** The low-water mark: every transaction with a sequence number at or below it has committed. */
    long lowWaterMark();

    /**
     * The order the engine commits in. Under a commit order a worker's block commit can only group transactions that
     * are consecutive in that order and queued on that worker, so a scheduler may choose to keep such runs together
     * (as {@link WritesetScheduler} does); dependencies must not depend on it.
     *
     * @return the engine's setting; this default (for contexts other than the engine's) is {@link CommitOrder#NONE}
     */
    default CommitOrder commitOrder() {
        return CommitOrder.NONE;
    }
}
