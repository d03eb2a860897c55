package io.lanes.applier.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Table metadata read from the target through {@link DatabaseMetaData}: columns in order with their JDBC types and
 * nullability, the primary key and the unique indexes. Results are cached per (schema, table) until
 * {@link #invalidate invalidated} (the DDL path does so after every statement that may change a table).
 *
 * <p>Names are matched exactly: the LIKE wildcards {@code _} and {@code %} that DatabaseMetaData patterns interpret are
 * escaped, and rows are filtered by exact name.
 *
 * <p>Thread-safe: any worker may look tables up on its own connection; two workers missing the cache at once both read
 * the catalog and one result wins, which is harmless because both read the same committed DDL.
 */
public final class TargetCatalog {
    private record Key(String schema, String table) {
    }

    private final Dialect dialect;
    private final Map<Key, TargetTable> cache = new ConcurrentHashMap<>();

    public TargetCatalog(Dialect dialect) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
    }

    public Dialect dialect() {
        return dialect;
    }

    /**
     * The table's metadata, from the cache or read through {@code connection}.
     *
     * @throws MissingTableException naming the table when the target has no such table
     */
    public TargetTable table(Connection connection, String schema, String table) throws SQLException {
        TargetTable found = find(connection, schema, table);
        if (found == null) {
            throw new MissingTableException(schema, table);
        }
        return found;
    }

    /** The table's metadata, or {@code null} when the target has no such table. Missing tables are not cached. */
    public TargetTable find(Connection connection, String schema, String table) throws SQLException {
        Key key = new Key(schema, table);
        TargetTable cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        TargetTable loaded = load(connection, schema, table);
        if (loaded != null) {
            cache.put(key, loaded);
        }
        return loaded;
    }

    /** Forgets one table (after DDL that may have changed, renamed or dropped it). */
    public void invalidate(String schema, String table) {
        cache.remove(new Key(schema, table));
    }

    /** Forgets every table of a schema (after DROP DATABASE or DDL whose tables are unknown). */
    public void invalidateSchema(String schema) {
        cache.keySet().removeIf(k -> k.schema().equals(schema));
    }

    public void invalidateAll() {
        cache.clear();
    }

    private TargetTable load(Connection connection, String schema, String table) throws SQLException {
        if (dialect.kind() == Dialect.Kind.MYSQL) {
            // MariaDB Connector/J mangles escaped backslashes in DatabaseMetaData patterns; information_schema with bound
            // parameters is exact (and says UNSIGNED, which the driver's type codes do not).
            return MySqlCatalogQueries.load(connection, schema, table);
        }
        DatabaseMetaData md = connection.getMetaData();
        String catalogArg = dialect.metadataCatalog(schema);
        String schemaArg = dialect.metadataSchema(schema);
        String escape = md.getSearchStringEscape();
        List<TargetColumn> columns = new ArrayList<>();
        try (ResultSet rs = md.getColumns(catalogArg, schemaArg == null ? null : escapePattern(schemaArg, escape),
                escapePattern(table, escape), "%")) {
            while (rs.next()) {
                if (!matches(rs, schema, table)) {
                    continue;
                }
                columns.add(new TargetColumn(rs.getString("COLUMN_NAME"), rs.getInt("ORDINAL_POSITION"),
                        rs.getInt("DATA_TYPE"), rs.getString("TYPE_NAME"), rs.getInt("COLUMN_SIZE"),
                        rs.getInt("DECIMAL_DIGITS"), rs.getInt("NULLABLE") == DatabaseMetaData.columnNullable,
                        // a generated column (translated from MySQL's for H2/PostgreSQL) is computed, never written
                        "YES".equals(rs.getString("IS_GENERATEDCOLUMN"))));
            }
        }
        if (columns.isEmpty()) {
            return null;
        }
        columns.sort((a, b) -> Integer.compare(a.position(), b.position()));

        TreeMap<Integer, String> pk = new TreeMap<>();
        String pkName = null;
        try (ResultSet rs = md.getPrimaryKeys(catalogArg, schemaArg, table)) {
            while (rs.next()) {
                if (matches(rs, schema, table)) {
                    pk.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                    pkName = rs.getString("PK_NAME");
                }
            }
        }
        Map<String, TreeMap<Integer, String>> uniques = new LinkedHashMap<>();
        try (ResultSet rs = md.getIndexInfo(catalogArg, schemaArg, table, true, false)) {
            while (rs.next()) {
                String indexName = rs.getString("INDEX_NAME");
                String column = rs.getString("COLUMN_NAME");
                if (!matches(rs, schema, table) || indexName == null || column == null || rs.getBoolean("NON_UNIQUE")) {
                    continue;
                }
                uniques.computeIfAbsent(indexName, n -> new TreeMap<>()).put((int) rs.getShort("ORDINAL_POSITION"), column);
            }
        }
        List<String> pkColumns = List.copyOf(pk.values());
        List<TargetIndex> indexes = new ArrayList<>();
        for (Map.Entry<String, TreeMap<Integer, String>> e : uniques.entrySet()) {
            List<String> cols = List.copyOf(e.getValue().values());
            // The primary key shows up among unique indexes under its own name (PRIMARY, t_pkey, PRIMARY_KEY_..).
            if (e.getKey().equals(pkName) || cols.equals(pkColumns) && isPrimaryIndexName(e.getKey())) {
                continue;
            }
            indexes.add(new TargetIndex(e.getKey(), cols));
        }
        return new TargetTable(schema, table, columns, pkColumns, indexes);
    }

    private static boolean isPrimaryIndexName(String name) {
        return name.equals("PRIMARY") || name.startsWith("PRIMARY_KEY") || name.endsWith("_pkey");
    }

    private boolean matches(ResultSet rs, String schema, String table) throws SQLException {
        String actualSchema = dialect.metadataCatalog(schema) != null ? rs.getString("TABLE_CAT") : rs.getString("TABLE_SCHEM");
        return schema.equals(actualSchema) && table.equals(rs.getString("TABLE_NAME"));
    }

    static String escapePattern(String name, String escape) {
        if (escape == null || escape.isEmpty()) {
            return name;
        }
        StringBuilder sb = new StringBuilder(name.length() + 4);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '_' || c == '%' || escape.indexOf(c) >= 0) {
                sb.append(escape);
            }
            sb.append(c);
        }
        return sb.toString();
    }
}
