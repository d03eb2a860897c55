package io.lanes.applier.jdbc;

import io.lanes.applier.TableMetadata;
import io.lanes.applier.TableRef;
import io.lanes.applier.TableShape;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@link TableMetadata} from the target's catalog: columns in the target's ordinal order (which must be the source's
 * order when the binlog does not carry column names), the primary key and unique indexes, and foreign keys through
 * {@link DatabaseMetaData#getImportedKeys} (or the dialect's {@link Dialect#importedKeysQuery()}, prepared once per
 * connection). Uses a connection of its own, opened on first use, on the dispatching thread.
 */
public final class CatalogTableMetadata implements TableMetadata, AutoCloseable {
    private final ConnectionFactory connections;
    private final TargetCatalog catalog;
    private final Map<TableRef, TableShape> shapes = new HashMap<>();
    private Connection connection;
    /** The dialect's foreign-key query on {@link #connection}; null until first used. */
    private PreparedStatement importedKeys;

    public CatalogTableMetadata(ConnectionFactory connections, TargetCatalog catalog) {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    @Override
    public TableShape shape(String targetSchema, String table) throws SQLException {
        TableRef ref = new TableRef(targetSchema, table);
        TableShape cached = shapes.get(ref);
        if (cached != null) {
            return cached;
        }
        // A dropped connection (session killed, target restarted) must not end the pipeline: this runs on the
        // dispatching thread, outside the engine's retries, so retry here on a fresh connection with back-off.
        SQLException first = null;
        for (int attempt = 0; ; attempt++) {
            try {
                return load(ref, targetSchema, table);
            } catch (SQLException e) {
                if (first == null) {
                    first = e;
                } else if (first != e) {
                    first.addSuppressed(e);
                }
                closeQuietly();
                if (attempt >= RETRIES) {
                    throw first;
                }
                try {
                    Thread.sleep(100L << attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw first;
                }
            }
        }
    }

    /** Attempts after the first failure of a catalog read; back-off 0.1 s doubling, about 6 s in all. */
    private static final int RETRIES = 6;

    private TableShape load(TableRef ref, String targetSchema, String table) throws SQLException {
        Connection c = connection();
        TargetTable t = catalog.find(c, targetSchema, table);
        if (t == null) {
            return null;
        }
        List<TableShape.Key> keys = keysOf(t);
        List<TableShape.ForeignKey> fks = foreignKeys(c, t);
        TableShape shape = new TableShape(t.columns().stream().map(TargetColumn::name).toList(), keys, fks);
        shapes.put(ref, shape);
        c.commit(); // end the read transaction: later DDL must not wait on its locks
        return shape;
    }

    private static List<TableShape.Key> keysOf(TargetTable t) {
        List<TableShape.Key> keys = new ArrayList<>();
        if (!t.primaryKey().isEmpty()) {
            keys.add(new TableShape.Key(TableShape.PRIMARY, t.primaryKey()));
        }
        for (TargetIndex i : t.uniqueIndexes()) {
            keys.add(new TableShape.Key(i.name(), i.columns()));
        }
        return keys;
    }

    private List<TableShape.ForeignKey> foreignKeys(Connection c, TargetTable child) throws SQLException {
        Dialect d = catalog.dialect();
        record Part(String parentSchema, String parentTable, TreeMap<Integer, String[]> columns) {
        }
        Map<String, Part> byName = new LinkedHashMap<>();
        String query = d.importedKeysQuery();
        try (ResultSet rs = query == null
                ? c.getMetaData().getImportedKeys(d.metadataCatalog(child.schema()), d.metadataSchema(child.schema()),
                        child.name())
                : importedKeys(c, query, child)) {
            while (rs.next()) {
                String parentSchema = d.kind() == Dialect.Kind.MYSQL ? rs.getString("PKTABLE_CAT") : rs.getString("PKTABLE_SCHEM");
                String name = rs.getString("FK_NAME") + "\0" + parentSchema + "\0" + rs.getString("PKTABLE_NAME");
                Part p = byName.computeIfAbsent(name, n -> {
                    try {
                        return new Part(parentSchema, rs.getString("PKTABLE_NAME"), new TreeMap<>());
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                p.columns().put(rs.getInt("KEY_SEQ"), new String[] {rs.getString("FKCOLUMN_NAME"), rs.getString("PKCOLUMN_NAME")});
            }
        }
        List<TableShape.ForeignKey> out = new ArrayList<>();
        for (Part p : byName.values()) {
            TargetTable parent = catalog.find(c, p.parentSchema(), p.parentTable());
            if (parent == null) {
                continue;
            }
            Map<String, String> childByParentColumn = new HashMap<>();
            for (String[] pair : p.columns().values()) {
                childByParentColumn.put(pair[1], pair[0]);
            }
            for (TableShape.Key key : keysOf(parent)) {
                if (new HashSet<>(key.columns()).equals(childByParentColumn.keySet())) {
                    List<String> childColumns = key.columns().stream().map(childByParentColumn::get).toList();
                    out.add(new TableShape.ForeignKey(childColumns, new TableRef(p.parentSchema(), p.parentTable()), key));
                    break;
                }
            }
        }
        return out;
    }

    private ResultSet importedKeys(Connection c, String query, TargetTable child) throws SQLException {
        if (importedKeys == null) {
            importedKeys = c.prepareStatement(query);
        }
        importedKeys.setString(1, child.schema());
        importedKeys.setString(2, child.name());
        return importedKeys.executeQuery();
    }

    @Override
    public void invalidate() {
        shapes.clear();
    }

    private Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            importedKeys = null; // prepared on the connection that went away
            connection = connections.open();
            catalog.dialect().initSession(connection);
        }
        return connection;
    }

    private void closeQuietly() {
        if (connection != null) {
            SqlCleanup.quietly(connection::close); // a broken connection (its statements close with it)
            connection = null;
            importedKeys = null;
        }
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
            connection = null;
            importedKeys = null;
        }
    }
}
