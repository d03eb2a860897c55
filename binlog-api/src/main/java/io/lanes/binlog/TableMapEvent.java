package io.lanes.binlog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * TABLE_MAP (19): binds a table id to a schema, table and column layout for the row events that follow. What the log says
 * of each column (type, metadata, nullability, and the optional metadata of binlog_row_metadata=FULL or MINIMAL) is in
 * {@link #columns()}.
 *
 * <p>Column metadata ({@link ColumnDef#meta()}) follows the server's own {@code table_def} convention: 2-byte metadata of
 * VARCHAR, VAR_STRING and BIT is read little-endian (BIT: {@code bytes << 8 | bits}); NEWDECIMAL is
 * {@code precision << 8 | scale}; STRING, ENUM and SET are {@code first_byte << 8 | second_byte} (real type in the high
 * byte); 1-byte metadata is that byte. MariaDB writes ENUM and SET columns as STRING with the real type in the metadata,
 * as MySQL does.
 *
 * @param tableId the id row events refer to (unique only while this map is current)
 * @param flags TM_BIT_LEN_EXACT_F (1), TM_REFERRED_FK_DB_F (2), TM_GENERATED_INVISIBLE_PK_F (4)
 * @param primaryKey the primary key's column indexes in key order (SIMPLE_PRIMARY_KEY or PRIMARY_KEY_WITH_PREFIX), empty
 *     when the log does not say
 * @param primaryKeyPrefixLengths for each {@link #primaryKey()} entry, the prefix length in characters (0: whole column)
 */
public record TableMapEvent(EventHeader header, long tableId, int flags, String schema, String table,
        List<ColumnDef> columns, List<Integer> primaryKey, List<Integer> primaryKeyPrefixLengths) implements BinlogEvent {

    public TableMapEvent {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        primaryKeyPrefixLengths = List.copyOf(primaryKeyPrefixLengths);
    }

    /** Column names in order; entries are {@code null} when the log does not carry names (binlog_row_metadata=MINIMAL). */
    public List<String> columnNames() {
        List<String> names = new ArrayList<>(columns.size());
        for (ColumnDef c : columns) {
            names.add(c.name());
        }
        return Collections.unmodifiableList(names);
    }

    /** Whether the log carries the column names. */
    public boolean hasColumnNames() {
        return !columns.isEmpty() && columns.get(0).name() != null;
    }

    /** {@code schema.table}, unquoted, for messages. */
    public String qualifiedName() {
        return schema + "." + table;
    }
}
