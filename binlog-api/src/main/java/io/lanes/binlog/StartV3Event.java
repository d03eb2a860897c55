package io.lanes.binlog;

/** START_EVENT_V3 (1): the first event of binlog format v1 and v3 logs (MySQL 3.23 and 4.x). */
public record StartV3Event(EventHeader header, int binlogVersion, String serverVersion, long createTimestamp)
        implements BinlogEvent {
}
