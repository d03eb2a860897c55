package io.lanes.binlog;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes MySQL binary JSON from a Java model, following the format description in the server's json_binary.h: a type
 * byte, then for objects/arrays an element count and a byte size (2 bytes each in the small format, 4 in the large),
 * key entries (offset, 2-byte length), value entries (type, then the value inlined or its offset), keys, then values.
 * Object keys are sorted as the server stores them (by byte length, then bytewise).
 *
 * <p>Model: {@code Map<String, Object>} object, {@code List<Object>} array, {@code null}/{@code Boolean} literals,
 * {@code Short} int16, {@code Character} uint16, {@code Integer} int32, {@code Long} int64, {@code BigInteger} uint64,
 * {@code Double}, {@code String}, {@link Opaque}.
 */
final class JsonTestEncoder {
    record Opaque(int fieldType, byte[] data) {
    }

    private JsonTestEncoder() {
    }

    static byte[] document(Object v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Encoded e = encode(v);
        out.write(e.type);
        out.write(e.data, 0, e.data.length);
        return out.toByteArray();
    }

    private record Encoded(int type, byte[] data) {
    }

    static Encoded encode(Object v) {
        if (v == null) {
            return new Encoded(0x04, new byte[] {0});
        }
        if (v instanceof Boolean) {
            return new Encoded(0x04, new byte[] {(byte) ((Boolean) v ? 1 : 2)});
        }
        if (v instanceof Short) {
            return new Encoded(0x05, le((Short) v, 2));
        }
        if (v instanceof Character) {
            return new Encoded(0x06, le((Character) v, 2));
        }
        if (v instanceof Integer) {
            return new Encoded(0x07, le((Integer) v, 4));
        }
        if (v instanceof Long) {
            return new Encoded(0x09, le((Long) v, 8));
        }
        if (v instanceof BigInteger) {
            return new Encoded(0x0a, le(((BigInteger) v).longValue(), 8));
        }
        if (v instanceof Double) {
            return new Encoded(0x0b, le(Double.doubleToLongBits((Double) v), 8));
        }
        if (v instanceof String) {
            byte[] s = ((String) v).getBytes(StandardCharsets.UTF_8);
            return new Encoded(0x0c, ValueTestSupport.concat(varLength(s.length), s));
        }
        if (v instanceof Opaque) {
            Opaque o = (Opaque) v;
            return new Encoded(0x0f, ValueTestSupport.concat(new byte[] {(byte) o.fieldType}, varLength(o.data.length),
                    o.data));
        }
        if (v instanceof Map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) v;
            List<String> keys = new ArrayList<>(m.keySet());
            keys.sort(JsonTestEncoder::compareKeys);
            List<Object> values = new ArrayList<>();
            for (String k : keys) {
                values.add(m.get(k));
            }
            byte[] small = container(keys, values, false);
            return small != null ? new Encoded(0x00, small) : new Encoded(0x01, container(keys, values, true));
        }
        if (v instanceof List) {
            @SuppressWarnings("unchecked")
            List<Object> l = (List<Object>) v;
            byte[] small = container(null, l, false);
            return small != null ? new Encoded(0x02, small) : new Encoded(0x03, container(null, l, true));
        }
        throw new IllegalArgumentException(v.getClass().toString());
    }

    static int compareKeys(String a, String b) {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        if (x.length != y.length) {
            return Integer.compare(x.length, y.length);
        }
        for (int i = 0; i < x.length; i++) {
            if (x[i] != y[i]) {
                return Integer.compare(x[i] & 0xff, y[i] & 0xff);
            }
        }
        return 0;
    }

    /** The container body, or null when the small format cannot address it. */
    private static byte[] container(List<String> keys, List<Object> values, boolean large) {
        int os = large ? 4 : 2;
        int n = values.size();
        int header = 2 * os + (keys != null ? n * (os + 2) : 0) + n * (1 + os);
        ByteArrayOutputStream tail = new ByteArrayOutputStream();
        long[] keyOffsets = new long[n];
        if (keys != null) {
            for (int i = 0; i < n; i++) {
                byte[] k = keys.get(i).getBytes(StandardCharsets.UTF_8);
                keyOffsets[i] = header + tail.size();
                tail.write(k, 0, k.length);
            }
        }
        int[] types = new int[n];
        long[] entryValues = new long[n];
        for (int i = 0; i < n; i++) {
            Encoded e = encode(values.get(i));
            types[i] = e.type;
            boolean inline = e.type == 0x04 || e.type == 0x05 || e.type == 0x06 || (large && (e.type == 0x07 || e.type == 0x08));
            if (inline) {
                long x = 0;
                for (int b = 0; b < e.data.length; b++) {
                    x |= (e.data[b] & 0xffL) << (8 * b);
                }
                entryValues[i] = x;
            } else {
                entryValues[i] = header + tail.size();
                tail.write(e.data, 0, e.data.length);
            }
        }
        long size = header + tail.size();
        long limit = large ? 0xffffffffL : 0xffffL;
        if (size > limit) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(le(n, os), 0, os);
        out.write(le(size, os), 0, os);
        if (keys != null) {
            for (int i = 0; i < n; i++) {
                out.write(le(keyOffsets[i], os), 0, os);
                out.write(le(keys.get(i).getBytes(StandardCharsets.UTF_8).length, 2), 0, 2);
            }
        }
        for (int i = 0; i < n; i++) {
            out.write(types[i]);
            out.write(le(entryValues[i], os), 0, os);
        }
        byte[] t = tail.toByteArray();
        out.write(t, 0, t.length);
        return out.toByteArray();
    }

    static byte[] le(long v, int n) {
        return ValueTestSupport.littleEndian(v, n);
    }

    static byte[] varLength(int len) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long v = len;
        do {
            int b = (int) (v & 0x7f);
            v >>>= 7;
            out.write(v != 0 ? b | 0x80 : b);
        } while (v != 0);
        return out.toByteArray();
    }
}
