package io.lanes.binlog;

/** DELETE_FILE (11): the LOAD DATA file {@code fileId} is no longer needed (the statement failed on the source). */
public record DeleteFileEvent(EventHeader header, long fileId) implements BinlogEvent {
}
