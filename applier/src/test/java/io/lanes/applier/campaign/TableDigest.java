package io.lanes.applier.campaign;

import io.lanes.applier.testing.CanonicalJson;
import io.lanes.applier.value.BitValue;
import io.lanes.applier.value.EnumValue;
import io.lanes.applier.value.JsonText;
import io.lanes.applier.value.SetValue;
import io.lanes.applier.value.ZeroDate;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Canonical contents of tables, for comparing a target with the source: every row rendered column by column in a form
 * that does not depend on the database or the driver (numbers as plain decimals, FLOAT to 6 and DOUBLE to 15 significant
 * digits (FLT_DIG and DBL_DIG: what each type holds exactly in decimal), BIT as its unsigned value, CHAR without trailing
 * blanks (MariaDB drops them on read), binary data as hex, temporals as {@code yyyy-mm-dd hh:mm:ss[.fraction]} without
 * trailing zeros in the fraction, TIMESTAMP in UTC, TIME as signed hours:mm:ss, JSON parsed and re-rendered with sorted
 * keys), rows sorted, so that two tables with the same rows compare equal whatever the order of the rows.
 *
 * <p>The column kinds come from the source's {@code information_schema} after the seed ran: the source is the
 * reference, and each target is read with the source's column names and kinds.
 */
final class TableDigest {
    static final String NULL = "\\N";

    enum Kind { INT, DEC, FLOAT, DOUBLE, BIT, CHAR, TEXT, BINARY, BYTES, DATE, DATETIME, TIMESTAMP, TIME, JSON }

    /**
     * A source column: its name, kind, width in bits (integers; 0 otherwise), information_schema DATA_TYPE, and whether
     * it is a VIRTUAL generated column (computed on read, so a MINIMAL row image never carries it).
     */
    record SourceColumn(String name, Kind kind, int bits, String dataType, boolean virtual) {
    }

    /** A source table and whether a foreign key makes it the child of a cascading parent. */
    /**
     * A source table's final shape.
     *
     * @param loggedWhole the table has neither a primary key nor a unique key on NOT NULL columns (which MariaDB
     *     promotes to one): its MINIMAL row images carry every column, VIRTUAL ones included, as FULL images do
     */
    record SourceTable(String schema, String name, List<SourceColumn> columns, boolean cascadeChild,
            boolean loggedWhole) {
        String key() {
            return schema + "." + name;
        }
    }

    /** Which database a digest reads: the value renderings differ by driver and type mapping. */
    enum Flavor { MARIADB, H2, POSTGRESQL }

    private TableDigest() {
    }

