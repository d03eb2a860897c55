package io.lanes.binlog;

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
        if (!(other instanceof TransactionContextEvent o)) {
            return false;
        }
        return java.util.Objects.equals(header, o.header)
                && java.util.Objects.equals(serverUuid, o.serverUuid)
                && threadId == o.threadId
                && gtidSpecified == o.gtidSpecified
                && java.util.Arrays.equals(encodedSnapshotVersion, o.encodedSnapshotVersion)
                && java.util.Objects.equals(writeSet, o.writeSet)
                && java.util.Objects.equals(readSet, o.readSet);
    }

    @Override
    public int hashCode() {
        int h = 1;
        h = 31 * h + java.util.Objects.hashCode(header);
        h = 31 * h + java.util.Objects.hashCode(serverUuid);
        h = 31 * h + Long.hashCode(threadId);
        h = 31 * h + Boolean.hashCode(gtidSpecified);
        h = 31 * h + java.util.Arrays.hashCode(encodedSnapshotVersion);
        h = 31 * h + java.util.Objects.hashCode(writeSet);
        h = 31 * h + java.util.Objects.hashCode(readSet);
        return h;
    }
}
