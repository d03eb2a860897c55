package io.lanes.binlog;

/** MariaDB BINLOG_CHECKPOINT (161): the oldest log file still needed for crash recovery. */
public record MariaBinlogCheckpointEvent(EventHeader header, String binlogFile) implements BinlogEvent {
}
