package io.lanes.binlog;

import io.lanes.binlog.internal.ByteArrayRecords;

/**
 * USER_VAR (14): a user variable the following statement reads.
 *
 * @param name the variable name (without {@code @})
 * @param valueType the server's {@code Item_result}: 0 STRING, 1 REAL, 2 INT, 4 DECIMAL; -1 when the value is NULL
 * @param charsetId the value's collation id (63 when NULL)
 * @param value the value bytes as logged (a double, an 8-byte integer, a packed decimal with precision and scale in the
 *     first two bytes, or string bytes), or {@code null} for NULL
 * @param flags UNSIGNED_F (1) etc., 0 when the server did not write flags
 */
public record UserVarEvent(EventHeader header, String name, int valueType, int charsetId, byte[] value, int flags)
        implements BinlogEvent {
    public UserVarEvent {
        value = value == null ? null : value.clone();
    }

    @Override
    public byte[] value() {
        return value == null ? null : value.clone();
    }

    public boolean isNull() {
        return value == null;
    }

    /** Value equality, byte arrays compared by content. */
    @Override
    public boolean equals(Object other) {
        return ByteArrayRecords.equals(this, other);
    }

    @Override
    public int hashCode() {
        return ByteArrayRecords.hashCode(this);
    }
}
