package io.lanes.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The writeset history's map against java.util.HashMap, on random operations with a seed that replays. */
class LongLongHashMapTest {
    @Test
    void behavesLikeAHashMapThroughPutsDropsInPlaceClearsAndGrowth() {
        long seed = Long.getLong("lanes.test.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 20; round++) {
            LongLongHashMap map = new LongLongHashMap(1 + random.nextInt(8));
            Map<Long, Long> expected = new HashMap<>();
            // a small key space (0 included: it cannot sit in the table) so that keys repeat and probe chains collide
            int keySpace = 2 + random.nextInt(500);
            for (int op = 0; op < 3_000; op++) {
                String where = "seed " + seed + " round " + round + " op " + op;
                int kind = random.nextInt(100);
                if (kind < 70) {
                    long key = random.nextInt(keySpace);
                    long value = 1 + random.nextInt(1_000);
                    Long old = expected.put(key, value);
                    assertEquals(old == null ? 0 : old, map.put(key, value), where);
                } else if (kind < 78) {
                    long bound = random.nextInt(1_100);
                    int removed = map.removeValuesBelow(bound);
                    int before = expected.size();
                    expected.values().removeIf(v -> v < bound);
                    assertEquals(before - expected.size(), removed, where);
                    for (Map.Entry<Long, Long> e : expected.entrySet()) {
                        assertEquals(e.getValue(), map.get(e.getKey()), where + ": every survivor is found in place");
                    }
                } else if (kind < 79) {
                    map.clear();
                    expected.clear();
                } else {
                    long key = random.nextInt(keySpace);
                    assertEquals(expected.getOrDefault(key, 0L), map.get(key), where);
                }
                assertEquals(expected.size(), map.size(), where);
            }
            for (long key = 0; key < keySpace; key++) {
                assertEquals(expected.getOrDefault(key, 0L), map.get(key), "seed " + seed + " key " + key);
            }
        }
    }

    /**
     * Dropping in place where probe chains wrap around the table's end and removals empty places inside them: eight
     * keys (the most 16 places hold) whose home places are the last three or the first, so clusters cross the end.
     */
    @Test
    void droppingInPlaceKeepsEverySurvivorReachableAcrossTheTablesEnd() {
        long seed = Long.getLong("lanes.test.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        long[] nearTheEnd = new long[64];
        int found = 0;
        for (long key = 1; found < nearTheEnd.length; key++) {
            int home = LongLongHashMap.mix(key) & 15;
            if (home >= 13 || home == 0) {
                nearTheEnd[found++] = key;
            }
        }
        for (int trial = 0; trial < 20_000; trial++) {
            LongLongHashMap map = new LongLongHashMap(8);
            Map<Long, Long> expected = new HashMap<>();
            while (expected.size() < 8) {
                long key = nearTheEnd[random.nextInt(nearTheEnd.length)];
                long value = 1 + random.nextInt(10);
                expected.put(key, value);
                map.put(key, value);
            }
            long bound = 1 + random.nextInt(10);
            assertEquals(expected.values().stream().filter(v -> v < bound).count(), map.removeValuesBelow(bound));
            expected.values().removeIf(v -> v < bound);
            assertEquals(expected.size(), map.size());
            for (Map.Entry<Long, Long> e : expected.entrySet()) {
                assertEquals(e.getValue(), map.get(e.getKey()), "seed " + seed + " trial " + trial + " key " + e.getKey());
            }
        }
    }
}
