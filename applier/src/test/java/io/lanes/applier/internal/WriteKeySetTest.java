package io.lanes.applier.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WriteKeySetTest {
    @Test
    void keepsFirstAddedOrderAndDropsRepeats() {
        WriteKeySet keys = new WriteKeySet();
        assertTrue(keys.isEmpty());
        assertTrue(keys.add(7));
        assertTrue(keys.add(0));
        assertTrue(keys.add(-1));
        assertFalse(keys.add(7));
        assertFalse(keys.add(0));
        assertTrue(keys.add(Long.MIN_VALUE));
        assertArrayEquals(new long[] {7, 0, -1, Long.MIN_VALUE}, keys.toArray());
        assertEquals(4, keys.size());
    }

    /** Against LinkedHashSet over many transactions of random sizes (bulk ones included), colliding keys among them. */
    @Test
    void matchesLinkedHashSetAcrossReuse() {
        long seed = Long.getLong("lanes.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        WriteKeySet keys = new WriteKeySet();
        for (int txn = 0; txn < 300; txn++) {
            keys.clear();
            LinkedHashSet<Long> expected = new LinkedHashSet<>();
            int n = random.nextInt(10) == 0 ? random.nextInt(20_000) : random.nextInt(12);
            for (int i = 0; i < n; i++) {
                // Low bits equal for many keys (same slot), and repeats.
                long key = random.nextBoolean() ? random.nextLong() : ((long) random.nextInt(64) << 32);
                assertEquals(expected.add(key), keys.add(key), "seed " + seed + " txn " + txn);
            }
            List<Long> got = new ArrayList<>();
            for (long k : keys.toArray()) {
                got.add(k);
            }
            assertEquals(new ArrayList<>(expected), got, "seed " + seed + " txn " + txn);
        }
    }
}
