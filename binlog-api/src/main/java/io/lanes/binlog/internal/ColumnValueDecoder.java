package io.lanes.binlog.internal;

import io.lanes.binlog.ColumnDef;
import io.lanes.binlog.ColumnType;
import io.lanes.binlog.json.JsonBinary;
import io.lanes.binlog.value.MysqlCharsets;
import io.lanes.binlog.value.MysqlDate;
import io.lanes.binlog.value.MysqlDateTime;
import io.lanes.binlog.value.MysqlTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;

/**
 * Decodes one column value of a row image into the lossless Java value documented in {@link io.lanes.binlog.value}
 * (see the type table there). The event decoder calls only {@link #decode} and {@link #skip}.
 *
 * <p>Metadata ({@link ColumnDef#meta()}) is read the way the server's own {@code table_def} reads TABLE_MAP metadata:
 * <ul>
 *   <li>NEWDECIMAL: {@code precision << 8 | scale} (first logged byte high);</li>
 *   <li>BIT: {@code bytes << 8 | bits} with {@code bits = length % 8} (first logged byte low);</li>
 *   <li>VARCHAR, VAR_STRING: the maximum length in bytes (two bytes little-endian);</li>
 *   <li>STRING, ENUM, SET: {@code real_type << 8 | length} (first logged byte high), where CHAR lengths above 255 keep
 *       their bits 8..9 inverted in bits 4..5 of the real type byte;</li>
 *   <li>BLOB family, JSON, GEOMETRY, VECTOR, MariaDB's BLOB_COMPRESSED: the size of the length prefix, 1..4;
 *       MariaDB's VARCHAR_COMPRESSED: as VARCHAR;</li>
 *   <li>FLOAT, DOUBLE: the value size (ignored); TIME2, DATETIME2, TIMESTAMP2: the fractional seconds precision 0..6;</li>
 *   <li>TIME, DATETIME, TIMESTAMP (the pre-5.6 formats): 0. MariaDB's old-format TIME(n)/DATETIME(n)/TIMESTAMP(n) with
 *       {@code n > 0} (written when {@code mysql56_temporal_format=OFF}) are logged with these type codes and <em>no</em>
 *       metadata, so their size cannot be known from the log; a caller that knows the column's precision from the
 *       schema may pass it as {@code meta} (1..6) and the value is then decoded in MariaDB's "hires" layout.</li>
 * </ul>
 *
 * <p>Every length is checked through {@link ByteReader} before anything is allocated; metadata no server writes, and
 * values no server stores (a DECIMAL digit group above 999999999, hour 25 in a DATETIME, month 13, an ENUM index past
 * its members), raise {@link io.lanes.binlog.BinlogFormatException} at the value's first byte.
 *
 * <p>Stateless and thread-safe.
 */
public final class ColumnValueDecoder {
    // The format's tables, shared with ColumnValueEncoder (package-private for it; never written to).
    static final int[] DIG2BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
    static final int[] POW10_INT = {1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
        1_000_000_000};
    private static final BigInteger BILLION = BigInteger.valueOf(1_000_000_000L);
    static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
    /** MariaDB hires sizes by precision 0..6. */
    static final int[] MARIA_TIME_HIRES_BYTES = {3, 4, 4, 5, 5, 5, 6};
    static final int[] MARIA_DATETIME_HIRES_BYTES = {5, 6, 6, 7, 7, 7, 8};
    static final int[] MARIA_SEC_PART_BYTES = {0, 1, 1, 2, 2, 3, 3};
    /** MariaDB's TIME zero point: (838:59:59 + 1 second) in seconds. */
    static final long MARIA_TIME_ZERO_SECONDS = 3_020_400L;

    private ColumnValueDecoder() {
    }

