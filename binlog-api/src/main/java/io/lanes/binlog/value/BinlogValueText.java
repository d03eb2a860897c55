package io.lanes.binlog.value;

import io.lanes.binlog.ColumnDef;
import io.lanes.binlog.ColumnType;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;

/**
 * Prints decoded column values the way {@code mariadb-binlog -v} (MariaDB 10.x/11.x) prints a row image's
 * {@code ### @n=value} lines: for cross-checks against the server's own tool and for a human-readable dump.
 *
 * <p>mariadb-binlog's conventions, reproduced here: integers signed, followed by {@code " (unsigned)"} when negative;
 * DECIMAL with the column's scale; FLOAT as C's {@code %-20g}; DOUBLE as {@code %-.20g}; BIT and SET as {@code b'0101'}
 * (SET bytes in storage order); ENUM as its index; YEAR as {@code 1900 + stored byte} (so the zero year prints 1900);
 * DATE as {@code 'YYYY:MM:DD'}; TIMESTAMP as epoch seconds (with {@code fsp} fraction digits for TIMESTAMP2); TIME and
 * DATETIME quoted, with {@code fsp} digits for TIME2/DATETIME2; strings and blobs single-quoted as raw bytes with bytes
 * below 0x20 as {@code \xNN} (quotes and backslashes are not escaped). JSON and VECTOR, which MariaDB does not have,
 * print as quoted JSON text and quoted raw little-endian bytes; MariaDB's COMPRESSED columns print their decompressed
 * value (mariadb-binlog prints the compressed bytes).
 *
 * <p>Stateless and thread-safe.
 */
public final class BinlogValueText {
    private BinlogValueText() {
    }

