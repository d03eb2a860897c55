package io.lanes.binlog.gtid;

import java.util.Objects;
import java.util.UUID;

/**
 * A MySQL GTID: source UUID, optional tag (MySQL 8.4+, lower-case), transaction number.
 *
 * @param sourceId the originating server's UUID
 * @param tag the tag, or {@code null} for an untagged GTID
 * @param gno the transaction number, 1-based
 */
public record MySqlGtid(UUID sourceId, String tag, long gno) implements Gtid {
    public MySqlGtid {
        Objects.requireNonNull(sourceId, "sourceId");
    }

    @Override
    public String toString() {
        return tag == null ? sourceId + ":" + gno : sourceId + ":" + tag + ":" + gno;
    }
}