    /**
     * Reads the value of {@code column} at the reader's position (the value is known to be non-NULL: the caller checked the
     * row's null bitmap) and returns it as a lossless Java value.
     */
    public static Object decode(ByteReader in, ColumnDef column) {
        int start = in.position();
        int meta = column.meta();
        switch (typeOf(in, column)) {
            case TINY:
                return column.unsigned() ? in.u8() : in.i8();
            case SHORT:
                return column.unsigned() ? in.u16() : in.i16();
            case INT24:
                return column.unsigned() ? in.u24() : in.i24();
            case LONG:
                return column.unsigned() ? (Object) in.u32() : (Object) in.i32();
            case LONGLONG: {
                long v = in.i64();
                if (!column.unsigned()) {
                    return v;
                }
                return v >= 0 ? BigInteger.valueOf(v) : BigInteger.valueOf(v).add(TWO_64);
            }
            case FLOAT:
                return Float.intBitsToFloat(in.i32());
            case DOUBLE:
                return Double.longBitsToDouble(in.i64());
            case NEWDECIMAL:
                return decodeDecimal(in, meta >>> 8, meta & 0xff);
            case DECIMAL:
                throw oldDecimal(in);
            case YEAR: {
                int v = in.u8();
                return v == 0 ? 0 : 1900 + v;
            }
            case DATE:
            case NEWDATE:
                return decodeDate(in, start);
            case TIME:
                return meta == 0 ? decodeOldTime(in, start) : decodeMariaTimeHires(in, start, fsp(in, meta));
            case DATETIME:
                return meta == 0 ? decodeOldDateTime(in, start) : decodeMariaDateTimeHires(in, start, fsp(in, meta));
            case TIMESTAMP:
                return meta == 0 ? timestamp(in.u32(), 0, 0) : decodeMariaTimestampHires(in, fsp(in, meta));
            case TIME2:
                return decodeTime2(in, start, fsp(in, meta));
            case DATETIME2:
                return decodeDateTime2(in, start, fsp(in, meta));
            case TIMESTAMP2:
                return decodeTimestamp2(in, start, fsp(in, meta));
            case BIT:
                return in.uintBigEndian(bitBytes(in, meta));
            case ENUM:
                return decodeEnum(in, start, column, meta & 0xff);
            case SET:
                return decodeSet(in, start, column, meta & 0xff);
            case VARCHAR:
            case VAR_STRING: {
                int len = varcharLength(in, start, meta);
                return text(in, len, column.charsetId());
            }
            case STRING:
                return decodeString(in, start, column);
            case TINY_BLOB:
            case BLOB:
            case MEDIUM_BLOB:
            case LONG_BLOB: {
                int len = blobLength(in, start, column);
                return text(in, len, column.charsetId());
            }
            case JSON: {
                int len = blobLength(in, start, column);
                return JsonBinary.toJsonText(in.slice(len));
            }
            case VARCHAR_COMPRESSED:
                return decompressed(in, start, varcharLength(in, start, meta), column);
            case BLOB_COMPRESSED:
                return decompressed(in, start, blobLength(in, start, column), column);
            case GEOMETRY:
                return in.bytes(blobLength(in, start, column));
            case VECTOR:
                return decodeVector(in, start, blobLength(in, start, column));
            case NULL:
                return null;
            case TYPED_ARRAY:
            default:
                throw in.error("column type " + column.type() + " does not occur in row images");
        }
    }

    /**
     * Advances past the value of {@code column} without materialising it (the lazy path): the same number of bytes as
     * {@link #decode}, with the same length and metadata checks, but without allocating and without validating the
     * value's content (digits, dates, ENUM indexes).
     */
    public static void skip(ByteReader in, ColumnDef column) {
        int start = in.position();
        int meta = column.meta();
        switch (typeOf(in, column)) {
            case TINY:
            case YEAR:
                in.skip(1);
                return;
            case SHORT:
                in.skip(2);
                return;
            case INT24:
            case DATE:
            case NEWDATE:
                in.skip(3);
                return;
            case LONG:
            case FLOAT:
                in.skip(4);
                return;
            case LONGLONG:
            case DOUBLE:
                in.skip(8);
                return;
            case NEWDECIMAL:
                in.skip(decimalBinarySize(in, meta >>> 8, meta & 0xff));
                return;
            case DECIMAL:
                throw oldDecimal(in);
            case TIME:
                in.skip(meta == 0 ? 3 : MARIA_TIME_HIRES_BYTES[fsp(in, meta)]);
                return;
            case DATETIME:
                in.skip(meta == 0 ? 8 : MARIA_DATETIME_HIRES_BYTES[fsp(in, meta)]);
                return;
            case TIMESTAMP:
                in.skip(meta == 0 ? 4 : 4 + MARIA_SEC_PART_BYTES[fsp(in, meta)]);
                return;
            case TIME2:
                in.skip(3 + (fsp(in, meta) + 1) / 2);
                return;
            case DATETIME2:
                in.skip(5 + (fsp(in, meta) + 1) / 2);
                return;
            case TIMESTAMP2:
                in.skip(4 + (fsp(in, meta) + 1) / 2);
                return;
            case BIT:
                in.skip(bitBytes(in, meta));
                return;
            case ENUM:
                in.skip(enumPackLength(in, meta & 0xff));
                return;
            case SET:
                in.skip(setPackLength(in, meta & 0xff));
                return;
            case VARCHAR:
            case VAR_STRING:
                in.skip(varcharLength(in, start, meta));
                return;
            case STRING: {
                int realType = stringRealType(meta);
                if (realType == ColumnType.ENUM.code()) {
                    in.skip(enumPackLength(in, meta & 0xff));
                } else if (realType == ColumnType.SET.code()) {
                    in.skip(setPackLength(in, meta & 0xff));
                } else {
                    in.skip(charLength(in, start, stringMaxLength(meta)));
                }
                return;
            }
            case TINY_BLOB:
            case BLOB:
            case MEDIUM_BLOB:
            case LONG_BLOB:
            case JSON:
            case GEOMETRY:
            case VECTOR:
            case BLOB_COMPRESSED:
                in.skip(blobLength(in, start, column));
                return;
            case VARCHAR_COMPRESSED:
                in.skip(varcharLength(in, start, meta));
                return;
            case NULL:
                return;
            case TYPED_ARRAY:
            default:
                throw in.error("column type " + column.type() + " does not occur in row images");
        }
    }

