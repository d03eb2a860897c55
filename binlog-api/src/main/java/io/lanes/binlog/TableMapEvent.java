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
 * @param optionalFields the optional metadata fields the event carries: bit {@code t} set for field type {@code t}
 *     (1 SIGNEDNESS .. 13 VECTOR_DIMENSIONALITY), so that a reader can tell "the log says signed" (bit 1 set, the
 *     column's flag clear) from "the log does not say" (bit 1 clear)
 */
public record TableMapEvent(EventHeader header, long tableId, int flags, String schema, String table,
        List<ColumnDef> columns, List<Integer> primaryKey, List<Integer> primaryKeyPrefixLengths, long optionalFields)
        implements BinlogEvent {

    /** Optional metadata field types (binlog_row_metadata), as bit numbers of {@link #optionalFields()}. */
    public static final int SIGNEDNESS = 1;
    public static final int DEFAULT_CHARSET = 2;
    public static final int COLUMN_CHARSET = 3;
    public static final int COLUMN_NAME = 4;
    public static final int SET_STR_VALUE = 5;
    public static final int ENUM_STR_VALUE = 6;

    public TableMapEvent {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        primaryKeyPrefixLengths = List.copyOf(primaryKeyPrefixLengths);
    }

    /**
     * An event whose optional metadata is told by its columns: SIGNEDNESS when some column is unsigned, the charset
     * fields when some column has one, names and member lists when present (for encoders and tests that build events).
     */
    public TableMapEvent(EventHeader header, long tableId, int flags, String schema, String table,
            List<ColumnDef> columns, List<Integer> primaryKey, List<Integer> primaryKeyPrefixLengths) {
        this(header, tableId, flags, schema, table, columns, primaryKey, primaryKeyPrefixLengths, implied(columns));
    }

    private static long implied(List<ColumnDef> columns) {
        long f = 0;
        for (ColumnDef c : columns) {
            f |= c.unsigned() ? 1L << SIGNEDNESS : 0;
            f |= c.charsetId() >= 0 ? 1L << COLUMN_CHARSET : 0;
            f |= c.name() != null ? 1L << COLUMN_NAME : 0;
            f |= c.enumValues() != null ? 1L << ENUM_STR_VALUE : 0;
            f |= c.setValues() != null ? 1L << SET_STR_VALUE : 0;
        }
        return f;
    }

    /** Whether the log says which numeric columns are unsigned (SIGNEDNESS metadata, MINIMAL and FULL). */
    public boolean hasSignedness() {
        return (optionalFields & 1L << SIGNEDNESS) != 0;
    }

    /** Whether the log gives the character columns' collations (DEFAULT_CHARSET or COLUMN_CHARSET metadata). */
    public boolean hasCharsets() {
        return (optionalFields & (1L << DEFAULT_CHARSET | 1L << COLUMN_CHARSET)) != 0;
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
