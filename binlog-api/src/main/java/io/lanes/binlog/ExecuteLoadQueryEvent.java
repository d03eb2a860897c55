package io.lanes.binlog;

/**
 * EXECUTE_LOAD_QUERY (18): the LOAD DATA statement for the file sent in BEGIN_LOAD_QUERY / APPEND_BLOCK events. The file
 * name in {@link #sql()} lies between {@link #fileNameStart()} and {@link #fileNameEnd()} (byte offsets in the statement).
 *
 * @param duplicateHandling 0 ERROR, 1 IGNORE, 2 REPLACE
 */
public record ExecuteLoadQueryEvent(EventHeader header, long threadId, long executionTime, int errorCode, String database,
        String sql, QueryStatusVars statusVars, long fileId, long fileNameStart, long fileNameEnd, int duplicateHandling)
        implements BinlogEvent {
}