    /** The column's type; a type code this project does not know (e.g. MariaDB's compressed columns) is refused. */
    private static ColumnType typeOf(ByteReader in, ColumnDef column) {
        ColumnType type = column.type();
        if (type == null) {
            throw in.error("column " + column.index() + " has a type code no decoder here knows");
        }
        return type;
    }

    // ---------------------------------------------------------------------------------------------------- numbers

    /** Size in bytes of MySQL's binary DECIMAL(precision, scale). */
    public static int decimalBinarySize(ByteReader in, int precision, int scale) {
        checkDecimalMeta(in, precision, scale);
        int intg = precision - scale;
        return intg / 9 * 4 + DIG2BYTES[intg % 9] + scale / 9 * 4 + DIG2BYTES[scale % 9];
    }

    private static void checkDecimalMeta(ByteReader in, int precision, int scale) {
        if (precision < 1 || precision > 65 || scale > 38 || scale > precision) {
            throw in.error("bad DECIMAL metadata: precision " + precision + ", scale " + scale);
        }
    }

    /**
     * Reads MySQL's binary DECIMAL: groups of nine digits in four big-endian bytes, a shorter leading group for the
     * integer part's remaining digits and a shorter trailing group for the fraction's, the sign in the inverted top bit of
     * the first byte, and every byte inverted for negative values. Returns the exact value with scale {@code scale}.
     */
    public static BigDecimal decodeDecimal(ByteReader in, int precision, int scale) {
        int size = decimalBinarySize(in, precision, scale);
        in.checkAvailable(size);
        int start = in.position();
        byte[] buf = in.array();
        boolean negative = (buf[start] & 0x80) == 0;
        int mask = negative ? 0xff : 0;
        int intg = precision - scale;
        int leading = intg % 9;
        int full = intg / 9 + scale / 9;
        int trailing = scale % 9;
        int groups = (leading > 0 ? 1 : 0) + full + (trailing > 0 ? 1 : 0);
        int p = start;
        long small = 0;
        BigInteger big = null;
        boolean useLong = precision <= 18;
        for (int g = 0; g < groups; g++) {
            // storage order: the integer part's leading partial group, full nine-digit groups, the fraction's tail
            int digits = g == 0 && leading > 0 ? leading : g == groups - 1 && trailing > 0 ? trailing : 9;
            int nbytes = DIG2BYTES[digits];
            long group = 0;
            for (int i = 0; i < nbytes; i++) {
                int b = (buf[p + i] ^ mask) & 0xff;
                if (p + i == start) {
                    b ^= 0x80;
                }
                group = group << 8 | b;
            }
            if (group >= POW10_INT[digits]) {
                throw new io.lanes.binlog.BinlogFormatException(in.source(), in.absoluteOffset(start),
                        "DECIMAL(" + precision + "," + scale + ") digit group " + group + " has more than " + digits
                                + " digits");
            }
            if (useLong) {
                small = small * POW10_INT[digits] + group;
            } else {
                BigInteger factor = digits == 9 ? BILLION : BigInteger.valueOf(POW10_INT[digits]);
                big = (big == null ? BigInteger.ZERO : big).multiply(factor).add(BigInteger.valueOf(group));
            }
            p += nbytes;
        }
        in.position(start + size);
        BigInteger unscaled = useLong ? BigInteger.valueOf(small) : (big == null ? BigInteger.ZERO : big);
        if (negative) {
            unscaled = unscaled.negate();
        }
        return new BigDecimal(unscaled, scale);
    }

