package io.lanes.binlog;

/** EXEC_LOAD (10): run the LOAD DATA statement of file {@code fileId} (pre-5.0 format). */
public record ExecLoadEvent(EventHeader header, long fileId) implements BinlogEvent {
}
