package io.lanes.binlog.replication;

/**
 * Receives a replication stream's events, one at a time and in stream order: on the thread the consumer chose (see
 * {@link ReplicationClient#deliverTo(ReplicationListener, java.util.concurrent.Executor)}), or on the network thread as
 * they are read when the consumer asked for that ({@link ReplicationClient#deliverInline}).
 * While {@link #onEvent} runs, no further event is delivered; a slow listener slows the network reads down
 * (backpressure), it never makes the client buffer more than its byte budget.
 */
public interface ReplicationListener {
    /** One event. Throwing stops the stream and is reported to {@link #onError} as {@link ReplicationException.Kind#LISTENER}. */
    void onEvent(ReplicationEvent event) throws Exception;

    /** The stream ended for good (after every event before the failure was delivered). */
    default void onError(ReplicationException error) {
    }
}
