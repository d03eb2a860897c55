package io.lanes.binlog;

import java.util.List;

/**
 * LOAD (6) and NEW_LOAD (12): a LOAD DATA INFILE statement in the pre-5.0 format (the file's data travels in
 * CREATE_FILE / APPEND_BLOCK events).
 *
 * @param fieldTerminator FIELDS TERMINATED BY
 * @param enclosedBy FIELDS ENCLOSED BY
 * @param lineTerminator LINES TERMINATED BY
 * @param lineStart LINES STARTING BY
 * @param escapedBy FIELDS ESCAPED BY
 * @param optionFlags OPT_ENCLOSED, REPLACE, IGNORE flags as logged
 */
public record LoadEvent(EventHeader header, long threadId, long executionTime, long skipLines, String table,
        String database, List<String> fieldNames, String fileName, String fieldTerminator, String enclosedBy,
        String lineTerminator, String lineStart, String escapedBy, int optionFlags) implements BinlogEvent {
    public LoadEvent {
        fieldNames = List.copyOf(fieldNames);
    }
}
