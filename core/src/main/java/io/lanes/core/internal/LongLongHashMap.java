package io.lanes.core.internal;

import java.util.Arrays;
import java.util.function.LongPredicate;

/**
 * An open-addressing map from long keys to long values (no boxing), for the writeset history. Value 0 means absent, so
 * callers store values greater than 0. Not thread-safe.
 */
public final class LongLongHashMap {
    private long[] keys;
    private long[] values;
    private boolean hasZeroKey;
    private long zeroValue;
    private int size;
    private int mask;

    public LongLongHashMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new long[cap];
        mask = cap - 1;
    }

    public int size() {
        return size;
    }

    /** The value for {@code key}, 0 when absent. */
    public long get(long key) {
        if (key == 0) {
            return hasZeroKey ? zeroValue : 0;
        }
        int i = mix(key) & mask;
        for (;;) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == 0) {
                return 0;
            }
            i = (i + 1) & mask;
        }
    }

    /** Stores {@code value} (&gt; 0) and returns the previous value, 0 when absent. */
    public long put(long key, long value) {
        if (key == 0) {
            long old = hasZeroKey ? zeroValue : 0;
            if (!hasZeroKey) {
                hasZeroKey = true;
                size++;
            }
            zeroValue = value;
            return old;
        }
        int i = mix(key) & mask;
        for (;;) {
            long k = keys[i];
            if (k == key) {
                long old = values[i];
                values[i] = value;
                return old;
            }
            if (k == 0) {
                keys[i] = key;
                values[i] = value;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return 0;
            }
            i = (i + 1) & mask;
        }
    }

    /**
     * Removes every entry whose value passes {@code test}, in O(capacity): the survivors are placed again, so probing
     * stays correct without tombstones.
     *
     * @return how many entries were removed
     */
    public int removeValuesIf(LongPredicate test) {
        int before = size;
        if (hasZeroKey && test.test(zeroValue)) {
            hasZeroKey = false;
            zeroValue = 0;
            size--;
        }
        long[] oldKeys = keys.clone();
        long[] oldValues = values.clone();
        Arrays.fill(keys, 0);
        Arrays.fill(values, 0);
        size = hasZeroKey ? 1 : 0;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != 0 && !test.test(oldValues[j])) {
                place(oldKeys[j], oldValues[j]);
            }
        }
        return before - size;
    }

    public void clear() {
        Arrays.fill(keys, 0);
        Arrays.fill(values, 0);
        hasZeroKey = false;
        size = 0;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new long[oldKeys.length * 2];
        mask = keys.length - 1;
        size = hasZeroKey ? 1 : 0;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != 0) {
                place(oldKeys[j], oldValues[j]);
            }
        }
    }

    /** Inserts a key known to be absent (and not 0) into a table with room. */
    private void place(long key, long value) {
        int i = mix(key) & mask;
        while (keys[i] != 0) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
