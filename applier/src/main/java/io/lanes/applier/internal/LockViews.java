package io.lanes.applier.internal;

import io.lanes.applier.jdbc.Dialect;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The target's own account of who waits for whose locks, for commit-order deadlock detection
 * ({@link io.lanes.core.Applier#sessionsWaitingForThis()}): the SQL that names a session, and the SQL that lists the
 * sessions whose statement waits for a lock held by the asking session's transaction.
 *
 * <ul>
 *   <li>MariaDB and MySQL 5.7: {@code information_schema.INNODB_LOCK_WAITS} joined with {@code INNODB_TRX} (needs the
 *       PROCESS privilege);
 *   <li>MySQL 8: {@code performance_schema.data_lock_waits} joined with {@code performance_schema.threads};
 *   <li>PostgreSQL: {@code pg_blocking_pids()} of the sessions with a lock not granted in {@code pg_locks} (row locks,
 *       and the transaction locks a unique-index insert waits on). Not {@code pg_stat_activity}: inside a transaction
 *       it is a snapshot taken at its first read, so a wait that began later stayed invisible;
 *   <li>H2: {@code INFORMATION_SCHEMA.SESSIONS.BLOCKER_ID}.
 * </ul>
 *
 * <p>MariaDB's (and MySQL 5.7's) {@code information_schema} lock tables are copies that the server refreshes only when
 * nobody has read them for 100 ms ({@code trx_i_s_cache}): read more often, they never change (seen on MariaDB 10.11:
 * polled every 40 ms, a lock wait of 2 s never appeared; every 110 ms, it appeared within 130 ms). Those views are
 * therefore read for the whole target at most once per {@link #minIntervalNanos} and the sample, every wait with its
 * blocking session, shared by the workers ({@code sharedSample} true); a deadlock is then seen within about 100 to 250
 * ms instead of 1 to 10. Another client polling them faster (a monitoring tool) would keep them stale: the
 * commit-order timeout still breaks the deadlock then.
 *
 * <p>Immutable; thread-safe.
 *
 * @param sessionSql one row, one column: the session's id
 * @param waitingSql with {@code sharedSample} false: one column, the ids of the sessions waiting for a lock this session
 *     holds, directly or through other waiting sessions; true: every lock wait as two columns, the waiting session's id
 *     and the blocking one's (the applier follows the chains)
 * @param sharedSample whether the target reads these views for all its sessions at most once per
 *     {@code minIntervalNanos}
 * @param minIntervalNanos with {@code sharedSample}: the least time between two reads
 */
public record LockViews(String sessionSql, String waitingSql, boolean sharedSample, long minIntervalNanos) {

    private static final LockViews INNODB_INFORMATION_SCHEMA = new LockViews("SELECT CONNECTION_ID()",
            "SELECT r.trx_mysql_thread_id, b.trx_mysql_thread_id FROM information_schema.INNODB_LOCK_WAITS w"
                    + " JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id"
                    + " JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id", true, 120_000_000L);
    private static final LockViews MYSQL_PERFORMANCE_SCHEMA = new LockViews("SELECT CONNECTION_ID()",
            "", false, 0).transitive(
            "SELECT r.PROCESSLIST_ID, b.PROCESSLIST_ID FROM performance_schema.data_lock_waits w"
                    + " JOIN performance_schema.threads r ON r.THREAD_ID = w.REQUESTING_THREAD_ID"
                    + " JOIN performance_schema.threads b ON b.THREAD_ID = w.BLOCKING_THREAD_ID", "CONNECTION_ID()");
    private static final LockViews POSTGRESQL = new LockViews("SELECT pg_backend_pid()",
            "", false, 0).transitive("SELECT l.pid, b.pid FROM pg_locks l"
                    + " CROSS JOIN LATERAL unnest(pg_blocking_pids(l.pid)) AS b(pid) WHERE NOT l.granted",
            "pg_backend_pid()");
    private static final LockViews H2 = new LockViews("SELECT SESSION_ID()",
            "", false, 0).transitive(
            "SELECT SESSION_ID, BLOCKER_ID FROM INFORMATION_SCHEMA.SESSIONS"
                    + " WHERE BLOCKER_ID IS NOT NULL", "SESSION_ID()");

    /**
     * The same views asked for every session waiting for this one directly or through other waiting sessions (an
     * earlier transaction may wait for a later one's lock that itself waits for this session's lock): a recursive query
     * over {@code pairsSql}'s (waiting, blocking) rows, starting at {@code selfSql}.
     */
    private LockViews transitive(String pairsSql, String selfSql) {
        return new LockViews(sessionSql, "WITH RECURSIVE p(waiting, blocking) AS (" + pairsSql + "),"
                + " w(id) AS (SELECT waiting FROM p WHERE blocking = " + selfSql + " UNION SELECT p.waiting FROM p JOIN w ON p.blocking = w.id)"
                + " SELECT DISTINCT id FROM w", sharedSample, minIntervalNanos);
    }

    /** The views of the server behind this connection (MariaDB and MySQL told apart by the server's version). */
    public static LockViews of(Dialect.Kind kind, Connection connection) throws SQLException {
        return switch (kind) {
            case H2 -> H2;
            case POSTGRESQL -> POSTGRESQL;
            case MYSQL -> {
                DatabaseMetaData md = connection.getMetaData();
                String version = md.getDatabaseProductVersion();
                boolean mariaDb = version != null && version.toLowerCase(Locale.ROOT).contains("mariadb")
                        || md.getDatabaseProductName().toLowerCase(Locale.ROOT).contains("mariadb");
                yield mariaDb || md.getDatabaseMajorVersion() < 8 ? INNODB_INFORMATION_SCHEMA : MYSQL_PERFORMANCE_SCHEMA;
            }
        };
    }
}
