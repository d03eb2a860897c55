package io.lanes.binlog;

import java.util.List;

/**
 * The status variables of a QUERY event: the session state the statement ran with. A field is {@code null} when the event
 * does not carry that variable. Parsing stops, as the server's own does, at the first code it does not know (codes are
 * written in increasing order); {@link #firstUnknownCode()} says which, or -1.
 *
 * @param flags2 Q_FLAGS2 (0): OPTION_AUTO_IS_NULL, OPTION_NOT_AUTOCOMMIT, OPTION_NO_FOREIGN_KEY_CHECKS, ...
 * @param sqlMode Q_SQL_MODE (1)
 * @param catalog Q_CATALOG (2) or Q_CATALOG_NZ (6)
 * @param autoIncrementIncrement Q_AUTO_INCREMENT (3)
 * @param autoIncrementOffset Q_AUTO_INCREMENT (3)
 * @param charsetClient Q_CHARSET (4): character_set_client
 * @param collationConnection Q_CHARSET (4): collation_connection
 * @param collationServer Q_CHARSET (4): collation_server
 * @param timeZone Q_TIME_ZONE (5)
 * @param lcTimeNames Q_LC_TIME_NAMES (7)
 * @param charsetDatabase Q_CHARSET_DATABASE (8)
 * @param tableMapForUpdate Q_TABLE_MAP_FOR_UPDATE (9)
 * @param masterDataWritten Q_MASTER_DATA_WRITTEN (10)
 * @param invokerUser Q_INVOKER (11)
 * @param invokerHost Q_INVOKER (11)
 * @param updatedDbNames Q_UPDATED_DB_NAMES (12); an empty list when the server wrote "more than 16" (254)
 * @param microseconds Q_MICROSECONDS (13)
 * @param explicitDefaultsForTimestamp Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP (16)
 * @param ddlXid Q_DDL_LOGGED_WITH_XID (17)
 * @param defaultCollationForUtf8mb4 Q_DEFAULT_COLLATION_FOR_UTF8MB4 (18)
 * @param sqlRequirePrimaryKey Q_SQL_REQUIRE_PRIMARY_KEY (19)
 * @param defaultTableEncryption Q_DEFAULT_TABLE_ENCRYPTION (20)
 * @param hrnowMicroseconds MariaDB Q_HRNOW (128): the microseconds of the statement's start time
 * @param mariaXid MariaDB Q_XID (129)
 * @param mariaGtidFlags3 MariaDB Q_GTID_FLAGS3 (130)
 * @param mariaStartAlterSeqNo MariaDB Q_GTID_FLAGS3 (130): the START ALTER sequence number for COMMIT/ROLLBACK ALTER
 * @param firstUnknownCode the first status variable code this library (and the server) does not know, or -1
 */
public record QueryStatusVars(
        Long flags2, Long sqlMode, String catalog, Integer autoIncrementIncrement, Integer autoIncrementOffset,
        Integer charsetClient, Integer collationConnection, Integer collationServer, String timeZone, Integer lcTimeNames,
        Integer charsetDatabase, Long tableMapForUpdate, Long masterDataWritten, String invokerUser, String invokerHost,
        List<String> updatedDbNames, Integer microseconds, Boolean explicitDefaultsForTimestamp, Long ddlXid,
        Integer defaultCollationForUtf8mb4, Integer sqlRequirePrimaryKey, Integer defaultTableEncryption,
        Integer hrnowMicroseconds, Long mariaXid, Integer mariaGtidFlags3, Long mariaStartAlterSeqNo, int firstUnknownCode) {

    public static final QueryStatusVars NONE = new QueryStatusVars(null, null, null, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, -1);

    public QueryStatusVars {
        updatedDbNames = updatedDbNames == null ? null : List.copyOf(updatedDbNames);
    }
}
