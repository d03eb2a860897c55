package io.lanes.applier.internal;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Locale;

/**
 * Hashes one row key the way MySQL builds a writeset entry: over the index name, schema, table and the key's values,
 * normalised so that values a case- and accent-insensitive collation compares equal hash equal (lower case, accents and
 * trailing spaces removed, numbers in canonical form). Normalising more than the real collation does can only make two
 * transactions look dependent when they are not, which costs parallelism, never correctness.
 *
 * <p>64-bit FNV-1a with a final avalanche mix. Not thread-safe (reuses its state); one per dispatching thread.
 */
public final class WriteKeyHasher {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private long h;
    /** The last start()'s names (compared by identity: the bridge passes the same strings per table) and its hash. */
    private String lastIndex;
    private String lastSchema;
    private String lastTable;
    private long lastPrefix;
    private final byte[] digits = new byte[20];

    public WriteKeyHasher start(String index, String schema, String table) {
        if (index == lastIndex && schema == lastSchema && table == lastTable && index != null) {
            h = lastPrefix;
            return this;
        }
        h = FNV_OFFSET;
        text(index);
        text(schema);
        text(table);
        lastIndex = index;
        lastSchema = schema;
        lastTable = table;
        lastPrefix = h;
        return this;
    }

    /** Adds one key value (never null: keys with a NULL part are not writeset keys). */
    public WriteKeyHasher value(Object v) {
        if (v instanceof String s) {
            byteOf('s');
            text(normalise(s));
        } else if (v instanceof byte[] b) {
            byteOf('b');
            int end = b.length;
            while (end > 0 && b[end - 1] == 0) {
                end--; // BINARY pads with 0x00; the log strips it
            }
            for (int i = 0; i < end; i++) {
                byteOf(b[i]);
            }
            byteOf(0);
        } else if (v instanceof BigDecimal d) {
            byteOf('n');
            text(d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            byteOf('n');
            decimal(((Number) v).longValue());
        } else if (v instanceof Number n && !(v instanceof Float) && !(v instanceof Double)) {
            byteOf('n');
            text(n.toString());
        } else {
            byteOf('o');
            text(String.valueOf(v));
        }
        return this;
    }

    public long finish() {
        long x = h;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }

    static String normalise(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        String trimmed = s.substring(0, end);
        boolean ascii = true;
        for (int i = 0; i < trimmed.length() && ascii; i++) {
            ascii = trimmed.charAt(i) < 0x80;
        }
        if (ascii) {
            return trimmed.toLowerCase(Locale.ROOT);
        }
        String decomposed = Normalizer.normalize(trimmed, Normalizer.Form.NFKD);
        StringBuilder sb = new StringBuilder(decomposed.length());
        for (int i = 0; i < decomposed.length(); i++) {
            char c = decomposed.charAt(i);
            if (Character.getType(c) != Character.NON_SPACING_MARK) {
                sb.append(c);
            }
        }
        return sb.toString().toLowerCase(Locale.ROOT);
    }

    private void text(String s) {
        int n = s.length();
        int i = 0;
        while (i < n && s.charAt(i) < 0x80) {
            i++;
        }
        if (i == n) { // ASCII: its UTF-8 bytes are its chars, without encoding a copy
            for (int j = 0; j < n; j++) {
                byteOf(s.charAt(j));
            }
        } else {
            for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
                byteOf(b);
            }
        }
        byteOf(0xff); // separator: no UTF-8 byte is 0xff
    }

    /** The bytes of {@code Long.toString(v)} and the separator, as {@link #text} hashes them, without the string. */
    private void decimal(long v) {
        if (v < 0) {
            byteOf('-');
        }
        int len = 0;
        long rest = v;
        do {
            digits[len++] = (byte) ('0' + Math.abs(rest % 10)); // abs of a remainder: safe for Long.MIN_VALUE too
            rest /= 10;
        } while (rest != 0);
        while (len > 0) {
            byteOf(digits[--len]);
        }
        byteOf(0xff);
    }

    private void byteOf(int b) {
        h ^= b & 0xff;
        h *= FNV_PRIME;
    }
}
