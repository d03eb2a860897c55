package io.lanes.connect.internal;

import io.lanes.applier.checkpoint.CheckpointRow;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientException;
import java.sql.Statement;

/**
 * Zombie fencing for one sink pipeline (one topic-partition): a row {@code (pipeline, epoch)} in the target's
 * {@code lanes_connect_owner} table. A task that takes the partition over increments the epoch ({@link #acquire}) before
 * it reads the checkpoint; every checkpoint row it writes afterwards (each in the same transaction as the data it
 * covers) first checks, under a shared row lock, that the epoch is still its own ({@link #guard}). A task that lost the
 * partition but still runs therefore fails its next commit (with {@link FencedException}, which the engine does not
 * retry) instead of applying a transaction the new owner applies too.
 *
 * <p>Why a shared lock: the new owner's increment waits for every commit of the old owner that already passed its check
 * (they hold the shared lock until they commit), so when {@link #acquire} returns, everything the old owner committed
 * is visible to the checkpoint read that follows, and nothing more can be committed by it. The workers of one owner
 * take shared locks and do not wait for each other. On H2 (embedded: one process) the check reads without a lock.
 *
 * <p>Thread-safe: the epoch is fixed once acquired; each check runs on the caller's connection.
 */
public final class OwnerFence {
    /** SQLState of a fenced commit: class 'LF' is Lanes' own and no target uses it. */
    public static final String FENCED_STATE = "LF001";

    /** The commit of a task that no longer owns its partition. Not retryable. */
    public static final class FencedException extends SQLNonTransientException {
        private static final long serialVersionUID = 1L;

        FencedException(String message) {
            super(message, FENCED_STATE);
        }
    }

    private final Dialect dialect;
    private final String schema;
    private final String table;
    private final String pipeline;
    private volatile long epoch = -1;

    public OwnerFence(Dialect dialect, String schema, String pipeline) {
        this.dialect = dialect;
        this.schema = schema;
        this.table = "lanes_connect_owner";
        this.pipeline = pipeline;
    }

    /** The epoch this owner acquired; -1 before {@link #acquire}. */
    public long epoch() {
        return epoch;
    }

    /**
     * Takes the pipeline over: increments its epoch (creating the row at 1) and commits. Waits for the commits in flight
     * of a previous owner. Call before reading the checkpoint.
     */
    public long acquire(ConnectionFactory connections) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = connections.open()) {
                dialect.initSession(c);
                c.setAutoCommit(false);
                createIfAbsent(c);
                long next = bump(c);
                c.commit();
                epoch = next;
                return next;
            } catch (SQLException e) {
                // Two partitions' first takeovers at once: MySQL's update-then-insert on an empty range deadlocks
                // (gap locks); the loser is rolled back and simply tries again.
                boolean conflict = e instanceof java.sql.SQLTransactionRollbackException
                        || "40001".equals(e.getSQLState()) || "40P01".equals(e.getSQLState()) || e.getErrorCode() == 1213;
                if (!conflict || attempt >= 10) {
                    throw e;
                }
                try {
                    Thread.sleep(20L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** Increments the epoch on {@code c}'s open transaction without keeping it (for offset rewrites). */
    public long bump(Connection c) throws SQLException {
        String q = dialect.qualify(schema, table);
        String p = dialect.quoteIdentifier("pipeline");
        String e = dialect.quoteIdentifier("epoch");
        int updated;
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + q + " SET " + e + " = " + e + " + 1 WHERE " + p + " = ?")) {
            ps.setString(1, pipeline);
            updated = ps.executeUpdate();
        }
        if (updated == 0) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + q + " (" + p + ", " + e + ") VALUES (?, 1)")) {
                ps.setString(1, pipeline);
                ps.executeUpdate();
            }
        }
        return read(c, "");
    }

    /** Creates the owner table when absent and commits. */
    public void createIfAbsent(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(dialect.createSchemaIfAbsent(schema));
            s.execute("CREATE TABLE IF NOT EXISTS " + dialect.qualify(schema, table) + " (" + dialect.quoteIdentifier("pipeline")
                    + " VARCHAR(64) NOT NULL PRIMARY KEY, " + dialect.quoteIdentifier("epoch") + " BIGINT NOT NULL)"
                    + (dialect.kind() == Dialect.Kind.MYSQL ? " ENGINE=InnoDB" : ""));
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    /** The checkpoint table whose every write first checks this owner's epoch in the writing transaction. */
    public JdbcCheckpointTable guard(JdbcCheckpointTable checkpointTable) {
        return checkpointTable.withWriteGuard(this::check);
    }

    private void check(Connection c, CheckpointRow row) throws SQLException {
        long mine = epoch;
        String lock = switch (dialect.kind()) {
            case POSTGRESQL -> " FOR SHARE";
            case MYSQL -> " LOCK IN SHARE MODE";
            default -> "";
        };
        long current = read(c, lock);
        if (current != mine) {
            throw new FencedException("pipeline " + pipeline + " is owned by epoch " + current + ", not by this task's epoch "
                    + mine + ": another task took its partition over; this task's commit is refused (zombie fencing)");
        }
    }

    private long read(Connection c, String lockClause) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + dialect.quoteIdentifier("epoch") + " FROM "
                + dialect.qualify(schema, table) + " WHERE " + dialect.quoteIdentifier("pipeline") + " = ?" + lockClause)) {
            ps.setString(1, pipeline);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
