package io.lanes.binlog;

/** ROWS_QUERY (29): the SQL text of the statement whose row events follow (binlog_rows_query_log_events=ON). */
public record RowsQueryEvent(EventHeader header, String query) implements BinlogEvent {
}
