package io.lanes.binlog.internal;

import static io.lanes.binlog.internal.ColumnValueDecoder.DIG2BYTES;
import static io.lanes.binlog.internal.ColumnValueDecoder.MARIA_DATETIME_HIRES_BYTES;
import static io.lanes.binlog.internal.ColumnValueDecoder.MARIA_SEC_PART_BYTES;
import static io.lanes.binlog.internal.ColumnValueDecoder.MARIA_TIME_HIRES_BYTES;
import static io.lanes.binlog.internal.ColumnValueDecoder.MARIA_TIME_ZERO_SECONDS;
import static io.lanes.binlog.internal.ColumnValueDecoder.POW10_INT;
import static io.lanes.binlog.internal.ColumnValueDecoder.TWO_64;

import io.lanes.binlog.ColumnDef;
import io.lanes.binlog.ColumnType;
import io.lanes.binlog.json.JsonBinary;
import io.lanes.binlog.value.MysqlCharsets;
import io.lanes.binlog.value.MysqlDate;
import io.lanes.binlog.value.MysqlDateTime;
import io.lanes.binlog.value.MysqlTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;

/**
 * Writes one column value into a row image: the exact inverse of {@link ColumnValueDecoder#decode}. Every Java value
 * that {@code ColumnValueDecoder} returns for a column (see the table in {@link io.lanes.binlog.value}) encodes back to
 * the bytes it was decoded from, so that {@code decode(encode(v)) equals v}. A few convenient inputs are accepted as well
 * ({@code Number} of any kind for the integer, FLOAT and DOUBLE types, {@code Integer} indexes for ENUM, {@code Long}
 * bitmasks for SET, {@code byte[]} for any text column, {@code byte[]} of MySQL binary JSON for JSON).
 *
 * <p>Values are written as the server lays them out, with the column's metadata read the same way as the decoder reads
 * it (see {@link ColumnValueDecoder}). A value that the column cannot hold (out of range, too long, more fractional
 * digits than the column's precision, a name that is not an ENUM member) is an {@link IllegalArgumentException}: the
 * encoder never truncates or rounds silently.
 *
 * <p>Stateless and thread-safe; each {@link Sink} belongs to one thread.
 */
public final class ColumnValueEncoder {
    private ColumnValueEncoder() {
    }

    /** A growable little-endian byte buffer. Not thread-safe. */
    public static final class Sink {
        private byte[] buf;
        private int size;

        public Sink() {
            this(256);
        }

        public Sink(int capacity) {
            buf = new byte[Math.max(16, capacity)];
        }

        private void ensure(int extra) {
            if (size + extra > buf.length) {
                long want = Math.max((long) buf.length * 2, (long) size + extra);
                if (want > Integer.MAX_VALUE - 16) {
                    throw new IllegalArgumentException("buffer over 2 GiB");
                }
                buf = Arrays.copyOf(buf, (int) want);
            }
        }

        public int size() {
            return size;
        }

        /** The backing array (valid up to {@link #size()}). */
        public byte[] array() {
            return buf;
        }

        public void reset() {
            size = 0;
        }

        /** Drops everything after the first {@code newSize} bytes. */
        public void truncate(int newSize) {
            if (newSize < 0 || newSize > size) {
                throw new IllegalArgumentException("truncate to " + newSize + " of " + size);
            }
            size = newSize;
        }

        public byte[] toByteArray() {
            return Arrays.copyOf(buf, size);
        }

        public Sink u8(int v) {
            ensure(1);
            buf[size++] = (byte) v;
            return this;
        }

        /** {@code n} bytes of {@code v}, little-endian. */
        public Sink le(long v, int n) {
            ensure(n);
            for (int i = 0; i < n; i++) {
                buf[size++] = (byte) (v >>> (8 * i));
            }
            return this;
        }

        /** {@code n} bytes of {@code v}, big-endian. */
        public Sink be(long v, int n) {
            ensure(n);
            for (int i = n - 1; i >= 0; i--) {
                buf[size++] = (byte) (v >>> (8 * i));
            }
            return this;
        }

        public Sink u16(int v) {
            return le(v, 2);
        }

        public Sink u32(long v) {
            return le(v, 4);
        }

        public Sink i64(long v) {
            return le(v, 8);
        }

        public Sink bytes(byte[] b) {
            return bytes(b, 0, b.length);
        }

        public Sink bytes(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, size, len);
            size += len;
            return this;
        }

