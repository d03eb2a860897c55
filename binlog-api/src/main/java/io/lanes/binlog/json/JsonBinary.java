package io.lanes.binlog.json;

import io.lanes.binlog.BinlogFormatException;
import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.internal.ColumnValueDecoder;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * MySQL's binary JSON (the storage and binlog format of JSON columns, MySQL 5.7+) to JSON text, exactly as the server
 * prints it ({@code SELECT json_col}, {@code JSON_EXTRACT} results, mysqlbinlog): object members in stored order (the
 * server sorts keys by length, then bytewise), {@code ", "} between elements and {@code ": "} after keys, strings escaped
 * as the server does ({@code \" \\ \b \f \n \r \t}, other controls as &#92;u00xx (lowercase hex), everything else literally),
 * doubles in the server's shortest round-trip form with {@code .0} added to integral values, DECIMAL/DATE/TIME/DATETIME/
 * TIMESTAMP opaque values printed as the server prints them, and any other opaque value as
 * {@code "base64:typeNN:<base64>"} (the server's base64, with a newline after every 76 characters).
 *
 * <p>Every offset and length in the document is checked against the enclosing container before it is followed;
 * nesting deeper than {@value #MAX_DEPTH} levels (the server's limit) is refused. Bad input raises
 * {@link BinlogFormatException} naming the source and the absolute offset of the bad byte.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonBinary {
    /** The server's JSON_DOCUMENT_MAX_DEPTH. */
    public static final int MAX_DEPTH = 100;

    static final int SMALL_OBJECT = 0x00;
    static final int LARGE_OBJECT = 0x01;
    static final int SMALL_ARRAY = 0x02;
    static final int LARGE_ARRAY = 0x03;
    static final int LITERAL = 0x04;
    static final int INT16 = 0x05;
    static final int UINT16 = 0x06;
    static final int INT32 = 0x07;
    static final int UINT32 = 0x08;
    static final int INT64 = 0x09;
    static final int UINT64 = 0x0a;
    static final int DOUBLE = 0x0b;
    static final int STRING = 0x0c;
    static final int OPAQUE = 0x0f;

    private static final int MYSQL_TYPE_TIMESTAMP = 7;
    private static final int MYSQL_TYPE_DATE = 10;
    private static final int MYSQL_TYPE_TIME = 11;
    private static final int MYSQL_TYPE_DATETIME = 12;
    private static final int MYSQL_TYPE_VAR_STRING = 253;
    private static final int MYSQL_TYPE_NEWDECIMAL = 246;

    /** my_gcvt's field width for doubles: DBL_DIG + 4 + max(5, MAX_DECPT_FOR_F_FORMAT). */
    private static final int GCVT_WIDTH = 15 + 4 + 15;
    /** MAX_DECPT_FOR_F_FORMAT = DBL_DIG. */
    private static final int MAX_DECPT_FOR_F_FORMAT = 15;
    private static final char[] BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".toCharArray();
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonBinary() {
    }

    /**
     * JSON text to MySQL's binary JSON, as the server stores it when it parses that text (the inverse of
     * {@link #toJsonText(byte[])} up to number formatting): integers in the smallest of int16/int32/int64, or uint64
     * above the int64 range, other numbers as double; object members in the server's key order, the last of duplicate
     * keys winning.
     *
     * @throws IllegalArgumentException when the text is not JSON, nests deeper than {@link #MAX_DEPTH}, or holds a
     *     number out of the double range
     */
    public static byte[] fromJsonText(String text) {
        return JsonBinaryEncoder.toBinary(JsonTree.parse(text, true));
    }

    /** The JSON text of a whole binary JSON document. An empty document is the JSON null literal, as in the server. */
    public static String toJsonText(byte[] binary) {
        return toJsonText(new ByteReader(binary, "<json>", 0));
    }

    /**
     * The JSON text of the binary JSON document that fills the reader's remaining bytes; the reader ends past them.
     */
    public static String toJsonText(ByteReader in) {
        int start = in.position();
        int end = in.limit();
        StringBuilder out = new StringBuilder(Math.max(16, (end - start) * 2));
        if (end > start) {
            Parser p = new Parser(in, out);
            int type = in.array()[start] & 0xff;
            p.value(type, start + 1, end, 0, false);
        } else {
            out.append("null");
        }
        in.position(end);
        return out.toString();
    }

    private static final class Parser {
        private final ByteReader in;
        private final byte[] buf;
        private final StringBuilder out;

        Parser(ByteReader in, StringBuilder out) {
            this.in = in;
            this.buf = in.array();
            this.out = out;
        }

        private BinlogFormatException error(int at, String reason) {
            return new BinlogFormatException(in.source(), in.absoluteOffset(at), "bad binary JSON: " + reason);
        }

        private void need(int at, int end, long n) {
            if (n < 0 || at + n > end) {
                throw error(at, "needs " + n + " bytes but only " + (end - at) + " remain in the enclosing value");
            }
        }

        private long uint(int at, int n) {
            long v = 0;
            for (int i = 0; i < n; i++) {
                v |= (buf[at + i] & 0xffL) << (8 * i);
            }
            return v;
        }

        /**
         * Prints the value of {@code type} whose data starts at {@code at}, within {@code [at, end)}; when {@code inlined},
         * the data is the value-entry's offset field itself.
         */
        void value(int type, int at, int end, int depth, boolean inlined) {
            switch (type) {
                case SMALL_OBJECT:
                case LARGE_OBJECT:
                    container(at, end, type == LARGE_OBJECT, true, depth + 1);
                    return;
                case SMALL_ARRAY:
                case LARGE_ARRAY:
                    container(at, end, type == LARGE_ARRAY, false, depth + 1);
                    return;
                case LITERAL: {
                    need(at, end, 1);
                    int lit = buf[at] & 0xff;
                    switch (lit) {
                        case 0: out.append("null"); return;
                        case 1: out.append("true"); return;
                        case 2: out.append("false"); return;
                        default: throw error(at, "unknown literal " + lit);
                    }
                }
                case INT16:
                    need(at, end, 2);
                    out.append((short) uint(at, 2));
                    return;
                case UINT16:
                    need(at, end, 2);
                    out.append(uint(at, 2));
                    return;
                case INT32:
                    need(at, end, 4);
                    out.append((int) uint(at, 4));
                    return;
                case UINT32:
                    need(at, end, 4);
                    out.append(uint(at, 4));
                    return;
                case INT64:
                    need(at, end, 8);
                    out.append(uint(at, 8));
                    return;
                case UINT64:
                    need(at, end, 8);
                    out.append(Long.toUnsignedString(uint(at, 8)));
                    return;
                case DOUBLE:
                    need(at, end, 8);
                    out.append(formatDouble(Double.longBitsToDouble(uint(at, 8))));
                    return;
                case STRING: {
                    int[] lenAndSize = varLength(at, end);
                    int dataAt = at + lenAndSize[1];
                    need(dataAt, end, lenAndSize[0]);
                    quote(out, new String(buf, dataAt, lenAndSize[0], StandardCharsets.UTF_8));
                    return;
                }
                case OPAQUE: {
                    need(at, end, 1);
                    int fieldType = buf[at] & 0xff;
                    int[] lenAndSize = varLength(at + 1, end);
                    int dataAt = at + 1 + lenAndSize[1];
                    need(dataAt, end, lenAndSize[0]);
                    opaque(fieldType, dataAt, lenAndSize[0]);
                    return;
                }
                default:
                    throw error(at - (inlined ? 0 : 1), "unknown value type 0x" + Integer.toHexString(type));
            }
        }

        /** A variable-length size: 7 bits per byte, low first, high bit set on all but the last; at most 5 bytes. */
        private int[] varLength(int at, int end) {
            long len = 0;
            for (int i = 0; i < 5; i++) {
                need(at + i, end, 1);
                int b = buf[at + i] & 0xff;
                len |= (long) (b & 0x7f) << (7 * i);
                if ((b & 0x80) == 0) {
                    if (len > Integer.MAX_VALUE) {
                        throw error(at, "length " + len + " too large");
                    }
                    return new int[] {(int) len, i + 1};
                }
            }
            throw error(at, "variable-length size longer than 5 bytes");
        }

        private void container(int at, int end, boolean large, boolean object, int depth) {
            if (depth > MAX_DEPTH) {
                throw error(at, "nesting deeper than " + MAX_DEPTH + " levels");
            }
            int os = large ? 4 : 2;
            need(at, end, 2L * os);
            long count = uint(at, os);
            long size = uint(at + os, os);
            if (size > end - at) {
                throw error(at, "container of " + size + " bytes exceeds the " + (end - at) + " bytes that hold it");
            }
            int cend = at + (int) size;
            long keyEntries = at + 2L * os;
            long valueEntries = keyEntries + (object ? count * (os + 2) : 0);
            long headerEnd = valueEntries + count * (1 + os);
            if (headerEnd > cend) {
                throw error(at, count + " elements do not fit a container of " + size + " bytes");
            }
            out.append(object ? '{' : '[');
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    out.append(", ");
                }
                if (object) {
                    int ke = (int) keyEntries + i * (os + 2);
                    long keyOffset = uint(ke, os);
                    int keyLength = (int) uint(ke + os, 2);
                    if (keyOffset < headerEnd - at || keyOffset + keyLength > size) {
                        throw error(ke, "key " + i + " at offset " + keyOffset + " outside its object");
                    }
                    int keyAt = at + (int) keyOffset;
                    quote(out, new String(buf, keyAt, keyLength, StandardCharsets.UTF_8));
                    out.append(": ");
                }
                int ve = (int) valueEntries + i * (1 + os);
                int type = buf[ve] & 0xff;
                if (isInlined(type, large)) {
                    value(type, ve + 1, ve + 1 + os, depth, true);
                } else {
                    long offset = uint(ve + 1, os);
                    if (offset < headerEnd - at || offset >= size) {
                        throw error(ve, "value " + i + " at offset " + offset + " outside its container");
                    }
                    value(type, at + (int) offset, cend, depth, false);
                }
            }
            out.append(object ? '}' : ']');
        }

        private void opaque(int fieldType, int at, int len) {
            switch (fieldType) {
                case MYSQL_TYPE_NEWDECIMAL: {
                    if (len < 2) {
                        throw error(at, "opaque DECIMAL of " + len + " bytes");
                    }
                    int precision = buf[at] & 0xff;
                    int scale = buf[at + 1] & 0xff;
                    ByteReader r = in.view(at + 2, at + len);
                    BigDecimal d = ColumnValueDecoder.decodeDecimal(r, precision, scale);
                    if (r.hasRemaining()) {
                        throw error(at, "opaque DECIMAL(" + precision + "," + scale + ") has " + r.remaining()
                                + " extra bytes");
                    }
                    out.append(d.toPlainString());
                    return;
                }
                case MYSQL_TYPE_DATE:
                case MYSQL_TYPE_TIME:
                case MYSQL_TYPE_DATETIME:
                case MYSQL_TYPE_TIMESTAMP: {
                    if (len != 8) {
                        throw error(at, "opaque temporal of " + len + " bytes, expected 8");
                    }
                    out.append('"');
                    appendPackedTemporal(out, fieldType, uint(at, 8));
                    out.append('"');
                    return;
                }
                case MYSQL_TYPE_VAR_STRING:
                    quote(out, new String(buf, at, len, StandardCharsets.UTF_8));
                    return;
                default: {
                    StringBuilder b = new StringBuilder(16 + len * 4 / 3);
                    b.append("base64:type").append(fieldType).append(':');
                    base64(b, buf, at, len);
                    quote(out, b.toString());
                }
            }
        }
    }

    static boolean isInlined(int type, boolean large) {
        switch (type) {
            case LITERAL:
            case INT16:
            case UINT16:
                return true;
            case INT32:
            case UINT32:
                return large;
            default:
                return false;
        }
    }

    /**
     * Prints a temporal value in the server's packed 64-bit form (as JSON stores DATE/TIME/DATETIME/TIMESTAMP) the way
     * the server prints it inside JSON: dates as {@code YYYY-MM-DD}, times as {@code [-]hh:mm:ss.ffffff}, datetimes and
     * timestamps as {@code YYYY-MM-DD hh:mm:ss.ffffff} (always six fraction digits).
     */
    static void appendPackedTemporal(StringBuilder out, int fieldType, long packed) {
        boolean negative = packed < 0;
        long abs = Math.abs(packed);
        long intPart = abs >>> 24;
        int micros = (int) (abs & 0xff_ffff);
        if (fieldType == MYSQL_TYPE_TIME) {
            long hms = intPart;
            if (negative) {
                out.append('-');
            }
            pad(out, (int) (hms >>> 12 & 0x3ff), 2);
            out.append(':');
            pad(out, (int) (hms >>> 6 & 0x3f), 2);
            out.append(':');
            pad(out, (int) (hms & 0x3f), 2);
            out.append('.');
            pad(out, micros, 6);
            return;
        }
        long ymd = intPart >>> 17;
        long ym = ymd >>> 5;
        int hms = (int) (intPart & 0x1ffff);
        if (negative) {
            out.append('-');
        }
        pad(out, (int) (ym / 13), 4);
        out.append('-');
        pad(out, (int) (ym % 13), 2);
        out.append('-');
        pad(out, (int) (ymd & 31), 2);
        if (fieldType == MYSQL_TYPE_DATE) {
            return;
        }
        out.append(' ');
        pad(out, hms >>> 12, 2);
        out.append(':');
        pad(out, hms >>> 6 & 63, 2);
        out.append(':');
        pad(out, hms & 63, 2);
        out.append('.');
        pad(out, micros, 6);
    }

    private static void pad(StringBuilder out, int v, int width) {
        String s = Integer.toString(v);
        for (int i = s.length(); i < width; i++) {
            out.append('0');
        }
        out.append(s);
    }

    /** The server's base64: standard alphabet with padding, a newline before every group once a line holds 76 chars. */
    static void base64(StringBuilder out, byte[] b, int off, int len) {
        int lineLength = 0;
        for (int i = 0; i < len; i += 3) {
            if (lineLength == 76) {
                out.append('\n');
                lineLength = 0;
            }
            int n = Math.min(3, len - i);
            int v = (b[off + i] & 0xff) << 16 | (n > 1 ? (b[off + i + 1] & 0xff) << 8 : 0)
                    | (n > 2 ? b[off + i + 2] & 0xff : 0);
            out.append(BASE64[v >>> 18 & 63]).append(BASE64[v >>> 12 & 63]);
            out.append(n > 1 ? BASE64[v >>> 6 & 63] : '=');
            out.append(n > 2 ? BASE64[v & 63] : '=');
            lineLength += 4;
        }
    }

    /** Appends {@code s} double-quoted and escaped as the server's JSON printer does. */
    public static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c <= 0x1f) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 15]);
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    /**
     * A double as the server prints it inside JSON: {@code my_gcvt} with the double field width (the shortest digits that
     * read back as the same double, in plain notation for decimal exponents -14..15, otherwise {@code 1.5e-20} style)
     * and {@code .0} appended when that has neither a point nor an exponent ({@code 1.0}, {@code 15000000000.0}).
     */
    public static String formatDouble(double d) {
        String s = gcvt(d);
        if (s.indexOf('.') < 0 && s.indexOf('e') < 0) {
            return s + ".0";
        }
        return s;
    }

    /** The server's {@code my_gcvt(d, MY_GCVT_ARG_DOUBLE, MY_GCVT_MAX_FIELD_WIDTH)} for a finite double. */
    static String gcvt(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("not a finite double: " + d);
        }
        boolean negative = d < 0 || (d == 0 && 1 / d < 0);
        int width = d < 0 ? GCVT_WIDTH - 1 : GCVT_WIDTH;
        String digits;
        int decpt;
        if (d == 0) {
            digits = "0";
            decpt = 1;
        } else {
            BigDecimal shortest = shortest(Math.abs(d));
            digits = shortest.unscaledValue().toString();
            // strip trailing zeros of the digit string: value = 0.digits * 10^decpt
            int len0 = digits.length();
            decpt = len0 - shortest.scale();
            int strip = len0;
            while (strip > 1 && digits.charAt(strip - 1) == '0') {
                strip--;
            }
            digits = digits.substring(0, strip);
        }
        int len = digits.length();
        boolean haveSpace = (decpt <= 0 ? len - decpt + 2 : decpt < len ? len + 1 : decpt) <= width;
        StringBuilder sb = new StringBuilder(24);
        if (negative) {
            sb.append('-');
        }
        if (haveSpace && decpt >= -MAX_DECPT_FOR_F_FORMAT + 1 && (decpt <= MAX_DECPT_FOR_F_FORMAT || len > decpt)) {
            if (decpt <= 0) {
                sb.append("0.");
                for (int i = decpt; i < 0; i++) {
                    sb.append('0');
                }
                sb.append(digits);
            } else if (decpt < len) {
                sb.append(digits, 0, decpt).append('.').append(digits, decpt, len);
            } else {
                sb.append(digits);
                for (int i = len; i < decpt; i++) {
                    sb.append('0');
                }
            }
        } else {
            sb.append(digits.charAt(0));
            if (len > 1) {
                sb.append('.').append(digits, 1, len);
            }
            sb.append('e').append(decpt - 1);
        }
        return sb.toString();
    }

    /**
     * The shortest decimal that reads back as {@code d} (positive, finite), and among those of that length the closest
     * to {@code d}: what David Gay's dtoa returns in mode 0, and in mode 4 when the requested digits exceed 17.
     */
    static BigDecimal shortest(double d) {
        BigDecimal exact = new BigDecimal(d);
        // Double.toString reads back as d, so the shortest length is at most its digit count; and a shorter string
        // exists exactly when one of the two n-digit neighbours of d does (pad it with zeros), so step down from there.
        int k = significantDigits(Double.toString(d));
        BigDecimal best = candidate(exact, d, k);
        if (best == null) { // not expected: Double.toString always reads back
            for (int n = 1; n <= 17 && best == null; n++) {
                best = candidate(exact, d, n);
            }
            return best != null ? best : exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
        }
        for (int n = k - 1; n >= 1; n--) {
            BigDecimal shorter = candidate(exact, d, n);
            if (shorter == null) {
                break;
            }
            best = shorter;
        }
        return best;
    }

    /** The n-digit decimal nearest to {@code exact} that reads back as {@code d}, else its other neighbour, else null. */
    private static BigDecimal candidate(BigDecimal exact, double d, int n) {
        BigDecimal nearest = exact.round(new MathContext(n, RoundingMode.HALF_EVEN));
        if (Double.parseDouble(nearest.toString()) == d) {
            return nearest;
        }
        // next to a power of two the rounding interval is lopsided: the other neighbour may read back instead
        BigDecimal ulp = nearest.ulp();
        BigDecimal other = nearest.compareTo(exact) < 0 ? nearest.add(ulp) : nearest.subtract(ulp);
        if (other.signum() > 0 && other.precision() <= n && Double.parseDouble(other.toString()) == d) {
            return other;
        }
        return null;
    }

    private static int significantDigits(String javaDouble) {
        int first = -1;
        int last = -1;
        for (int i = 0; i < javaDouble.length(); i++) {
            char c = javaDouble.charAt(i);
            if (c == 'E') {
                break;
            }
            if (c >= '1' && c <= '9') {
                if (first < 0) {
                    first = i;
                }
                last = i;
            }
        }
        int digits = 0;
        for (int i = first; i <= last && first >= 0; i++) {
            if (Character.isDigit(javaDouble.charAt(i))) {
                digits++;
            }
        }
        return Math.max(1, Math.min(17, digits));
    }
}
