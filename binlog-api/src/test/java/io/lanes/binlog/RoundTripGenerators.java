package io.lanes.binlog;

import io.lanes.binlog.json.JsonBinary;
import io.lanes.binlog.value.MysqlCharsets;
import io.lanes.binlog.value.MysqlDate;
import io.lanes.binlog.value.MysqlDateTime;
import io.lanes.binlog.value.MysqlTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * Seeded random column definitions and values for the round-trip properties. Each value is built as the decoder must
 * return it (the value package's documented rules: {@code LocalDate} for a real date, {@code MysqlDate} for a zero or
 * impossible one, and so on), with a bias towards each type's extremes. Everything derives from the {@link Random}, so a
 * failing seed reproduces.
 */
final class RoundTripGenerators {
    /** Collations with a Java character set (utf8mb4, utf8mb3, latin1, ucs2, utf16le, cp1251, gbk) and binary. */
    static final int[] COLLATIONS = {45, 255, 33, 8, 35, 56, 51, 28, 63};
    /** Types a MariaDB 10.11 server logs (no JSON 245, no VECTOR). */
    static final ColumnType[] MARIADB_TYPES = {ColumnType.TINY, ColumnType.SHORT, ColumnType.INT24, ColumnType.LONG,
        ColumnType.LONGLONG, ColumnType.FLOAT, ColumnType.DOUBLE, ColumnType.NEWDECIMAL, ColumnType.YEAR, ColumnType.DATE,
        ColumnType.TIME2, ColumnType.DATETIME2, ColumnType.TIMESTAMP2, ColumnType.BIT, ColumnType.VARCHAR,
        ColumnType.STRING, ColumnType.BLOB, ColumnType.ENUM, ColumnType.SET};
    /** Every type that occurs in row images. */
    static final ColumnType[] ALL_TYPES = {ColumnType.TINY, ColumnType.SHORT, ColumnType.INT24, ColumnType.LONG,
        ColumnType.LONGLONG, ColumnType.FLOAT, ColumnType.DOUBLE, ColumnType.NEWDECIMAL, ColumnType.YEAR, ColumnType.DATE,
        ColumnType.NEWDATE, ColumnType.TIME, ColumnType.TIME2, ColumnType.DATETIME, ColumnType.DATETIME2,
        ColumnType.TIMESTAMP, ColumnType.TIMESTAMP2, ColumnType.BIT, ColumnType.VARCHAR, ColumnType.VAR_STRING,
        ColumnType.STRING, ColumnType.TINY_BLOB, ColumnType.BLOB, ColumnType.MEDIUM_BLOB, ColumnType.LONG_BLOB,
        ColumnType.JSON, ColumnType.GEOMETRY, ColumnType.VECTOR, ColumnType.ENUM, ColumnType.SET};
    private static final int[] POW10 = {1, 10, 100, 1000, 10_000, 100_000, 1_000_000};

    private final Random r;

    RoundTripGenerators(Random r) {
        this.r = r;
    }

    Random random() {
        return r;
    }

    boolean chance(int percent) {
        return r.nextInt(100) < percent;
    }

    /** What to put in the table map for a column; {@code ENUM}/{@code SET} are logged as STRING half of the time. */
    record ColumnPlan(ColumnType type, int meta) {
    }

