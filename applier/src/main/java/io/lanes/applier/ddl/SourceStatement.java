package io.lanes.applier.ddl;

import java.time.Instant;
import java.util.Objects;

/**
 * A statement from the source's binlog (a QUERY event) with the session context the source ran it in. Immutable.
 *
 * @param sql the statement text
 * @param defaultSchema the session's default database ({@code USE db}), or {@code null}
 * @param sqlMode the session's sql_mode bits as logged (ANSI_QUOTES and NO_BACKSLASH_ESCAPES change how the text reads)
 * @param collationConnection the session's collation_connection id, or {@code null} when not logged
 * @param collationServer the session's collation_server id (the default of CREATE DATABASE), or {@code null}
 * @param timestamp the source's statement time (what NOW() and CURRENT_TIMESTAMP defaults saw), or {@code null}
 * @param timeZone the session's time_zone when logged (e.g. {@code SYSTEM}, {@code +02:00}), or {@code null}
 * @param position where the statement is in the source (e.g. {@code bin.000001:1234}), for error messages; may be null
 * @param variables INSERT_ID, LAST_INSERT_ID, RAND seeds and user variables of a statement-based statement
 */
public record SourceStatement(String sql, String defaultSchema, long sqlMode, Integer collationConnection,
        Integer collationServer, Instant timestamp, String timeZone, String position, SessionVariables variables)
        implements io.lanes.applier.Change {

    public SourceStatement {
        Objects.requireNonNull(sql, "sql");
        variables = variables == null ? SessionVariables.NONE : variables;
    }

    /** A statement with a default database and no other context. */
    public static SourceStatement of(String sql, String defaultSchema) {
        return new SourceStatement(sql, defaultSchema, 0, null, null, null, null, null, SessionVariables.NONE);
    }

    /**
     * The statement for error messages and logs: passwords hidden ({@link io.lanes.binlog.SqlSecrets}), at most 300
     * characters, control characters shown as spaces.
     */
    public String abbreviated() {
        String flat = io.lanes.binlog.SqlSecrets.redact(sql.replaceAll("\\s+", " ").trim());
        return flat.length() <= 300 ? flat : flat.substring(0, 297) + "...";
    }
}
