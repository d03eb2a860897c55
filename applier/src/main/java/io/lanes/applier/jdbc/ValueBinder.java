package io.lanes.applier.jdbc;

import io.lanes.applier.internal.FailureMessages;
import io.lanes.applier.value.BitValue;
import io.lanes.applier.value.EnumValue;
import io.lanes.applier.value.JsonText;
import io.lanes.applier.value.SetValue;
import io.lanes.applier.value.ValueConversionException;
import io.lanes.applier.value.ZeroDate;
import io.lanes.applier.value.ZeroDatePolicy;
import io.lanes.binlog.value.MysqlDate;
import io.lanes.binlog.value.MysqlDateTime;
import io.lanes.binlog.value.MysqlTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * Binds one Java value (the forms listed in {@link io.lanes.applier.value}) to one {@code ?} parameter, converted for
 * the dialect and the target column's type:
 *
 * <ul>
 *   <li>integers into integer, DECIMAL/NUMERIC, floating, boolean, BIT and text columns; a {@link BigInteger} above
 *       2^63-1 (unsigned BIGINT) into DECIMAL(20)/NUMERIC or MySQL's BIGINT UNSIGNED, and an error into a signed BIGINT;
 *       a negative integer into a MySQL UNSIGNED column as the unsigned value of the column's width (a log without
 *       SIGNEDNESS metadata is read as signed);
 *   <li>a {@code Float} into a DOUBLE column through its shortest decimal form ({@code 2.1f} becomes {@code 2.1}, not
 *       {@code 2.0999999046325684}), as MySQL shows FLOAT values;
 *   <li>{@link Instant} (TIMESTAMP) as the UTC wall-clock time into a column without time zone (sessions run in UTC,
 *       see {@link Dialect#initSession}) and as a UTC offset date-time into one with;
 *   <li>{@link Duration} (MySQL TIME) as text {@code [-]H:MM:SS.ffffff} into MySQL TIME and PostgreSQL interval, as a
 *       Duration into H2 INTERVAL, as a {@link LocalTime} into a TIME column when within 0..24 h, else an error;
 *   <li>{@link ZeroDate} and the decoder's {@link MysqlDate}/{@link MysqlDateTime} (zero or impossible calendar dates
 *       that {@code java.time} cannot hold) as they are into MySQL/MariaDB, by the {@link ZeroDatePolicy} elsewhere; the decoder's {@link MysqlTime} (TIME outside
 *       0..24 h) as its {@link Duration};
 *   <li>{@code byte[]} into binary columns as is, into text columns decoded with the source column's charset;
 *   <li>{@link JsonText} and strings into JSON/JSONB (PostgreSQL as an untyped parameter the server parses), H2 JSON
 *       (as UTF-8 bytes, which H2 parses, where a string would become a JSON string) and text;
 *   <li>{@link BitValue} into BIT (PostgreSQL as a bit string), BOOLEAN, integers, binary (big-endian bytes) and text;
 *   <li>{@link EnumValue}/{@link SetValue} by name into ENUM/SET and text, by number into integers;
 *   <li>{@code float[]} into arrays (H2 {@code REAL ARRAY}, PostgreSQL {@code real[]}), binary and VECTOR (packed
 *       little-endian float32, MariaDB's VECTOR format) and text ({@code [1,2.5]}).
 * </ul>
 *
 * <p>Immutable and thread-safe; the statement it binds is the caller's (one worker's).
 */
