package io.lanes.applier.schema;

import io.lanes.applier.TableRef;

/**
 * A row event that no source of metadata explains: the binlog carries no column names, the schema history does not
 * know the table, and the target (or sink) has no definition for it either. Nothing of its transaction is applied.
 */
public final class UnexplainedRowsException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final transient TableRef table;
    private final String position;

    public UnexplainedRowsException(TableRef table, String position, String detail) {
        super("table " + table + " at " + position + ": " + detail);
        this.table = table;
        this.position = position;
    }

    /** The source table the row event names. */
    public TableRef table() {
        return table;
    }

    /** The source position of the transaction. */
    public String position() {
        return position;
    }
}
