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
 */
public final class JdbcSchemaHistoryStore implements SchemaHistoryStore {
    private final ConnectionFactory connections;
    private final Dialect dialect;
    private final String qualified;
    private final String schema;
    private boolean created;

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
        try (Connection c = open()) {
            createIfAbsent(c);
        }
    }

    private Connection open() throws SQLException {
        Connection c = connections.open();
        dialect.initSession(c);
        return c;
    }

    @Override
    public void save(String pipeline, String position, SchemaHistory history) throws SQLException {
        try (Connection c = open()) {
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
        }
    }

    @Override
    public SchemaHistory load(String pipeline, String checkpointPosition) throws SQLException {
        try (Connection c = open()) {
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
        }
    }
}
