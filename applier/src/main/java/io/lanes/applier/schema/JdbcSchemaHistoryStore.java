package io.lanes.applier.schema;

import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A {@link SchemaHistoryStore} in the target, in a table beside the checkpoint table ({@code <checkpoint
 * table>_schema_history} in its schema): one row per version, (pipeline, version, position, definitions). Each save is
 * committed on a connection of its own before the transaction it describes is applied.
 *
 * <p>That connection is opened on first use and kept until {@link #close()}: a DDL statement opened one before (about
 * 4 ms on PostgreSQL, on the reading thread; issue 19, round 17). Each call ends its transaction, so the kept
 * connection holds no snapshot or lock between calls. A call that fails on a kept connection (the target restarted, the
 * session was killed since) is tried once more on a fresh one; a save repeated after its commit only adds a version
 * with the same definitions and position. Used by the reading thread only, as {@link SchemaHistoryStore} says.
 */
public final class JdbcSchemaHistoryStore implements SchemaHistoryStore, AutoCloseable {
    private final ConnectionFactory connections;
    private final Dialect dialect;
    private final String qualified;
    private final String schema;
    private boolean created;
    private Connection connection;

    /** What one call does on the store's connection. */
    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    public JdbcSchemaHistoryStore(ConnectionFactory connections, Dialect dialect, String schema, String table) {
        this.connections = connections;
        this.dialect = dialect;
        this.schema = schema;
        this.qualified = dialect.qualify(schema, table);
    }

    private void createIfAbsent(Connection c) throws SQLException {
        if (created) {
            return;
        }
        try (Statement s = c.createStatement()) {
            s.execute(dialect.createSchemaIfAbsent(schema));
            s.execute("CREATE TABLE IF NOT EXISTS " + qualified + " (" + dialect.quoteIdentifier("pipeline")
                    + " VARCHAR(64) NOT NULL, " + dialect.quoteIdentifier("version") + " BIGINT NOT NULL, "
                    + dialect.quoteIdentifier("position") + " VARCHAR(1024) NOT NULL, "
                    + dialect.quoteIdentifier("definitions") + " " + dialect.textType() + " NOT NULL, PRIMARY KEY ("
                    + dialect.quoteIdentifier("pipeline") + ", " + dialect.quoteIdentifier("version") + "))"
                    + (dialect.kind() == Dialect.Kind.MYSQL ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4" : ""));
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
        created = true;
    }

    @Override
    public void prepare() throws SQLException {
        onConnection(c -> {
            createIfAbsent(c);
            return null;
        });
    }

    private <T> T onConnection(Work<T> work) throws SQLException {
        boolean kept = connection != null;
        try {
            return work.run(connection());
        } catch (SQLException first) {
            closeQuietly();
            if (!kept) {
                throw first;
            }
            try {
                return work.run(connection());
            } catch (SQLException again) {
                closeQuietly();
                again.addSuppressed(first);
                throw again;
            }
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            Connection c = connections.open();
            try {
                dialect.initSession(c);
            } catch (SQLException e) {
                closeQuietly(c);
                throw e;
            }
            connection = c;
        }
        return connection;
    }

    private void closeQuietly() {
        if (connection != null) {
            closeQuietly(connection);
            connection = null;
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close(); // a broken connection: its transaction ends with it on the server
        } catch (SQLException ignored) {
            // nothing more to release
        }
    }

    /** Closes the kept connection, if any. */
    @Override
    public void close() throws SQLException {
        if (connection != null) {
            Connection c = connection;
            connection = null;
            c.close();
        }
    }

    @Override
    public void save(String pipeline, String position, SchemaHistory history) throws SQLException {
        onConnection(c -> {
            createIfAbsent(c);
            long next;
            try (PreparedStatement ps = c.prepareStatement("SELECT MAX(" + dialect.quoteIdentifier("version")
                    + ") FROM " + qualified + " WHERE " + dialect.quoteIdentifier("pipeline") + " = ?")) {
                ps.setString(1, pipeline);
                try (ResultSet rs = ps.executeQuery()) {
                    next = rs.next() ? rs.getLong(1) + 1 : 1;
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + qualified + " VALUES (?, ?, ?, ?)")) {
                ps.setString(1, pipeline);
                ps.setLong(2, next);
                ps.setString(3, position);
                ps.setString(4, history.toText());
                ps.executeUpdate();
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
            return null;
        });
    }

    @Override
    public SchemaHistory load(String pipeline, String checkpointPosition) throws SQLException {
        return onConnection(c -> {
            createIfAbsent(c);
            try (PreparedStatement ps = c.prepareStatement("SELECT " + dialect.quoteIdentifier("position") + ", "
                    + dialect.quoteIdentifier("definitions") + " FROM " + qualified + " WHERE "
                    + dialect.quoteIdentifier("pipeline") + " = ? ORDER BY " + dialect.quoteIdentifier("version")
                    + " DESC")) {
                ps.setString(1, pipeline);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (SchemaHistoryStore.inForceAt(rs.getString(1), checkpointPosition)) {
                            String text = rs.getString(2);
                            if (!c.getAutoCommit()) {
                                c.commit();
                            }
                            return SchemaHistory.fromText(text);
                        }
                    }
                }
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
            return null;
        });
    }
}
