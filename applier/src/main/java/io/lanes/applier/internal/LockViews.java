package io.lanes.applier.internal;

import io.lanes.applier.jdbc.Dialect;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The target's own account of who waits for whose locks, for commit-order deadlock detection
 * ({@link io.lanes.core.Applier#sessionsWaitingForThis()}): the SQL that names a session, and the SQL that lists every
 * lock wait as (waiting session, blocking session) pairs.
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
 * <p>The target reads them for all its workers at most once per {@link #minIntervalNanos} and shares the sample (each
 * worker follows the chains of waits that lead to its own session): the workers waiting for commit order behind one
 * large transaction would otherwise each query the lock views every few tens of milliseconds, on the processors the
 * apply needs. MariaDB's (and MySQL 5.7's) {@code information_schema} lock tables are copies that
 * the server refreshes only when nobody has read them for 100 ms ({@code trx_i_s_cache}): read more often, they never
 * change (seen on MariaDB 10.11: polled every 40 ms, a lock wait of 2 s never appeared; every 110 ms, it appeared within
 * 130 ms), hence 120 ms there, and a deadlock seen within about 100 to 250 ms; another client polling them faster (a
 * monitoring tool) would keep them stale, and the commit-order timeout would break the deadlock then.
 *
 * <p>Immutable; thread-safe.
 *
 * @param sessionSql one row, one column: the session's id
 * @param waitsSql every lock wait, two columns: the waiting session's id and the blocking one's
 * @param minIntervalNanos the least time between two reads of {@code waitsSql} for one target
 */
public record LockViews(String sessionSql, String waitsSql, long minIntervalNanos) {

    private static final long FAST_NANOS = 10_000_000L;

    private static final LockViews INNODB_INFORMATION_SCHEMA = new LockViews("SELECT CONNECTION_ID()",
            "SELECT r.trx_mysql_thread_id, b.trx_mysql_thread_id FROM information_schema.INNODB_LOCK_WAITS w"
                    + " JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id"
                    + " JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id", 120_000_000L);
    private static final LockViews MYSQL_PERFORMANCE_SCHEMA = new LockViews("SELECT CONNECTION_ID()",
            "SELECT r.PROCESSLIST_ID, b.PROCESSLIST_ID FROM performance_schema.data_lock_waits w"
                    + " JOIN performance_schema.threads r ON r.THREAD_ID = w.REQUESTING_THREAD_ID"
                    + " JOIN performance_schema.threads b ON b.THREAD_ID = w.BLOCKING_THREAD_ID", FAST_NANOS);
    private static final LockViews POSTGRESQL = new LockViews("SELECT pg_backend_pid()",
            "SELECT l.pid, b.pid FROM pg_locks l CROSS JOIN LATERAL unnest(pg_blocking_pids(l.pid)) AS b(pid)"
                    + " WHERE NOT l.granted", FAST_NANOS);
    private static final LockViews H2 = new LockViews("SELECT SESSION_ID()",
            "SELECT SESSION_ID, BLOCKER_ID FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL", FAST_NANOS);

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
