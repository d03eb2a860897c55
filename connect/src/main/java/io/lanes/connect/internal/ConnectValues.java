package io.lanes.connect.internal;

import io.lanes.applier.value.BitValue;
import io.lanes.applier.value.JsonText;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Date;
import org.apache.kafka.connect.data.Schema;

/**
 * Turns a Kafka Connect field value, typed by its schema (and the logical types Debezium's MySQL/MariaDB connector
 * uses), into the value forms Lanes' JDBC applier binds (see {@code io.lanes.applier.value}). A value whose type or
 * logical type it does not know is an {@link IllegalArgumentException} naming the column and the type: it is never
 * written in a guessed form. Stateless and thread-safe.
 */
public final class ConnectValues {
    private ConnectValues() {
    }

    /** Converts one value; {@code column} names it in errors. */
    public static Object toLanes(String column, Schema schema, Object value) {
        if (value == null) {
            return null;
        }
        String logical = schema == null ? null : schema.name();
        if (logical != null) {
            Object v = logical(column, logical, schema, value);
            if (v != null) {
                return v;
            }
        }
        if (value instanceof ByteBuffer bb) {
            byte[] b = new byte[bb.remaining()];
            bb.duplicate().get(b);
            return b;
        }
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long
                || value instanceof Float || value instanceof Double || value instanceof Boolean || value instanceof String
                || value instanceof byte[] || value instanceof BigDecimal) {
            return value;
        }
        throw new IllegalArgumentException("column " + column + ": no Lanes form for a " + value.getClass().getName()
                + (logical == null ? "" : " of logical type " + logical));
    }

    /** Null when the logical type leaves the value as its plain type (enums, Year, ...). */
    private static Object logical(String column, String logical, Schema schema, Object value) {
        switch (logical) {
            case "org.apache.kafka.connect.data.Decimal":
                return value;
            case "org.apache.kafka.connect.data.Date":
                return ((Date) value).toInstant().atOffset(ZoneOffset.UTC).toLocalDate();
            case "org.apache.kafka.connect.data.Timestamp":
                return LocalDateTime.ofInstant(((Date) value).toInstant(), ZoneOffset.UTC);
            case "org.apache.kafka.connect.data.Time":
                return LocalTime.ofNanoOfDay(((Date) value).getTime() % 86_400_000L * 1_000_000L);
            case "io.debezium.time.Date":
                return LocalDate.ofEpochDay(((Number) value).longValue());
            case "io.debezium.time.Timestamp":
                return LocalDateTime.ofInstant(Instant.ofEpochMilli(((Number) value).longValue()), ZoneOffset.UTC);
            case "io.debezium.time.MicroTimestamp":
                return LocalDateTime.ofEpochSecond(Math.floorDiv(((Number) value).longValue(), 1_000_000L),
                        (int) Math.floorMod(((Number) value).longValue(), 1_000_000L) * 1000, ZoneOffset.UTC);
            case "io.debezium.time.NanoTimestamp":
                return LocalDateTime.ofEpochSecond(Math.floorDiv(((Number) value).longValue(), 1_000_000_000L),
                        (int) Math.floorMod(((Number) value).longValue(), 1_000_000_000L), ZoneOffset.UTC);
            case "io.debezium.time.ZonedTimestamp":
                try {
                    return Instant.parse((String) value);
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("column " + column + ": not an ISO-8601 timestamp: " + value, e);
                }
            case "io.debezium.time.Time":
                return Duration.ofMillis(((Number) value).longValue());
            case "io.debezium.time.MicroTime":
                return Duration.ofNanos(((Number) value).longValue() * 1000);
            case "io.debezium.time.NanoTime":
                return Duration.ofNanos(((Number) value).longValue());
            case "io.debezium.data.Json":
                return new JsonText((String) value);
            case "io.debezium.data.Bits":
                return bits(column, schema, value);
            case "io.debezium.time.Year", "io.debezium.data.Enum", "io.debezium.data.EnumSet", "io.debezium.data.Uuid":
                return null;
            default:
                throw new IllegalArgumentException("column " + column + ": logical type " + logical + " is not supported by"
                        + " the Lanes sink (configure the source to emit it in another form)");
        }
    }

    /** Debezium's BIT(n): the bits in little-endian byte order, width in the schema's {@code length} parameter. */
    private static BitValue bits(String column, Schema schema, Object value) {
        byte[] b;
        if (value instanceof ByteBuffer bb) {
            b = new byte[bb.remaining()];
            bb.duplicate().get(b);
        } else {
            b = (byte[]) value;
        }
        if (b.length > 8) {
            throw new IllegalArgumentException("column " + column + ": BIT value of " + b.length + " bytes (at most 8)");
        }
        long bits = 0;
        for (int i = b.length - 1; i >= 0; i--) {
            bits = (bits << 8) | (b[i] & 0xFF);
        }
        String length = schema.parameters() == null ? null : schema.parameters().get("length");
        int width = length == null ? b.length * 8 : Integer.parseInt(length);
        return new BitValue(bits, width);
    }
}
