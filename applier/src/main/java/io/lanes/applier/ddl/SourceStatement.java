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
 * @param flags2 the QUERY event's {@code flags2} status variable: the session's option bits the source logs with each
 *     statement ({@link #OPTION_NO_FOREIGN_KEY_CHECKS}, {@link #OPTION_RELAXED_UNIQUE_CHECKS}, ...); 0 when not logged
 */
public record SourceStatement(String sql, String defaultSchema, long sqlMode, Integer collationConnection,
        Integer collationServer, Instant timestamp, String timeZone, String position, SessionVariables variables,
        long flags2) implements io.lanes.applier.Change {

    /** flags2 bit: the session ran with {@code foreign_key_checks=0} (MySQL and MariaDB {@code OPTION_NO_FOREIGN_KEY_CHECKS}). */
    public static final long OPTION_NO_FOREIGN_KEY_CHECKS = 1L << 26;
    /** flags2 bit: the session ran with {@code unique_checks=0} ({@code OPTION_RELAXED_UNIQUE_CHECKS}). */
    public static final long OPTION_RELAXED_UNIQUE_CHECKS = 1L << 27;

    public SourceStatement {
        Objects.requireNonNull(sql, "sql");
        variables = variables == null ? SessionVariables.NONE : variables;
    }

    /** A statement whose session option bits were not logged (flags2 0: foreign key and unique checks on). */
    public SourceStatement(String sql, String defaultSchema, long sqlMode, Integer collationConnection,
            Integer collationServer, Instant timestamp, String timeZone, String position, SessionVariables variables) {
        this(sql, defaultSchema, sqlMode, collationConnection, collationServer, timestamp, timeZone, position, variables,
                0);
    }

    /** Whether the source session checked foreign keys ({@code foreign_key_checks=1}) when it ran the statement. */
    public boolean foreignKeyChecks() {
        return (flags2 & OPTION_NO_FOREIGN_KEY_CHECKS) == 0;
    }

    /** Whether the source session checked unique keys ({@code unique_checks=1}) when it ran the statement. */
    public boolean uniqueChecks() {
        return (flags2 & OPTION_RELAXED_UNIQUE_CHECKS) == 0;
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
        return io.lanes.applier.internal.FailureMessages.abbreviate(flat, 300);
    }
}