    ColumnPlan plan(ColumnType type, boolean mariaTemporalHires) {
        switch (type) {
            case FLOAT: return new ColumnPlan(type, 4);
            case DOUBLE: return new ColumnPlan(type, 8);
            case NEWDECIMAL: {
                int p = extreme(5) ? (r.nextBoolean() ? 65 : 1) : 1 + r.nextInt(65);
                int s = extreme(5) ? Math.min(30, p) : r.nextInt(Math.min(30, p) + 1);
                return new ColumnPlan(type, p << 8 | s);
            }
            case TIME: case DATETIME: case TIMESTAMP:
                return new ColumnPlan(type, mariaTemporalHires && r.nextBoolean() ? 1 + r.nextInt(6) : 0);
            case TIME2: case DATETIME2: case TIMESTAMP2:
                return new ColumnPlan(type, r.nextInt(7));
            case BIT: {
                int bits = extreme(10) ? (r.nextBoolean() ? 64 : 1) : 1 + r.nextInt(64);
                return new ColumnPlan(type, (bits / 8) << 8 | bits % 8);
            }
            case VARCHAR: case VAR_STRING: {
                int max = extreme(10) ? (r.nextBoolean() ? 255 : 256) : r.nextInt(400);
                return new ColumnPlan(type, max);
            }
            case STRING: {
                int max = extreme(10) ? (r.nextBoolean() ? 255 : 1020) : r.nextInt(r.nextBoolean() ? 256 : 1021);
                int typeByte = ColumnType.STRING.code() ^ ((max & 0x300) >> 4);
                return new ColumnPlan(type, typeByte << 8 | (max & 0xff));
            }
            case TINY_BLOB: case MEDIUM_BLOB: case LONG_BLOB:
                return new ColumnPlan(type, r.nextBoolean() ? 0 : type == ColumnType.TINY_BLOB ? 1
                        : type == ColumnType.MEDIUM_BLOB ? 3 : 4);
            case BLOB: return new ColumnPlan(type, 1 + r.nextInt(4));
            case JSON: case GEOMETRY: case VECTOR: return new ColumnPlan(type, 1 + r.nextInt(4));
            case ENUM: {
                int pack = r.nextInt(4) == 0 ? 2 : 1;
                return r.nextBoolean() ? new ColumnPlan(ColumnType.STRING, ColumnType.ENUM.code() << 8 | pack)
                        : new ColumnPlan(ColumnType.ENUM, ColumnType.ENUM.code() << 8 | pack);
            }
            case SET: {
                int[] packs = {1, 2, 3, 4, 8};
                int pack = packs[r.nextInt(packs.length)];
                return r.nextBoolean() ? new ColumnPlan(ColumnType.STRING, ColumnType.SET.code() << 8 | pack)
                        : new ColumnPlan(ColumnType.SET, ColumnType.SET.code() << 8 | pack);
            }
            default: return new ColumnPlan(type, 0);
        }
    }

    private boolean extreme(int percent) {
        return chance(percent);
    }

    static int realType(ColumnPlan p) {
        if (p.type == ColumnType.STRING && p.meta >= 256) {
            int hi = p.meta >>> 8;
            if (hi == ColumnType.ENUM.code() || hi == ColumnType.SET.code()) {
                return hi;
            }
        }
        return p.type.code();
    }

    static boolean isCharacter(int realType, boolean mariaDb) {
        return io.lanes.binlog.internal.TableMapParser.isCharacter(realType, mariaDb);
    }

    static boolean isNumeric(ColumnType t) {
        switch (t) {
            case TINY: case SHORT: case LONG: case FLOAT: case DOUBLE: case LONGLONG: case INT24: case NEWDECIMAL:
                return true;
            default:
                return false;
        }
    }

    /**
     * Random columns with full optional metadata (or none): every character column gets a collation, every ENUM/SET
     * its members, every column a name, or none of them do, as one TABLE_MAP must say it.
     */
    List<ColumnDef> columns(ColumnType[] types, int count, boolean withMetadata, boolean mariaTemporalHires) {
        return columns(types, count, withMetadata, mariaTemporalHires, true);
    }

    /** Columns as a server of the given flavour describes them (the flavours list different columns' charsets). */
    List<ColumnDef> columns(ColumnType[] types, int count, boolean withMetadata, boolean mariaTemporalHires,
            boolean mariaDb) {
        List<ColumnDef> out = new ArrayList<>();
        boolean names = withMetadata && r.nextInt(4) != 0;
        boolean charsets = withMetadata && r.nextInt(4) != 0;
        boolean members = withMetadata && r.nextInt(4) != 0;
        boolean geometry = withMetadata && r.nextBoolean();
        boolean vector = withMetadata && r.nextBoolean();
        boolean visibility = withMetadata && r.nextInt(4) == 0;
        for (int i = 0; i < count; i++) {
            ColumnType t = types[r.nextInt(types.length)];
            ColumnPlan p = plan(t, mariaTemporalHires);
            int real = realType(p);
            boolean unsigned = withMetadata && isNumeric(p.type) && r.nextBoolean();
            int cs = -1;
            if (charsets && (isCharacter(real, mariaDb) || real == 247 || real == 248)) {
                cs = p.type == ColumnType.GEOMETRY || p.type == ColumnType.VECTOR ? 63 : COLLATIONS[r.nextInt(COLLATIONS.length)];
            }
            List<String> enums = null;
            List<String> sets = null;
            if (members && real == 247) {
                enums = memberNames(1 + r.nextInt((p.meta & 0xff) == 2 ? 300 : 20), cs);
            } else if (members && real == 248) {
                sets = memberNames(1 + r.nextInt(Math.min(64, 8 * (p.meta & 0xff))), cs);
            }
            out.add(new ColumnDef(i, p.type, p.meta, r.nextBoolean(), unsigned, cs, names ? "c" + i + name() : null,
                    enums, sets, geometry && p.type == ColumnType.GEOMETRY ? r.nextInt(8) : -1,
                    vector && p.type == ColumnType.VECTOR ? r.nextInt(2000) : -1, !visibility || r.nextInt(5) != 0));
        }
        return out;
    }

