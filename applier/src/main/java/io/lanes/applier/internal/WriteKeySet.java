package io.lanes.applier.internal;

import java.util.Arrays;

/**
 * The distinct write keys of one transaction, in the order first added, without boxing: the bridge adds one or more keys
 * per row of every transaction, and a {@code LinkedHashSet<Long>} cost an object per key and an entry per key on the
 * reading thread (about a tenth of its time on issue 19's workload 4). A key's slot is the top bits of its Fibonacci
 * product (well spread even for keys that share their low bits); the table keeps indexes into the ordered array
 * (0: empty), so every long value is a valid key.
 *
 * <p>Not thread-safe: one per converting thread, {@link #clear()}ed before each transaction.
 */
public final class WriteKeySet {
    /** A table larger than this (a bulk transaction's) is dropped at {@link #clear()}, not kept for the small ones after it. */
    private static final int KEEP_SLOTS = 1 << 12;
    private static final int INITIAL_SLOTS = 16;

    private long[] keys = new long[INITIAL_SLOTS / 2];
    private int size;
    /** Open addressing, linear probing; each slot holds an index into {@link #keys} plus one. */
    private int[] slots = new int[INITIAL_SLOTS];
    /** The slot of each key, so that {@link #clear()} zeroes only those. */
    private int[] slotOf = new int[INITIAL_SLOTS / 2];

    /** Adds a key; false when it is already in the set. */
    public boolean add(long key) {
        int mask = slots.length - 1;
        int i = slot(key, slots.length);
        for (int s = slots[i]; s != 0; s = slots[i]) {
            if (keys[s - 1] == key) {
                return false;
            }
            i = (i + 1) & mask;
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            slotOf = Arrays.copyOf(slotOf, size * 2);
        }
        keys[size] = key;
        slotOf[size++] = i;
        slots[i] = size;
        if (size * 2 > slots.length) {
            grow();
        }
        return true;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The keys in the order first added. */
    public long[] toArray() {
        return Arrays.copyOf(keys, size);
    }

    /** Empties the set for the next transaction. */
    public void clear() {
        if (slots.length > KEEP_SLOTS) {
            slots = new int[INITIAL_SLOTS];
            keys = new long[INITIAL_SLOTS / 2];
            slotOf = new int[INITIAL_SLOTS / 2];
        } else {
            for (int k = 0; k < size; k++) {
                slots[slotOf[k]] = 0;
            }
        }
        size = 0;
    }

    private void grow() {
        int[] bigger = new int[slots.length * 2];
        int mask = bigger.length - 1;
        for (int k = 0; k < size; k++) {
            int i = slot(keys[k], bigger.length);
            while (bigger[i] != 0) {
                i = (i + 1) & mask;
            }
            bigger[i] = k + 1;
            slotOf[k] = i;
        }
        slots = bigger;
    }

    /** The home slot of a key in a table of {@code length} (a power of two) slots. */
    private static int slot(long key, int length) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - Integer.numberOfTrailingZeros(length)));
    }
}