    /** The base tables of the given schemas on the source (MariaDB), with their columns, in name order. */
    static List<SourceTable> sourceTables(Connection source, List<String> schemas) throws SQLException {
        List<SourceTable> tables = new ArrayList<>();
        for (String schema : schemas) {
            List<String> names = new ArrayList<>();
            try (PreparedStatement p = source.prepareStatement("SELECT TABLE_NAME FROM information_schema.TABLES WHERE "
                    + "TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME")) {
                p.setString(1, schema);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                }
            }
            for (String table : names) {
                tables.add(new SourceTable(schema, table, columns(source, schema, table), isCascadeChild(source, schema,
                        table), !hasRowKey(source, schema, table)));
            }
        }
        return tables;
    }

    private static List<SourceColumn> columns(Connection source, String schema, String table) throws SQLException {
        List<String> jsonColumns = new ArrayList<>();
        try (PreparedStatement p = source.prepareStatement("SELECT CHECK_CLAUSE FROM information_schema.CHECK_CONSTRAINTS "
                + "WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")) {
            p.setString(1, schema);
            p.setString(2, table);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    Matcher m = Pattern.compile("json_valid\\(`([^`]+)`\\)").matcher(rs.getString(1));
                    if (m.find()) {
                        jsonColumns.add(m.group(1));
                    }
                }
            }
        }
        List<SourceColumn> out = new ArrayList<>();
        try (PreparedStatement p = source.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, EXTRA FROM information_schema.COLUMNS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            p.setString(1, schema);
            p.setString(2, table);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    String type = rs.getString(2).toLowerCase(Locale.ROOT);
                    String extra = rs.getString(3) == null ? "" : rs.getString(3).toUpperCase(Locale.ROOT);
                    out.add(new SourceColumn(name, jsonColumns.contains(name) ? Kind.JSON : kind(type), bits(type), type,
                            extra.contains("VIRTUAL GENERATED")));
                }
            }
        }
        return out;
    }

    /** Whether the table has a primary key or a unique key whose columns are all NOT NULL. */
    private static boolean hasRowKey(Connection source, String schema, String table) throws SQLException {
        try (PreparedStatement p = source.prepareStatement("SELECT INDEX_NAME FROM information_schema.STATISTICS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0 GROUP BY INDEX_NAME"
                + " HAVING SUM(NULLABLE = 'YES') = 0")) {
            p.setString(1, schema);
            p.setString(2, table);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static boolean isCascadeChild(Connection source, String schema, String table) throws SQLException {
        try (PreparedStatement p = source.prepareStatement("SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS"
                + " WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")) {
            p.setString(1, schema);
            p.setString(2, table);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    static Kind kind(String dataType) {
        return switch (dataType) {
            case "tinyint", "smallint", "mediumint", "int", "bigint", "year" -> Kind.INT;
            case "decimal" -> Kind.DEC;
            case "float" -> Kind.FLOAT;
            case "double" -> Kind.DOUBLE;
            case "bit" -> Kind.BIT;
            case "char" -> Kind.CHAR;
            case "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set" -> Kind.TEXT;
            case "binary" -> Kind.BINARY;
            case "date" -> Kind.DATE;
            case "datetime" -> Kind.DATETIME;
            case "timestamp" -> Kind.TIMESTAMP;
            case "time" -> Kind.TIME;
            default -> Kind.BYTES; // varbinary, blobs, geometry types
        };
    }

    private static int bits(String dataType) {
        return switch (dataType) {
            case "tinyint" -> 8;
            case "smallint", "year" -> 16;
            case "mediumint" -> 24;
            case "int" -> 32;
            case "bigint" -> 64;
            default -> 0;
        };
    }

    /** The canonical rows of each table, keyed schema.table; a table missing on the target maps to null. */
    static Map<String, List<String>> read(Connection c, Flavor flavor, List<SourceTable> tables) throws SQLException {
        if (flavor == Flavor.MARIADB) {
            try (Statement s = c.createStatement()) {
                s.execute("SET time_zone = '+00:00'");
            }
        }
        Map<String, List<String>> out = new TreeMap<>();
        for (SourceTable t : tables) {
            out.put(t.key(), readTable(c, flavor, t));
        }
        return out;
    }

    private static List<String> readTable(Connection c, Flavor flavor, SourceTable t) throws SQLException {
        char q = flavor == Flavor.MARIADB ? '`' : '"';
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < t.columns().size(); i++) {
            SourceColumn col = t.columns().get(i);
            String ref = q + col.name() + q;
            if (flavor == Flavor.MARIADB) {
                ref = switch (col.kind()) {
                    case BIT -> "CAST(" + ref + " AS UNSIGNED)";
                    case BINARY, BYTES -> "HEX(" + ref + ")";
                    case DATE, DATETIME, TIMESTAMP, TIME -> "CAST(" + ref + " AS CHAR)";
                    case INT -> ref + " + 0"; // YEAR as its number
                    default -> ref;
                };
            }
            select.append(i > 0 ? ", " : "").append(ref);
        }
        select.append(" FROM ").append(q).append(t.schema()).append(q).append('.').append(q).append(t.name()).append(q);
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(select.toString())) {
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 0; i < t.columns().size(); i++) {
                    row.append(i > 0 ? "\u001f" : "").append(value(rs, i + 1, t.columns().get(i), flavor));
                }
                rows.add(row.toString());
            }
        } catch (SQLException e) {
            String state = e.getSQLState() == null ? "" : e.getSQLState();
            if (state.startsWith("42")) { // undefined table or column: the target lacks what the source has
                return null;
            }
            throw e;
        }
        Collections.sort(rows);
        return rows;
    }

    private static String value(ResultSet rs, int i, SourceColumn col, Flavor flavor) throws SQLException {
        if (rs.getObject(i) == null) {
            return NULL;
        }
        return switch (col.kind()) {
            case INT, DEC -> number(rs.getString(i));
            case FLOAT -> rounded(rs.getString(i), 6);
            case DOUBLE -> rounded(rs.getString(i), 15);
            case BIT -> switch (flavor) {
                case MARIADB -> number(rs.getString(i));
                case POSTGRESQL -> new BigInteger(rs.getString(i), 2).toString();
                case H2 -> Long.toUnsignedString(rs.getLong(i));
            };
            case CHAR -> stripBlanks(rs.getString(i));
            case TEXT -> rs.getString(i);
            case BINARY, BYTES -> flavor == Flavor.MARIADB ? rs.getString(i).toLowerCase(Locale.ROOT)
                    : HexFormat.of().formatHex(rs.getBytes(i));
            case DATE -> flavor == Flavor.MARIADB ? temporal(rs.getString(i)) : rs.getObject(i, LocalDate.class).toString();
            case DATETIME -> flavor == Flavor.MARIADB ? temporal(rs.getString(i))
                    : dateTime(rs.getObject(i, LocalDateTime.class));
            case TIMESTAMP -> flavor == Flavor.MARIADB ? temporal(rs.getString(i))
                    : dateTime(rs.getObject(i, OffsetDateTime.class).withOffsetSameInstant(ZoneOffset.UTC)
                            .toLocalDateTime());
            case TIME -> switch (flavor) {
                case MARIADB -> temporal(rs.getString(i));
                case H2 -> h2Interval(rs.getString(i));
                case POSTGRESQL -> pgInterval(rs.getObject(i));
            };
            case JSON -> json(rs.getString(i));
        };
    }

    // ------------------------------------------------------------------------------------------ canonical forms

    static String number(String text) {
        BigDecimal d = new BigDecimal(text.trim());
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    static String rounded(String text, int digits) {
        BigDecimal d = new BigDecimal(text.trim()).round(new MathContext(digits));
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toString();
    }

    static String stripBlanks(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    private static final Pattern DATE_TIME = Pattern.compile("(\\d{4}-\\d\\d-\\d\\d)(?:[ T](\\d\\d:\\d\\d:\\d\\d)(?:\\.(\\d+))?)?");
    private static final Pattern TIME = Pattern.compile("(-?)(\\d+):(\\d\\d):(\\d\\d)(?:\\.(\\d+))?");

    /** A MariaDB temporal text (DATE, DATETIME, TIMESTAMP, TIME; zero dates included) in canonical form. */
    static String temporal(String text) {
        Matcher m = DATE_TIME.matcher(text);
        if (m.matches()) {
            return m.group(2) == null ? m.group(1) : m.group(1) + " " + m.group(2) + fraction(m.group(3));
        }
        m = TIME.matcher(text);
        if (m.matches()) {
            long micros = ((Long.parseLong(m.group(2)) * 60 + Long.parseLong(m.group(3))) * 60 + Long.parseLong(m.group(4)))
                    * 1_000_000L + micros(m.group(5));
            return time(m.group(1).isEmpty() ? micros : -micros);
        }
        throw new IllegalArgumentException("not a temporal: " + text);
    }

    private static long micros(String fraction) {
        if (fraction == null || fraction.isEmpty()) {
            return 0;
        }
        String six = (fraction + "000000").substring(0, 6);
        return Long.parseLong(six);
    }

    private static String fraction(String digits) {
        if (digits == null) {
            return "";
        }
        String f = digits.replaceAll("0+$", "");
        return f.isEmpty() ? "" : "." + f;
    }

    static String dateTime(LocalDateTime t) {
        String frac = String.format("%06d", t.getNano() / 1000);
        return String.format("%s %02d:%02d:%02d", t.toLocalDate(), t.getHour(), t.getMinute(), t.getSecond())
                + fraction(frac);
    }

    static String time(long micros) {
        long abs = Math.abs(micros);
        long seconds = abs / 1_000_000L;
        String frac = fraction(String.format("%06d", abs % 1_000_000L));
        return (micros < 0 ? "-" : "") + (seconds / 3600) + String.format(":%02d:%02d", (seconds / 60) % 60, seconds % 60)
                + frac;
    }

    private static String h2Interval(String text) {
        Matcher m = Pattern.compile("INTERVAL '([^']+)' HOUR TO SECOND").matcher(text);
        return temporal(m.matches() ? m.group(1) : text);
    }

    private static String pgInterval(Object value) {
        org.postgresql.util.PGInterval i = (org.postgresql.util.PGInterval) value;
        BigDecimal seconds = BigDecimal.valueOf(i.getSeconds()).setScale(6, java.math.RoundingMode.HALF_EVEN);
        long micros = ((((long) i.getYears() * 12 + i.getMonths()) * 30 + i.getDays()) * 24 + i.getHours()) * 3_600_000_000L
                + i.getMinutes() * 60_000_000L + seconds.movePointRight(6).longValueExact();
        return time(micros);
    }

    static String json(String text) {
        try {
            return String.valueOf(CanonicalJson.parse(text));
        } catch (RuntimeException notJson) {
            return "not JSON: " + text;
        }
    }

    /** A value a sink received, in the canonical form of the source column's kind. */
    static String sinkValue(Object v, SourceColumn col) {
        if (v == null) {
            return NULL;
        }
        return switch (col.kind()) {
            case INT, DEC -> v instanceof Boolean b ? (b ? "1" : "0") : number(v.toString());
            case FLOAT -> rounded(v.toString(), 6);
            case DOUBLE -> rounded(v.toString(), 15);
            // A sink gets BIT as a BitValue or as a Long holding the bits (BIT(64) with the top bit set reads negative:
            // recorded in docs/reliability.md); both are the column's bits, compared as the unsigned value.
            case BIT -> v instanceof BitValue b ? Long.toUnsignedString(b.bits())
                    : v instanceof Long l ? Long.toUnsignedString(l)
                    : v instanceof byte[] bytes ? new BigInteger(1, bytes).toString() : number(v.toString());
            case CHAR -> stripBlanks(text(v));
            case TEXT -> text(v);
            case BINARY, BYTES -> v instanceof byte[] b ? HexFormat.of().formatHex(b)
                    : HexFormat.of().formatHex(v.toString().getBytes(StandardCharsets.UTF_8));
            case DATE, DATETIME, TIMESTAMP, TIME -> sinkTemporal(v);
            case JSON -> json(v instanceof JsonText j ? j.json() : text(v));
        };
    }

    private static String text(Object v) {
        if (v instanceof EnumValue e) {
            return e.name() == null ? "#" + e.index() : e.name();
        }
        if (v instanceof SetValue s) {
            return s.text();
        }
        if (v instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        return v.toString();
    }

    private static String sinkTemporal(Object v) {
        if (v instanceof LocalDateTime t) {
            return dateTime(t);
        }
        if (v instanceof Instant t) {
            return dateTime(LocalDateTime.ofInstant(t, ZoneOffset.UTC));
        }
        if (v instanceof LocalDate d) {
            return d.toString();
        }
        if (v instanceof Duration d) {
            return time(d.toNanos() / 1000);
        }
        if (v instanceof LocalTime t) {
            return time(t.toNanoOfDay() / 1000);
        }
        if (v instanceof ZeroDate z) {
            return temporal(z.text());
        }
        return temporal(v.toString());
    }

    /** A zero date or a date with a zero part, in canonical form. */
    static boolean isZeroDate(String canonical) {
        return canonical.length() >= 10 && (canonical.startsWith("0000-") || canonical.substring(4, 10).contains("-00"));
    }

    /** Each table's rows with every value passed through {@code f} (per column), sorted again. */
    static Map<String, List<String>> transform(Map<String, List<String>> tables, List<SourceTable> shapes,
            ColumnTransform f) {
        Map<String, List<String>> out = new TreeMap<>();
        Map<String, SourceTable> byKey = new LinkedHashMap<>();
        shapes.forEach(s -> byKey.put(s.key(), s));
        for (var e : tables.entrySet()) {
            if (e.getValue() == null) {
                out.put(e.getKey(), null);
                continue;
            }
            SourceTable shape = byKey.get(e.getKey());
            List<String> rows = new ArrayList<>();
            for (String row : e.getValue()) {
                String[] values = row.split("\u001f", -1);
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < values.length; i++) {
                    b.append(i > 0 ? "\u001f" : "").append(f.apply(shape.columns().get(i), values[i]));
                }
                rows.add(b.toString());
            }
            Collections.sort(rows);
            out.put(e.getKey(), rows);
        }
        return out;
    }

    /** A per-column rewriting of canonical values. */
    @FunctionalInterface
    interface ColumnTransform {
        String apply(SourceColumn column, String value);

        static ColumnTransform of(UnaryOperator<String> f) {
            return (c, v) -> f.apply(v);
        }
    }

    /** The tables whose rows differ (or are missing on the target). */
    static List<String> differingTables(Map<String, List<String>> source, Map<String, List<String>> target) {
        List<String> out = new ArrayList<>();
        for (var e : source.entrySet()) {
            if (!e.getValue().equals(target.get(e.getKey()))) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    /** A short description of the first differences, or null when both are equal. */
    static String firstDifferences(Map<String, List<String>> source, Map<String, List<String>> target, int max) {
        StringBuilder b = new StringBuilder();
        int tables = 0;
        for (var e : source.entrySet()) {
            List<String> t = target.get(e.getKey());
            List<String> s = e.getValue();
            if (s.equals(t)) {
                continue;
            }
            if (++tables > 3) {
                b.append("\n  (more tables differ)");
                break;
            }
            if (t == null) {
                b.append("\n  ").append(e.getKey()).append(": missing on the target (source has ").append(s.size())
                        .append(" rows)");
                continue;
            }
            b.append("\n  ").append(e.getKey()).append(": source ").append(s.size()).append(" rows ").append(sha(s))
                    .append(", target ").append(t.size()).append(" rows ").append(sha(t));
            List<String> onlySource = new ArrayList<>(s);
            List<String> onlyTarget = new ArrayList<>(t);
            removeCommon(onlySource, onlyTarget);
            onlySource.stream().limit(max).forEach(r -> b.append("\n    source only: ").append(show(r)));
            onlyTarget.stream().limit(max).forEach(r -> b.append("\n    target only: ").append(show(r)));
        }
        return b.length() == 0 ? null : b.toString();
    }

    private static void removeCommon(List<String> a, List<String> b) {
        // both sorted: a merge
        List<String> ra = new ArrayList<>();
        List<String> rb = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.size() && j < b.size()) {
            int c = a.get(i).compareTo(b.get(j));
            if (c == 0) {
                i++;
                j++;
            } else if (c < 0) {
                ra.add(a.get(i++));
            } else {
                rb.add(b.get(j++));
            }
        }
        ra.addAll(a.subList(i, a.size()));
        rb.addAll(b.subList(j, b.size()));
        a.clear();
        a.addAll(ra);
        b.clear();
        b.addAll(rb);
    }

    private static String show(String row) {
        String r = row.replace("\u001f", " | ");
        return r.length() > 400 ? r.substring(0, 400) + "..." : r;
    }

    static String sha(List<String> rows) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String r : rows) {
                sha.update(r.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
