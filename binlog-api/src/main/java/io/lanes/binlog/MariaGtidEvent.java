package io.lanes.binlog;

import io.lanes.binlog.gtid.MariaDbGtid;
import io.lanes.binlog.internal.ByteArrayRecords;

/**
 * MariaDB GTID (162): opens an event group (it replaces BEGIN), or marks a standalone one (DDL) with {@link #FL_STANDALONE}.
 * The GTID's server id is the header's.
 *
 * @param sequence the GTID sequence number
 * @param domainId the replication domain
 * @param flags FL_STANDALONE, FL_GROUP_COMMIT_ID, FL_TRANSACTIONAL, FL_ALLOW_PARALLEL, FL_WAITED, FL_DDL, FL_PREPARED_XA,
 *     FL_COMPLETED_XA
 * @param commitId the group commit id when {@link #FL_GROUP_COMMIT_ID} is set (transactions with equal ids committed
 *     together and may be applied in parallel), else -1
 * @param xaFormatId the XA format id when FL_PREPARED_XA or FL_COMPLETED_XA is set, else -1
 * @param xaGtrid the XA gtrid, or {@code null}
 * @param xaBqual the XA bqual, or {@code null}
 * @param extraFlags the extra flags byte (FL_EXTRA_MULTI_ENGINE, FL_START_ALTER, FL_COMMIT_ALTER, FL_ROLLBACK_ALTER,
 *     FL_EXTRA_THREAD_ID), 0 when absent
 * @param extraEngines the number of extra engines when FL_EXTRA_MULTI_ENGINE is set, else 0
 * @param startAlterSequence the START ALTER's sequence number for FL_COMMIT_ALTER / FL_ROLLBACK_ALTER, else -1
 * @param threadId the originating connection id when FL_EXTRA_THREAD_ID is set (MariaDB 11.5+), else -1
 */
public record MariaGtidEvent(EventHeader header, long sequence, long domainId, int flags, long commitId, long xaFormatId,
        byte[] xaGtrid, byte[] xaBqual, int extraFlags, int extraEngines, long startAlterSequence, long threadId)
        implements BinlogEvent {
    public static final int FL_STANDALONE = 0x01;
    public static final int FL_GROUP_COMMIT_ID = 0x02;
    public static final int FL_TRANSACTIONAL = 0x04;
    public static final int FL_ALLOW_PARALLEL = 0x08;
    public static final int FL_WAITED = 0x10;
    public static final int FL_DDL = 0x20;
    public static final int FL_PREPARED_XA = 0x40;
    public static final int FL_COMPLETED_XA = 0x80;
    public static final int FL_EXTRA_MULTI_ENGINE = 0x01;
    public static final int FL_START_ALTER = 0x02;
    public static final int FL_COMMIT_ALTER = 0x04;
    public static final int FL_ROLLBACK_ALTER = 0x08;
    public static final int FL_EXTRA_THREAD_ID = 0x10;

    public MariaGtidEvent {
        xaGtrid = xaGtrid == null ? null : xaGtrid.clone();
        xaBqual = xaBqual == null ? null : xaBqual.clone();
    }

    @Override
    public byte[] xaGtrid() {
        return xaGtrid == null ? null : xaGtrid.clone();
    }

    @Override
    public byte[] xaBqual() {
        return xaBqual == null ? null : xaBqual.clone();
    }

    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }

    /** Whether the group has no terminating COMMIT/XID event (a DDL or other non-transactional statement). */
    public boolean isStandalone() {
        return hasFlag(FL_STANDALONE);
    }

    public MariaDbGtid gtid() {
        return new MariaDbGtid(domainId, header().serverId(), sequence);
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