    private static RuntimeException oldDecimal(ByteReader in) {
        return in.error("old DECIMAL (MySQL 4.1 and earlier) cannot be decoded: its length is not in the log");
    }

    // -------------------------------------------------------------------------------------------------- temporals

    private static int fsp(ByteReader in, int meta) {
        if (meta < 0 || meta > 6) {
            throw in.error("fractional seconds precision " + meta + " outside 0..6");
        }
        return meta;
    }

    private static Object decodeDate(ByteReader in, int start) {
        int v = in.u24();
        int day = v & 31;
        int month = v >>> 5 & 15;
        int year = v >>> 9;
        if (month > 12 || year > 9999) {
            throw valueError(in, start, "impossible DATE " + year + "-" + month + "-" + day);
        }
        return date(year, month, day);
    }

    static Object date(int year, int month, int day) {
        if (month == 0 || day == 0 || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return new MysqlDate(year, month, day);
        }
        return LocalDate.of(year, month, day);
    }

    private static Object dateTime(ByteReader in, int start, int year, int month, int day, int hour, int minute,
            int second, int micros, int fsp) {
        if (year > 9999 || month > 12 || day > 31 || hour > 23 || minute > 59 || second > 59 || micros > 999_999
                || year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || micros < 0) {
            throw valueError(in, start, "impossible DATETIME " + year + "-" + month + "-" + day + " " + hour + ":"
                    + minute + ":" + second + "." + micros);
        }
        if (month == 0 || day == 0 || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return new MysqlDateTime(year, month, day, hour, minute, second, micros, fsp);
        }
        return LocalDateTime.of(year, month, day, hour, minute, second, micros * 1000);
    }

    private static Object time(ByteReader in, int start, boolean negative, long hours, int minute, int second,
            int micros, int fsp) {
        if (hours > 1023 || minute > 59 || second > 59 || micros > 999_999) {
            throw valueError(in, start, "impossible TIME " + (negative ? "-" : "") + hours + ":" + minute + ":" + second
                    + "." + micros);
        }
        if (!negative && hours < 24) {
            return LocalTime.of((int) hours, minute, second, micros * 1000);
        }
        return new MysqlTime(negative, (int) hours, minute, second, micros, fsp);
    }

    private static Object timestamp(long seconds, int micros, int fsp) {
        if (seconds == 0 && micros == 0) {
            return MysqlDateTime.zero(fsp);
        }
        return Instant.ofEpochSecond(seconds, micros * 1000L);
    }

    /** Reads the big-endian fraction of a temporal2 value (fsp 1..6 use 1..3 bytes) as microseconds. */
    private static int fraction2(ByteReader in, int fsp) {
        switch (fsp) {
            case 1:
            case 2:
                return in.u8() * 10_000;
            case 3:
            case 4:
                return (int) in.uintBigEndian(2) * 100;
            case 5:
            case 6:
                return (int) in.uintBigEndian(3);
            default:
                return 0;
        }
    }

    private static Object decodeTime2(ByteReader in, int start, int fsp) {
        long packed;
        if (fsp >= 5) {
            packed = in.uintBigEndian(6) - 0x8000_0000_0000L;
        } else {
            long intPart = in.uintBigEndian(3) - 0x80_0000L;
            long frac = 0;
            if (fsp >= 1) {
                boolean twoBytes = fsp >= 3;
                long f = in.uintBigEndian(twoBytes ? 2 : 1);
                if (intPart < 0 && f != 0) {
                    // negative values keep the fraction as a complement so that the bytes sort; borrow one second
                    intPart++;
                    f -= twoBytes ? 0x1_0000 : 0x100;
                }
                frac = f * (twoBytes ? 100 : 10_000);
            }
            packed = (intPart << 24) + frac;
        }
        boolean negative = packed < 0;
        long abs = Math.abs(packed);
        long hms = abs >>> 24;
        int micros = (int) (abs & 0xff_ffff);
        long hours = hms >>> 12 & 0x3ff;
        int minute = (int) (hms >>> 6 & 0x3f);
        int second = (int) (hms & 0x3f);
        return time(in, start, negative, hours, minute, second, micros, fsp);
    }

