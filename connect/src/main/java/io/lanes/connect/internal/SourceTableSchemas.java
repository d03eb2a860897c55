package io.lanes.connect.internal;

import io.lanes.applier.RowImage;
import io.lanes.applier.value.EnumValue;
import io.lanes.applier.value.JsonText;
import io.lanes.applier.value.SetValue;
import io.lanes.binlog.value.MysqlTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Connect schemas of the source's tables, in the forms Debezium's MySQL/MariaDB connectors use (so a Debezium consumer
 * reads a Lanes source's records as it reads Debezium's), read from the source's {@code information_schema.COLUMNS},
 * and the conversion of binlog row values into them. A column type or value it cannot represent faithfully is a
 * {@link DataException} naming the table and column.
 *
 * <p>The shapes are the source's current ones: a source task that lags behind a DDL reads row images of the old shape
 * with the new columns. Until Lanes keeps a schema history of the source (issue #18) the source task therefore
 * refreshes after each DDL it emits and checks every row image's column count against the shape. Not thread-safe: the
 * source task's thread owns it.
 */
public final class SourceTableSchemas {
    /** One table's Connect row schema and how to convert each column's value. */
    public record TableSchema(Schema row, List<String> columns, List<ColumnKind> kinds, List<Charset> charsets) {
    }

    enum ColumnKind { INT16, INT32, INT64, UINT_BIG, FLOAT32, FLOAT64, DECIMAL, TEXT, BYTES, DATE, DATETIME_MS, DATETIME_US,
        TIMESTAMP, TIME, YEAR, BOOLEAN, BITS, JSON }

    private final String prefix;
    private final Map<String, TableSchema> cache = new HashMap<>();

    /** @param prefix the name prefix of the value schemas (Debezium's topic.prefix) */
    public SourceTableSchemas(String prefix) {
        this.prefix = prefix;
    }

    public void invalidate() {
        cache.clear();
    }

    public TableSchema table(Connection c, String schema, String table) throws SQLException {
        String key = schema + '\u0000' + table;
        TableSchema t = cache.get(key);
        if (t == null) {
            t = load(c, schema, table);
            cache.put(key, t);
        }
        return t;
    }

    private TableSchema load(Connection c, String schema, String table) throws SQLException {
        SchemaBuilder row = SchemaBuilder.struct().name(prefix + "." + schema + "." + table + ".Value").optional();
        List<String> columns = new ArrayList<>();
        List<ColumnKind> kinds = new ArrayList<>();
        List<Charset> charsets = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, NUMERIC_SCALE,"
                + " DATETIME_PRECISION, CHARACTER_SET_NAME, IS_NULLABLE FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    String dataType = rs.getString(2).toLowerCase(Locale.ROOT);
                    String columnType = rs.getString(3).toLowerCase(Locale.ROOT);
                    int scale = rs.getInt(4);
                    int fsp = rs.getInt(5);
                    String charset = rs.getString(6);
                    boolean optional = "YES".equals(rs.getString(7));
                    ColumnKind kind = kind(schema, table, name, dataType, columnType, fsp);
                    SchemaBuilder b = schemaOf(kind, scale, columnType);
                    row.field(name, optional ? b.optional().build() : b.build());
                    columns.add(name);
                    kinds.add(kind);
                    charsets.add(kind == ColumnKind.TEXT ? charset(schema, table, name, charset) : null);
                }
            }
        }
        if (columns.isEmpty()) {
            throw new DataException("table " + schema + "." + table + " is not in the source's catalog (dropped since?)");
        }
        return new TableSchema(row.build(), columns, kinds, charsets);
    }

    private static ColumnKind kind(String schema, String table, String column, String dataType, String columnType, int fsp) {
        boolean unsigned = columnType.contains("unsigned");
        return switch (dataType) {
            case "tinyint", "smallint" -> unsigned && dataType.equals("smallint") ? ColumnKind.INT32 : ColumnKind.INT16;
            case "mediumint" -> ColumnKind.INT32;
            case "int", "integer" -> unsigned ? ColumnKind.INT64 : ColumnKind.INT32;
            case "bigint" -> unsigned ? ColumnKind.UINT_BIG : ColumnKind.INT64;
            case "float" -> ColumnKind.FLOAT32;
            case "double", "real" -> ColumnKind.FLOAT64;
            case "decimal", "numeric" -> ColumnKind.DECIMAL;
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set" -> ColumnKind.TEXT;
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> ColumnKind.BYTES;
            case "date" -> ColumnKind.DATE;
            case "datetime" -> fsp <= 3 ? ColumnKind.DATETIME_MS : ColumnKind.DATETIME_US;
            case "timestamp" -> ColumnKind.TIMESTAMP;
            case "time" -> ColumnKind.TIME;
            case "year" -> ColumnKind.YEAR;
            case "bit" -> columnType.equals("bit(1)") ? ColumnKind.BOOLEAN : ColumnKind.BITS;
            case "json" -> ColumnKind.JSON;
            default -> throw new DataException("column " + schema + "." + table + "." + column + " of type " + columnType
                    + " has no Connect form in the Lanes source");
        };
    }

    private static SchemaBuilder schemaOf(ColumnKind kind, int scale, String columnType) {
        return switch (kind) {
            case INT16 -> SchemaBuilder.int16();
            case INT32 -> SchemaBuilder.int32();
            case INT64 -> SchemaBuilder.int64();
            case UINT_BIG -> Decimal.builder(0);
            case FLOAT32 -> SchemaBuilder.float32();
            case FLOAT64 -> SchemaBuilder.float64();
            case DECIMAL -> Decimal.builder(scale);
            case TEXT -> SchemaBuilder.string();
            case BYTES -> SchemaBuilder.bytes();
            case DATE -> SchemaBuilder.int32().name("io.debezium.time.Date").version(1);
            case DATETIME_MS -> SchemaBuilder.int64().name("io.debezium.time.Timestamp").version(1);
            case DATETIME_US -> SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1);
            case TIMESTAMP -> SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").version(1);
            case TIME -> SchemaBuilder.int64().name("io.debezium.time.MicroTime").version(1);
            case YEAR -> SchemaBuilder.int32().name("io.debezium.time.Year").version(1);
            case BOOLEAN -> SchemaBuilder.bool();
            case BITS -> SchemaBuilder.bytes().name("io.debezium.data.Bits").version(1)
                    .parameter("length", columnType.replaceAll("\\D", ""));
            case JSON -> SchemaBuilder.string().name("io.debezium.data.Json").version(1);
        };
    }

    private static Charset charset(String schema, String table, String column, String mysqlCharset) {
        if (mysqlCharset == null) {
            return StandardCharsets.UTF_8;
        }
        return switch (mysqlCharset.toLowerCase(Locale.ROOT)) {
            case "utf8mb4", "utf8mb3", "utf8" -> StandardCharsets.UTF_8;
            case "latin1" -> Charset.forName("windows-1252");
            case "ascii" -> StandardCharsets.US_ASCII;
            case "ucs2", "utf16" -> StandardCharsets.UTF_16BE;
            case "utf32" -> Charset.forName("UTF-32BE");
            default -> throw new DataException("column " + schema + "." + table + "." + column + " has character set "
                    + mysqlCharset + ", which the Lanes source does not convert");
        };
    }

    /** The row image as a Struct of the table's schema; the image must hold every column (binlog_row_image=FULL). */
    public Struct struct(TableSchema t, String table, RowImage image) {
        if (image.columns().size() != t.columns().size()) {
            throw new DataException("a row image of " + table + " has " + image.columns().size() + " columns where the table"
                    + " has " + t.columns().size() + ": the Lanes source needs binlog_row_image=FULL and a table whose"
                    + " shape has not changed since the event");
        }
        Struct s = new Struct(t.row());
        for (int i = 0; i < image.values().length; i++) {
            s.put(t.columns().get(i), convert(t, i, table, image.values()[i]));
        }
        return s;
    }

    private static Object convert(TableSchema t, int i, String table, Object v) {
        if (v == null) {
            return null;
        }
        ColumnKind kind = t.kinds().get(i);
        try {
            return switch (kind) {
                case INT16 -> ((Number) v).shortValue();
                case INT32 -> ((Number) v).intValue();
                case INT64 -> ((Number) v).longValue();
                case UINT_BIG -> new BigDecimal(v instanceof BigInteger b ? b : BigInteger.valueOf(((Number) v).longValue()));
                case FLOAT32 -> ((Number) v).floatValue();
                case FLOAT64 -> ((Number) v).doubleValue();
                case DECIMAL -> (BigDecimal) v;
                case TEXT -> text(t.charsets().get(i), v);
                case BYTES -> (byte[]) v;
                case DATE -> (int) ((LocalDate) v).toEpochDay();
                case DATETIME_MS -> ((LocalDateTime) v).toInstant(ZoneOffset.UTC).toEpochMilli();
                case DATETIME_US -> {
                    Instant at = ((LocalDateTime) v).toInstant(ZoneOffset.UTC);
                    yield at.getEpochSecond() * 1_000_000L + at.getNano() / 1000;
                }
                case TIMESTAMP -> ((Instant) v).toString();
                case TIME -> v instanceof LocalTime lt ? lt.toNanoOfDay() / 1000
                        : v instanceof MysqlTime mt ? mt.toDuration().toNanos() / 1000 : ((Duration) v).toNanos() / 1000;
                case YEAR -> ((Number) v).intValue();
                case BOOLEAN -> v instanceof Boolean b ? b : ((Number) v).longValue() != 0;
                case BITS -> bits(((Number) v).longValue(), t.row().field(t.columns().get(i)).schema());
                case JSON -> v instanceof JsonText j ? j.json() : text(StandardCharsets.UTF_8, v);
            };
        } catch (ClassCastException e) {
            throw new DataException("column " + table + "." + t.columns().get(i) + " (" + kind + "): a "
                    + v.getClass().getSimpleName() + " value (" + v + ") has no faithful Connect form", e);
        }
    }

    private static String text(Charset charset, Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof byte[] b) {
            return new String(b, charset);
        }
        if (v instanceof EnumValue e && e.name() != null) {
            return e.name();
        }
        if (v instanceof SetValue s && s.members() != null) {
            List<String> on = new ArrayList<>();
            for (int i = 0; i < s.members().size(); i++) {
                if ((s.bits() >>> i & 1) != 0) {
                    on.add(s.members().get(i));
                }
            }
            return String.join(",", on);
        }
        throw new ClassCastException(v.getClass().getName());
    }

    private static byte[] bits(long bits, Schema schema) {
        int width = Integer.parseInt(schema.parameters().get("length"));
        byte[] out = new byte[(width + 7) / 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (bits >>> (8 * i));
        }
        return out;
    }
}