public final class ValueBinder {
    private enum Category {
        INTEGER, DECIMAL, REAL, DOUBLE, BOOLEAN, BIT, TEXT, JSON, BINARY, DATE, TIME, TIMESTAMP, TIMESTAMP_TZ, INTERVAL,
        ARRAY, ENUM_SET, OTHER
    }

    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);

    private final Dialect dialect;
    private final ConversionOptions options;

    public ValueBinder(Dialect dialect, ConversionOptions options) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.options = Objects.requireNonNull(options, "options");
    }

    public ValueBinder(Dialect dialect) {
        this(dialect, ConversionOptions.DEFAULTS);
    }

    public ConversionOptions options() {
        return options;
    }

    /** Binds {@code value}; a {@code byte[]} bound into a text column is decoded with {@link ConversionOptions#textCharset}. */
    public void bind(PreparedStatement ps, int index, TargetColumn column, Object value) throws SQLException {
        bind(ps, index, column, value, null);
    }

    /**
     * Binds {@code value} converted for {@code column}.
     *
     * @param sourceCharset the charset of the source column, used for {@code byte[]} values into text columns; {@code null}
     *     for the configured default
     * @throws ValueConversionException naming the column when the column cannot hold the value faithfully
     */
    public void bind(PreparedStatement ps, int index, TargetColumn column, Object value, Charset sourceCharset)
            throws SQLException {
        Category category = categorize(column);
        if (value == null) {
            bindNull(ps, index, column, category);
            return;
        }
        if (value instanceof MysqlTime time) {
            value = time.toDuration();
        }
        if (value instanceof ZeroDate || value instanceof MysqlDate || value instanceof MysqlDateTime) {
            if (dialect.kind() == Dialect.Kind.MYSQL) {
                // A MySQL/MariaDB target holds zero dates as the source did (the apply session's sql_mode allows
                // them): written as they are, never as NULL. The policy is for targets that cannot hold one.
                ps.setString(index, value instanceof ZeroDate z ? z.text() : value.toString());
                return;
            }
            if (options.zeroDates() == ZeroDatePolicy.TO_NULL) {
                bindNull(ps, index, column, category);
                return;
            }
            throw fail(column, value, "zero dates are configured to be an error (ZeroDatePolicy.ERROR)");
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            long v = ((Number) value).longValue();
            if (v < 0 && category == Category.INTEGER && column.typeName().contains("UNSIGNED")) {
                // Without SIGNEDNESS metadata the log's bits were read as signed: the target column says unsigned.
                Object unsigned = asUnsigned(column, v);
                if (unsigned instanceof BigInteger big) {
                    bindBigInteger(ps, index, column, category, big);
                } else {
                    bindLong(ps, index, column, category, (Long) unsigned, value);
                }
                return;
            }
            bindLong(ps, index, column, category, v, value);
        } else if (value instanceof BigInteger big) {
            bindBigInteger(ps, index, column, category, big);
        } else if (value instanceof BigDecimal dec) {
            bindDecimal(ps, index, column, category, dec);
        } else if (value instanceof Float f) {
            bindFloating(ps, index, column, category, f, Double.parseDouble(Float.toString(f)));
        } else if (value instanceof Double d) {
            bindFloating(ps, index, column, category, d, d);
        } else if (value instanceof Boolean b) {
            bindLong(ps, index, column, category, b ? 1 : 0, value);
        } else if (value instanceof String s) {
            bindString(ps, index, column, category, s);
        } else if (value instanceof JsonText json) {
            bindString(ps, index, column, category == Category.TEXT || category == Category.JSON || category == Category.BINARY
                    ? category : Category.OTHER, json.json());
        } else if (value instanceof byte[] bytes) {
            bindBytes(ps, index, column, category, bytes, sourceCharset);
        } else if (value instanceof LocalDate date) {
            bindDate(ps, index, column, category, date);
        } else if (value instanceof LocalDateTime dateTime) {
            bindDateTime(ps, index, column, category, dateTime, value);
        } else if (value instanceof Instant instant) {
            if (category == Category.TIMESTAMP_TZ) {
                ps.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
            } else {
                bindDateTime(ps, index, column, category, LocalDateTime.ofInstant(instant, ZoneOffset.UTC), value);
            }
        } else if (value instanceof LocalTime time) {
            bindDuration(ps, index, column, category, Duration.ofNanos(time.toNanoOfDay()), value);
        } else if (value instanceof Duration duration) {
            bindDuration(ps, index, column, category, duration, value);
        } else if (value instanceof BitValue bit) {
            bindBit(ps, index, column, category, bit);
        } else if (value instanceof EnumValue e) {
            bindMembers(ps, index, column, category, value, e.name() != null);
        } else if (value instanceof SetValue set) {
            bindMembers(ps, index, column, category, value, set.members() != null);
        } else if (value instanceof float[] vector) {
            bindVector(ps, index, column, category, vector);
        } else {
            throw fail(column, value, "no conversion for this Java type");
        }
    }

    /** A negative value read as signed, as the unsigned value of the column's width. */
    private static Object asUnsigned(TargetColumn column, long v) {
        String base = column.typeName().replace("UNSIGNED", "").trim();
        return switch (base) {
            case "TINYINT" -> v & 0xFFL;
            case "SMALLINT" -> v & 0xFFFFL;
            case "MEDIUMINT" -> v & 0xFFFFFFL;
            case "INT", "INTEGER" -> v & 0xFFFFFFFFL;
            default -> new BigInteger(Long.toUnsignedString(v));
        };
    }

    private void bindNull(PreparedStatement ps, int index, TargetColumn column, Category category) throws SQLException {
        if (dialect.kind() == Dialect.Kind.POSTGRESQL && (category == Category.JSON || category == Category.INTERVAL
                || category == Category.BIT || category == Category.ARRAY || category == Category.OTHER)) {
            ps.setNull(index, Types.OTHER);
        } else {
            ps.setNull(index, column.jdbcType());
        }
    }

    private void bindLong(PreparedStatement ps, int index, TargetColumn column, Category category, long v, Object original)
            throws SQLException {
        switch (category) {
            case INTEGER, ENUM_SET -> {
                if (category == Category.ENUM_SET && dialect.kind() != Dialect.Kind.MYSQL) {
                    ps.setString(index, Long.toString(v));
                } else {
                    ps.setLong(index, v);
                }
            }
            case DECIMAL -> ps.setBigDecimal(index, BigDecimal.valueOf(v));
            case REAL -> ps.setFloat(index, v);
            case DOUBLE -> ps.setDouble(index, v);
            case BOOLEAN -> ps.setBoolean(index, v != 0);
            case BIT -> {
                if (dialect.kind() == Dialect.Kind.POSTGRESQL) {
                    int width = column.size() > 0 ? column.size() : 64 - Long.numberOfLeadingZeros(v | 1);
                    bindBit(ps, index, column, category, new BitValue(v, width));
                } else {
                    bindUnsignedLong(ps, index, v);
                }
            }
            case TEXT -> ps.setString(index, original instanceof Boolean b ? (b ? "1" : "0") : Long.toString(v));
            default -> throw fail(column, original, "an integer does not convert to this column type");
        }
    }

    private void bindBigInteger(PreparedStatement ps, int index, TargetColumn column, Category category, BigInteger v)
            throws SQLException {
        if (v.compareTo(LONG_MIN) >= 0 && v.compareTo(LONG_MAX) <= 0) {
            bindLong(ps, index, column, category, v.longValue(), v);
            return;
        }
        switch (category) {
            case DECIMAL -> ps.setBigDecimal(index, new BigDecimal(v));
            case INTEGER -> {
                if (column.typeName().contains("UNSIGNED") && v.signum() > 0 && v.bitLength() <= 64) {
                    // MySQL BIGINT UNSIGNED: the server converts the exact decimal parameter.
                    ps.setBigDecimal(index, new BigDecimal(v));
                } else {
                    throw fail(column, v, "out of range for " + column.typeName()
                            + " (an unsigned BIGINT needs DECIMAL(20)/NUMERIC(20) or BIGINT UNSIGNED)");
                }
            }
            case REAL, DOUBLE -> ps.setDouble(index, v.doubleValue());
            case TEXT -> ps.setString(index, v.toString());
            default -> throw fail(column, v, "an integer does not convert to this column type");
        }
    }

    private void bindDecimal(PreparedStatement ps, int index, TargetColumn column, Category category, BigDecimal v)
            throws SQLException {
        switch (category) {
            case DECIMAL -> ps.setBigDecimal(index, v);
            case INTEGER -> {
                BigInteger exact;
                try {
                    exact = v.toBigIntegerExact();
                } catch (ArithmeticException e) {
                    throw fail(column, v, "has a fraction that the integer column would lose");
                }
                bindBigInteger(ps, index, column, category, exact);
            }
            case REAL -> ps.setFloat(index, v.floatValue());
            case DOUBLE -> ps.setDouble(index, v.doubleValue());
            case TEXT -> ps.setString(index, v.toPlainString());
            default -> throw fail(column, v, "a decimal does not convert to this column type");
        }
    }

    private void bindFloating(PreparedStatement ps, int index, TargetColumn column, Category category, Number original,
            double asDouble) throws SQLException {
        switch (category) {
            case REAL -> ps.setFloat(index, original.floatValue());
            case DOUBLE -> ps.setDouble(index, asDouble);
            case DECIMAL -> ps.setBigDecimal(index, new BigDecimal(original.toString()));
            case TEXT -> ps.setString(index, original.toString());
            default -> throw fail(column, original, "a floating-point value does not convert to this column type");
        }
    }

    /**
     * An ENUM or SET value: its number (the ENUM index, the SET bits) into a numeric column, and into a MySQL ENUM or SET
     * column when the member names are unknown; else its member names.
     */
    private void bindMembers(PreparedStatement ps, int index, TargetColumn column, Category category, Object value,
            boolean namesKnown) throws SQLException {
        boolean isEnum = value instanceof EnumValue;
        if (category == Category.INTEGER || category == Category.DECIMAL || !namesKnown && category == Category.ENUM_SET
                && dialect.kind() == Dialect.Kind.MYSQL) {
            if (isEnum) {
                ps.setInt(index, ((EnumValue) value).index());
            } else {
                ps.setLong(index, ((SetValue) value).bits());
            }
        } else if (namesKnown) {
            bindString(ps, index, column, category, isEnum ? ((EnumValue) value).name() : ((SetValue) value).text());
        } else {
            throw fail(column, value, "the " + (isEnum ? "ENUM" : "SET") + " member names are unknown (log with "
                    + "binlog_row_metadata=FULL, or give the table's definition: lanes.source.schema-file)");
        }
    }

    private void bindString(PreparedStatement ps, int index, TargetColumn column, Category category, String s)
            throws SQLException {
        switch (category) {
            case JSON -> {
                if (dialect.kind() == Dialect.Kind.POSTGRESQL) {
                    ps.setObject(index, s, Types.OTHER);
                } else if (dialect.kind() == Dialect.Kind.H2) {
                    ps.setBytes(index, s.getBytes(StandardCharsets.UTF_8));
                } else {
                    ps.setString(index, s);
                }
            }
            case BINARY -> ps.setBytes(index, s.getBytes(StandardCharsets.UTF_8));
            case INTEGER -> {
                try {
                    bindBigInteger(ps, index, column, category, new BigInteger(s.trim()));
                } catch (NumberFormatException e) {
                    throw fail(column, s, "is not an integer");
                }
            }
            case DECIMAL, REAL, DOUBLE -> {
                try {
                    bindDecimal(ps, index, column, category, new BigDecimal(s.trim()));
                } catch (NumberFormatException e) {
                    throw fail(column, s, "is not a number");
                }
            }
            case BIT, INTERVAL, OTHER, ARRAY -> {
                if (dialect.kind() == Dialect.Kind.POSTGRESQL) {
                    ps.setObject(index, s, Types.OTHER);
                } else {
                    ps.setString(index, s);
                }
            }
            default -> ps.setString(index, s);
        }
    }

    private void bindBytes(PreparedStatement ps, int index, TargetColumn column, Category category, byte[] bytes,
            Charset sourceCharset) throws SQLException {
        switch (category) {
            case BINARY, OTHER -> ps.setBytes(index, bytes);
            case TEXT, ENUM_SET -> ps.setString(index, new String(bytes, sourceCharset != null ? sourceCharset
                    : options.textCharset()));
            case JSON -> bindString(ps, index, column, category, new String(bytes, StandardCharsets.UTF_8));
            case BIT, BOOLEAN, INTEGER -> {
                if (bytes.length > 8) {
                    throw fail(column, bytes, bytes.length + " bytes do not fit 64 bits");
                }
                long v = 0;
                for (byte b : bytes) {
                    v = v << 8 | (b & 0xff);
                }
                int width = category == Category.BIT && column.size() > 0 ? column.size() : Math.max(1, bytes.length * 8);
                if (category == Category.BIT) {
                    bindBit(ps, index, column, category, new BitValue(width < 64 ? v & ((1L << width) - 1) : v, width));
                } else {
                    bindLong(ps, index, column, category, v, bytes);
                }
            }
            default -> throw fail(column, bytes, "binary data does not convert to this column type");
        }
    }

    private void bindDate(PreparedStatement ps, int index, TargetColumn column, Category category, LocalDate date)
            throws SQLException {
        switch (category) {
            case DATE -> ps.setObject(index, date);
            case TIMESTAMP -> ps.setObject(index, date.atStartOfDay());
            case TIMESTAMP_TZ -> ps.setObject(index, date.atStartOfDay().atOffset(ZoneOffset.UTC));
            case TEXT -> ps.setString(index, date.toString());
            default -> throw fail(column, date, "a date does not convert to this column type");
        }
    }

    private void bindDateTime(PreparedStatement ps, int index, TargetColumn column, Category category,
            LocalDateTime dateTime, Object original) throws SQLException {
        switch (category) {
            case TIMESTAMP -> ps.setObject(index, dateTime);
            case TIMESTAMP_TZ -> ps.setObject(index, dateTime.atOffset(ZoneOffset.UTC));
            case DATE -> {
                if (!dateTime.toLocalTime().equals(LocalTime.MIDNIGHT)) {
                    throw fail(column, original, "has a time of day that a DATE column would lose");
                }
                ps.setObject(index, dateTime.toLocalDate());
            }
            case TEXT -> ps.setString(index, mysqlDateTimeText(dateTime));
            default -> throw fail(column, original, "a date-time does not convert to this column type");
        }
    }

    private void bindDuration(PreparedStatement ps, int index, TargetColumn column, Category category, Duration d,
            Object original) throws SQLException {
        switch (category) {
            case TIME -> {
                if (dialect.kind() == Dialect.Kind.MYSQL) {
                    ps.setString(index, timeText(d));
                } else if (!d.isNegative() && d.compareTo(Duration.ofDays(1)) < 0) {
                    ps.setObject(index, LocalTime.ofNanoOfDay(d.toNanos()));
                } else {
                    throw fail(column, original, timeText(d) + " is outside a time of day (0..24 h); "
                            + "map MySQL TIME to an interval column");
                }
            }
            case INTERVAL -> {
                if (dialect.kind() == Dialect.Kind.POSTGRESQL) {
                    ps.setObject(index, timeText(d), Types.OTHER);
                } else {
                    ps.setObject(index, d);
                }
            }
            case TEXT -> ps.setString(index, timeText(d));
            default -> throw fail(column, original, "a time does not convert to this column type");
        }
    }

    /**
     * The 64 bits of a BIT value as the unsigned number MySQL/MariaDB compare a BIT column with: a negative long (the
     * top bit set) is stored right but never equals the column in a WHERE clause, so the row lookup of a keyless table
     * found nothing.
     */
    private static void bindUnsignedLong(PreparedStatement ps, int index, long bits) throws SQLException {
        if (bits < 0) {
            ps.setBigDecimal(index, new BigDecimal(new BigInteger(Long.toUnsignedString(bits))));
        } else {
            ps.setLong(index, bits);
        }
    }

    private void bindBit(PreparedStatement ps, int index, TargetColumn column, Category category, BitValue bit)
            throws SQLException {
        switch (category) {
            case BIT -> {
                if (dialect.kind() == Dialect.Kind.POSTGRESQL) {
                    boolean fixed = column.typeName().equals("BIT");
                    int width = fixed && column.size() > 0 ? column.size() : bit.width();
                    if (width < 64 && (bit.bits() >>> width) != 0) {
                        throw fail(column, bit, "has more bits than bit(" + width + ")");
                    }
                    ps.setObject(index, new BitValue(bit.bits(), width).bitString(), Types.OTHER);
                } else {
                    bindUnsignedLong(ps, index, bit.bits());
                }
            }
            case BOOLEAN -> {
                if (bit.width() != 1 && (bit.bits() & ~1L) != 0) {
                    throw fail(column, bit, "has more than one bit for a boolean column");
                }
                ps.setBoolean(index, bit.bits() != 0);
            }
            case INTEGER -> ps.setLong(index, bit.bits());
            case DECIMAL -> ps.setBigDecimal(index, new BigDecimal(new BigInteger(Long.toUnsignedString(bit.bits()))));
            case BINARY -> ps.setBytes(index, bit.bytes());
            case TEXT -> ps.setString(index, bit.bitString());
            default -> throw fail(column, bit, "a BIT value does not convert to this column type");
        }
    }

    private void bindVector(PreparedStatement ps, int index, TargetColumn column, Category category, float[] vector)
            throws SQLException {
        switch (category) {
            case ARRAY -> {
                Float[] boxed = new Float[vector.length];
                for (int i = 0; i < vector.length; i++) {
                    boxed[i] = vector[i];
                }
                if (dialect.kind() == Dialect.Kind.POSTGRESQL) {
                    ps.setArray(index, ps.getConnection().createArrayOf("float4", boxed));
                } else {
                    ps.setObject(index, boxed);
                }
            }
            case BINARY, OTHER -> {
                ByteBuffer buf = ByteBuffer.allocate(vector.length * 4).order(ByteOrder.LITTLE_ENDIAN);
                for (float f : vector) {
                    buf.putFloat(f);
                }
                ps.setBytes(index, buf.array());
            }
            case TEXT, JSON -> {
                StringBuilder sb = new StringBuilder("[");
                for (int i = 0; i < vector.length; i++) {
                    sb.append(i == 0 ? "" : ",").append(vector[i]);
                }
                bindString(ps, index, column, category, sb.append(']').toString());
            }
            default -> throw fail(column, vector, "a vector does not convert to this column type");
        }
    }

    /** {@code [-]H:MM:SS[.ffffff]} with unbounded hours, as MySQL prints TIME and PostgreSQL reads intervals. */
    static String timeText(Duration d) {
        boolean negative = d.isNegative();
        Duration abs = d.abs();
        long hours = abs.toHours();
        int minutes = abs.toMinutesPart();
        int seconds = abs.toSecondsPart();
        int nanos = abs.toNanosPart();
        StringBuilder sb = new StringBuilder();
        if (negative) {
            sb.append('-');
        }
        sb.append(hours).append(':').append(minutes < 10 ? "0" : "").append(minutes).append(':')
                .append(seconds < 10 ? "0" : "").append(seconds);
        if (nanos != 0) {
            sb.append('.').append(String.format("%09d", nanos));
            while (sb.charAt(sb.length() - 1) == '0') {
                sb.setLength(sb.length() - 1);
            }
        }
        return sb.toString();
    }

    private static String mysqlDateTimeText(LocalDateTime t) {
        String date = t.toLocalDate().toString();
        String time = t.toLocalTime().toString();
        if (time.length() == 5) {
            time += ":00";
        }
        return date + " " + time;
    }

    private Category categorize(TargetColumn column) {
        String type = column.typeName();
        if (type.contains("JSON")) {
            return Category.JSON;
        }
        if (type.startsWith("INTERVAL")) {
            return Category.INTERVAL;
        }
        if (column.jdbcType() == Types.ARRAY || type.endsWith(" ARRAY") || type.startsWith("_")) {
            return Category.ARRAY;
        }
        if (type.equals("ENUM") || type.equals("SET")) {
            return Category.ENUM_SET;
        }
        if (dialect.kind() == Dialect.Kind.POSTGRESQL && (type.equals("BIT") || type.equals("VARBIT"))) {
            return Category.BIT;
        }
        if (dialect.kind() == Dialect.Kind.MYSQL && type.equals("VECTOR")) {
            return Category.BINARY;
        }
        return switch (column.jdbcType()) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> Category.INTEGER;
            case Types.DECIMAL, Types.NUMERIC -> Category.DECIMAL;
            case Types.REAL -> Category.REAL;
            case Types.FLOAT, Types.DOUBLE -> type.equals("FLOAT4") || type.equals("REAL") ? Category.REAL : Category.DOUBLE;
            case Types.BOOLEAN -> Category.BOOLEAN;
            // PostgreSQL reports boolean as BIT with type name bool.
            case Types.BIT -> type.equals("BIT") || type.equals("VARBIT") ? Category.BIT : Category.BOOLEAN;
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR, Types.CLOB,
                    Types.NCLOB -> Category.TEXT;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> Category.BINARY;
            case Types.DATE -> Category.DATE;
            case Types.TIME, Types.TIME_WITH_TIMEZONE -> Category.TIME;
            case Types.TIMESTAMP -> type.equals("TIMESTAMPTZ") ? Category.TIMESTAMP_TZ : Category.TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> Category.TIMESTAMP_TZ;
            default -> Category.OTHER;
        };
    }

    private ValueConversionException fail(TargetColumn column, Object value, String why) {
        String shown = value instanceof byte[] b ? "byte[" + b.length + "]"
                : value instanceof float[] f ? "float[" + f.length + "]"
                : value.getClass().getSimpleName() + " " + FailureMessages.abbreviate(String.valueOf(value), 60);
        return new ValueConversionException("cannot write " + shown + " into column " + column.name() + " ("
                + column.typeName() + ", " + dialect.kind() + "): " + why);
    }
}
