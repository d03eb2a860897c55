package io.lanes.applier;

import java.util.Objects;

/**
 * A table by schema (MySQL database) and name, exactly as spelled. Immutable.
 *
 * @param schema the schema name
 * @param table the table name
 */
public record TableRef(String schema, String table) {
    public TableRef {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
    }

    @Override
    public String toString() {
        return "`" + schema.replace("`", "``") + "`.`" + table.replace("`", "``") + "`";
    }
}
