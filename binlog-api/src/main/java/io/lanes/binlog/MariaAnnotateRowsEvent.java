package io.lanes.binlog;

/** MariaDB ANNOTATE_ROWS (160): the SQL text of the statement whose row events follow. */
public record MariaAnnotateRowsEvent(EventHeader header, String query) implements BinlogEvent {
}
