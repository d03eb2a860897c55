package io.lanes.applier.jdbc;

/** The target has no table of that name. The message names schema and table exactly. */
public final class MissingTableException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String schema;
    private final String table;

    public MissingTableException(String schema, String table) {
        super("target table `" + schema + "`.`" + table + "` does not exist (create it, let Lanes apply the source's DDL, "
                + "or exclude it with a table filter)");
        this.schema = schema;
        this.table = table;
    }

    public String schema() {
        return schema;
    }

    public String table() {
        return table;
    }
}
