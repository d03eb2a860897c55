package io.lanes.binlog;

import io.lanes.binlog.internal.ByteArrayRecords;
import java.util.List;

/**
 * TRANSACTION_CONTEXT (36): Group Replication's certification data for a transaction (its write set and snapshot).
 *
 * @param writeSet the write set items (hashes as the server wrote them, bytes kept as ISO-8859-1 characters)
 * @param readSet the read set items, same encoding
 */
public record TransactionContextEvent(EventHeader header, String serverUuid, long threadId, boolean gtidSpecified,
        byte[] encodedSnapshotVersion, List<String> writeSet, List<String> readSet) implements BinlogEvent {
    public TransactionContextEvent {
        encodedSnapshotVersion = encodedSnapshotVersion.clone();
        writeSet = List.copyOf(writeSet);
        readSet = List.copyOf(readSet);
    }

    @Override
    public byte[] encodedSnapshotVersion() {
        return encodedSnapshotVersion.clone();
    }

    /** Value equality, byte arrays compared by content. */
    @Override
    public boolean equals(Object other) {
        return ByteArrayRecords.equals(this, other);
    }

    @Override
    public int hashCode() {
        return ByteArrayRecords.hashCode(this);
    }
}
