package io.lanes.applier.jdbc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A target table as its catalog describes it: columns in order, primary key, unique indexes. Immutable.
 *
 * @param schema the target schema (database on MySQL)
 * @param name the table name
 * @param columns every column in ordinal order
 * @param primaryKey primary key column names in key order; empty when the table has none
 * @param uniqueIndexes unique indexes other than the primary key
 */
public record TargetTable(String schema, String name, List<TargetColumn> columns, List<String> primaryKey,
        List<TargetIndex> uniqueIndexes) {

    /** How a row is found for UPDATE and DELETE. */
    public enum KeyKind {
        /** The primary key. */
        PRIMARY,
        /** A unique index whose columns are all NOT NULL (what MySQL's replica also uses when there is no primary key). */
        UNIQUE_NOT_NULL,
        /** No usable key: every column, compared null-safely, at most one row changed. */
        ALL_COLUMNS
    }

    /**
     * The columns that identify a row, and where they come from.
     *
     * @param kind the key's origin
     * @param columns the key columns, in key order
     */
    public record RowKey(KeyKind kind, List<TargetColumn> columns) {
        public RowKey {
            columns = List.copyOf(columns);
        }
    }

    public TargetTable {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        uniqueIndexes = List.copyOf(uniqueIndexes);
        Map<String, TargetColumn> byName = new HashMap<>();
        for (TargetColumn c : columns) {
            byName.put(c.name(), c);
        }
        for (String k : primaryKey) {
            if (!byName.containsKey(k)) {
                throw new IllegalArgumentException("primary key column " + k + " is not a column of " + schema + "." + name);
            }
        }
    }

    /** The column with exactly this name, or {@code null}. */
    public TargetColumn column(String columnName) {
        for (TargetColumn c : columns) {
            if (c.name().equals(columnName)) {
                return c;
            }
        }
        return null;
    }

    /** The column with exactly this name. @throws IllegalArgumentException naming table and column when missing */
    public TargetColumn requireColumn(String columnName) {
        TargetColumn c = column(columnName);
        if (c == null) {
            throw new IllegalArgumentException("target table " + schema + "." + name + " has no column " + columnName);
        }
        return c;
    }

    /** The primary key, else the first unique index whose columns are all NOT NULL, else all columns. */
    public RowKey rowKey() {
        if (!primaryKey.isEmpty()) {
            return new RowKey(KeyKind.PRIMARY, resolve(primaryKey));
        }
        for (TargetIndex index : uniqueIndexes) {
            List<TargetColumn> cols = resolve(index.columns());
            if (cols.stream().noneMatch(TargetColumn::nullable)) {
                return new RowKey(KeyKind.UNIQUE_NOT_NULL, cols);
            }
        }
        return new RowKey(KeyKind.ALL_COLUMNS, columns);
    }

    private List<TargetColumn> resolve(List<String> names) {
        List<TargetColumn> out = new ArrayList<>(names.size());
        for (String n : names) {
            out.add(requireColumn(n));
        }
        return out;
    }

    /** Schema and name only: cheap enough for the per-row statement cache, and consistent with equals. */
    @Override
    public int hashCode() {
        return schema.hashCode() * 31 + name.hashCode();
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof TargetTable t && schema.equals(t.schema) && name.equals(t.name)
                && columns.equals(t.columns) && primaryKey.equals(t.primaryKey) && uniqueIndexes.equals(t.uniqueIndexes);
    }

    @Override
    public String toString() {
        return schema + "." + name;
    }
}
