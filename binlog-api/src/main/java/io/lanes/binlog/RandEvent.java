package io.lanes.binlog;

/** RAND (13): the RAND() seeds for the statement that follows. */
public record RandEvent(EventHeader header, long seed1, long seed2) implements BinlogEvent {
}
