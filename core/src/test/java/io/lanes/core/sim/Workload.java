package io.lanes.core.sim;

import io.lanes.core.LogicalClock;
import io.lanes.core.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A random source: transactions that read-modify-write integer keys, so the final state depends on the order in which
 * conflicting transactions are applied. Every scheduler's metadata (partition keys, write keys, MySQL logical clocks,
 * MariaDB group commit ids) is derived from the real conflicts, as a correct source would produce it.
 *
 * <p>Transaction {@code i} (1-based, equal to the engine's sequence number on a fresh start) has position {@code "i"}:
 * re-reading from position {@code p} yields transactions {@code p+1, p+2, ...}.
 */
public final class Workload {
    /** Per transaction (index 0 unused). */
    public final int[][] keys;
    public final boolean[] barrier;
    public final long[] size;
    public final String[][] partitions;
    public final LogicalClock[] clock;
    /** For each transaction and each of its keys, the previous writer of that key (0: none). */
    public final int[][] previousWriter;
    public final int count;
    public final int keySpace;
    public final long seed;
    public final String description;

    private Workload(int count, int keySpace, long seed, String description) {
        this.count = count;
        this.keySpace = keySpace;
        this.seed = seed;
        this.description = description;
        keys = new int[count + 1][];
        barrier = new boolean[count + 1];
        size = new long[count + 1];
        partitions = new String[count + 1][];
        clock = new LogicalClock[count + 1];
        previousWriter = new int[count + 1][];
    }

    /** One source transaction: the keys it read-modify-writes, and the source's choices around it. */
    public record Spec(int[] keys, boolean barrier, long size, boolean boundary) {
    }

    /** Builds a workload from a seed; every choice (sizes, skew, clocks) comes from it. */
    public static Workload random(long seed, int maxTransactions) {
        Random r = new Random(seed);
        int count = 1 + r.nextInt(maxTransactions);
        int keySpace = 1 + r.nextInt(r.nextBoolean() ? 8 : 200);
        int partitionsCount = 1 + r.nextInt(12);
        int maxKeys = 1 + r.nextInt(4);
        double barrierRate = r.nextInt(3) == 0 ? 0 : r.nextDouble() * 0.05;
        double keylessRate = r.nextInt(4) == 0 ? r.nextDouble() * 0.03 : 0;
        boolean mariadb = r.nextBoolean();
        double boundaryRate = mariadb ? 0.25 : r.nextInt(3) == 0 ? 0.02 : 0;
        long maxSize = r.nextBoolean() ? 100 : 20_000;
        List<Spec> specs = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            int nk = r.nextDouble() < keylessRate ? 0 : 1 + r.nextInt(maxKeys);
            int[] ks = r.ints(nk, 0, keySpace).distinct().toArray();
            long size = r.nextInt(10) == 0 ? r.nextLong(maxSize * 10 + 1) : r.nextLong(maxSize + 1);
            specs.add(new Spec(ks, r.nextDouble() < barrierRate, size, r.nextDouble() < boundaryRate));
        }
        return of(specs, keySpace, partitionsCount, mariadb, "seed=" + seed);
    }

    /**
     * Builds a workload from explicit transactions (what a jqwik generator produces and shrinks).
     *
     * @param mariadb MariaDB group commit ids (a boundary starts a new group) or MySQL clocks (a boundary rotates the
     *     binlog file, restarting sequence numbers)
     */
    public static Workload of(List<Spec> specs, int keySpace, int partitionsCount, boolean mariadb, String label) {
        int count = specs.size();
        Workload w = new Workload(count, keySpace, 0, label + " txns=" + count + " keys=" + keySpace + " partitions="
                + partitionsCount + (mariadb ? " mariadb" : " mysql"));
        int[] lastWriter = new int[keySpace];
        int fileStart = 1;
        long groupId = 1;
        Set<Integer> groupKeys = new HashSet<>();
        int lastBarrierOrKeyless = 0;
        for (int i = 1; i <= count; i++) {
            Spec spec = specs.get(i - 1);
            int[] ks = Arrays.stream(spec.keys()).map(k -> Math.floorMod(k, keySpace)).distinct().toArray();
            w.keys[i] = ks;
            w.barrier[i] = spec.barrier();
            w.size[i] = spec.size();
            Set<String> ps = new HashSet<>();
            int[] prev = new int[ks.length];
            int maxDep = 0;
            for (int j = 0; j < ks.length; j++) {
                ps.add("s" + (ks[j] % partitionsCount));
                prev[j] = lastWriter[ks[j]];
                maxDep = Math.max(maxDep, prev[j]);
            }
            w.partitions[i] = ps.toArray(new String[0]);
            Arrays.sort(w.partitions[i]);
            w.previousWriter[i] = prev;
            boolean alone = w.barrier[i] || ks.length == 0;
            if (mariadb) {
                boolean conflict = alone || lastBarrierOrKeyless == i - 1;
                for (int k : ks) {
                    conflict |= groupKeys.contains(k);
                }
                if (conflict || spec.boundary()) {
                    groupId++;
                    groupKeys.clear();
                }
                for (int k : ks) {
                    groupKeys.add(k);
                }
                w.clock[i] = LogicalClock.groupCommit(alone ? 0 : groupId);
                if (alone) {
                    groupId++;
                    groupKeys.clear();
                }
            } else {
                if (i > 1 && spec.boundary()) {
                    fileStart = i;
                }
                int dep = Math.max(maxDep, lastBarrierOrKeyless);
                if (alone) {
                    dep = i - 1;
                }
                long seqNo = i - fileStart + 1;
                long lastCommitted = dep >= fileStart ? dep - fileStart + 1 : 0;
                w.clock[i] = LogicalClock.mysql(lastCommitted, seqNo);
            }
            if (alone) {
                lastBarrierOrKeyless = i;
            }
            for (int k : ks) {
                lastWriter[k] = i;
            }
        }
        return w;
    }

    public String position(int i) {
        return Integer.toString(i);
    }

    /** The transaction to submit for index {@code i}. Write keys are the key numbers spread by a hash. */
    public Transaction<Integer> transaction(int i) {
        long[] wk = new long[keys[i].length];
        for (int j = 0; j < wk.length; j++) {
            wk[j] = hashKey(keys[i][j]);
        }
        return Transaction.builder(i).position(position(i)).sizeBytes(size[i]).partitionKeys(partitions[i])
                .writeKeys(wk).logicalClock(clock[i]).barrier(barrier[i]).build();
    }

    static long hashKey(int key) {
        long h = (key + 1) * 0xC2B2AE3D27D4EB4FL;
        return h ^ (h >>> 29);
    }

    /** The state a single-threaded applier leaves. */
    public long[] sequentialState() {
        long[] state = new long[keySpace];
        for (int i = 1; i <= count; i++) {
            for (int k : keys[i]) {
                state[k] = SimTarget.mix(state[k], i);
            }
        }
        return state;
    }

    public List<String> partitionsOf(int i) {
        return new ArrayList<>(Arrays.asList(partitions[i]));
    }

    @Override
    public String toString() {
        return description;
    }
}
