package io.lanes.binlog.replication;

/**
 * What the client learned about the source server when it connected.
 *
 * @param version the server's version string ({@code @@version}), e.g. {@code 10.11.6-MariaDB-log}
 * @param mariaDb true for MariaDB, false for MySQL (and forks)
 * @param serverId {@code @@server_id}
 * @param serverUuid {@code @@server_uuid} (MySQL), or null
 * @param gtidMode {@code @@gtid_mode} (MySQL), or null
 * @param binlogRowMetadata {@code @@binlog_row_metadata} (MINIMAL or FULL), or null when the server has no such variable
 * @param binlogChecksum {@code @@global.binlog_checksum} (CRC32 or NONE)
 * @param currentGtidPosition MariaDB {@code @@gtid_binlog_pos} or MySQL {@code @@gtid_executed} at connect time, or null
 * @param endPosition the end of the server's binlog at connect time (SHOW MASTER STATUS), or null when unavailable
 * @param startGtidPosition MariaDB only, for a connection that dumps from a file position: the server's
 *     {@code BINLOG_GTID_POS(file, pos)} for that position, i.e. the last GTID of every domain written to the binlogs
 *     before it ({@code 0-1-12,1-1-3}; empty when there is none). As the server computes it: the file's GTID_LIST (the
 *     domains of all earlier files) plus every GTID event in the file before the position, so a position inside a
 *     transaction counts that transaction. Null for MySQL, for a GTID start, or when the server refused the function
 *     (an error answer; then nothing is known). A position the server does not know fails the connection instead,
 *     {@link ReplicationException.Kind#LOG_UNAVAILABLE}: a file not, or no longer, in its binlogs with the server's
 *     own answer to the dump (error 1236), a position past the file's end or not where an event starts with a message
 *     naming BINLOG_GTID_POS.
 */
public record ServerInfo(String version, boolean mariaDb, long serverId, String serverUuid, String gtidMode,
        String binlogRowMetadata, String binlogChecksum, String currentGtidPosition,
        StartPosition.FilePosition endPosition, String startGtidPosition) {

    /** Without {@link #startGtidPosition()} (null): the form before it existed. */
    public ServerInfo(String version, boolean mariaDb, long serverId, String serverUuid, String gtidMode,
            String binlogRowMetadata, String binlogChecksum, String currentGtidPosition,
            StartPosition.FilePosition endPosition) {
        this(version, mariaDb, serverId, serverUuid, gtidMode, binlogRowMetadata, binlogChecksum, currentGtidPosition,
                endPosition, null);
    }
}