    /** The text mariadb-binlog prints for {@code value} (a value of {@code column} as decoded), as raw bytes. */
    public static byte[] mariadbBinlog(Object value, ColumnDef column) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (value == null) {
            ascii(out, "NULL");
            return out.toByteArray();
        }
        int meta = column.meta();
        ColumnType type = column.type();
        if (type == ColumnType.STRING && meta >= 256) {
            int realType = realStringType(meta);
            if (realType == ColumnType.ENUM.code()) {
                type = ColumnType.ENUM;
            } else if (realType == ColumnType.SET.code()) {
                type = ColumnType.SET;
            }
        }
        switch (type) {
            case TINY:
            case SHORT:
            case INT24:
            case LONG: {
                // The column's 8, 16, 24 or 32 bits, printed as signed and as unsigned (the log does not say which).
                int size = switch (type) {
                    case TINY -> 1;
                    case SHORT -> 2;
                    case INT24 -> 3;
                    default -> 4;
                };
                int unusedBits = 64 - 8 * size;
                long v = type == ColumnType.LONG ? ((Number) value).longValue() : ((Number) value).intValue();
                signedAndUnsigned(out, v << unusedBits >> unusedBits, v & -1L >>> unusedBits);
                break;
            }
            case LONGLONG: {
                long v = value instanceof BigInteger ? ((BigInteger) value).longValue() : ((Number) value).longValue();
                ascii(out, Long.toString(v));
                if (v < 0) {
                    ascii(out, " (" + Long.toUnsignedString(v) + ")");
                }
                break;
            }
            case NEWDECIMAL:
                ascii(out, ((BigDecimal) value).toPlainString());
                break;
            case FLOAT: {
                StringBuilder sb = new StringBuilder(cFormatG(((Float) value).doubleValue(), 6));
                while (sb.length() < 20) {
                    sb.append(' ');
                }
                ascii(out, sb.toString());
                break;
            }
            case DOUBLE:
                ascii(out, cFormatG((Double) value, 20));
                break;
            case BIT: {
                int nbits = (meta >>> 8) * 8 + (meta & 0xff);
                long v = (Long) value;
                StringBuilder sb = new StringBuilder("b'");
                for (int i = nbits - 1; i >= 0; i--) {
                    sb.append((v >>> i & 1) != 0 ? '1' : '0');
                }
                ascii(out, sb.append('\'').toString());
                break;
            }
            case ENUM:
                ascii(out, Integer.toString(value instanceof String ? enumIndex((String) value, column)
                        : ((Number) value).intValue()));
                break;
            case SET: {
                long bits = value instanceof String ? setBits((String) value, column) : ((Number) value).longValue();
                int bytes = meta & 0xff;
                StringBuilder sb = new StringBuilder("b'");
                for (int b = 0; b < bytes; b++) {
                    int octet = (int) (bits >>> (8 * b) & 0xff);
                    for (int i = 7; i >= 0; i--) {
                        sb.append((octet >>> i & 1) != 0 ? '1' : '0');
                    }
                }
                ascii(out, sb.append('\'').toString());
                break;
            }
            case YEAR: {
                int v = ((Number) value).intValue();
                ascii(out, Integer.toString(v == 0 ? 1900 : v));
                break;
            }
            case DATE:
            case NEWDATE: {
                int[] f = fields(value);
                StringBuilder sb = new StringBuilder("'");
                TemporalText.pad(sb, f[0], 4);
                sb.append(':');
                TemporalText.pad(sb, f[1], 2);
                sb.append(':');
                TemporalText.pad(sb, f[2], 2);
                ascii(out, sb.append('\'').toString());
                break;
            }
            case TIMESTAMP:
            case TIMESTAMP2: {
                long seconds = 0;
                int micros = 0;
                if (value instanceof Instant) {
                    seconds = ((Instant) value).getEpochSecond();
                    micros = ((Instant) value).getNano() / 1000;
                }
                StringBuilder sb = new StringBuilder(Long.toString(seconds));
                TemporalText.appendFraction(sb, micros, type == ColumnType.TIMESTAMP2 ? meta : 0);
                ascii(out, sb.toString());
                break;
            }
            case DATETIME:
            case DATETIME2: {
                int[] f = fields(value);
                StringBuilder sb = new StringBuilder("'");
                TemporalText.appendDate(sb, f[0], f[1], f[2]);
                sb.append(' ');
                TemporalText.appendTime(sb, f[3], f[4], f[5], f[6], type == ColumnType.DATETIME2 ? meta : 0);
                ascii(out, sb.append('\'').toString());
                break;
            }
            case TIME:
            case TIME2: {
                int[] f = fields(value);
                StringBuilder sb = new StringBuilder("'");
                if (f[7] != 0) {
                    sb.append('-');
                }
                TemporalText.appendTime(sb, f[3], f[4], f[5], f[6], type == ColumnType.TIME2 ? meta : 0);
                ascii(out, sb.append('\'').toString());
                break;
            }
            case VECTOR:
                quoted(out, vectorBytes((float[]) value));
                break;
            case JSON:
                quoted(out, ((String) value).getBytes(StandardCharsets.UTF_8));
                break;
            default:
                if (value instanceof byte[]) {
                    quoted(out, (byte[]) value);
                } else if (value instanceof String) {
                    quoted(out, MysqlCharsets.encode((String) value, column.charsetId()));
                } else {
                    throw new IllegalArgumentException("not a value of " + column.type() + ": " + value.getClass());
                }
        }
        return out.toByteArray();
    }

    /**
     * A MySQL/MariaDB SQL literal for {@code value} (a value of {@code column} as decoded) that stores the same value
     * when written back into a column of the same type: numbers as digits, text as a quoted string with MySQL's
     * escapes, bytes as {@code X'..'}, BIT as {@code b'..'}, ENUM/SET as their names or numbers, temporals as quoted
     * MySQL text with the column's fraction digits. TIMESTAMP values are printed in UTC: the statement must run with
     * {@code time_zone = '+00:00'}; strings use backslash escapes, so the statement must not run under
     * NO_BACKSLASH_ESCAPES. FLOAT values print the exact double value of the float, which reads back as the same float.
     * VECTOR values are their little-endian float bytes as {@code X'..'}.
     */
    public static String sqlLiteral(Object value, ColumnDef column) {
        if (value == null) {
            return "NULL";
        }
        int fsp = column.meta() >= 0 && column.meta() <= 6 ? column.meta() : 0;
        if (value instanceof byte[]) {
            return hexLiteral((byte[]) value);
        }
        if (value instanceof float[]) {
            return hexLiteral(vectorBytes((float[]) value));
        }
        if (value instanceof String) {
            return quote((String) value);
        }
        if (value instanceof BigDecimal) {
            return ((BigDecimal) value).toPlainString();
        }
        if (value instanceof Float || value instanceof Double) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("MySQL has no literal for " + d);
            }
            return Double.toString(d);
        }
        if (column.type() == ColumnType.BIT) {
            int nbits = (column.meta() >>> 8) * 8 + (column.meta() & 0xff);
            long v = (Long) value;
            StringBuilder sb = new StringBuilder("b'");
            for (int i = Math.max(1, nbits) - 1; i >= 0; i--) {
                sb.append((v >>> i & 1) != 0 ? '1' : '0');
            }
            return sb.append('\'').toString();
        }
        if (value instanceof Number) {
            return value.toString();
        }
        StringBuilder sb = new StringBuilder("'");
        if (value instanceof LocalDate) {
            LocalDate d = (LocalDate) value;
            TemporalText.appendDate(sb, d.getYear(), d.getMonthValue(), d.getDayOfMonth());
        } else if (value instanceof LocalDateTime) {
            LocalDateTime t = (LocalDateTime) value;
            TemporalText.appendDate(sb, t.getYear(), t.getMonthValue(), t.getDayOfMonth());
            sb.append(' ');
            TemporalText.appendTime(sb, t.getHour(), t.getMinute(), t.getSecond(), t.getNano() / 1000, fsp);
        } else if (value instanceof Instant) {
            LocalDateTime t = LocalDateTime.ofEpochSecond(((Instant) value).getEpochSecond(), ((Instant) value).getNano(),
                    java.time.ZoneOffset.UTC);
            TemporalText.appendDate(sb, t.getYear(), t.getMonthValue(), t.getDayOfMonth());
            sb.append(' ');
            TemporalText.appendTime(sb, t.getHour(), t.getMinute(), t.getSecond(), t.getNano() / 1000, fsp);
        } else if (value instanceof LocalTime) {
            LocalTime t = (LocalTime) value;
            TemporalText.appendTime(sb, t.getHour(), t.getMinute(), t.getSecond(), t.getNano() / 1000, fsp);
        } else if (value instanceof MysqlDate || value instanceof MysqlDateTime || value instanceof MysqlTime) {
            sb.append(value);
        } else {
            throw new IllegalArgumentException("not a value of " + column.type() + ": " + value.getClass());
        }
        return sb.append('\'').toString();
    }

    private static String hexLiteral(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2 + 3).append("X'");
        for (byte x : b) {
            sb.append(Character.forDigit((x >>> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return sb.append('\'').toString();
    }

    /** A single-quoted MySQL string literal with backslash escapes (for sql_mode without NO_BACKSLASH_ESCAPES). */
    private static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case 0: sb.append("\\0"); break;
                case '\'': sb.append("\\'"); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case 26: sb.append("\\Z"); break;
                default: sb.append(c);
            }
        }
        return sb.append('\'').toString();
    }

    /** {@link #mariadbBinlog} as text (its bytes read as UTF-8). */
    public static String mariadbBinlogString(Object value, ColumnDef column) {
        return new String(mariadbBinlog(value, column), StandardCharsets.UTF_8);
    }

    private static int realStringType(int meta) {
        int byte0 = meta >>> 8;
        return (byte0 & 0x30) != 0x30 ? byte0 | 0x30 : byte0;
    }

    private static int enumIndex(String name, ColumnDef column) {
        if (name.isEmpty()) {
            return 0;
        }
        List<String> names = column.enumValues();
        int i = names == null ? -1 : names.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("'" + name + "' is not a member of the ENUM");
        }
        return i + 1;
    }

    private static long setBits(String value, ColumnDef column) {
        long bits = 0;
        if (value.isEmpty()) {
            return 0;
        }
        List<String> names = column.setValues();
        for (String part : value.split(",", -1)) {
            int i = names == null ? -1 : names.indexOf(part);
            if (i < 0) {
                throw new IllegalArgumentException("'" + part + "' is not a member of the SET");
            }
            bits |= 1L << i;
        }
        return bits;
    }

    /** year, month, day, hour, minute, second, micros, negative(0/1) of any temporal value this package decodes. */
    private static int[] fields(Object v) {
        if (v instanceof LocalDate) {
            LocalDate d = (LocalDate) v;
            return new int[] {d.getYear(), d.getMonthValue(), d.getDayOfMonth(), 0, 0, 0, 0, 0};
        }
        if (v instanceof MysqlDate) {
            MysqlDate d = (MysqlDate) v;
            return new int[] {d.year(), d.month(), d.day(), 0, 0, 0, 0, 0};
        }
        if (v instanceof LocalDateTime) {
            LocalDateTime t = (LocalDateTime) v;
            return new int[] {t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(),
                t.getSecond(), t.getNano() / 1000, 0};
        }
        if (v instanceof MysqlDateTime) {
            MysqlDateTime t = (MysqlDateTime) v;
            return new int[] {t.year(), t.month(), t.day(), t.hour(), t.minute(), t.second(), t.micros(), 0};
        }
        if (v instanceof LocalTime) {
            LocalTime t = (LocalTime) v;
            return new int[] {0, 0, 0, t.getHour(), t.getMinute(), t.getSecond(), t.getNano() / 1000, 0};
        }
        if (v instanceof MysqlTime) {
            MysqlTime t = (MysqlTime) v;
            return new int[] {0, 0, 0, t.hours(), t.minutes(), t.seconds(), t.micros(), t.negative() ? 1 : 0};
        }
        throw new IllegalArgumentException("not a temporal value: " + v.getClass());
    }

    /** A VECTOR value as the log holds it: each float's bits, little-endian. */
    private static byte[] vectorBytes(float[] v) {
        byte[] raw = new byte[v.length * 4];
        for (int i = 0; i < v.length; i++) {
            int bits = Float.floatToRawIntBits(v[i]);
            for (int k = 0; k < 4; k++) {
                raw[i * 4 + k] = (byte) (bits >>> (8 * k));
            }
        }
        return raw;
    }

    private static void signedAndUnsigned(ByteArrayOutputStream out, long signed, long unsigned) {
        ascii(out, Long.toString(signed));
        if (signed < 0) {
            ascii(out, " (" + unsigned + ")");
        }
    }

    private static void ascii(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        out.write(b, 0, b.length);
    }

    /** mariadb-binlog's my_b_write_quoted: raw bytes in single quotes, bytes below 0x20 as {@code \xNN}. */
    private static void quoted(ByteArrayOutputStream out, byte[] bytes) {
        out.write('\'');
        for (byte b : bytes) {
            int u = b & 0xff;
            if (u > 0x1f) {
                out.write(u);
            } else {
                ascii(out, String.format("\\x%02x", u));
            }
        }
        out.write('\'');
    }

    /**
     * C's {@code printf("%.{precision}g", d)} as glibc prints it: the exact binary value rounded half-even to
     * {@code precision} significant digits, plain notation when the decimal exponent X satisfies
     * {@code -4 <= X < precision}, else {@code d.ddde+XX}; trailing zeros and a trailing point removed.
     */
    public static String cFormatG(double d, int precision) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        int p = precision == 0 ? 1 : precision;
        boolean negative = d < 0 || (d == 0 && 1 / d < 0);
        if (d == 0) {
            return negative ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(Math.abs(d)).round(new MathContext(p, RoundingMode.HALF_EVEN));
        int x = rounded.precision() - rounded.scale() - 1;
        StringBuilder sb = new StringBuilder(negative ? "-" : "");
        if (x >= -4 && x < p) {
            String plain = rounded.setScale(Math.max(0, p - 1 - x), RoundingMode.UNNECESSARY).toPlainString();
            sb.append(stripFraction(plain));
        } else {
            String digits = rounded.unscaledValue().toString();
            StringBuilder mantissa = new StringBuilder().append(digits.charAt(0));
            if (digits.length() > 1) {
                mantissa.append('.').append(digits, 1, digits.length());
            }
            sb.append(stripFraction(mantissa.toString())).append('e').append(x < 0 ? '-' : '+');
            int ax = Math.abs(x);
            if (ax < 10) {
                sb.append('0');
            }
            sb.append(ax);
        }
        return sb.toString();
    }

    private static String stripFraction(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }
}
