package io.lanes.applier.jdbc;

import java.sql.Types;
import java.util.Locale;

/**
 * One column of a target table as the target's catalog reports it. Immutable.
 *
 * @param name the exact column name
 * @param position 1-based ordinal position
 * @param jdbcType the {@link Types} code the driver reports
 * @param typeName the driver's type name, upper-cased (e.g. {@code BIGINT UNSIGNED}, {@code JSONB}, {@code ENUM})
 * @param size column size (precision for numbers, length for strings, bits for BIT), 0 when unknown
 * @param scale decimal digits, 0 when not applicable
 * @param nullable whether the column accepts NULL ({@code false} also when the driver does not know)
 * @param generated whether the target computes the column itself (a MySQL/MariaDB VIRTUAL or STORED generated
 *     column): its logged value is never written, the target recomputes it
 */
public record TargetColumn(String name, int position, int jdbcType, String typeName, int size, int scale,
        boolean nullable, boolean generated) {

    public TargetColumn {
        typeName = typeName == null ? "" : typeName.toUpperCase(Locale.ROOT);
    }

    /** A column the target does not compute. */
    public TargetColumn(String name, int position, int jdbcType, String typeName, int size, int scale, boolean nullable) {
        this(name, position, jdbcType, typeName, size, scale, nullable, false);
    }

    /** Whether the column holds large objects that some targets cannot compare (BLOB, CLOB, bytea, text, JSON). */
    public boolean isLargeObject() {
        return switch (jdbcType) {
            case Types.BLOB, Types.CLOB, Types.NCLOB, Types.LONGVARBINARY, Types.LONGVARCHAR, Types.LONGNVARCHAR -> true;
            default -> typeName.contains("JSON") || typeName.equals("TEXT") || typeName.equals("BYTEA");
        };
    }
}
