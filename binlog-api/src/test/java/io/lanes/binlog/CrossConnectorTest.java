package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.github.shyiko.mysql.binlog.BinaryLogFileReader;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;
import io.lanes.binlog.CrossBinlogRows.RowImage;
import io.lanes.binlog.value.MysqlCharsets;
import io.lanes.binlog.value.MysqlDate;
import io.lanes.binlog.value.MysqlDateTime;
import io.lanes.binlog.value.MysqlTime;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Row values of the MySQL-written fixtures, decoded by {@code ColumnValueDecoder}, against mysql-binlog-connector-java
 * (0.30.1, test scope) decoding the same files: every value of every row image, for every type the connector decodes,
 * after bringing both to a common form (integers masked to the column width, temporals as epoch/day microseconds as the
 * connector's DATE_AND_TIME_AS_LONG_MICRO mode gives them, text as its bytes, JSON as text).
 *
 * <p>Rows inside TRANSACTION_PAYLOAD events are compared too, and the two MariaDB fixtures with row events. Where the
 * connector is known to be wrong, the test says so and checks our value against the server instead: negative TIME
 * (osheroff#154) and dates before 1582-10-15 (the connector computes them in the Julian calendar). Where the connector
 * prints JSON differently from the server, the difference is named in {@link #canonicalJson}. Left out:
 * PARTIAL_UPDATE_ROWS events (checked by {@code JsonPartialUpdateFixtureTest}); {@code vector.binlog} and the MySQL 9.6
 * GTID_TAGGED file, which the connector cannot read (type 242, event 42).
 */
class CrossConnectorTest {
    private static final Path FIXTURES = Paths.get("src/test/resources/binlogs");

    @ParameterizedTest
    @ValueSource(strings = {
        "mysql-binlog-connector-java/mysql-bin.checksum-crc32",
        "mysql-binlog-connector-java/mysql-bin.checksum-none",
        "mysql-binlog-connector-java/mysql-bin.sakila",
        "rust-mysql-binlog/bin-log.000001",
        "go-mysql/tcb-eval002c-bin.003320",
        "rust_mysql_common/binlog-invisible-columns.000001",
        "rust_mysql_common/json-opaque.binlog",
        "rust_mysql_common/json.binlog.000001",
        "rust_mysql_common/minimal_row_metadata.000001",
        "rust_mysql_common/mysql-enum-string-set.000001",
        "rust_mysql_common/mysql_type_bit.000001",
        "rust_mysql_common/time_issue.000001",
        "mysql-binlog-connector-java/mysql-bin.compressed",
        "rust_mysql_common/transaction_compression.000001",
        "mariadb-10.11/types-full-metadata.000001",
        "rust_mysql_common/mariadb-bin.000001",
    })
    void everyValueMatchesTheConnector(String fixture) throws Exception {
        Path file = FIXTURES.resolve(fixture);
        List<RowImage> ours = CrossBinlogRows.read(file);
        List<Serializable[]> theirs = connectorImages(file);
        assertEquals(theirs.size(), ours.size(), fixture + ": row images");
        assertTrue(ours.size() > 0, fixture + " has row images");
        int compared = 0;
        List<String> negativeTimes = new ArrayList<>();
        for (int r = 0; r < ours.size(); r++) {
            RowImage mine = ours.get(r);
            Serializable[] row = theirs.get(r);
            int k = 0;
            for (int i = mine.present().nextSetBit(0); i >= 0; i = mine.present().nextSetBit(i + 1)) {
                ColumnDef c = mine.table().columns().get(i);
                Object a = mine.values()[i];
                Object b = row[k++];
                String where = fixture + " event at " + mine.offset() + ", image " + r + ", " + mine.table().schema()
                        + "." + mine.table().name() + " column " + i + " " + c;
                if (a == null || b == null) {
                    assertEquals(b == null, a == null, where + ": null-ness, ours " + a + ", connector " + describe(b));
                    continue;
                }
                if (a instanceof MysqlTime && ((MysqlTime) a).negative()) {
                    // the connector decodes negative TIME2 as a large positive time (osheroff/mysql-binlog-connector-java
                    // #154); these values are checked against the server's own text below instead
                    negativeTimes.add(a.toString());
                    continue;
                }
                Object na = normalize(a, c, true);
                Object nb = normalize(b, c, false);
                if (!deepEquals(na, nb)) {
                    fail(where + "\n  ours:      " + describe(a) + " -> " + describe(na) + "\n  connector: " + describe(b)
                            + " -> " + describe(nb));
                }
                compared++;
            }
            assertEquals(row.length, k, fixture + ": columns in image " + r);
        }
        assertTrue(compared + negativeTimes.size() > 0, fixture + ": nothing compared");
        // The negative TIMEs as their servers print them: time_issue holds INSERT INTO t VALUES ('-507:48:27')
        // (blackbeam/rust_mysql_common#169, the issue it was written for); types-full-metadata.sql inserts
        // '-838:59:59.000' into a TIME(3) (also checked against mariadb-binlog in CrossMariadbBinlogTest).
        Map<String, List<String>> expectedNegativeTimes = Map.of(
                "rust_mysql_common/time_issue.000001", List.of("-507:48:27"),
                "mariadb-10.11/types-full-metadata.000001", List.of("-838:59:59.000"));
        assertEquals(expectedNegativeTimes.getOrDefault(fixture, List.of()), negativeTimes,
                fixture + ": negative TIME values");
    }

    private static boolean deepEquals(Object a, Object b) {
        if (a instanceof byte[] && b instanceof byte[]) {
            return Arrays.equals((byte[]) a, (byte[]) b);
        }
        return a.equals(b);
    }

    private static String describe(Object v) {
        if (v instanceof byte[]) {
            return "byte[" + ((byte[]) v).length + "] " + Arrays.toString((byte[]) v);
        }
        return v == null ? "null" : v.getClass().getSimpleName() + " " + v;
    }

    private static List<Serializable[]> connectorImages(Path file) throws Exception {
        EventDeserializer d = new EventDeserializer();
        d.setCompatibilityMode(EventDeserializer.CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY,
                EventDeserializer.CompatibilityMode.INVALID_DATE_AND_TIME_AS_NEGATIVE_ONE);
        List<Serializable[]> images = new ArrayList<>();
        try (BinaryLogFileReader reader = new BinaryLogFileReader(file.toFile(), d)) {
            for (Event e; (e = reader.readEvent()) != null; ) {
                addImages(e, images);
            }
        }
        return images;
    }

    private static void addImages(Event e, List<Serializable[]> images) {
        EventData data = e.getData();
        if (data instanceof TransactionPayloadEventData) {
            for (Event inner : ((TransactionPayloadEventData) data).getUncompressedEvents()) {
                addImages(inner, images);
            }
        } else if (data instanceof WriteRowsEventData) {
            images.addAll(((WriteRowsEventData) data).getRows());
        } else if (data instanceof DeleteRowsEventData) {
            images.addAll(((DeleteRowsEventData) data).getRows());
        } else if (data instanceof UpdateRowsEventData) {
            for (Map.Entry<Serializable[], Serializable[]> row : ((UpdateRowsEventData) data).getRows()) {
                images.add(row.getKey());
                images.add(row.getValue());
            }
        }
    }

    private static int realType(ColumnDef c) {
        if (c.type() == ColumnType.STRING && c.meta() >= 256) {
            return io.lanes.binlog.internal.ColumnValueDecoder.stringRealType(c.meta());
        }
        return c.type().code();
    }

    /** Both sides in one form; {@code ours} tells which side {@code v} comes from. */
    private static Object normalize(Object v, ColumnDef c, boolean ours) throws Exception {
        int type = realType(c);
        switch (type) {
            case 1: return ((Number) v).longValue() & 0xffL;
            case 2: return ((Number) v).longValue() & 0xffffL;
            case 9: return ((Number) v).longValue() & 0xffffffL;
            case 3: return ((Number) v).longValue() & 0xffffffffL;
            case 8: return v instanceof BigInteger ? ((BigInteger) v).longValue() : ((Number) v).longValue();
            case 4: return Float.floatToRawIntBits((Float) v);
            case 5: return Double.doubleToRawLongBits((Double) v);
            case 246: return ((BigDecimal) v).toPlainString();
            case 13: return ((Number) v).intValue();
            case 16: return ours ? BitSet.valueOf(new long[] {(Long) v}) : v;
            case 247: {
                if (!ours || v instanceof Integer) {
                    return ((Number) v).intValue();
                }
                return ((String) v).isEmpty() ? 0 : c.enumValues().indexOf(v) + 1;
            }
            case 248: {
                if (!ours || v instanceof Long) {
                    return ((Number) v).longValue();
                }
                long bits = 0;
                for (String part : ((String) v).split(",")) {
                    if (!part.isEmpty()) {
                        bits |= 1L << c.setValues().indexOf(part);
                    }
                }
                return bits;
            }
            case 10: case 14: case 11: case 19: case 12: case 18: case 7: case 17:
                return ours ? temporalMicros(v) : v;
            case 245:
                return canonicalJson(ours ? (String) v : JsonBinary.parseAsString((byte[]) v), ours);
            default:
                if (v instanceof String) {
                    return MysqlCharsets.encode((String) v, c.charsetId());
                }
                return v;
        }
    }

    /** Our temporal values as the connector's DATE_AND_TIME_AS_LONG_MICRO numbers (invalid dates: -1). */
    private static Object temporalMicros(Object v) {
        if (v instanceof LocalDate) {
            return connectorEpochMicros(((LocalDate) v).atStartOfDay());
        }
        if (v instanceof LocalDateTime) {
            return connectorEpochMicros((LocalDateTime) v);
        }
        if (v instanceof Instant) {
            Instant t = (Instant) v;
            return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
        }
        if (v instanceof LocalTime) {
            return ((LocalTime) v).toNanoOfDay() / 1000;
        }
        if (v instanceof MysqlTime) {
            return ((MysqlTime) v).toDuration().toNanos() / 1000;
        }
        if (v instanceof MysqlDate || v instanceof MysqlDateTime) {
            return -1L;
        }
        throw new AssertionError("not a temporal: " + v);
    }

    /**
     * Epoch microseconds as the connector computes them: with {@code java.util.GregorianCalendar}, which switches to the
     * Julian calendar before 1582-10-15, so its numbers for older dates are days off the proleptic Gregorian calendar
     * the server (and {@code java.time}) use. The fields are the same; only the connector's arithmetic differs.
     */
    private static long connectorEpochMicros(LocalDateTime t) {
        if (!t.isBefore(LocalDateTime.of(1582, 10, 15, 0, 0))) {
            return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1000;
        }
        java.util.GregorianCalendar c = new java.util.GregorianCalendar(java.util.TimeZone.getTimeZone("UTC"));
        c.clear();
        c.set(t.getYear(), t.getMonthValue() - 1, t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond());
        return c.getTimeInMillis() * 1000L + t.getNano() / 1000;
    }

    /**
     * JSON text in a form both printers agree on. The connector's JSON text is not the server's: it has no blank after
     * {@code :} and {@code ,}, prints doubles with Java's {@code Double.toString} ({@code 1.5E10}) and opaque binary
     * values as bare base64 without the server's {@code base64:typeNN:} prefix. So both texts are re-printed compactly,
     * every number as its exact decimal value without trailing zeros, and the prefix is dropped from our strings; the
     * server's exact format is what {@code JsonBinaryTest} checks.
     */
    static String canonicalJson(String text, boolean ours) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '"') {
                StringBuilder str = new StringBuilder();
                i++;
                while (text.charAt(i) != '"') {
                    char ch = text.charAt(i++);
                    if (ch == '\\') {
                        char e = text.charAt(i++);
                        switch (e) {
                            case 'n': str.append('\n'); break;
                            case 't': str.append('\t'); break;
                            case 'r': str.append('\r'); break;
                            case 'b': str.append('\b'); break;
                            case 'f': str.append('\f'); break;
                            case 'u': str.append((char) Integer.parseInt(text.substring(i, i + 4), 16)); i += 4; break;
                            default: str.append(e);
                        }
                    } else {
                        str.append(ch);
                    }
                }
                i++;
                String value = str.toString();
                if (ours) {
                    value = value.replaceFirst("^base64:type\\d+:", "").replace("\n", "");
                }
                // the server prints temporals in JSON with six fraction digits; the connector only non-zero ones
                value = value.replaceFirst("^(-?\\d+:\\d\\d:\\d\\d|\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d)\\.(\\d*?)0*$", "$1.$2")
                        .replaceFirst("\\.$", "");
                out.append('"').append(value.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            } else if (c == '-' || Character.isDigit(c)) {
                int start = i;
                while (i < text.length() && "-+.eE0123456789".indexOf(text.charAt(i)) >= 0) {
                    i++;
                }
                BigDecimal n = new BigDecimal(text.substring(start, i));
                out.append(n.signum() == 0 ? "0" : n.stripTrailingZeros().toPlainString());
            } else if (c == ' ' || c == '\n') {
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
