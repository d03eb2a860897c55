package io.lanes.applier;

/**
 * Where the bridge learns table shapes (column names, keys) that the binlog does not carry. The default reads the target's
 * catalog ({@link io.lanes.applier.jdbc.CatalogTableMetadata}).
 *
 * <p>Called by the dispatching thread only, in source order. After DDL the dispatcher waits until the DDL is applied and
 * calls {@link #invalidate()} before converting later transactions.
 */
public interface TableMetadata {
    /**
     * The shape of a table, by its target schema and name, or {@code null} when unknown (the table does not exist on the
     * target): the bridge then makes its transactions run alone.
     */
    TableShape shape(String targetSchema, String table) throws Exception;

    /** Forgets cached shapes (after DDL). */
    void invalidate();

    /** Knows no table: every transaction with rows runs alone under the writeset scheduler. */
    static TableMetadata none() {
        return new TableMetadata() {
            @Override
            public TableShape shape(String targetSchema, String table) {
                return null;
            }

            @Override
            public void invalidate() {
            }
        };
    }
}
