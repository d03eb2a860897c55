package io.lanes.core.internal;

import java.util.Arrays;

/**
 * An open-addressing map from long keys to long values (no boxing), for the writeset history. Value 0 means absent, so
 * callers store values greater than 0. Not thread-safe.
 */
public final class LongLongHashMap {
    /**
     * Keys and values interleaved (a key at an even index, its value right after it): a look-up or store touches one
     * cache line, not one in each of two arrays. The writeset history is larger than a processor's second-level cache
     * once it holds a bulk transaction's keys, so each place visited is a likely miss (issue 19, round 21).
     */
    private long[] table;
    private boolean hasZeroKey;
    private long zeroValue;
    private int size;
    /** Places less one; a place {@code i} holds its key at {@code 2 * i}. */
    private int mask;

    public LongLongHashMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        table = new long[2 * cap];
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
        long[] t = table;
        int i = mix(key) & mask;
        for (;;) {
            long k = t[2 * i];
            if (k == key) {
                return t[2 * i + 1];
            }
            if (k == 0) {
                return 0;
            }
            i = (i + 1) & mask;
        }
    }

    /** Stores {@code value} (&gt; 0) and returns the previous value, 0 when absent: one probe for both. */
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
        long[] t = table;
        int i = mix(key) & mask;
        for (;;) {
            long k = t[2 * i];
            if (k == key) {
                long old = t[2 * i + 1];
                t[2 * i + 1] = value;
                return old;
            }
            if (k == 0) {
                t[2 * i] = key;
                t[2 * i + 1] = value;
                if (++size > (mask + 1) / 2) {
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
        long[] t = table;
        // A place empty before the removals: no probe chain runs across it (a chain runs from a key's home place to
        // where the key sits, over occupied places only), so placing again in probe order from there settles each
        // chain before the next. A place the removals emptied could sit inside a chain.
        int boundary = 0;
        while (t[2 * boundary] != 0) {
            boundary++; // the load is at most one half: an empty place exists
        }
        int removed = 0;
        for (int j = 0; j <= mask; j++) {
            if (t[2 * j] != 0 && t[2 * j + 1] < bound) {
                t[2 * j] = 0;
                t[2 * j + 1] = 0;
                removed++;
            }
        }
        size -= removed;
        if (removed == 0) {
            return before - size;
        }
        for (int step = 1; step <= mask; step++) {
            int j = (boundary + step) & mask;
            long key = t[2 * j];
            if (key == 0) {
                continue;
            }
            int i = mix(key) & mask;
            while (t[2 * i] != 0 && i != j) {
                i = (i + 1) & mask;
            }
            if (i != j) { // a removed entry had kept its probe chain from breaking: move it back
                t[2 * i] = key;
                t[2 * i + 1] = t[2 * j + 1];
                t[2 * j] = 0;
                t[2 * j + 1] = 0;
            }
        }
        return before - size;
    }

    public void clear() {
        Arrays.fill(table, 0);
        hasZeroKey = false;
        size = 0;
    }

    private void grow() {
        long[] old = table;
        table = new long[old.length * 2];
        mask = old.length - 1; // twice the places: old.length / 2 * 2, less one
        size = hasZeroKey ? 1 : 0;
        for (int j = 0; j < old.length; j += 2) {
            if (old[j] != 0) {
                place(old[j], old[j + 1]);
            }
        }
    }

    /** Inserts a key known to be absent (and not 0) into a table with room. */
    private void place(long key, long value) {
        long[] t = table;
        int i = mix(key) & mask;
        while (t[2 * i] != 0) {
            i = (i + 1) & mask;
        }
        t[2 * i] = key;
        t[2 * i + 1] = value;
        size++;
    }

    static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
