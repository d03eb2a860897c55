package io.lanes.binlog;

import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.internal.ColumnValueDecoder;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * Spec-derived encoders for the value tests: they write values the way the MySQL/MariaDB server lays them out in row
 * images (written from the format descriptions, independently of the decoder), so decoding can be checked both on fixed
 * vectors and on random values.
 */
final class ValueTestSupport {
    private ValueTestSupport() {
    }

    static ColumnDef col(ColumnType type, int meta) {
        return new ColumnDef(0, type, meta, true, false, -1, null, null, null, -1, -1, true);
    }

    static ColumnDef unsignedCol(ColumnType type, int meta) {
        return new ColumnDef(0, type, meta, true, true, -1, null, null, null, -1, -1, true);
    }

    static ColumnDef textCol(ColumnType type, int meta, int charsetId) {
        return new ColumnDef(0, type, meta, true, false, charsetId, null, null, null, -1, -1, true);
    }

    static ColumnDef enumCol(ColumnType type, int meta, List<String> enums, List<String> sets) {
        return new ColumnDef(0, type, meta, true, false, 45, null, enums, sets, -1, -1, true);
    }

    static byte[] hex(String s) {
        String h = s.replace(" ", "");
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.write(p, 0, p.length);
        }
        return out.toByteArray();
    }

    /**
     * Decodes with {@link ColumnValueDecoder#decode}, also skips with {@link ColumnValueDecoder#skip} over the same
     * bytes, and checks both consumed exactly {@code bytes.length} (the bytes are followed by a guard byte that must stay
     * unread).
     */
    static Object decodeExactly(byte[] bytes, ColumnDef column) {
        byte[] withGuard = concat(bytes, new byte[] {(byte) 0xA5});
        ByteReader r = new ByteReader(withGuard, "test", 1000);
        Object v = ColumnValueDecoder.decode(r, column);
        if (r.position() != bytes.length) {
            throw new AssertionError("decode consumed " + r.position() + " of " + bytes.length + " bytes");
        }
        ByteReader s = new ByteReader(withGuard, "test", 1000);
        ColumnValueDecoder.skip(s, column);
        if (s.position() != bytes.length) {
            throw new AssertionError("skip consumed " + s.position() + " of " + bytes.length + " bytes");
        }
        return v;
    }

    // ------------------------------------------------------------------------------------------ binary DECIMAL

    private static final int[] DIG2BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};

    /**
     * MySQL's decimal2bin: digits grouped by nine from the decimal point outwards, each group big-endian in
     * dig2bytes[digits] bytes, the first byte's top bit flipped, every byte inverted for negatives.
     */
    static byte[] encodeDecimal(BigDecimal value, int precision, int scale) {
        BigDecimal v = value.setScale(scale);
        boolean negative = v.signum() < 0;
        String unscaled = v.unscaledValue().abs().toString();
        int intg = precision - scale;
        while (unscaled.length() < precision) {
            unscaled = "0" + unscaled;
        }
        if (unscaled.length() > precision) {
            throw new IllegalArgumentException(value + " does not fit DECIMAL(" + precision + "," + scale + ")");
        }
        String intDigits = unscaled.substring(0, intg);
        String fracDigits = unscaled.substring(intg);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int lead = intg % 9;
        int pos = 0;
        if (lead > 0) {
            writeGroup(out, Integer.parseInt(intDigits.substring(0, lead)), DIG2BYTES[lead]);
            pos = lead;
        }
        for (; pos < intg; pos += 9) {
            writeGroup(out, Integer.parseInt(intDigits.substring(pos, pos + 9)), 4);
        }
        int f = 0;
        for (; f + 9 <= scale; f += 9) {
            writeGroup(out, Integer.parseInt(fracDigits.substring(f, f + 9)), 4);
        }
        if (f < scale) {
            writeGroup(out, Integer.parseInt(fracDigits.substring(f)), DIG2BYTES[scale - f]);
        }
        byte[] b = out.toByteArray();
        b[0] ^= (byte) 0x80;
        if (negative) {
            for (int i = 0; i < b.length; i++) {
                b[i] ^= (byte) 0xff;
            }
        }
        return b;
    }

    private static void writeGroup(ByteArrayOutputStream out, int value, int nbytes) {
        for (int i = nbytes - 1; i >= 0; i--) {
            out.write(value >>> (8 * i) & 0xff);
        }
    }

    // -------------------------------------------------------------------------------------------- temporal2

    static byte[] bigEndian(long v, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[n - 1 - i] = (byte) (v >>> (8 * i));
        }
        return b;
    }

    static byte[] littleEndian(long v, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }

    /** my_datetime_packed_to_binary for DATETIME2(fsp). */
    static byte[] datetime2(int y, int mo, int d, int h, int mi, int s, int micros, int fsp) {
        long ymd = ((long) (y * 13 + mo) << 5) | d;
        long hms = ((long) h << 12) | (mi << 6) | s;
        long intPart = (ymd << 17 | hms) + 0x80_0000_0000L;
        return concat(bigEndian(intPart, 5), fraction(micros, fsp));
    }

    /** my_timestamp_to_binary for TIMESTAMP2(fsp). */
    static byte[] timestamp2(long seconds, int micros, int fsp) {
        return concat(bigEndian(seconds, 4), fraction(micros, fsp));
    }

    private static byte[] fraction(int micros, int fsp) {
        switch (fsp) {
            case 1: case 2: return bigEndian(micros / 10_000, 1);
            case 3: case 4: return bigEndian(micros / 100, 2);
            case 5: case 6: return bigEndian(micros, 3);
            default: return new byte[0];
        }
    }

    /** my_time_packed_to_binary for TIME2(fsp) (micros already truncated to fsp digits). */
    static byte[] time2(boolean negative, int h, int mi, int s, int micros, int fsp) {
        long hms = ((long) h << 12) | (mi << 6) | s;
        long packed = (hms << 24) + micros;
        if (negative) {
            packed = -packed;
        }
        long intPart = packed >> 24; // arithmetic shift, as MY_PACKED_TIME_GET_INT_PART
        long frac = packed % (1L << 24); // C remainder: sign of the dividend
        switch (fsp) {
            case 1: case 2:
                return concat(bigEndian(intPart + 0x80_0000L, 3), bigEndian(frac / 10_000, 1));
            case 3: case 4:
                return concat(bigEndian(intPart + 0x80_0000L, 3), bigEndian(frac / 100, 2));
            case 5: case 6:
                return bigEndian(packed + 0x8000_0000_0000L, 6);
            default:
                return bigEndian(intPart + 0x80_0000L, 3);
        }
    }

    static BigInteger u64max() {
        return BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    }
}
