package io.lanes.binlog;

import java.util.Map;

/**
 * VIEW_CHANGE (37): a Group Replication membership change, with the certification information at that point.
 *
 * @param certificationInfo certification database entries (key to GTID set text)
 */
public record ViewChangeEvent(EventHeader header, String viewId, long sequenceNumber, Map<String, String> certificationInfo)
        implements BinlogEvent {
    public ViewChangeEvent {
        certificationInfo = Map.copyOf(certificationInfo);
    }
}
