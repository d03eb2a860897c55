package io.lanes.applier;

import java.util.Objects;

/**
 * One row inserted, updated or deleted in a source table. Immutable.
 *
 * @param table the source table (schema mapping turns it into the target table)
 * @param kind what happened
 * @param before the row before the change: null for INSERT; for UPDATE and DELETE at least the columns that identify the
 *     row on the target (its primary key, or every column when it has none)
 * @param after the row after the change: null for DELETE; for UPDATE the columns to set (MINIMAL: only those changed)
 */
public record RowChange(TableRef table, Kind kind, RowImage before, RowImage after) implements Change {
    public enum Kind { INSERT, UPDATE, DELETE }

    public RowChange {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(kind, "kind");
        if ((before == null) != (kind == Kind.INSERT)) {
            throw new IllegalArgumentException(kind + " of " + table + (before == null ? " needs" : " cannot have") + " a before image");
        }
        if ((after == null) != (kind == Kind.DELETE)) {
            throw new IllegalArgumentException(kind + " of " + table + (after == null ? " needs" : " cannot have") + " an after image");
        }
    }

    public static RowChange insert(TableRef table, RowImage after) {
        return new RowChange(table, Kind.INSERT, null, after);
    }

    public static RowChange update(TableRef table, RowImage before, RowImage after) {
        return new RowChange(table, Kind.UPDATE, before, after);
    }

    public static RowChange delete(TableRef table, RowImage before) {
        return new RowChange(table, Kind.DELETE, before, null);
    }
}
