package io.lanes.applier.jdbc;

import java.util.List;

/**
 * A generated prepared statement and the target columns whose values fill its parameters, in parameter order (a column
 * may appear twice, e.g. in SET and in WHERE). Immutable.
 *
 * @param sql the statement text; identifiers quoted, values only as {@code ?}
 * @param parameters the column bound to each {@code ?}, 1-based parameter i is {@code parameters.get(i - 1)}
 * @param keyColumns the row-key columns the WHERE clause (or conflict target) uses; empty for a plain INSERT
 */
public record RowSql(String sql, List<TargetColumn> parameters, List<TargetColumn> keyColumns) {
    public RowSql {
        parameters = List.copyOf(parameters);
        keyColumns = List.copyOf(keyColumns);
    }
}
