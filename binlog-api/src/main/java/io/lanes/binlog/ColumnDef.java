package io.lanes.binlog;

import java.util.List;

/**
 * One column of a table as a TABLE_MAP event describes it: what a decoder needs to read its values, and what the optional
 * metadata (binlog_row_metadata=FULL, or MySQL 8's MINIMAL subset) adds. Immutable.
 *
 * @param index column position, 0-based
 * @param type the type byte as logged ({@link ColumnType#STRING} keeps its real type in {@code meta}'s high byte)
 * @param meta the type's metadata as logged, 0..0xffff (for STRING, ENUM and SET: {@code real_type << 8 | length} as the
 *     server writes it, i.e. the first byte in the high half)
 * @param nullable whether the column may hold NULL (the TABLE_MAP null bitmap)
 * @param unsigned whether a numeric column is unsigned (SIGNEDNESS metadata; false when unknown)
 * @param charsetId the collation id of a character column, or -1 when the log does not say; 63 means binary
 * @param name the column name, or {@code null} when the log does not carry names
 * @param enumValues ENUM member names in order, or {@code null} when unknown
 * @param setValues SET member names in order, or {@code null} when unknown
 * @param geometryType the GEOMETRY subtype, or -1 when unknown
 * @param vectorDimensions the VECTOR dimensionality, or -1 when unknown
 * @param visible false for an invisible column (COLUMN_VISIBILITY metadata)
 */
public record ColumnDef(
        int index,
        ColumnType type,
        int meta,
        boolean nullable,
        boolean unsigned,
        int charsetId,
        String name,
        List<String> enumValues,
        List<String> setValues,
        int geometryType,
        int vectorDimensions,
        boolean visible) {

    public static final int BINARY_CHARSET = 63;

    public ColumnDef {
        enumValues = enumValues == null ? null : List.copyOf(enumValues);
        setValues = setValues == null ? null : List.copyOf(setValues);
    }

    /**
     * For a {@link ColumnType#STRING} column (CHAR, BINARY, or an ENUM/SET logged as STRING): its maximum length in
     * bytes (the pack length for ENUM/SET), from the table map's metadata. The applier needs it to restore the trailing
     * 0x00 bytes the server strips from BINARY(n) values in the log.
     */
    public int stringMaxLength() {
        return io.lanes.binlog.internal.ColumnValueDecoder.stringMaxLength(meta);
    }

    /** A column with only what every TABLE_MAP carries (type, metadata, nullability). */
    public static ColumnDef minimal(int index, ColumnType type, int meta, boolean nullable) {
        return new ColumnDef(index, type, meta, nullable, false, -1, null, null, null, -1, -1, true);
    }
}
