package io.lanes.applier.internal;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.InvalidIdentifierException;
import io.lanes.applier.jdbc.RowSql;
import io.lanes.applier.jdbc.TargetColumn;
import io.lanes.applier.jdbc.TargetTable;
import io.lanes.applier.jdbc.TargetTable.KeyKind;
import io.lanes.applier.jdbc.TargetTable.RowKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQL every dialect shares, and the SQL standard's forms where a target follows it ({@code CREATE SCHEMA},
 * {@code IS NOT DISTINCT FROM}); a subclass supplies its quoting and the few clauses that differ. Thread-safe.
 */
public abstract class AbstractDialect implements Dialect {
    private static final Logger LOG = LoggerFactory.getLogger(AbstractDialect.class);
    /** Tables already warned about, so that a keyless table logs once per process, not once per row. */
    private static final java.util.Set<String> WARNED_KEYLESS = ConcurrentHashMap.newKeySet();

    private final char quote;
    private final boolean databaseIsCatalog;

    /**
     * @param quote the character that opens and closes a quoted identifier (doubled inside it)
     * @param databaseIsCatalog whether the target's schema is a JDBC catalog, as MySQL's database is, rather than a
     *     JDBC schema
     */
    protected AbstractDialect(char quote, boolean databaseIsCatalog) {
        this.quote = quote;
        this.databaseIsCatalog = databaseIsCatalog;
    }

    /** {@code CREATE SCHEMA IF NOT EXISTS}; MySQL, where a schema is a database, says so. */
    @Override
    public String createSchemaIfAbsent(String schema) {
        return "CREATE SCHEMA IF NOT EXISTS " + quoteIdentifier(schema);
    }

    @Override
    public final String metadataCatalog(String schema) {
        return databaseIsCatalog ? schema : null;
    }

    @Override
    public final String metadataSchema(String schema) {
        return databaseIsCatalog ? null : schema;
    }

