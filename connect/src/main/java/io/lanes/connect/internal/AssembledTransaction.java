package io.lanes.connect.internal;

import io.lanes.applier.Change;
import java.util.List;

/**
 * A source transaction reassembled whole from the records of one topic-partition (or a chunk of a snapshot, or one
 * schema change). Immutable.
 *
 * @param id the source transaction id (Debezium {@code transaction.id}, the Lanes source's sequence), or null for a
 *     snapshot chunk or a schema change without one
 * @param changes its changes in source order
 * @param firstOffset the Kafka offset of its first record
 * @param nextOffset the Kafka offset just past its last record (where a restart re-reads from)
 * @param source the source position of its first change (for skipping a transaction sent twice)
 * @param snapshot true for a chunk of a snapshot
 * @param ddl true for a schema change (applied alone)
 * @param sizeBytes an estimate of the memory it holds
 * @param lanes the scheduling facts a Lanes source sent with it, or null
 */
public record AssembledTransaction(String id, List<Change> changes, long firstOffset, long nextOffset, SourceOrder source,
        boolean snapshot, boolean ddl, long sizeBytes, ChangeEvent.LanesMetadata lanes) {
}
