package io.lanes.core;

/**
 * Applies transactions to a target for one worker. One instance per worker, created by {@link ApplierFactory#create}.
 *
 * <p>Threading: every method of an instance but {@link #targetSession()} is called by its worker's thread only (with 0 workers, by the dispatching
 * thread), never concurrently; an instance may therefore hold a connection and an open target transaction.
 *
 * <p>Protocol (block commit): a worker calls {@link #apply} for one or more consecutive transactions of its queue, then
 * {@link #commit} once for all of them (a "batch"), or {@link #rollback} to undo everything applied since the last
 * commit. {@link ApplyContext#endOfBatch()} true means a commit follows that apply immediately; it is true on the last
 * apply of a worker's batch, but with 0 workers a batch kept open across submits may also end later (a flush, the
 * checkpoint period, a barrier), after an apply that said false, so {@link #commit} must itself flush anything the
 * applier still buffers.
 * Every transaction of a batch has its dependencies committed or earlier in the same batch: applying them in one target
 * transaction in the given order is equivalent to applying them one by one.
 *
 * <p>Exactly-once: {@link #commit} receives the worker's {@link Checkpoint}; storing it in the same target transaction
 * as the data (or letting {@link CheckpointStore#saveWorkerCheckpoint}, called just before, do so) is what lets
 * {@link RecoveryPoint} know after a crash exactly which transactions were applied. The engine marks the batch done only
 * after commit returns normally; an exception from any method is retried (after a rollback) and finally stops the engine,
 * unless {@link #isRetryable} says a retry cannot help, which stops the engine at once.
 *
 * <p>Happens-before: the commit of a transaction happens-before the apply of any transaction that depends on it, on any
 * worker, and (with {@link CommitOrder#STRICT}) before the commit of any later transaction.
 *
 * @param <P> the transaction payload type
 */
public interface Applier<P> extends AutoCloseable {
    /** Applies one transaction into the open target transaction (opening one when needed). */
    void apply(Transaction<P> txn, ApplyContext context) throws Exception;

    /**
     * Commits everything applied since the last commit or rollback.
     *
     * @param batch the transactions being committed, in the order they were applied
     * @param checkpoint this worker's checkpoint including this batch, to store in the same target transaction
     */
    void commit(Batch<P> batch, Checkpoint checkpoint) throws Exception;

    /** Undoes everything applied since the last commit (after a failure, a commit-order deadlock, or on abort). */
    void rollback(Batch<P> batch) throws Exception;

    /**
     * Whether retrying the batch can help after this failure (a lost connection, a deadlock, a lock-wait timeout can; a
     * constraint violation on a diverged target cannot). On false the worker rolls back and the engine stops at once,
     * reporting the failing transaction, instead of spending its retries and back-off. Called by the worker's thread
     * after the failure, before the rollback. The default retries everything.
     */
    default boolean isRetryable(Throwable failure) {
        return true;
    }

    /**
     * This applier's session in the target (MariaDB/MySQL {@code CONNECTION_ID()}, PostgreSQL {@code pg_backend_pid()},
     * H2 {@code SESSION_ID()}), or -1 when it has none open or cannot tell. Used with {@link #sessionsWaitingForThis()}
     * to find which worker waits for a lock this applier holds.
     *
     * <p>Threading: unlike the other methods, called by <em>any</em> worker's thread, concurrently with this applier's
     * own calls (while its worker is blocked inside {@link #apply}): it must be safe to call at any time and must not
     * block (return a volatile field set when the session opens).
     */
    default long targetSession() {
        return -1;
    }

    /**
     * Commit-order deadlock detection: the target sessions whose current statement waits for a lock that this applier's
     * open transaction holds, directly or through other waiting sessions (an earlier transaction may wait for a later
     * one that itself waits for this one), as the target's own lock views tell it (MariaDB
     * {@code information_schema.INNODB_LOCK_WAITS}, MySQL {@code performance_schema.data_lock_waits}, PostgreSQL
     * {@code pg_blocking_pids()}, H2 {@code INFORMATION_SCHEMA.SESSIONS.BLOCKER_ID}).
     *
     * <p>Called by the worker's own thread, with its batch applied and not committed, while that batch waits for earlier
     * transactions to commit (commit order) and a worker applying an earlier transaction has been busy for a while. When
     * one of the returned sessions is such a worker's ({@link #targetSession()}), neither can go on: the engine rolls
     * this batch back (never the earlier one), lets the earlier commit, applies the batch again and counts it in
     * {@link EngineStats#commitOrderDeadlocksBroken()}. It must not change the open transaction.
     *
     * @return the waiting sessions (empty when none); null when this applier cannot tell (the default), in which case
     *     only {@link Engine.Builder#commitOrderTimeout} breaks such a deadlock
     * @throws Exception when the lookup failed; the engine then stops asking this applier (it logs why) and relies on
     *     the timeout
     */
    default long[] sessionsWaitingForThis() throws Exception {
        return null;
    }

    /** Releases resources; called once by the worker's thread when it exits. */
    @Override
    default void close() throws Exception {
    }
}
