package io.lanes.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The writeset history's map against java.util.HashMap, on random operations with a seed that replays. */
class LongLongHashMapTest {
    @Test
    void behavesLikeAHashMapThroughPutsDropsClearsAndGrowth() {
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
                    long limit = random.nextInt(1_100);
                    int removed = map.removeValuesIf(v -> v <= limit);
                    int before = expected.size();
                    expected.values().removeIf(v -> v <= limit);
                    assertEquals(before - expected.size(), removed, where);
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
}
