package io.lanes.binlog.json;

import io.lanes.binlog.internal.ColumnValueEncoder.Sink;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed JSON document ({@link JsonTree}) to MySQL's binary JSON (json_binary.h), the inverse of {@link JsonBinary}'s
 * decoding: scalars as the server stores them when it parses text (integers in the smallest of int16/int32/int64, or
 * uint64 above the int64 range; other numbers as double), object members in the server's key order (by UTF-8 length,
 * then bytewise), the small container format whenever its 16-bit offsets can address the container.
 *
 * <p>Stateless; safe to call from any thread.
 */
final class JsonBinaryEncoder {
    private static final int SMALL_OBJECT = 0x00;
    private static final int LARGE_OBJECT = 0x01;
    private static final int SMALL_ARRAY = 0x02;
    private static final int LARGE_ARRAY = 0x03;
    private static final int LITERAL = 0x04;
    private static final int INT16 = 0x05;
    private static final int UINT16 = 0x06;
    private static final int INT32 = 0x07;
    private static final int UINT32 = 0x08;
    private static final int INT64 = 0x09;
    private static final int UINT64 = 0x0a;
    private static final int DOUBLE = 0x0b;
    private static final int STRING = 0x0c;
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private JsonBinaryEncoder() {
    }

    private record Encoded(int type, byte[] data) {
    }

    static byte[] toBinary(JsonTree.Node root) {
        Encoded e = encode(root);
        return new Sink(e.data.length + 1).u8(e.type).bytes(e.data).toByteArray();
    }

    private static byte[] le(long v, int n) {
        return new Sink(n).le(v, n).toByteArray();
    }

    private static Encoded encode(JsonTree.Node node) {
        if (node instanceof JsonTree.Str str) {
            byte[] b = str.value.getBytes(StandardCharsets.UTF_8);
            Sink out = new Sink(b.length + 5);
            long n = b.length;
            do {
                int low = (int) (n & 0x7f);
                n >>>= 7;
                out.u8(n != 0 ? low | 0x80 : low);
            } while (n != 0);
            return new Encoded(STRING, out.bytes(b).toByteArray());
        }
        if (node instanceof JsonTree.Scalar scalar) {
            return scalar(scalar.text);
        }
        if (node instanceof JsonTree.Obj obj) {
            List<byte[]> keys = new ArrayList<>(obj.keys.size());
            for (String k : obj.keys) {
                keys.add(k.getBytes(StandardCharsets.UTF_8));
            }
            byte[] small = container(keys, obj.values, false);
            return small != null ? new Encoded(SMALL_OBJECT, small)
                    : new Encoded(LARGE_OBJECT, container(keys, obj.values, true));
        }
        List<JsonTree.Node> items = ((JsonTree.Arr) node).items;
        byte[] small = container(null, items, false);
        return small != null ? new Encoded(SMALL_ARRAY, small) : new Encoded(LARGE_ARRAY, container(null, items, true));
    }

    private static Encoded scalar(String text) {
        switch (text) {
            case "null": return new Encoded(LITERAL, new byte[] {0});
            case "true": return new Encoded(LITERAL, new byte[] {1});
            case "false": return new Encoded(LITERAL, new byte[] {2});
            default: break;
        }
        boolean integral = text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
        try {
            if (integral) {
                BigInteger b = new BigInteger(text);
                if (b.bitLength() < 64) {
                    long x = b.longValue();
                    if (x == (short) x) {
                        return new Encoded(INT16, le(x, 2));
                    }
                    if (x == (int) x) {
                        return new Encoded(INT32, le(x, 4));
                    }
                    return new Encoded(INT64, le(x, 8));
                }
                if (b.signum() > 0 && b.compareTo(U64_MAX) <= 0) {
                    return new Encoded(UINT64, le(b.longValue(), 8));
                }
            }
            double d = Double.parseDouble(text);
            if (Double.isInfinite(d)) {
                throw new IllegalArgumentException("bad JSON text: number out of range: " + text);
            }
            return new Encoded(DOUBLE, le(Double.doubleToLongBits(d), 8));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad JSON text: not a JSON number: " + text, e);
        }
    }

    /** A container's bytes after its type byte, or null when the small format's offsets cannot address it. */
    private static byte[] container(List<byte[]> keys, List<JsonTree.Node> values, boolean large) {
        int os = large ? 4 : 2;
        int n = values.size();
        long header = 2L * os + (keys != null ? (long) n * (os + 2) : 0) + (long) n * (1 + os);
        Sink tail = new Sink();
        long[] keyOffsets = new long[n];
        if (keys != null) {
            for (int i = 0; i < n; i++) {
                keyOffsets[i] = header + tail.size();
                tail.bytes(keys.get(i));
            }
        }
        int[] types = new int[n];
        long[] entries = new long[n];
        for (int i = 0; i < n; i++) {
            Encoded e = encode(values.get(i));
            types[i] = e.type;
            // Literals and small integers live in the value entry itself, not in the tail.
            boolean inline = e.type == LITERAL || e.type == INT16 || e.type == UINT16
                    || (large && (e.type == INT32 || e.type == UINT32));
            if (inline) {
                long x = 0;
                for (int b = 0; b < e.data.length; b++) {
                    x |= (e.data[b] & 0xffL) << (8 * b);
                }
                entries[i] = x;
            } else {
                entries[i] = header + tail.size();
                tail.bytes(e.data);
            }
        }
        long size = header + tail.size();
        if (size > (large ? 0xffff_ffffL : 0xffffL)) {
            if (large) {
                throw new IllegalArgumentException("JSON document over 4 GiB");
            }
            return null;
        }
        Sink out = new Sink((int) size);
        out.le(n, os).le(size, os);
        if (keys != null) {
            for (int i = 0; i < n; i++) {
                out.le(keyOffsets[i], os).le(keys.get(i).length, 2);
            }
        }
        for (int i = 0; i < n; i++) {
            out.u8(types[i]).le(entries[i], os);
        }
        out.bytes(tail.array(), 0, tail.size());
        return out.toByteArray();
    }
}