    private static Object decodeDateTime2(ByteReader in, int start, int fsp) {
        long intPart = in.uintBigEndian(5) - 0x80_0000_0000L;
        int micros = fraction2(in, fsp);
        if (intPart < 0) {
            throw valueError(in, start, "negative DATETIME2 value");
        }
        long ymd = intPart >>> 17;
        long ym = ymd >>> 5;
        int hms = (int) (intPart & 0x1ffff);
        return dateTime(in, start, (int) (ym / 13), (int) (ym % 13), (int) (ymd & 31), hms >>> 12, hms >>> 6 & 63,
                hms & 63, micros, fsp);
    }

    private static Object decodeTimestamp2(ByteReader in, int start, int fsp) {
        long seconds = in.uintBigEndian(4);
        int micros = fraction2(in, fsp);
        if (micros > 999_999) {
            throw valueError(in, start, "TIMESTAMP fraction " + micros + " exceeds 999999 microseconds");
        }
        return timestamp(seconds, micros, fsp);
    }

    private static Object decodeOldTime(ByteReader in, int start) {
        int v = in.i24();
        boolean negative = v < 0;
        int abs = Math.abs(v);
        return time(in, start, negative, abs / 10_000, abs / 100 % 100, abs % 100, 0, 0);
    }

    private static Object decodeOldDateTime(ByteReader in, int start) {
        long v = in.i64();
        if (v < 0 || v > 99_991_231_235_959L) {
            throw valueError(in, start, "impossible DATETIME " + Long.toUnsignedString(v));
        }
        long date = v / 1_000_000;
        int t = (int) (v % 1_000_000);
        return dateTime(in, start, (int) (date / 10_000), (int) (date / 100 % 100), (int) (date % 100), t / 10_000,
                t / 100 % 100, t % 100, 0, 0);
    }

    private static Object decodeMariaTimeHires(ByteReader in, int start, int fsp) {
        long stored = in.uintBigEndian(MARIA_TIME_HIRES_BYTES[fsp]);
        long zero = MARIA_TIME_ZERO_SECONDS * POW10_INT[fsp];
        long packed = (stored - zero) * POW10_INT[6 - fsp];
        boolean negative = packed < 0;
        long abs = Math.abs(packed);
        int micros = (int) (abs % 1_000_000);
        long secs = abs / 1_000_000;
        return time(in, start, negative, secs / 3600, (int) (secs / 60 % 60), (int) (secs % 60), micros, fsp);
    }

    private static Object decodeMariaDateTimeHires(ByteReader in, int start, int fsp) {
        long packed = in.uintBigEndian(MARIA_DATETIME_HIRES_BYTES[fsp]) * POW10_INT[6 - fsp];
        if (packed < 0) {
            throw valueError(in, start, "impossible DATETIME(" + fsp + ") value");
        }
        int micros = (int) (packed % 1_000_000);
        packed /= 1_000_000;
        int second = (int) (packed % 60);
        packed /= 60;
        int minute = (int) (packed % 60);
        packed /= 60;
        int hour = (int) (packed % 24);
        packed /= 24;
        int day = (int) (packed % 32);
        packed /= 32;
        int month = (int) (packed % 13);
        long year = packed / 13;
        if (year > 9999) {
            throw valueError(in, start, "impossible DATETIME(" + fsp + ") year " + year);
        }
        return dateTime(in, start, (int) year, month, day, hour, minute, second, micros, fsp);
    }

    private static Object decodeMariaTimestampHires(ByteReader in, int fsp) {
        long seconds = in.uintBigEndian(4);
        long frac = in.uintBigEndian(MARIA_SEC_PART_BYTES[fsp]);
        long micros = frac * POW10_INT[6 - fsp];
        if (micros > 999_999) {
            throw in.error("TIMESTAMP(" + fsp + ") fraction " + micros + " exceeds 999999 microseconds");
        }
        return timestamp(seconds, (int) micros, fsp);
    }

    // ------------------------------------------------------------------------------------------- bit, enum, set

