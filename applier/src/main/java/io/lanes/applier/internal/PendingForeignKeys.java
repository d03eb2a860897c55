package io.lanes.applier.internal;

import io.lanes.applier.internal.DdlTranslator.DeferredForeignKey;
import io.lanes.applier.internal.MySqlDdl.TableName;
import io.lanes.applier.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The foreign keys an H2 or PostgreSQL target creates once their parent table exists ({@link DeferredForeignKey}),
 * kept in a table of the target ({@code <bookkeeping schema>.lanes_pending_foreign_keys}, created on first use) so that
 * a restart between the child's CREATE TABLE and the parent's loses none. On PostgreSQL the rows are written in the
 * worker's transaction, with the DDL and the checkpoint; on H2, whose DDL commits by itself, every step is idempotent
 * (a key is recorded by its child and name, and adding one that exists counts as done).
 *
 * <p>Called by the worker that runs the DDL (DDL is a barrier: one at a time). Thread-safe.
 */
final class PendingForeignKeys {
    static final String TABLE = "lanes_pending_foreign_keys";

    private final Dialect dialect;
    private final String schema;
    private final String qualified;
    private volatile boolean exists;

    PendingForeignKeys(Dialect dialect, String schema) {
        this.dialect = dialect;
        this.schema = schema;
        this.qualified = dialect.qualify(schema, TABLE);
    }

    /** Records a key to create once its parent exists (replacing an earlier record of the same child and name). */
    void add(Connection c, DeferredForeignKey key) throws SQLException {
        if (!exists) {
            DdlStatements.execute(c, dialect.createSchemaIfAbsent(schema));
            DdlStatements.execute(c, "CREATE TABLE IF NOT EXISTS " + qualified + " (child_schema VARCHAR(256) NOT NULL, "
                    + "child_table VARCHAR(256) NOT NULL, constraint_name VARCHAR(256) NOT NULL, "
                    + "parent_schema VARCHAR(256) NOT NULL, parent_table VARCHAR(256) NOT NULL, "
                    + "statement " + dialect.textType() + " NOT NULL, "
                    + "PRIMARY KEY (child_schema, child_table, constraint_name))");
            exists = true;
        }
        try (PreparedStatement d = c.prepareStatement("DELETE FROM " + qualified
                + " WHERE child_schema = ? AND child_table = ? AND constraint_name = ?")) {
            d.setString(1, key.child().schema());
            d.setString(2, key.child().name());
            d.setString(3, key.name());
            d.executeUpdate();
        }
        try (PreparedStatement i = c.prepareStatement("INSERT INTO " + qualified + " (child_schema, child_table, "
                + "constraint_name, parent_schema, parent_table, statement) VALUES (?, ?, ?, ?, ?, ?)")) {
            i.setString(1, key.child().schema());
            i.setString(2, key.child().name());
            i.setString(3, key.name());
            i.setString(4, key.parent().schema());
            i.setString(5, key.parent().name());
            i.setString(6, key.sql());
            i.executeUpdate();
        }
    }

    /** Removes and returns the statements of the keys waiting for {@code parent}, in the order they were recorded. */
    List<String> takeFor(Connection c, TableName parent) throws SQLException {
        if (!exists(c)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT statement FROM " + qualified
                + " WHERE parent_schema = ? AND parent_table = ? ORDER BY child_schema, child_table, constraint_name")) {
            s.setString(1, parent.schema());
            s.setString(2, parent.name());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        if (!out.isEmpty()) {
            try (PreparedStatement d = c.prepareStatement("DELETE FROM " + qualified
                    + " WHERE parent_schema = ? AND parent_table = ?")) {
                d.setString(1, parent.schema());
                d.setString(2, parent.name());
                d.executeUpdate();
            }
        }
        return out;
    }

    /** Forgets the keys of a dropped child table, or of every child table of a dropped schema (table null). */
    void forget(Connection c, String childSchema, String childTable) throws SQLException {
        if (!exists(c)) {
            return;
        }
        try (PreparedStatement d = c.prepareStatement("DELETE FROM " + qualified + " WHERE child_schema = ?"
                + (childTable == null ? "" : " AND child_table = ?"))) {
            d.setString(1, childSchema);
            if (childTable != null) {
                d.setString(2, childTable);
            }
            d.executeUpdate();
        }
    }

    private boolean exists(Connection c) throws SQLException {
        if (exists) {
            return true;
        }
        try (ResultSet rs = c.getMetaData().getTables(dialect.metadataCatalog(schema), dialect.metadataSchema(schema),
                TABLE, null)) {
            exists = rs.next();
        }
        return exists;
    }
}
