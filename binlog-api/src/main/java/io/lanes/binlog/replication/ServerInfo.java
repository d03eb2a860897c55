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
 */
public record ServerInfo(String version, boolean mariaDb, long serverId, String serverUuid, String gtidMode,
        String binlogRowMetadata, String binlogChecksum, String currentGtidPosition,
        StartPosition.FilePosition endPosition) {
}
