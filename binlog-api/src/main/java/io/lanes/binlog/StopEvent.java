package io.lanes.binlog;

/** STOP (3): the server shut down cleanly; the log ends here. */
public record StopEvent(EventHeader header) implements BinlogEvent {
}
