package io.lanes.binlog;

/**
 * ROTATE (4): the log continues in another file.
 *
 * @param nextPosition the offset at which to start reading {@code nextFile} (4 for a whole file)
 * @param nextFile the next log file's name
 */
public record RotateEvent(EventHeader header, long nextPosition, String nextFile) implements BinlogEvent {
}
