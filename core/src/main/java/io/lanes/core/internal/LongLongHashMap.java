package io.lanes.core.internal;

import java.util.Arrays;

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
     * Removes every entry whose value is below {@code bound}, in place and in O(capacity), allocating nothing (the
     * writeset history drops its committed writers this way: a new table per drop touched fresh memory every time).
     * The survivors are then placed again in probe order, starting after a place that was empty before, so that each
     * sits where a lookup from its home place finds it, without tombstones.
     *
     * @return how many entries were removed
     */
    public int removeValuesBelow(long bound) {
        int before = size;
        if (hasZeroKey && zeroValue < bound) {
            hasZeroKey = false;
            zeroValue = 0;
            size--;
        }
        long[] k = keys;
        long[] v = values;
        // A place empty before the removals: no probe chain runs across it (a chain runs from a key's home place to
        // where the key sits, over occupied places only), so placing again in probe order from there settles each
        // chain before the next. A place the removals emptied could sit inside a chain.
        int boundary = 0;
        while (k[boundary] != 0) {
            boundary++; // the load is at most one half: an empty place exists
        }
        int removed = 0;
        for (int j = 0; j < k.length; j++) {
            if (k[j] != 0 && v[j] < bound) {
                k[j] = 0;
                v[j] = 0;
                removed++;
            }
        }
        size -= removed;
        if (removed == 0) {
            return before - size;
        }
        for (int step = 1; step <= mask; step++) {
            int j = (boundary + step) & mask;
            long key = k[j];
            if (key == 0) {
                continue;
            }
            int i = mix(key) & mask;
            while (k[i] != 0 && i != j) {
                i = (i + 1) & mask;
            }
            if (i != j) { // a removed entry had kept its probe chain from breaking: move it back
                k[i] = key;
                v[i] = v[j];
                k[j] = 0;
                v[j] = 0;
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

    static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
