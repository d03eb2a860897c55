package io.lanes.applier.schema;

import java.util.List;
import java.util.Locale;

/**
 * A source table's definition at some point of the log: its columns in the source's order (the order row images use),
 * its primary key, unique keys and foreign keys. Immutable.
 *
 * @param schema the source schema (database)
 * @param name the table name
 * @param columns every column, generated and invisible ones included, in definition order
 * @param uniqueKeys the primary key (named {@value #PRIMARY}) first when there is one, then the unique keys
 * @param foreignKeys the foreign keys, referencing parents by source names
 * @param origin where the definition came from, for messages ({@code "the log at bin.000001:1234"}, {@code "schema
 *     file dump.sql"}, {@code "information_schema"})
 */
public record SourceTable(String schema, String name, List<SourceColumn> columns, List<Key> uniqueKeys,
        List<ForeignKey> foreignKeys, String origin) {
    public static final String PRIMARY = "PRIMARY";

    public SourceTable {
        columns = List.copyOf(columns);
        uniqueKeys = List.copyOf(uniqueKeys);
        foreignKeys = List.copyOf(foreignKeys);
    }

    /** The column's index (names compare case-insensitively, as MySQL's do), or -1. */
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    /** The column names in order. */
    public List<String> columnNames() {
        return columns.stream().map(SourceColumn::name).toList();
    }

    /** The same definition under another schema and name (RENAME TABLE, CREATE TABLE ... LIKE). */
    SourceTable renamed(String newSchema, String newName, String newOrigin) {
        return new SourceTable(newSchema, newName, columns, uniqueKeys, foreignKeys, newOrigin);
    }

    /**
     * A unique key.
     *
     * @param name {@value SourceTable#PRIMARY} or the index name
     * @param columns the key's columns in key order
     */
    public record Key(String name, List<String> columns) {
        public Key {
            columns = List.copyOf(columns);
        }

        boolean isPrimary() {
            return name.toUpperCase(Locale.ROOT).equals(PRIMARY);
        }
    }

    /**
     * A foreign key.
     *
     * @param name the constraint's name, or null when the definition gave none
     * @param columns the child's columns
     * @param parentSchema the parent's source schema
     * @param parentTable the parent's name
     * @param parentColumns the referenced columns, in the order of {@code columns}
     */
    public record ForeignKey(String name, List<String> columns, String parentSchema, String parentTable,
            List<String> parentColumns) {
        public ForeignKey {
            columns = List.copyOf(columns);
            parentColumns = List.copyOf(parentColumns);
        }
    }
}
