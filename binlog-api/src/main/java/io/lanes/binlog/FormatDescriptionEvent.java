package io.lanes.binlog;

import io.lanes.binlog.internal.ByteArrayRecords;

/**
 * FORMAT_DESCRIPTION (15): the first event of every v4 binlog; it says how every later event is laid out (common header
 * length, post-header length of each event type) and whether events carry checksums.
 *
 * @param binlogVersion binlog format version (4 for every server since MySQL 5.0)
 * @param serverVersion the writing server's version string, e.g. {@code 8.0.28} or {@code 10.11.19-MariaDB-log}
 * @param createTimestamp seconds since the epoch when the log was created (0 unless the log is new)
 * @param headerLength the common header length (19 for v4)
 * @param checksumAlgorithm the checksum of every event after this one, and of this one itself
 */
public record FormatDescriptionEvent(EventHeader header, int binlogVersion, String serverVersion, long createTimestamp,
        int headerLength, byte[] postHeaderLengths, ChecksumAlgorithm checksumAlgorithm) implements BinlogEvent {

    public FormatDescriptionEvent {
        postHeaderLengths = postHeaderLengths.clone();
    }

    /** Post-header length of each event type, indexed by {@code typeCode - 1}. A copy. */
    @Override
    public byte[] postHeaderLengths() {
        return postHeaderLengths.clone();
    }

    /** The post-header length of an event type, or -1 when this description does not cover that type. */
    public int postHeaderLength(int typeCode) {
        return typeCode >= 1 && typeCode <= postHeaderLengths.length ? postHeaderLengths[typeCode - 1] & 0xff : -1;
    }

    /** Whether the writing server is MariaDB (its version string says so). */
    public boolean isMariaDb() {
        return serverVersion.toLowerCase(java.util.Locale.ROOT).contains("mariadb");
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