    private String name() {
        String[] parts = {"", "_x", " weird", "`q`", "é", "名"};
        return parts[r.nextInt(parts.length)];
    }

    /** Member names; an accented one only where the column's character set has it (a server cannot log it else). */
    private List<String> memberNames(int n, int collationId) {
        java.nio.charset.Charset cs = io.lanes.binlog.value.MysqlCharsets.javaCharset(collationId);
        boolean accent = cs == null || cs.newEncoder().canEncode('é');
        Set<String> names = new LinkedHashSet<>();
        while (names.size() < n) {
            names.add(accent && r.nextInt(10) == 0 ? "m" + names.size() + "é"
                    : "m" + names.size() + (char) ('a' + r.nextInt(26)));
        }
        return List.copyOf(names);
    }

    /** A random non-NULL value of the column, exactly as the decoder returns it. */
    Object value(ColumnDef c) {
        int meta = c.meta();
        boolean u = c.unsigned();
        switch (c.type()) {
            case TINY: return (int) integer(u ? 0 : -128, u ? 255 : 127);
            case SHORT: return (int) integer(u ? 0 : -32768, u ? 65535 : 32767);
            case INT24: return (int) integer(u ? 0 : -8388608, u ? 16777215 : 8388607);
            case LONG: return u ? (Object) integer(0, 4294967295L) : (Object) (int) integer(Integer.MIN_VALUE,
                    Integer.MAX_VALUE);
            case LONGLONG: {
                long v = extreme(20) ? new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1}[r.nextInt(5)] : r.nextLong();
                return u ? (v >= 0 ? BigInteger.valueOf(v) : BigInteger.valueOf(v).add(BigInteger.ONE.shiftLeft(64))) : v;
            }
            case FLOAT: return extreme(20) ? new float[] {0f, -0f, Float.MAX_VALUE, Float.MIN_VALUE, Float.NaN,
                Float.NEGATIVE_INFINITY, -Float.MAX_VALUE}[r.nextInt(7)] : Float.intBitsToFloat(r.nextInt());
            case DOUBLE: return extreme(20) ? new double[] {0d, -0d, Double.MAX_VALUE, Double.MIN_VALUE, Double.NaN,
                Double.POSITIVE_INFINITY, -Double.MAX_VALUE}[r.nextInt(7)] : Double.longBitsToDouble(r.nextLong());
            case NEWDECIMAL: return decimal(meta >>> 8, meta & 0xff);
            case YEAR: return extreme(20) ? new int[] {0, 1901, 2155}[r.nextInt(3)] : 1901 + r.nextInt(255);
            case DATE: case NEWDATE: return date();
            case TIME: return time(meta, meta == 0 ? 838 : 838, meta);
            case TIME2: return time(meta, 1023, meta);
            case DATETIME: return dateTime(meta);
            case DATETIME2: return dateTime(meta);
            case TIMESTAMP: case TIMESTAMP2: {
                long s = extreme(20) ? new long[] {0, 1, 0xffff_ffffL}[r.nextInt(3)] : r.nextLong() >>> 32;
                int micros = fraction(meta);
                return s == 0 && micros == 0 ? MysqlDateTime.zero(meta) : Instant.ofEpochSecond(s, micros * 1000L);
            }
            case BIT: {
                int nbits = (meta >>> 8) * 8 + (meta & 0xff);
                long v = r.nextLong();
                if (extreme(20)) {
                    v = r.nextBoolean() ? 0 : -1;
                }
                return nbits == 64 ? v : v & ((1L << nbits) - 1);
            }
            case ENUM: return enumValue(c, meta & 0xff);
            case SET: return setValue(c, meta & 0xff);
            case STRING: {
                int real = io.lanes.binlog.internal.ColumnValueDecoder.stringRealType(meta);
                if (real == 247) {
                    return enumValue(c, meta & 0xff);
                }
                if (real == 248) {
                    return setValue(c, meta & 0xff);
                }
                return text(io.lanes.binlog.internal.ColumnValueDecoder.stringMaxLength(meta), c.charsetId());
            }
            case VARCHAR: case VAR_STRING: return text(meta, c.charsetId());
            case TINY_BLOB: case BLOB: case MEDIUM_BLOB: case LONG_BLOB: {
                int prefix = meta != 0 ? meta : c.type() == ColumnType.TINY_BLOB ? 1 : c.type() == ColumnType.MEDIUM_BLOB
                        ? 3 : 4;
                // the largest value the length prefix can hold: 255, 65,535, then capped at 70,000 bytes to keep tests fast
                int max = prefix == 1 ? 255 : prefix == 2 ? 65_535 : 70_000;
                return text(extreme(3) ? max : Math.min(max, 600), c.charsetId());
            }
            case JSON: {
                // a document whose binary form fits the column's length prefix (1-4 bytes): a 1-byte prefix holds at
                // most 255 bytes, which a random nested document can exceed, and the encoder rightly refuses that
                String doc = json(0);
                while (meta < 4 && JsonBinary.fromJsonText(doc).length >>> (8 * meta) != 0) {
                    doc = json(0);
                }
                return doc;
            }
            case GEOMETRY: return bytes(r.nextInt(100));
            case VECTOR: {
                float[] f = new float[r.nextInt(16)];
                for (int i = 0; i < f.length; i++) {
                    f[i] = Float.intBitsToFloat(r.nextInt());
                }
                return f;
            }
            default: throw new IllegalArgumentException(c.type().toString());
        }
    }

    private long integer(long min, long max) {
        if (extreme(25)) {
            long[] e = {min, max, 0, min + 1, max - 1};
            long v = e[r.nextInt(e.length)];
            return Math.max(min, Math.min(max, v));
        }
        return min + (long) (r.nextDouble() * ((double) max - min + 1));
    }

    private BigDecimal decimal(int precision, int scale) {
        StringBuilder digits = new StringBuilder();
        int n = extreme(20) ? precision : r.nextInt(precision + 1);
        char d = extreme(10) ? '9' : 0;
        for (int i = 0; i < n; i++) {
            digits.append(d != 0 ? d : (char) ('0' + r.nextInt(10)));
        }
        BigInteger unscaled = digits.length() == 0 ? BigInteger.ZERO : new BigInteger(digits.toString());
        if (r.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        return new BigDecimal(unscaled, scale);
    }

    private int fraction(int fsp) {
        if (fsp == 0) {
            return 0;
        }
        int units = extreme(20) ? (r.nextBoolean() ? 0 : POW10[fsp] - 1) : r.nextInt(POW10[fsp]);
        return units * POW10[6 - fsp];
    }

    private Object date() {
        int y = extreme(15) ? (r.nextBoolean() ? 0 : 9999) : r.nextInt(10000);
        int m = extreme(15) ? 0 : r.nextInt(13);
        int d = extreme(15) ? (r.nextBoolean() ? 0 : 31) : r.nextInt(32);
        if (m == 0 || d == 0 || d > LocalDate.of(y, m, 1).lengthOfMonth()) {
            return new MysqlDate(y, m, d);
        }
        return LocalDate.of(y, m, d);
    }

    private Object time(int fsp, int maxHours, int printFsp) {
        int h = extreme(15) ? (r.nextBoolean() ? maxHours : 0) : r.nextInt(maxHours + 1);
        int m = r.nextInt(60);
        int s = r.nextInt(60);
        if (h == maxHours && maxHours == 838 && fsp == 0) {
            m = Math.min(m, 59);
        }
        int micros = fraction(fsp);
        if (maxHours == 838 && h == 838) {
            // the MariaDB hires format's zero point is 838:59:59 + 1s: stay inside the server's TIME range
            m = Math.min(m, 59);
            s = Math.min(s, 59);
            if (fsp > 0) {
                micros = 0;
            }
        }
        boolean negative = r.nextBoolean();
        if (h == 0 && m == 0 && s == 0 && micros == 0) {
            negative = false; // -00:00:00 is 00:00:00
        }
        if (!negative && h < 24) {
            return LocalTime.of(h, m, s, micros * 1000);
        }
        return new MysqlTime(negative, h, m, s, micros, printFsp);
    }

    private Object dateTime(int fsp) {
        Object date = date();
        int y;
        int mo;
        int d;
        if (date instanceof LocalDate ld) {
            y = ld.getYear();
            mo = ld.getMonthValue();
            d = ld.getDayOfMonth();
        } else {
            MysqlDate md = (MysqlDate) date;
            y = md.year();
            mo = md.month();
            d = md.day();
        }
        int h = r.nextInt(24);
        int mi = r.nextInt(60);
        int s = r.nextInt(60);
        int micros = fraction(fsp);
        if (date instanceof LocalDate) {
            return LocalDateTime.of(y, mo, d, h, mi, s, micros * 1000);
        }
        return new MysqlDateTime(y, mo, d, h, mi, s, micros, fsp);
    }

    private Object enumValue(ColumnDef c, int pack) {
        List<String> names = c.enumValues();
        if (names == null) {
            return (int) integer(0, pack == 1 ? 255 : 65535);
        }
        int i = r.nextInt(names.size() + 1);
        return i == 0 ? "" : names.get(i - 1);
    }

    private Object setValue(ColumnDef c, int pack) {
        List<String> names = c.setValues();
        if (names == null) {
            long v = r.nextLong();
            return pack == 8 ? v : v & ((1L << (8 * pack)) - 1);
        }
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            if (r.nextInt(3) == 0) {
                if (sb.length() > 0) {
                    sb.append(',');
                }
                sb.append(n);
            }
        }
        return sb.toString();
    }

    byte[] bytes(int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /**
     * Text of at most {@code maxBytes} bytes in a collation, as the decoder returns it: a String when the bytes are valid
     * in a character set Java has, else the bytes. Half the time random bytes (mostly invalid UTF-8), half valid text.
     */
    Object text(int maxBytes, int collation) {
        int n = maxBytes == 0 ? 0 : r.nextInt(Math.min(maxBytes, 300) + 1);
        if (extreme(5)) {
            n = maxBytes;
        }
        byte[] b;
        if (r.nextBoolean() || MysqlCharsets.javaCharset(collation) == null) {
            b = bytes(n);
        } else {
            StringBuilder sb = new StringBuilder();
            String alphabet = "abcXYZ 09\t\n'\"\\éü€😀名";
            while (true) {
                int cp = alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(alphabet.codePointCount(0,
                        alphabet.length()))));
                String next = sb + new String(Character.toChars(cp));
                byte[] enc;
                try {
                    enc = MysqlCharsets.encode(next, collation);
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (!new String(enc, MysqlCharsets.javaCharset(collation)).equals(next) || enc.length > n) {
                    break;
                }
                sb.setLength(0);
                sb.append(next);
            }
            b = sb.length() == 0 ? new byte[0] : MysqlCharsets.encode(sb.toString(), collation);
        }
        return MysqlCharsets.decode(b, 0, b.length, collation);
    }

    /** Random JSON text printed exactly as the server prints JSON (and so as the decoder returns it). */
    String json(int depth) {
        StringBuilder sb = new StringBuilder();
        json(sb, depth);
        return sb.toString();
    }

    private void json(StringBuilder sb, int depth) {
        int kind = depth > 3 ? 2 + r.nextInt(6) : r.nextInt(8);
        switch (kind) {
            case 0: {
                List<String> keys = new ArrayList<>(new LinkedHashSet<>(List.of(jsonKey(), jsonKey(), jsonKey())));
                keys = keys.subList(0, r.nextInt(keys.size() + 1));
                keys.sort(RoundTripGenerators::compareKeys);
                sb.append('{');
                for (int i = 0; i < keys.size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    JsonBinary.quote(sb, keys.get(i));
                    sb.append(": ");
                    json(sb, depth + 1);
                }
                sb.append('}');
                return;
            }
            case 1: {
                int n = r.nextInt(4);
                sb.append('[');
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    json(sb, depth + 1);
                }
                sb.append(']');
                return;
            }
            case 2: sb.append(new String[] {"null", "true", "false"}[r.nextInt(3)]); return;
            case 3: sb.append(extreme(30) ? new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 32767, 32768, -32769,
                Integer.MAX_VALUE + 1L}[r.nextInt(6)] : r.nextInt()); return;
            case 4: sb.append(BigInteger.valueOf(r.nextLong() & Long.MAX_VALUE).add(BigInteger.ONE.shiftLeft(63)));
                return;
            case 5: {
                double d = Double.longBitsToDouble(r.nextLong());
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    d = r.nextDouble() * 1000;
                }
                sb.append(JsonBinary.formatDouble(d));
                return;
            }
            default: JsonBinary.quote(sb, jsonKey() + (r.nextBoolean() ? "\u0001\"\\\n😀" : ""));
        }
    }

    private String jsonKey() {
        return "k" + r.nextInt(50) + (r.nextInt(6) == 0 ? "é" : "");
    }

    private static int compareKeys(String a, String b) {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        return x.length != y.length ? Integer.compare(x.length, y.length) : java.util.Arrays.compareUnsigned(x, y);
    }

    UUID uuid() {
        return new UUID(r.nextLong(), r.nextLong());
    }

    String ascii(int maxLength) {
        int n = r.nextInt(maxLength + 1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        return sb.toString();
    }
}