    private static int bitBytes(ByteReader in, int meta) {
        int bits = meta & 0xff;
        int bytes = meta >>> 8;
        int nbits = bytes * 8 + bits;
        if (bits > 7 || nbits < 1 || nbits > 64) {
            throw in.error("bad BIT metadata 0x" + Integer.toHexString(meta));
        }
        return (nbits + 7) / 8;
    }

    private static int enumPackLength(ByteReader in, int len) {
        if (len != 1 && len != 2) {
            throw in.error("bad ENUM pack length " + len);
        }
        return len;
    }

    private static int setPackLength(ByteReader in, int len) {
        if (len < 1 || len > 8 || len == 5 || len == 6 || len == 7) {
            throw in.error("bad SET pack length " + len);
        }
        return len;
    }

    private static Object decodeEnum(ByteReader in, int start, ColumnDef column, int packLength) {
        int index = (int) in.uint(enumPackLength(in, packLength));
        List<String> names = column.enumValues();
        if (names == null) {
            return index;
        }
        if (index == 0) {
            return ""; // the server's "invalid value" member
        }
        if (index > names.size()) {
            throw valueError(in, start, "ENUM index " + index + " past the column's " + names.size() + " members");
        }
        return names.get(index - 1);
    }

    private static Object decodeSet(ByteReader in, int start, ColumnDef column, int packLength) {
        long bits = in.uint(setPackLength(in, packLength));
        List<String> names = column.setValues();
        if (names == null) {
            return bits;
        }
        if (names.size() < 64 && bits >>> names.size() != 0) {
            throw valueError(in, start, "SET bitmap 0x" + Long.toHexString(bits) + " has bits past the column's "
                    + names.size() + " members");
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if ((bits >>> i & 1) != 0) {
                if (sb.length() > 0) {
                    sb.append(',');
                }
                sb.append(names.get(i));
            }
        }
        return sb.toString();
    }

    // -------------------------------------------------------------------------------------------- strings, blobs

    /** The real type of a STRING column from its metadata (CHAR, BINARY, ENUM or SET). */
    public static int stringRealType(int meta) {
        if (meta < 256) {
            return ColumnType.STRING.code();
        }
        int byte0 = meta >>> 8;
        return (byte0 & 0x30) != 0x30 ? byte0 | 0x30 : byte0;
    }

    /** The maximum length in bytes of a STRING column (or the pack length of an ENUM/SET logged as STRING). */
    public static int stringMaxLength(int meta) {
        if (meta < 256) {
            return meta;
        }
        int byte0 = meta >>> 8;
        int byte1 = meta & 0xff;
        return (byte0 & 0x30) != 0x30 ? byte1 | ((byte0 & 0x30) ^ 0x30) << 4 : byte1;
    }

    private static Object decodeString(ByteReader in, int start, ColumnDef column) {
        int meta = column.meta();
        int realType = stringRealType(meta);
        if (realType == ColumnType.ENUM.code()) {
            return decodeEnum(in, start, column, meta & 0xff);
        }
        if (realType == ColumnType.SET.code()) {
            return decodeSet(in, start, column, meta & 0xff);
        }
        int len = charLength(in, start, stringMaxLength(meta));
        return text(in, len, column.charsetId());
    }

    /** Reads a CHAR/BINARY length prefix (one byte, or two when the column can exceed 255 bytes). */
    private static int charLength(ByteReader in, int start, int maxLength) {
        int len = maxLength > 255 ? in.u16() : in.u8();
        if (len > maxLength && maxLength > 0) {
            throw valueError(in, start, "CHAR value of " + len + " bytes in a column of at most " + maxLength);
        }
        in.checkAvailable(len);
        return len;
    }

    private static int varcharLength(ByteReader in, int start, int maxLength) {
        if (maxLength < 0 || maxLength > 65535) {
            throw in.error("bad VARCHAR metadata " + maxLength);
        }
        int len = maxLength > 255 ? in.u16() : in.u8();
        if (len > maxLength) {
            throw valueError(in, start, "VARCHAR value of " + len + " bytes in a column of at most " + maxLength);
        }
        in.checkAvailable(len);
        return len;
    }

