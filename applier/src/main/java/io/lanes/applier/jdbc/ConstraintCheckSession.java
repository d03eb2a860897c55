package io.lanes.applier.jdbc;

import io.lanes.applier.ConstraintChecks;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One worker connection's constraint checks, following the source's ({@link ConstraintChecks} markers): rows the source
 * wrote with foreign key checks off are applied with them off, so that a target does not refuse what the source
 * accepted, and cascades do not run twice (the source's InnoDB cascades are not logged; with checks off it ran none).
 *
 * <ul>
 *   <li>MySQL/MariaDB: {@code SET SESSION foreign_key_checks, unique_checks}, as the source session had them.
 *   <li>PostgreSQL: {@code SET session_replication_role = replica} while foreign key checks are off: foreign keys are
 *       triggers there, and replica sessions fire none (user triggers of the target neither). Needs a superuser or,
 *       from PostgreSQL 15, {@code GRANT SET ON PARAMETER session_replication_role}. Unique checks stay on (a valid log
 *       never needs them off). The setting is not kept for the rows of the source transactions that had checks on.
 *   <li>H2: {@code SET REFERENTIAL_INTEGRITY FALSE} reaches every session and commits, so the bridge makes such a
 *       transaction a barrier (nothing else is applied meanwhile, nothing of it is open when it is set), the whole
 *       transaction runs with the checks off, and {@code TRUE} is set again once it committed or rolled back. A crash
 *       at that instant leaves the database with referential integrity off: see docs/operations.md.
 * </ul>
 *
 * <p>Not thread-safe: owned by one {@link JdbcApplier}.
 */
final class ConstraintCheckSession {
    private final Dialect.Kind kind;
    /** What the source session had for the rows being applied. */
    private ConstraintChecks wanted = ConstraintChecks.ON;
    /** What this connection has now. */
    private ConstraintChecks applied = ConstraintChecks.ON;

    ConstraintCheckSession(Dialect dialect) {
        this.kind = dialect.kind();
    }

    /** A marker of the source transaction being applied. */
    void want(ConstraintChecks checks) {
        wanted = checks;
    }

    /** Whether the connection must change before the next row (the caller flushes its batch first). */
    boolean changePending() {
        return kind == Dialect.Kind.H2 ? !wanted.foreignKeys() && applied.foreignKeys() : !wanted.equals(applied);
    }

    /**
     * Gives the connection the wanted checks.
     *
     * @param nothingOpen whether nothing of the target transaction is uncommitted (required on H2, where the setting
     *     commits)
     */
    void apply(Connection c, boolean nothingOpen) throws SQLException {
        switch (kind) {
            case MYSQL -> execute(c, "SET SESSION foreign_key_checks = " + (wanted.foreignKeys() ? 1 : 0)
                    + ", unique_checks = " + (wanted.uniqueKeys() ? 1 : 0));
            case POSTGRESQL -> {
                if (wanted.foreignKeys() != applied.foreignKeys()) {
                    try {
                        execute(c, "SET session_replication_role = " + (wanted.foreignKeys() ? "DEFAULT" : "replica"));
                    } catch (SQLException e) {
                        throw new SQLException("the source wrote these rows with foreign_key_checks=0, and PostgreSQL "
                                + "turns foreign keys off only with session_replication_role = replica, which needs a "
                                + "superuser or (PostgreSQL 15+) GRANT SET ON PARAMETER session_replication_role: "
                                + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
                    }
                }
            }
            case H2 -> {
                if (!nothingOpen) {
                    throw new IllegalStateException("rows with foreign key checks off reached an H2 connection with an "
                            + "open transaction: such a transaction must run alone (a barrier)");
                }
                execute(c, "SET REFERENTIAL_INTEGRITY FALSE");
            }
        }
        applied = kind == Dialect.Kind.H2 ? new ConstraintChecks(false, true) : wanted;
    }

    /** Whether {@link #endOfSourceTransaction} will change the connection (the caller flushes its batch first). */
    boolean resetAtEndPending() {
        return kind != Dialect.Kind.H2 && !applied.equals(ConstraintChecks.ON);
    }

    /**
     * The end of a source transaction: the next one starts with the checks on (H2 keeps them off until
     * {@link #afterTransaction}, as setting them commits).
     */
    void endOfSourceTransaction(Connection c) throws SQLException {
        wanted = ConstraintChecks.ON;
        if (kind != Dialect.Kind.H2 && !applied.equals(ConstraintChecks.ON)) {
            apply(c, false);
        }
    }

    /** A statement ran: the MySQL DDL handler leaves the session with both checks on. */
    void statementRan() {
        if (kind == Dialect.Kind.MYSQL) {
            applied = ConstraintChecks.ON;
        }
    }

    /** After the target transaction committed or rolled back: every check back on. */
    void afterTransaction(Connection c) throws SQLException {
        wanted = ConstraintChecks.ON;
        if (applied.equals(ConstraintChecks.ON)) {
            return;
        }
        if (c != null && !c.isClosed()) {
            if (kind == Dialect.Kind.H2) {
                execute(c, "SET REFERENTIAL_INTEGRITY TRUE");
            } else {
                apply(c, true);
            }
        }
        applied = ConstraintChecks.ON;
    }

    /** The connection is gone: a new one starts with the checks on (H2's setting is the database's: restored above). */
    void connectionClosed() {
        wanted = ConstraintChecks.ON;
        if (kind != Dialect.Kind.H2) {
            applied = ConstraintChecks.ON;
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
