package io.lanes.applier.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many more connections a PostgreSQL, MariaDB or MySQL target accepts now, checked before a pipeline opens one per
 * worker: a pipeline with more workers than that fails at once with one message, instead of running until its workers
 * are refused one by one ("too many connections"), each retrying and logging.
 *
 * <p>PostgreSQL: {@code max_connections} less {@code superuser_reserved_connections} (and PostgreSQL 16's
 * {@code reserved_connections}) for a user who is not a superuser, less the client backends connected; for such a user
 * also the role's and the database's {@code CONNECTION LIMIT}. MariaDB/MySQL: {@code max_connections} less
 * {@code Threads_connected}, and {@code max_user_connections} less the user's own connections when it is set. The
 * connection that asks is counted as free, since it is closed before the pipeline starts. Connections opened by others
 * between the check and the start are not foreseen: a check, not a reservation.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConnectionHeadroom {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionHeadroom.class);

    private ConnectionHeadroom() {
    }

    /**
     * What a target says about its free connections.
     *
     * @param available how many more connections it accepts (may be zero or less)
     * @param detail the limits and counts it was computed from, in words (e.g. "max_connections 100, 97 in use")
     */
    public record Headroom(long available, String detail) {
    }

    /**
     * Why a pipeline that needs {@code needed} connections cannot start on this target, in one sentence, or null when
     * it can or when the target does not tell (H2; a user without the rights to look: the start then proceeds and
     * reports whatever happens).
     *
     * @param c a connection to the target, counted as free (the caller closes it before the pipeline starts)
     * @param workers the configured worker count, named in the message
     */
    public static String shortfall(Connection c, Dialect dialect, int workers, int needed) {
        Headroom h;
        try {
            h = of(c, dialect);
        } catch (SQLException | RuntimeException e) {
            LOG.debug("the target's connection limit is unknown ({}); starting without the check", e.toString());
            return null;
        }
        if (h == null || h.available() >= needed) {
            return null;
        }
        long overhead = needed - Math.max(1, workers);
        long fits = h.available() - overhead;
        return "the target accepts " + Math.max(0, h.available()) + " more connection" + (h.available() == 1 ? "" : "s")
                + " (" + h.detail() + ") but " + workers + " worker" + (workers == 1 ? "" : "s") + " need " + needed
                + " (one per worker, " + overhead + " for checkpoints and table metadata): "
                + (fits >= 1 ? "use at most " + fits + " worker" + (fits == 1 ? "" : "s") + ", or " : "")
                + "raise the target's max_connections, or close other sessions";
    }

    /** The target's headroom as seen on {@code c}, or null for a target that has no such limit (H2). */
    public static Headroom of(Connection c, Dialect dialect) throws SQLException {
        return switch (dialect.kind()) {
            case H2 -> null;
            case POSTGRESQL -> postgres(c);
            case MYSQL -> mysql(c);
        };
    }

    private static Headroom postgres(Connection c) throws SQLException {
        String sql = "SELECT current_setting('max_connections')::int,"
                + " current_setting('superuser_reserved_connections')::int,"
                + " COALESCE(current_setting('reserved_connections', true), '0')::int, r.rolsuper, r.rolconnlimit,"
                + " d.datconnlimit,"
                + " (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'),"
                + " (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
                + " AND usename = current_user),"
                + " (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
                + " AND datname = current_database())"
                + " FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()";
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                return null;
            }
            long max = rs.getLong(1);
            long reserved = rs.getLong(2) + rs.getLong(3);
            boolean superuser = rs.getBoolean(4);
            long roleLimit = rs.getLong(5);
            long databaseLimit = rs.getLong(6);
            long inUse = rs.getLong(7);
            long roleInUse = rs.getLong(8);
            long databaseInUse = rs.getLong(9);
            List<String> detail = new ArrayList<>();
            long limit = superuser ? max : max - reserved;
            detail.add("max_connections " + max + (superuser || reserved == 0 ? "" : " of which " + reserved
                    + " reserved for superusers"));
            detail.add((inUse - 1) + " other" + (inUse - 1 == 1 ? "" : "s") + " in use");
            long available = limit - inUse + 1;
            if (!superuser && roleLimit >= 0) {
                available = Math.min(available, roleLimit - roleInUse + 1);
                detail.add("the role's CONNECTION LIMIT " + roleLimit + " with " + (roleInUse - 1) + " in use");
            }
            if (!superuser && databaseLimit >= 0) {
                available = Math.min(available, databaseLimit - databaseInUse + 1);
                detail.add("the database's CONNECTION LIMIT " + databaseLimit + " with " + (databaseInUse - 1)
                        + " in use");
            }
            return new Headroom(available, String.join(", ", detail));
        }
    }

    private static Headroom mysql(Connection c) throws SQLException {
        long max;
        long userMax;
        long inUse;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@max_connections, @@max_user_connections")) {
            if (!rs.next()) {
                return null;
            }
            max = rs.getLong(1);
            userMax = rs.getLong(2);
        }
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Threads_connected'")) {
            if (!rs.next()) {
                return null;
            }
            inUse = Long.parseLong(rs.getString(2).trim());
        }
        long available = max - inUse + 1;
        String detail = "max_connections " + max + ", " + (inUse - 1) + " other" + (inUse - 1 == 1 ? "" : "s")
                + " in use";
        if (userMax > 0) {
            long mine;
            // Without the PROCESS privilege the process list shows this user's own sessions only: what is counted.
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = "
                            + "SUBSTRING_INDEX(CURRENT_USER(), '@', 1)")) {
                rs.next();
                mine = rs.getLong(1);
            }
            available = Math.min(available, userMax - mine + 1);
            detail += ", max_user_connections " + userMax + " with " + (mine - 1) + " of this user's in use";
        }
        return new Headroom(available, detail);
    }
}