        public Sink zeros(int n) {
            ensure(n);
            Arrays.fill(buf, size, size + n, (byte) 0);
            size += n;
            return this;
        }

        /** A MySQL length-encoded integer (the inverse of {@link ByteReader#packedLength()}); {@code v >= 0}. */
        public Sink packed(long v) {
            if (v < 0) {
                throw new IllegalArgumentException("negative packed integer " + v);
            }
            if (v < 0xfb) {
                return u8((int) v);
            }
            if (v <= 0xffff) {
                return u8(0xfc).le(v, 2);
            }
            if (v <= 0xff_ffff) {
                return u8(0xfd).le(v, 3);
            }
            return u8(0xfe).le(v, 8);
        }

        /** Overwrites {@code n} bytes at {@code at} with {@code v}, little-endian. */
        public void putLe(int at, long v, int n) {
            if (at < 0 || at + n > size) {
                throw new IndexOutOfBoundsException(at + "+" + n + " of " + size);
            }
            for (int i = 0; i < n; i++) {
                buf[at + i] = (byte) (v >>> (8 * i));
            }
        }
    }

    /** Bytes of a length-encoded integer of value {@code v}. */
    public static int packedSize(long v) {
        return v < 0xfb ? 1 : v <= 0xffff ? 3 : v <= 0xff_ffff ? 4 : 9;
    }

    /**
     * Writes the non-NULL {@code value} of {@code column} (NULL is the row image's null bitmap, not a value).
     *
     * @throws IllegalArgumentException when the column cannot hold the value, or the value's Java type does not fit the
     *     column type
     */
    public static void encode(Sink out, ColumnDef column, Object value) {
        if (value == null) {
            throw new IllegalArgumentException("NULL is written in the null bitmap, not as a value");
        }
        int meta = column.meta();
        try {
            switch (column.type()) {
                case TINY:
                    out.u8((int) integer(value, -128, 255));
                    return;
                case SHORT:
                    out.le(integer(value, -32768, 65535), 2);
                    return;
                case INT24:
                    out.le(integer(value, -8388608, 16777215), 3);
                    return;
                case LONG:
                    out.le(integer(value, Integer.MIN_VALUE, 4294967295L), 4);
                    return;
                case LONGLONG:
                    out.i64(longlong(value));
                    return;
                case FLOAT:
                    out.le(Float.floatToRawIntBits(value instanceof Float f ? f : number(value).floatValue()), 4);
                    return;
                case DOUBLE:
                    out.i64(Double.doubleToRawLongBits(value instanceof Double d ? d
                            : number(value).doubleValue()));
                    return;
                case NEWDECIMAL:
                    encodeDecimal(out, decimal(value), meta >>> 8, meta & 0xff);
                    return;
                case YEAR: {
                    int y = (int) integer(value, 0, 2155);
                    if (y != 0 && y < 1901) {
                        throw new IllegalArgumentException("YEAR " + y + " outside 1901..2155 (or 0)");
                    }
                    out.u8(y == 0 ? 0 : y - 1900);
                    return;
                }
                case DATE:
                case NEWDATE:
                    encodeDate(out, value);
                    return;
                case TIME:
                    if (meta == 0) {
                        encodeOldTime(out, time(value, 0));
                    } else {
                        encodeMariaTimeHires(out, time(value, fsp(meta)), fsp(meta));
                    }
                    return;
                case TIME2:
                    encodeTime2(out, time(value, fsp(meta)), fsp(meta));
                    return;
                case DATETIME:
                    if (meta == 0) {
                        encodeOldDateTime(out, dateTime(value, 0));
                    } else {
                        encodeMariaDateTimeHires(out, dateTime(value, fsp(meta)), fsp(meta));
                    }
                    return;
                case DATETIME2:
                    encodeDateTime2(out, dateTime(value, fsp(meta)), fsp(meta));
                    return;
                case TIMESTAMP: {
                    int fsp = meta == 0 ? 0 : fsp(meta);
                    long[] sm = timestamp(value, fsp);
                    if (meta == 0) {
                        out.u32(sm[0]); // the pre-5.6 TIMESTAMP is little-endian, the hires one big-endian
                    } else {
                        out.be(sm[0], 4).be(sm[1] / POW10_INT[6 - fsp], MARIA_SEC_PART_BYTES[fsp]);
                    }
                    return;
                }
                case TIMESTAMP2: {
                    int fsp = fsp(meta);
                    long[] sm = timestamp(value, fsp);
                    out.be(sm[0], 4);
                    fraction2(out, (int) sm[1], fsp);
                    return;
                }
                case BIT: {
                    int nbits = (meta >>> 8) * 8 + (meta & 0xff);
                    if ((meta & 0xff) > 7 || nbits < 1 || nbits > 64) {
                        throw new IllegalArgumentException("bad BIT metadata 0x" + Integer.toHexString(meta));
                    }
                    long v = value instanceof BigInteger b ? b.longValue() : number(value).longValue();
                    if (nbits < 64 && v >>> nbits != 0) {
                        throw new IllegalArgumentException("BIT(" + nbits + ") cannot hold 0x" + Long.toHexString(v));
                    }
                    out.be(v, (nbits + 7) / 8);
                    return;
                }
                case ENUM:
                    encodeEnum(out, column, value, meta & 0xff);
                    return;
                case SET:
                    encodeSet(out, column, value, meta & 0xff);
                    return;
                case VARCHAR:
                case VAR_STRING: {
                    byte[] b = text(value, column.charsetId());
                    if (b.length > meta) {
                        throw new IllegalArgumentException("VARCHAR value of " + b.length + " bytes in a column of at most "
                                + meta);
                    }
                    out.le(b.length, meta > 255 ? 2 : 1).bytes(b);
                    return;
                }
                case STRING: {
                    int realType = ColumnValueDecoder.stringRealType(meta);
                    if (realType == ColumnType.ENUM.code()) {
                        encodeEnum(out, column, value, meta & 0xff);
                    } else if (realType == ColumnType.SET.code()) {
                        encodeSet(out, column, value, meta & 0xff);
                    } else {
                        int max = ColumnValueDecoder.stringMaxLength(meta);
                        byte[] b = text(value, column.charsetId());
                        if (b.length > (max > 255 ? 0xffff : 0xff) || (max > 0 && b.length > max)) {
                            throw new IllegalArgumentException("CHAR value of " + b.length
                                    + " bytes in a column of at most " + max);
                        }
                        out.le(b.length, max > 255 ? 2 : 1).bytes(b);
                    }
                    return;
                }
                case TINY_BLOB:
                case BLOB:
                case MEDIUM_BLOB:
                case LONG_BLOB:
                    lengthPrefixed(out, column, text(value, column.charsetId()));
                    return;
                case JSON:
                    lengthPrefixed(out, column, value instanceof byte[] b ? b : JsonBinary.fromJsonText(json(value)));
                    return;
                case GEOMETRY:
                    lengthPrefixed(out, column, bytes(value));
                    return;
                case VECTOR: {
                    if (!(value instanceof float[] f)) {
                        throw wrongType(value, "float[]");
                    }
                    Sink v = new Sink(f.length * 4);
                    for (float x : f) {
                        v.le(Float.floatToRawIntBits(x), 4);
                    }
                    lengthPrefixed(out, column, v.toByteArray());
                    return;
                }
                case NULL:
                    return;
                default:
                    throw new IllegalArgumentException("column type " + column.type() + " cannot be encoded");
            }
        } catch (ArithmeticException | ClassCastException e) {
            throw new IllegalArgumentException("column " + column.index() + " (" + column.type() + "): cannot encode "
                    + describe(value) + ": " + e.getMessage(), e);
        }
    }

    private static String describe(Object v) {
        return v.getClass().getSimpleName() + " " + (v instanceof byte[] b ? Arrays.toString(b) : String.valueOf(v));
    }

    private static IllegalArgumentException wrongType(Object v, String expected) {
        return new IllegalArgumentException("expected " + expected + ", got " + describe(v));
    }

    // ---------------------------------------------------------------------------------------------------- numbers

    private static Number number(Object v) {
        if (v instanceof Number n) {
            return n;
        }
        throw wrongType(v, "a Number");
    }

    private static long integer(Object v, long min, long max) {
        long x;
        if (v instanceof BigInteger b) {
            x = b.longValueExact();
        } else if (v instanceof BigDecimal d) {
            x = d.longValueExact();
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            x = ((Number) v).longValue();
        } else {
            throw wrongType(v, "an integer");
        }
        if (x < min || x > max) {
            throw new IllegalArgumentException(x + " outside " + min + ".." + max);
        }
        return x;
    }

    private static long longlong(Object v) {
        if (v instanceof BigInteger b) {
            if (b.signum() < 0) {
                return b.longValueExact();
            }
            if (b.compareTo(TWO_64) >= 0) {
                throw new IllegalArgumentException(b + " does not fit 64 bits");
            }
            return b.longValue();
        }
        return integer(v, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private static BigDecimal decimal(Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Double || v instanceof Float) {
            return new BigDecimal(v.toString());
        }
        if (v instanceof String s) {
            return new BigDecimal(s);
        }
        throw wrongType(v, "a BigDecimal");
    }

    /**
     * MySQL's binary DECIMAL(precision, scale): nine-digit groups in four big-endian bytes from the decimal point outwards,
     * shorter groups at both ends, the first byte's top bit inverted, all bytes inverted for negative values.
     */
    public static void encodeDecimal(Sink out, BigDecimal value, int precision, int scale) {
        if (precision < 1 || precision > 65 || scale > 38 || scale > precision) {
            throw new IllegalArgumentException("bad DECIMAL metadata: precision " + precision + ", scale " + scale);
        }
        BigDecimal v = value.setScale(scale, RoundingMode.UNNECESSARY);
        BigInteger unscaled = v.unscaledValue().abs();
        int intg = precision - scale;
        String digits = unscaled.toString();
        if (digits.length() > precision) {
            throw new IllegalArgumentException(value + " does not fit DECIMAL(" + precision + "," + scale + ")");
        }
        char[] all = new char[precision];
        Arrays.fill(all, '0');
        digits.getChars(0, digits.length(), all, precision - digits.length());
        int start = out.size();
        int lead = intg % 9;
        int p = 0;
        if (lead > 0) {
            out.be(parse(all, 0, lead), DIG2BYTES[lead]);
            p = lead;
        }
        for (; p < intg; p += 9) {
            out.be(parse(all, p, 9), 4);
        }
        int f = 0;
        for (; f + 9 <= scale; f += 9) {
            out.be(parse(all, intg + f, 9), 4);
        }
        if (f < scale) {
            out.be(parse(all, intg + f, scale - f), DIG2BYTES[scale - f]);
        }
        byte[] b = out.array();
        b[start] ^= (byte) 0x80;
        if (v.signum() < 0) {
            for (int i = start; i < out.size(); i++) {
                b[i] ^= (byte) 0xff;
            }
        }
    }

    private static long parse(char[] digits, int from, int n) {
        long v = 0;
        for (int i = from; i < from + n; i++) {
            v = v * 10 + (digits[i] - '0');
        }
        return v;
    }

    // -------------------------------------------------------------------------------------------------- temporals

    private static int fsp(int meta) {
        if (meta < 0 || meta > 6) {
            throw new IllegalArgumentException("fractional seconds precision " + meta + " outside 0..6");
        }
        return meta;
    }

    private static void checkFraction(int micros, int fsp) {
        if (micros % POW10_INT[6 - fsp] != 0) {
            throw new IllegalArgumentException("fraction of " + micros + " microseconds has more than " + fsp
                    + " digits");
        }
    }

    private static void encodeDate(Sink out, Object value) {
        int y;
        int m;
        int d;
        if (value instanceof LocalDate ld) {
            y = ld.getYear();
            m = ld.getMonthValue();
            d = ld.getDayOfMonth();
        } else if (value instanceof MysqlDate md) {
            y = md.year();
            m = md.month();
            d = md.day();
        } else {
            throw wrongType(value, "LocalDate or MysqlDate");
        }
        if (y < 0 || y > 9999) {
            throw new IllegalArgumentException("DATE year " + y + " outside 0..9999");
        }
        out.le((long) y << 9 | m << 5 | d, 3);
    }

    /** Sign, hours, minutes, seconds, micros. */
    private record Hms(boolean negative, long hours, int minute, int second, int micros) {
        long totalMicros() {
            return ((hours * 60 + minute) * 60 + second) * 1_000_000L + micros;
        }
    }

    private static Hms time(Object value, int fsp) {
        Hms t;
        if (value instanceof LocalTime lt) {
            if (lt.getNano() % 1000 != 0) {
                throw new IllegalArgumentException("TIME " + lt + " has sub-microsecond digits");
            }
            t = new Hms(false, lt.getHour(), lt.getMinute(), lt.getSecond(), lt.getNano() / 1000);
        } else if (value instanceof MysqlTime mt) {
            t = new Hms(mt.negative(), mt.hours(), mt.minutes(), mt.seconds(), mt.micros());
        } else if (value instanceof java.time.Duration d) {
            long total = Math.abs(d.toNanos() / 1000);
            if (d.toNanos() % 1000 != 0) {
                throw new IllegalArgumentException("TIME " + d + " has sub-microsecond digits");
            }
            long secs = total / 1_000_000;
            t = new Hms(d.isNegative(), secs / 3600, (int) (secs / 60 % 60), (int) (secs % 60), (int) (total % 1_000_000));
        } else {
            throw wrongType(value, "LocalTime or MysqlTime");
        }
        if (t.hours > 1023) {
            throw new IllegalArgumentException("TIME hours " + t.hours + " above 1023");
        }
        checkFraction(t.micros, fsp);
        return t;
    }

    private static void encodeOldTime(Sink out, Hms t) {
        long v = t.hours * 10_000 + t.minute * 100 + t.second;
        if (v > 8_388_607) {
            throw new IllegalArgumentException("TIME " + t + " does not fit the old TIME format");
        }
        out.le(t.negative ? -v : v, 3);
    }

    private static void encodeMariaTimeHires(Sink out, Hms t, int fsp) {
        long units = t.totalMicros() / POW10_INT[6 - fsp];
        long stored = (t.negative ? -units : units) + MARIA_TIME_ZERO_SECONDS * POW10_INT[fsp];
        out.be(stored, MARIA_TIME_HIRES_BYTES[fsp]);
    }

    private static void encodeTime2(Sink out, Hms t, int fsp) {
        long hms = t.hours << 12 | (long) t.minute << 6 | t.second;
        long packed = (hms << 24) + t.micros;
        if (t.negative) {
            packed = -packed;
        }
        long intPart = packed >> 24; // floor, as the server's MY_PACKED_TIME_GET_INT_PART
        long frac = packed % (1L << 24); // sign of the dividend, as C's %
        switch (fsp) {
            case 1:
            case 2:
                out.be(intPart + 0x80_0000L, 3).u8((int) (frac / 10_000));
                return;
            case 3:
            case 4:
                out.be(intPart + 0x80_0000L, 3).be(frac / 100, 2);
                return;
            case 5:
            case 6:
                out.be(packed + 0x8000_0000_0000L, 6);
                return;
            default:
                out.be(intPart + 0x80_0000L, 3);
        }
    }

    private record Ymdhms(int year, int month, int day, int hour, int minute, int second, int micros) {
    }

    private static Ymdhms dateTime(Object value, int fsp) {
        Ymdhms t;
        if (value instanceof LocalDateTime ldt) {
            if (ldt.getNano() % 1000 != 0) {
                throw new IllegalArgumentException("DATETIME " + ldt + " has sub-microsecond digits");
            }
            t = new Ymdhms(ldt.getYear(), ldt.getMonthValue(), ldt.getDayOfMonth(), ldt.getHour(), ldt.getMinute(),
                    ldt.getSecond(), ldt.getNano() / 1000);
        } else if (value instanceof MysqlDateTime m) {
            t = new Ymdhms(m.year(), m.month(), m.day(), m.hour(), m.minute(), m.second(), m.micros());
        } else {
            throw wrongType(value, "LocalDateTime or MysqlDateTime");
        }
        if (t.year < 0 || t.year > 9999) {
            throw new IllegalArgumentException("DATETIME year " + t.year + " outside 0..9999");
        }
        checkFraction(t.micros, fsp);
        return t;
    }

    private static void encodeOldDateTime(Sink out, Ymdhms t) {
        long date = t.year * 10_000L + t.month * 100L + t.day;
        out.i64(date * 1_000_000L + t.hour * 10_000L + t.minute * 100L + t.second);
    }

    private static void encodeMariaDateTimeHires(Sink out, Ymdhms t, int fsp) {
        long packed = ((((((long) t.year * 13 + t.month) * 32 + t.day) * 24 + t.hour) * 60 + t.minute) * 60 + t.second)
                * 1_000_000L + t.micros;
        out.be(packed / POW10_INT[6 - fsp], MARIA_DATETIME_HIRES_BYTES[fsp]);
    }

    private static void encodeDateTime2(Sink out, Ymdhms t, int fsp) {
        long ymd = ((long) (t.year * 13 + t.month) << 5) | t.day;
        long hms = ((long) t.hour << 12) | (t.minute << 6) | t.second;
        out.be((ymd << 17 | hms) + 0x80_0000_0000L, 5);
        fraction2(out, t.micros, fsp);
    }

    private static void fraction2(Sink out, int micros, int fsp) {
        switch (fsp) {
            case 1:
            case 2:
                out.u8(micros / 10_000);
                return;
            case 3:
            case 4:
                out.be(micros / 100, 2);
                return;
            case 5:
            case 6:
                out.be(micros, 3);
                return;
            default:
        }
    }

    /** Seconds and micros of a TIMESTAMP value. */
    private static long[] timestamp(Object value, int fsp) {
        if (value instanceof Instant i) {
            if (i.getEpochSecond() < 0 || i.getEpochSecond() > 0xffff_ffffL || i.getNano() % 1000 != 0) {
                throw new IllegalArgumentException("TIMESTAMP cannot hold " + i);
            }
            int micros = i.getNano() / 1000;
            checkFraction(micros, fsp);
            return new long[] {i.getEpochSecond(), micros};
        }
        if (value instanceof MysqlDateTime m && m.isZero()) {
            return new long[] {0, 0};
        }
        throw wrongType(value, "Instant (or MysqlDateTime zero)");
    }

    // ------------------------------------------------------------------------------------------- enum, set, text

    private static void encodeEnum(Sink out, ColumnDef column, Object value, int packLength) {
        if (packLength != 1 && packLength != 2) {
            throw new IllegalArgumentException("bad ENUM pack length " + packLength);
        }
        long index;
        if (value instanceof String s) {
            List<String> names = column.enumValues();
            if (s.isEmpty()) {
                index = 0;
            } else if (names == null || names.indexOf(s) < 0) {
                throw new IllegalArgumentException("'" + s + "' is not a member of ENUM " + names);
            } else {
                index = names.indexOf(s) + 1;
            }
        } else {
            index = integer(value, 0, packLength == 1 ? 0xff : 0xffff);
        }
        out.le(index, packLength);
    }

    private static void encodeSet(Sink out, ColumnDef column, Object value, int packLength) {
        if (packLength < 1 || packLength > 8 || (packLength > 4 && packLength < 8)) {
            throw new IllegalArgumentException("bad SET pack length " + packLength);
        }
        long bits;
        if (value instanceof String s) {
            List<String> names = column.setValues();
            if (names == null) {
                throw new IllegalArgumentException("SET column " + column.index() + " has no member names");
            }
            bits = 0;
            if (!s.isEmpty()) {
                for (String member : s.split(",", -1)) {
                    int i = names.indexOf(member);
                    if (i < 0) {
                        throw new IllegalArgumentException("'" + member + "' is not a member of SET " + names);
                    }
                    bits |= 1L << i;
                }
            }
        } else {
            bits = value instanceof BigInteger b ? b.longValue() : integer(value, Long.MIN_VALUE, Long.MAX_VALUE);
        }
        if (packLength < 8 && bits >>> (8 * packLength) != 0) {
            throw new IllegalArgumentException("SET bitmap 0x" + Long.toHexString(bits) + " exceeds " + packLength
                    + " bytes");
        }
        out.le(bits, packLength);
    }

    private static byte[] text(Object value, int charsetId) {
        if (value instanceof byte[] b) {
            return b;
        }
        if (value instanceof String s) {
            if (MysqlCharsets.javaCharset(charsetId) == null) {
                return s.getBytes(StandardCharsets.UTF_8); // the log does not say; UTF-8 is the servers' default
            }
            return MysqlCharsets.encode(s, charsetId);
        }
        throw wrongType(value, "String or byte[]");
    }

    private static byte[] bytes(Object value) {
        if (value instanceof byte[] b) {
            return b;
        }
        throw wrongType(value, "byte[]");
    }

    private static String json(Object value) {
        if (value instanceof String s) {
            return s;
        }
        throw wrongType(value, "JSON text (String) or binary JSON (byte[])");
    }

    private static void lengthPrefixed(Sink out, ColumnDef column, byte[] b) {
        int prefix = ColumnValueDecoder.blobPrefixSize(column);
        if (prefix < 1 || prefix > 4) {
            throw new IllegalArgumentException("bad " + column.type() + " length-prefix size " + prefix);
        }
        if (prefix < 4 && b.length >>> (8 * prefix) != 0) {
            throw new IllegalArgumentException(column.type() + " value of " + b.length + " bytes does not fit a "
                    + prefix + "-byte length");
        }
        out.le(b.length, prefix).bytes(b);
    }
}
