package io.lanes.core.internal;

/**
 * The sequence numbers one worker has committed above the published low-water mark, in ascending order (a ring that
 * doubles when full), and the bitmap of a worker checkpoint built from them: bit i set means transaction
 * {@code base + 1 + i} is committed, by this worker's earlier batches, by the batch being committed now, or before the
 * crash a recovery started from (its skips).
 *
 * <p>Confined to its worker's thread.
 */
final class CommittedSequences {
    private long[] done = new long[64];
    private int head;
    private int count;

    /** Records a committed sequence number; numbers arrive in ascending order. */
    void add(long seq) {
        if (count == done.length) {
            long[] bigger = new long[done.length * 2];
            for (int i = 0; i < count; i++) {
                bigger[i] = done[(head + i) & (done.length - 1)];
            }
            done = bigger;
            head = 0;
        }
        done[(head + count) & (done.length - 1)] = seq;
        count++;
    }

    /**
     * Forgets the numbers at or below {@code base} (the published low-water mark covers them) and returns the bitmap
     * above it of what is committed: the numbers kept, the first {@code batchSize} tasks of {@code batch} (committed
     * with this checkpoint) and the recovered skips above {@code base}.
     */
    long[] bitmapAbove(long base, Task<?>[] batch, int batchSize, long[] recoveredSkips) {
        int m = done.length - 1;
        while (count > 0 && done[head] <= base) {
            head = (head + 1) & m;
            count--;
        }
        long max = batch[batchSize - 1].seq;
        if (recoveredSkips.length > 0 && recoveredSkips[recoveredSkips.length - 1] > max) {
            max = recoveredSkips[recoveredSkips.length - 1];
        }
        long[] words = new long[(int) ((max - base + 63) >>> 6)];
        for (int i = 0; i < count; i++) {
            setBit(words, done[(head + i) & m] - base - 1);
        }
        for (int i = 0; i < batchSize; i++) {
            setBit(words, batch[i].seq - base - 1);
        }
        for (int i = recoveredSkips.length - 1; i >= 0 && recoveredSkips[i] > base; i--) {
            setBit(words, recoveredSkips[i] - base - 1);
        }
        return words;
    }

    private static void setBit(long[] words, long bit) {
        words[(int) (bit >>> 6)] |= 1L << bit;
    }
}
