package io.lanes.core;

import java.util.Arrays;
import java.util.Collection;
import java.util.TreeSet;

/**
 * Where to restart after a stop or a crash, computed from saved {@link Checkpoint}s. Immutable.
 *
 * <p>The rule: the low-water mark is the highest low-water mark any checkpoint states (each is true: a worker only ever
 * records a mark every transaction below which had committed); the transactions applied beyond it are the union of all
 * checkpoints' bits beyond it. Every worker writes its checkpoint in the same target transaction as its data, so the
 * union is exactly the set of transactions whose data is in the target: restarting the source at {@link #position()}
 * (which re-reads the transactions after the low-water mark, in the same order, so they get sequence numbers
 * {@code lowWaterMark()+1, +2, ...} again) and skipping {@link #alreadyApplied()} loses none and applies none twice.
 */
public final class RecoveryPoint {
    private static final long[] NONE = new long[0];

    private final long lowWaterMark;
    private final String position;
    private final long[] alreadyApplied;

    private RecoveryPoint(long lowWaterMark, String position, long[] alreadyApplied) {
        this.lowWaterMark = lowWaterMark;
        this.position = position;
        this.alreadyApplied = alreadyApplied;
    }

    /** A fresh start at {@code position} (null: the source's beginning); sequence numbers start at 1. */
    public static RecoveryPoint initial(String position) {
        return new RecoveryPoint(0, position, NONE);
    }

    /**
     * Computes the recovery point from saved checkpoints (in any order, any mix of worker ids and low-water marks).
     *
     * @param initialPosition the position to use when there are no checkpoints
     */
    public static RecoveryPoint fromCheckpoints(Collection<Checkpoint> checkpoints, String initialPosition) {
        if (checkpoints.isEmpty()) {
            return initial(initialPosition);
        }
        Checkpoint best = null;
        for (Checkpoint c : checkpoints) {
            if (best == null || c.lowWaterMark() > best.lowWaterMark()
                    || (c.lowWaterMark() == best.lowWaterMark() && best.position() == null && c.position() != null)) {
                best = c;
            }
        }
        long lwm = best.lowWaterMark();
        TreeSet<Long> applied = new TreeSet<>();
        for (Checkpoint c : checkpoints) {
            for (long s : c.appliedBeyondLowWaterMark()) {
                if (s > lwm) {
                    applied.add(s);
                }
            }
        }
        long[] out = new long[applied.size()];
        int i = 0;
        for (long s : applied) {
            out[i++] = s;
        }
        String position = best.position() == null && lwm == 0 ? initialPosition : best.position();
        return new RecoveryPoint(lwm, position, out);
    }

    /** Every transaction at or below this sequence number is applied. */
    public long lowWaterMark() {
        return lowWaterMark;
    }

    /** Where the source must be re-read from: the position of the low-water mark's transaction (null: the beginning). */
    public String position() {
        return position;
    }

    /** The sequence number the first transaction read from {@link #position()} gets. */
    public long nextSequence() {
        return lowWaterMark + 1;
    }

    /** Sequence numbers beyond the low-water mark that are already applied and will be skipped, ascending (a copy). */
    public long[] alreadyApplied() {
        return alreadyApplied.clone();
    }

    public boolean isAlreadyApplied(long sequence) {
        return sequence <= lowWaterMark || Arrays.binarySearch(alreadyApplied, sequence) >= 0;
    }

    @Override
    public String toString() {
        return "RecoveryPoint{lwm=" + lowWaterMark + " @ " + position + ", alreadyApplied=" + Arrays.toString(alreadyApplied)
                + '}';
    }
}
