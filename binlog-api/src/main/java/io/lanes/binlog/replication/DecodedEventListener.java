package io.lanes.binlog.replication;

import io.lanes.binlog.BinlogEvent;

/**
 * Receives a replication stream's events decoded, one at a time and in stream order, on the thread the consumer chose
 * (see {@link ReplicationClient#deliverDecodedTo}), or on the network thread as they are read when the consumer asked
 * for that ({@link ReplicationClient#deliverDecodedInline}). Decoding happens on the thread that calls the listener.
 */
public interface DecodedEventListener {
    /**
     * One event: {@code event} decoded from {@code raw}. Throwing stops the stream and is reported to {@link #onError}.
     */
    void onEvent(BinlogEvent event, ReplicationEvent raw) throws Exception;

    /** The stream ended for good: a failure of the source, of decoding (kind PROTOCOL), or of this listener. */
    default void onError(ReplicationException error) {
    }
}
