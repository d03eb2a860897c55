package io.lanes.binlog;

/** The event checksum algorithm a FORMAT_DESCRIPTION event announces ({@code binlog_checksum}). */
public enum ChecksumAlgorithm {
    /** binlog_checksum=NONE: events carry no checksum (the FORMAT_DESCRIPTION event still has 4 unused trailing bytes). */
    OFF,
    /** binlog_checksum=CRC32: every event ends with a CRC32 (ISO-HDLC) of all its other bytes. */
    CRC32,
    /** A log written before checksums existed (MySQL before 5.6.1, MariaDB before 5.3): no algorithm byte, no checksum. */
    UNDEFINED;

    /** Bytes this algorithm appends to each event. */
    public int trailerLength() {
        return this == CRC32 ? 4 : 0;
    }
}
