package io.lanes.applier.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hasher's fast paths hash exactly what its text form hashes, so keys of every type still meet. */
class WriteKeyHasherTest {
    private static long hash(WriteKeyHasher h, String index, String schema, String table, Object value) {
        return h.start(index, schema, table).value(value).finish();
    }

    @Test
    void integersHashAsTheirDecimalTextDoes() {
        WriteKeyHasher h = new WriteKeyHasher();
        long seed = Long.getLong("lanes.test.seed", System.nanoTime());
        Random random = new Random(seed);
        long[] values = new long[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (i % 4) {
                case 0 -> random.nextLong();
                case 1 -> random.nextInt(1000) - 500;
                case 2 -> random.nextInt();
                default -> i;
            };
        }
        values[0] = Long.MIN_VALUE;
        values[1] = Long.MAX_VALUE;
        values[2] = 0;
        values[3] = -1;
        for (long v : values) {
            long asLong = hash(h, "PRIMARY", "db", "t", v);
            // BigDecimal takes the text path: the canonical decimal string.
            assertEquals(hash(h, "PRIMARY", "db", "t", new BigDecimal(v)), asLong, "seed " + seed + ": " + v);
            if (v == (int) v) {
                assertEquals(hash(h, "PRIMARY", "db", "t", (int) v), asLong, "seed " + seed + ": int " + v);
            }
        }
        assertEquals(hash(h, "PRIMARY", "db", "t", (short) -7), hash(h, "PRIMARY", "db", "t", (byte) -7));
    }

    @Test
    void theCachedPrefixIsOnlyReusedForTheSameNames() {
        WriteKeyHasher h = new WriteKeyHasher();
        long first = hash(h, "PRIMARY", "db", "t", 5L);
        long otherTable = hash(h, "PRIMARY", "db", "u", 5L);
        long otherSchemaSameText = hash(h, "PRIMARY", new String("db"), "t", 5L); // equal text, another instance
        assertNotEquals(first, otherTable);
        assertEquals(first, otherSchemaSameText);
        assertEquals(first, hash(new WriteKeyHasher(), "PRIMARY", "db", "t", 5L), "a fresh hasher agrees");
        // Non-ASCII names take the encoding path and still differ from their ASCII look-alikes.
        assertNotEquals(hash(h, "PRIMARY", "db", "café", 5L), hash(h, "PRIMARY", "db", "cafe", 5L));
        assertEquals(hash(h, "PRIMARY", "db", "café", 5L), hash(new WriteKeyHasher(), "PRIMARY", "db", "café", 5L));
    }
}
