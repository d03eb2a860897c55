package io.lanes.binlog;

/**
 * HEARTBEAT (27) and HEARTBEAT_V2 (41): sent by a source to an idle replica; never written to a file.
 *
 * @param logFile the source's current log file
 * @param logPosition the source's position in it (v1: the header's next position; v2: the logged 64-bit position)
 */
public record HeartbeatEvent(EventHeader header, String logFile, long logPosition) implements BinlogEvent {
}
