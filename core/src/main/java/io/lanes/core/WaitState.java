package io.lanes.core;

/**
 * What a worker, or the dispatching thread, is doing right now. The {@link #description()} mirrors the names MySQL shows
 * for its replica coordinator and workers, so operators can read them the same way.
 */
public enum WaitState {
    /** A worker with nothing queued. */
    IDLE("Waiting for an event from Coordinator"),
    /** A worker inside {@link Applier#apply} or {@link Applier#commit}. */
    APPLYING("Applying transaction"),
    /** A worker whose next transaction waits for a transaction it depends on. */
    WAITING_FOR_DEPENDENCY("Waiting for dependent transaction to commit"),
    /** A worker that applied a transaction and waits for earlier ones to commit (commit order). */
    WAITING_FOR_COMMIT_ORDER("Waiting for preceding transaction to commit"),
    /** A worker that failed and waits for its back-off before retrying. */
    RETRYING("Waiting to retry transaction after a failure"),
    /** A worker that has exited. */
    STOPPED("Worker stopped"),
    /** The dispatching thread outside {@link Engine#submit}. */
    WAITING_FOR_SOURCE("Waiting for the next transaction from the source"),
    /** The dispatching thread inside {@link Engine#submit}, scheduling. */
    DISPATCHING("Scheduling transaction"),
    /** The dispatching thread waiting for a worker's queue to have room. */
    WAITING_FOR_WORKER_QUEUE("Waiting for Replica Worker queue"),
    /** The dispatching thread waiting for the queued-bytes budget. */
    WAITING_FOR_MEMORY("Waiting for Replica Workers to free pending events"),
    /** The dispatching thread waiting because it is a whole checkpoint group ahead of the low-water mark. */
    WAITING_FOR_CHECKPOINT_GROUP("Waiting for workers to process queue");

    private final String description;

    WaitState(String description) {
        this.description = description;
    }

    /** The MySQL-style name of this state. */
    public String description() {
        return description;
    }
}
