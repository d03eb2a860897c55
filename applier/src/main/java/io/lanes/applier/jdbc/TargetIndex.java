package io.lanes.applier.jdbc;

import java.util.List;

/**
 * A unique index of a target table. Immutable.
 *
 * @param name the index name as the catalog reports it
 * @param columns the indexed column names, in index order
 */
public record TargetIndex(String name, List<String> columns) {
    public TargetIndex {
        columns = List.copyOf(columns);
    }
}