    @Override
    public final String quoteIdentifier(String name) {
        checkIdentifier(name);
        StringBuilder sb = new StringBuilder(name.length() + 2).append(quote);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == quote) {
                sb.append(quote);
            }
            sb.append(c);
        }
        return sb.append(quote).toString();
    }

    /** Length of {@code name} in the unit {@link #maxIdentifierLength()} counts. */
    protected int identifierLength(String name) {
        return name.codePointCount(0, name.length());
    }

    private void checkIdentifier(String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidIdentifierException(kind() + " identifier must not be " + (name == null ? "null" : "empty"));
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '\0') {
                throw new InvalidIdentifierException(kind() + " identifier contains NUL at index " + i + ": "
                        + printable(name));
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= name.length() || !Character.isLowSurrogate(name.charAt(i + 1))) {
                    throw new InvalidIdentifierException(kind() + " identifier has an unpaired surrogate at index " + i
                            + ": " + printable(name));
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                throw new InvalidIdentifierException(kind() + " identifier has an unpaired surrogate at index " + i + ": "
                        + printable(name));
            }
        }
        int length = identifierLength(name);
        if (length > maxIdentifierLength()) {
            throw new InvalidIdentifierException(kind() + " identifier is " + length + " long, more than the "
                    + maxIdentifierLength() + " the target keeps: " + printable(name));
        }
    }

    /** The name for an error message: control characters escaped, cut to 80 characters. */
    static String printable(String name) {
        StringBuilder sb = new StringBuilder("'");
        for (int i = 0; i < name.length() && sb.length() < 80; i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) && !Character.isLetterOrDigit(name.codePointAt(i))) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (sb.length() >= 80) {
            sb.append("...");
        }
        return sb.append('\'').toString();
    }

    @Override
    public RowSql insert(TargetTable table) {
        return insertOf(table, table.columns());
    }

    @Override
    public RowSql insert(TargetTable table, List<String> columns) {
        List<TargetColumn> resolved = new ArrayList<>(columns.size());
        for (String name : columns) {
            resolved.add(table.requireColumn(name));
        }
        return insertOf(table, resolved);
    }

    private RowSql insertOf(TargetTable table, List<TargetColumn> columns) {
        return new RowSql(insertInto(table, columns).toString(), columns, List.of());
    }

    /** {@code INSERT INTO t (c1, ..) VALUES (?, ..)} over {@code columns}, for a subclass's upsert to go on from. */
    protected final StringBuilder insertInto(TargetTable table, List<TargetColumn> columns) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(qualify(table.schema(), table.name())).append(" (");
        appendColumnList(sql, columns);
        sql.append(") VALUES (");
        appendPlaceholders(sql, columns.size());
        return sql.append(')');
    }

    @Override
    public RowSql update(TargetTable table, List<String> setColumns) {
        if (setColumns.isEmpty()) {
            throw new IllegalArgumentException("UPDATE of " + table + " needs at least one column to set");
        }
        RowKey key = rowKey(table);
        List<TargetColumn> params = new ArrayList<>();
        StringBuilder set = new StringBuilder();
        for (String name : setColumns) {
            TargetColumn c = table.requireColumn(name);
            if (!set.isEmpty()) {
                set.append(", ");
            }
            set.append(quoteIdentifier(c.name())).append(" = ?");
            params.add(c);
        }
        String where = whereClause(key);
        params.addAll(key.columns());
        String target = qualify(table.schema(), table.name());
        return new RowSql("UPDATE " + target + " SET " + set + " WHERE " + rowCondition(key, target, where), params,
                key.columns());
    }

    @Override
    public RowSql delete(TargetTable table) {
        RowKey key = rowKey(table);
        String where = whereClause(key);
        String target = qualify(table.schema(), table.name());
        return new RowSql("DELETE FROM " + target + " WHERE " + rowCondition(key, target, where), key.columns(),
                key.columns());
    }

    /**
     * {@code UPDATE t SET c = CASE k WHEN ? THEN ? .. ELSE c END, .. WHERE k IN (?, ..)} (a key of several columns:
     * {@code CASE WHEN k1 = ? AND k2 = ? THEN ?} and {@code (k1 = ? AND k2 = ?) OR ..}), in the parameter order of
     * {@link #updateRows}; for the dialects whose driver types every parameter the way the column takes it.
     */
    protected final String caseUpdate(TargetTable table, List<TargetColumn> setColumns, List<TargetColumn> key, int rows) {
        StringBuilder sql = new StringBuilder("UPDATE ").append(qualify(table.schema(), table.name())).append(" SET ");
        String keyCondition = keyCondition(key);
        for (int c = 0; c < setColumns.size(); c++) {
            String column = quoteIdentifier(setColumns.get(c).name());
            sql.append(c == 0 ? "" : ", ").append(column).append(" = CASE");
            if (key.size() == 1) {
                sql.append(' ').append(quoteIdentifier(key.get(0).name()));
                sql.append(" WHEN ? THEN ?".repeat(rows));
            } else {
                for (int r = 0; r < rows; r++) {
                    sql.append(" WHEN ").append(keyCondition).append(" THEN ?");
                }
            }
            // ELSE: a row the WHERE clause matched and no WHEN did (none can) keeps its value rather than NULL.
            sql.append(" ELSE ").append(column).append(" END");
        }
        return sql.append(" WHERE ").append(keyList(key, keyCondition, rows)).toString();
    }

    /** {@code DELETE FROM t WHERE k IN (?, ..)} (or the conditions of a key of several columns joined by OR). */
    protected final String keyListDelete(TargetTable table, List<TargetColumn> key, int rows) {
        return "DELETE FROM " + qualify(table.schema(), table.name()) + " WHERE "
                + keyList(key, keyCondition(key), rows);
    }

    /** {@code k1 = ? AND k2 = ?} over the key's columns (NOT NULL: a real key). */
    private String keyCondition(List<TargetColumn> key) {
        StringBuilder condition = new StringBuilder();
        for (TargetColumn c : key) {
            condition.append(condition.isEmpty() ? "" : " AND ").append(quoteIdentifier(c.name())).append(" = ?");
        }
        return condition.toString();
    }

    private String keyList(List<TargetColumn> key, String keyCondition, int rows) {
        StringBuilder sql = new StringBuilder();
        if (key.size() == 1) {
            sql.append(quoteIdentifier(key.get(0).name())).append(" IN (");
            appendPlaceholders(sql, rows);
            return sql.append(')').toString();
        }
        for (int r = 0; r < rows; r++) {
            sql.append(r == 0 ? "(" : " OR (").append(keyCondition).append(')');
        }
        return sql.toString();
    }

    @Override
    public RowSql select(TargetTable table, List<String> columns) {
        RowKey key = rowKey(table);
        StringBuilder sql = new StringBuilder("SELECT ");
        List<TargetColumn> resolved = new ArrayList<>();
        for (String name : columns) {
            resolved.add(table.requireColumn(name));
        }
        appendColumnList(sql, resolved);
        sql.append(" FROM ").append(qualify(table.schema(), table.name())).append(" WHERE ").append(whereClause(key));
        return new RowSql(sql.toString(), key.columns(), key.columns());
    }

    @Override
    public RowSql upsert(TargetTable table) {
        RowKey key = table.rowKey();
        if (key.kind() == KeyKind.ALL_COLUMNS) {
            throw new IllegalStateException("cannot upsert into " + table
                    + ": it has neither a primary key nor a unique index over NOT NULL columns");
        }
        List<TargetColumn> nonKey = new ArrayList<>(table.columns());
        nonKey.removeAll(key.columns());
        return new RowSql(upsertSql(table, key.columns(), nonKey), table.columns(), key.columns());
    }

    /** The upsert statement; parameters are every column in table order. */
    protected abstract String upsertSql(TargetTable table, List<TargetColumn> key, List<TargetColumn> nonKey);

    /**
     * What follows {@code WHERE} in an UPDATE or DELETE of {@code target} so that it changes at most one of the rows that
     * {@code where} matches (a keyless table's rows are matched by all their columns, and duplicates must stay).
     */
    protected abstract String oneRowCondition(String target, String where);

    /** {@code quoted IS NOT DISTINCT FROM ?}, the standard's null-safe equality; MySQL has its own operator. */
    protected String nullSafeEquals(String quotedColumn) {
        return quotedColumn + " IS NOT DISTINCT FROM ?";
    }

    /** The key's WHERE condition, limited to one row when the key is every column. */
    private String rowCondition(RowKey key, String target, String where) {
        return key.kind() == KeyKind.ALL_COLUMNS ? oneRowCondition(target, where) : where;
    }

    private RowKey rowKey(TargetTable table) {
        RowKey key = table.rowKey();
        if (key.kind() == KeyKind.ALL_COLUMNS && WARNED_KEYLESS.add(kind() + ":" + table.schema() + "." + table.name())) {
            LOG.warn("Target table {}.{} has no primary key and no NOT NULL unique index: rows are found by all columns, "
                    + "which is slow and cannot tell duplicate rows apart (one of them is changed)", table.schema(),
                    table.name());
        }
        return key;
    }

    private String whereClause(RowKey key) {
        StringBuilder where = new StringBuilder();
        for (TargetColumn c : key.columns()) {
            if (!where.isEmpty()) {
                where.append(" AND ");
            }
            String quoted = quoteIdentifier(c.name());
            where.append(c.nullable() ? nullSafeEquals(quoted) : quoted + " = ?");
        }
        return where.toString();
    }

    protected final void appendColumnList(StringBuilder sql, List<TargetColumn> columns) {
        appendEach(sql, columns, UnaryOperator.identity());
    }

    /** Each column, quoted and then written as {@code form} makes it (an assignment, say), comma-separated. */
    protected final void appendEach(StringBuilder sql, List<TargetColumn> columns, UnaryOperator<String> form) {
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                sql.append(", ");
            }
            sql.append(form.apply(quoteIdentifier(columns.get(i).name())));
        }
    }

    protected static void appendPlaceholders(StringBuilder sql, int count) {
        for (int i = 0; i < count; i++) {
            sql.append(i == 0 ? "?" : ", ?");
        }
    }

    @Override
    public String toString() {
        return kind().toString();
    }
}