    private static int blobLength(ByteReader in, int start, ColumnDef column) {
        int prefix = blobPrefixSize(column);
        if (prefix < 1 || prefix > 4) {
            throw in.error("bad " + column.type() + " length-prefix size " + prefix);
        }
        long len = in.uint(prefix);
        if (len > in.remaining()) {
            in.position(start);
            throw in.error(column.type() + " value of " + len + " bytes but only " + (in.remaining() - prefix)
                    + " remain");
        }
        return (int) len;
    }

    /**
     * The size of a BLOB-family value's length prefix: the column's metadata, or, where a log leaves it 0, the one its
     * type implies (TINY 1, MEDIUM 3, LONG 4). The caller checks the result is 1 to 4; the encoder writes the same.
     */
    static int blobPrefixSize(ColumnDef column) {
        int prefix = column.meta();
        if (prefix != 0) {
            return prefix;
        }
        return switch (column.type()) {
            case TINY_BLOB -> 1;
            case MEDIUM_BLOB -> 3;
            case LONG_BLOB -> 4;
            default -> 0;
        };
    }

    private static Object text(ByteReader in, int len, int charsetId) {
        in.checkAvailable(len);
        int p = in.position();
        Object v = MysqlCharsets.decode(in.array(), p, len, charsetId);
        in.position(p + len);
        return v;
    }

    /** zlib cannot expand data by much more than 1032:1; a larger declared size is corrupt. */
    private static final long MAX_INFLATE_RATIO = 1100;

    /**
     * A MariaDB compressed column value of {@code len} bytes: empty, or a header byte then the data. Header 0: the data
     * is stored as is. Header {@code 0x80 | raw << 3 | n}: the original length in {@code n} (1..4) big-endian bytes, then
     * a zlib stream ({@code raw} = 1: a raw deflate stream without zlib's wrapper). Decoded in the column's charset.
     */
    private static Object decompressed(ByteReader in, int start, int len, ColumnDef column) {
        in.checkAvailable(len);
        if (len == 0) {
            return MysqlCharsets.decode(in.array(), in.position(), 0, column.charsetId());
        }
        int p = in.position();
        byte[] buf = in.array();
        int header = buf[p] & 0xff;
        if (header == 0) {
            Object v = MysqlCharsets.decode(buf, p + 1, len - 1, column.charsetId());
            in.position(p + len);
            return v;
        }
        int lengthBytes = header & 7;
        if ((header & 0xf0) != 0x80 || lengthBytes < 1 || lengthBytes > 4 || lengthBytes >= len) {
            throw valueError(in, start, "bad compressed column header 0x" + Integer.toHexString(header));
        }
        long declared = 0;
        for (int i = 1; i <= lengthBytes; i++) {
            declared = declared << 8 | (buf[p + i] & 0xff);
        }
        int dataAt = p + 1 + lengthBytes;
        int dataLength = len - 1 - lengthBytes;
        if (declared > Integer.MAX_VALUE - 16 || declared > (dataLength + 64L) * MAX_INFLATE_RATIO) {
            throw valueError(in, start, "compressed column declares " + declared + " bytes from " + dataLength);
        }
        byte[] out = new byte[(int) declared];
        java.util.zip.Inflater inflater = new java.util.zip.Inflater((header & 8) != 0);
        try {
            inflater.setInput(buf, dataAt, dataLength);
            int n = 0;
            while (n < out.length) {
                int k = inflater.inflate(out, n, out.length - n);
                if (k == 0 && (inflater.finished() || inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                n += k;
            }
            if (n != out.length) {
                throw valueError(in, start, "compressed column inflates to " + n + " bytes, header says " + declared);
            }
        } catch (java.util.zip.DataFormatException e) {
            throw new io.lanes.binlog.BinlogFormatException(in.source(), in.absoluteOffset(start),
                    "corrupt compressed column: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
        in.position(p + len);
        return MysqlCharsets.decode(out, 0, out.length, column.charsetId());
    }

    private static float[] decodeVector(ByteReader in, int start, int len) {
        if (len % 4 != 0) {
            throw valueError(in, start, "VECTOR value of " + len + " bytes is not a whole number of floats");
        }
        float[] v = new float[len / 4];
        for (int i = 0; i < v.length; i++) {
            v[i] = Float.intBitsToFloat(in.i32());
        }
        return v;
    }

    private static io.lanes.binlog.BinlogFormatException valueError(ByteReader in, int start, String reason) {
        return new io.lanes.binlog.BinlogFormatException(in.source(), in.absoluteOffset(start), reason);
    }
}
