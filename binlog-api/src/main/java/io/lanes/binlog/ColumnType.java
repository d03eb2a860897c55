package io.lanes.binlog;

/**
 * MySQL and MariaDB column type codes as they appear in TABLE_MAP events ({@code enum_field_types} in the server).
 * The code is the byte written in the log; {@link #of(int)} maps it back.
 */
public enum ColumnType {
    DECIMAL(0), TINY(1), SHORT(2), LONG(3), FLOAT(4), DOUBLE(5), NULL(6), TIMESTAMP(7), LONGLONG(8), INT24(9), DATE(10),
    TIME(11), DATETIME(12), YEAR(13), NEWDATE(14), VARCHAR(15), BIT(16), TIMESTAMP2(17), DATETIME2(18), TIME2(19),
    TYPED_ARRAY(20),
    /** MariaDB 10.3+ {@code TEXT/BLOB ... COMPRESSED}: metadata and length prefix as BLOB, the value zlib-compressed. */
    BLOB_COMPRESSED(140),
    /** MariaDB 10.3+ {@code VARCHAR ... COMPRESSED}: metadata and length prefix as VARCHAR, the value zlib-compressed. */
    VARCHAR_COMPRESSED(141),
    VECTOR(242), JSON(245), NEWDECIMAL(246), ENUM(247), SET(248), TINY_BLOB(249), MEDIUM_BLOB(250),
    LONG_BLOB(251), BLOB(252), VAR_STRING(253), STRING(254), GEOMETRY(255);

    private static final ColumnType[] BY_CODE = new ColumnType[256];

    static {
        for (ColumnType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    ColumnType(int code) {
        this.code = code;
    }

    /** The type byte as written in the binlog. */
    public int code() {
        return code;
    }

    /** The type for a binlog type byte, or {@code null} when no server writes that code. */
    public static ColumnType of(int code) {
        return code >= 0 && code < 256 ? BY_CODE[code] : null;
    }
}
