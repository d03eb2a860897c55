package io.lanes.applier;

import java.util.List;

/**
 * What the bridge needs to know about a table to turn its row images into changes and write keys: column names in
 * source order, unique keys and foreign keys. Immutable.
 *
 * @param columns column names in the order the source logs them
 * @param uniqueKeys the primary key (named {@value #PRIMARY}) first when there is one, then the unique keys
 * @param foreignKeys foreign keys to parents whose referenced columns form a unique key of the parent
 */
public record TableShape(List<String> columns, List<Key> uniqueKeys, List<ForeignKey> foreignKeys) {
    public static final String PRIMARY = "PRIMARY";

    public TableShape {
        columns = List.copyOf(columns);
        uniqueKeys = List.copyOf(uniqueKeys);
        foreignKeys = List.copyOf(foreignKeys);
    }

    /**
     * A unique key.
     *
     * @param name {@value TableShape#PRIMARY} or the unique index's name
     * @param columns its columns in key order
     */
    public record Key(String name, List<String> columns) {
        public Key {
            columns = List.copyOf(columns);
        }
    }

    /**
     * A foreign key, with the parent's unique key it references.
     *
     * @param columns the child's columns, in the order of {@code parentKey}'s columns
     * @param parent the parent table (target names)
     * @param parentKey the parent's unique key the foreign key references
     */
    public record ForeignKey(List<String> columns, TableRef parent, Key parentKey) {
        public ForeignKey {
            columns = List.copyOf(columns);
        }
    }
}
