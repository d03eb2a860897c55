package io.lanes.core.sim;

import io.lanes.core.Applier;
import io.lanes.core.ApplyContext;
import io.lanes.core.Batch;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import io.lanes.core.CommitOrder;
import io.lanes.core.Transaction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A transactional in-memory target that checks the engine's promises as it is used. Each worker has a session with an
 * open transaction (pending writes, read-your-writes, read-committed for the rest); a commit publishes the session's
 * writes together with the worker checkpoint staged in it (written by {@link #checkpointStore()} inside the commit),
 * atomically. It survives engine crashes: a new engine recovers from the checkpoints stored here.
 *
 * <p>Checked on the way: a transaction never starts before the earlier writers of its keys committed (or sit earlier in
 * the same open transaction); a barrier starts only after everything before it committed and nothing after a barrier
 * starts before it committed; commits follow the commit order; nothing commits twice.
 */
public final class SimTarget {
    private final Workload workload;
    private final CommitOrder order;
    private final long[] state;
    private final int[] applied;
    private final boolean[] committed;
    private final List<Integer> commitLog = new ArrayList<>();
    private final Map<Integer, Checkpoint> workerRows = new HashMap<>();
    private Checkpoint lwmRow;
    private final Map<Integer, Session> sessions = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final int[] lastBarrierBefore;
    private final AtomicInteger commits = new AtomicInteger();
    private volatile boolean crashed;
    /** Crash when the commit counter reaches this (0: never). */
    private volatile int crashAtCommit;
    /** Probability that a commit fails with a transient error (retried by the engine). */
    private volatile double transientFailureRate;
    private volatile int maxApplyDelayMicros;

    public SimTarget(Workload workload, CommitOrder order) {
        this.workload = workload;
        this.order = order;
        this.state = new long[workload.keySpace];
        this.applied = new int[workload.count + 1];
        this.committed = new boolean[workload.count + 1];
        this.lastBarrierBefore = new int[workload.count + 2];
        int last = 0;
        for (int i = 1; i <= workload.count; i++) {
            lastBarrierBefore[i] = last;
            if (workload.barrier[i] || workload.keys[i].length == 0) {
                last = i;
            }
        }
    }

    static long mix(long old, int txn) {
        long h = (old ^ (txn * 0x9E3779B97F4A7C15L)) * 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 31);
    }

    public void crashAtCommit(int n) {
        crashAtCommit = n;
    }

    public void transientFailureRate(double rate) {
        transientFailureRate = rate;
    }

    public void maxApplyDelayMicros(int micros) {
        maxApplyDelayMicros = micros;
    }

    public int commits() {
        return commits.get();
    }

    public boolean crashed() {
        return crashed;
    }

    public void crashNow() {
        crashed = true;
    }

    /** Brings the target back after a crash: committed data and checkpoints survive, open sessions are gone. */
    public synchronized void restart() {
        crashed = false;
        crashAtCommit = 0;
        sessions.clear();
    }

    public List<String> violations() {
        return new ArrayList<>(violations);
    }

    public synchronized long[] state() {
        return state.clone();
    }

    public synchronized int[] appliedCounts() {
        return applied.clone();
    }

    public synchronized List<Integer> commitLog() {
        return new ArrayList<>(commitLog);
    }

    public synchronized boolean isCommitted(int txn) {
        return committed[txn];
    }

    private void violation(String s) {
        if (violations.size() < 50) {
            violations.add(s);
        }
    }

    /** An applier factory for the engine. */
    public Applier<Integer> applier(int worker) {
        Session s = new Session(worker);
        sessions.put(worker, s);
        return s;
    }

    public CheckpointStore checkpointStore() {
        return new CheckpointStore() {
            @Override
            public Collection<Checkpoint> load() {
                synchronized (SimTarget.this) {
                    List<Checkpoint> all = new ArrayList<>(workerRows.values());
                    if (lwmRow != null) {
                        all.add(lwmRow);
                    }
                    return all;
                }
            }

            @Override
            public void saveWorkerCheckpoint(Checkpoint checkpoint) {
                Session s = sessions.get(checkpoint.workerId());
                if (s == null) {
                    throw new IllegalStateException("no session for worker " + checkpoint.workerId());
                }
                s.staged = checkpoint;
            }

            @Override
            public void saveLowWaterMark(Checkpoint checkpoint) {
                synchronized (SimTarget.this) {
                    if (crashed) {
                        throw new IllegalStateException("target is down");
                    }
                    for (long s = 1; s <= checkpoint.lowWaterMark() && s <= workload.count; s++) {
                        if (!committed[(int) s]) {
                            violation("low-water mark " + checkpoint.lowWaterMark() + " saved but " + s
                                    + " is not committed");
                            break;
                        }
                    }
                    lwmRow = checkpoint;
                }
            }
        };
    }

    /** One worker's connection with its open transaction. */
    final class Session implements Applier<Integer> {
        final int worker;
        final Map<Integer, Long> pending = new HashMap<>();
        final List<Integer> pendingTxns = new ArrayList<>();
        Checkpoint staged;

        Session(int worker) {
            this.worker = worker;
        }

        @Override
        public void apply(Transaction<Integer> txn, ApplyContext ctx) throws Exception {
            if (crashed) {
                throw new IllegalStateException("target is down");
            }
            int i = txn.payload();
            if (ctx.sequence() != i) {
                violation("sequence " + ctx.sequence() + " carries transaction " + i);
            }
            if (ctx.indexInBatch() != pendingTxns.size()) {
                violation("txn " + i + ": index in batch " + ctx.indexInBatch() + " but " + pendingTxns.size()
                        + " pending");
            }
            int delay = maxApplyDelayMicros;
            if (delay > 0) {
                long until = System.nanoTime() + ThreadLocalRandom.current().nextInt(delay + 1) * 1000L;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
            synchronized (SimTarget.this) {
                if (committed[i]) {
                    violation("txn " + i + " applied again after it committed");
                }
                int[] ks = workload.keys[i];
                int[] prev = workload.previousWriter[i];
                for (int j = 0; j < ks.length; j++) {
                    int p = prev[j];
                    if (p > 0 && !committed[p] && !pendingTxns.contains(p)) {
                        violation("txn " + i + " started on worker " + worker + " before txn " + p
                                + " (earlier writer of key " + ks[j] + ") committed");
                    }
                }
                // A flagged barrier always runs in a target transaction of its own; a transaction without keys waits
                // for everything before it, which may sit earlier in the same target transaction.
                int b = lastBarrierBefore[i];
                if (b > 0 && !committed[b] && (workload.barrier[b] || !pendingTxns.contains(b))) {
                    violation("txn " + i + " started before barrier " + b + " committed");
                }
                if (workload.barrier[i] || ks.length == 0) {
                    for (int p = 1; p < i; p++) {
                        if (!committed[p] && (workload.barrier[i] || !pendingTxns.contains(p))) {
                            violation("barrier " + i + " started before " + p + " committed");
                            break;
                        }
                    }
                }
                if (workload.barrier[i] && !pendingTxns.isEmpty()) {
                    violation("barrier " + i + " joined a batch with " + pendingTxns);
                }
                for (int k : ks) {
                    long old = pending.containsKey(k) ? pending.get(k) : state[k];
                    pending.put(k, mix(old, i));
                }
            }
            pendingTxns.add(i);
        }

        @Override
        public void commit(Batch<Integer> batch, Checkpoint checkpoint) throws Exception {
            if (batch.size() != pendingTxns.size()) {
                violation("commit of " + batch.size() + " but " + pendingTxns.size() + " applied");
            }
            if (staged != checkpoint) {
                violation("commit's checkpoint is not the one the store got");
            }
            double rate = transientFailureRate;
            if (rate > 0 && ThreadLocalRandom.current().nextDouble() < rate) {
                throw new java.sql.SQLTransientException("simulated transient failure");
            }
            synchronized (SimTarget.this) {
                if (crashed) {
                    throw new IllegalStateException("target is down");
                }
                int n = commits.incrementAndGet();
                if (crashAtCommit > 0 && n >= crashAtCommit) {
                    // Half the time the crash takes this commit with it, half the time it lands just after it.
                    if (ThreadLocalRandom.current().nextBoolean()) {
                        crashed = true;
                        throw new IllegalStateException("target crashed during commit");
                    }
                    crashed = true;
                }
                for (int idx = 0; idx < pendingTxns.size(); idx++) {
                    int i = pendingTxns.get(idx);
                    checkCommitOrder(i);
                    if (committed[i]) {
                        violation("txn " + i + " committed twice");
                    }
                    committed[i] = true;
                    applied[i]++;
                    commitLog.add(i);
                }
                for (Map.Entry<Integer, Long> e : pending.entrySet()) {
                    state[e.getKey()] = e.getValue();
                }
                if (staged != null) {
                    workerRows.put(worker, staged);
                }
            }
            clear();
        }

        private void checkCommitOrder(int i) {
            if (order == CommitOrder.STRICT) {
                for (int p = 1; p < i; p++) {
                    if (!committed[p]) {
                        violation("STRICT: txn " + i + " committed before " + p);
                        return;
                    }
                }
            } else if (order == CommitOrder.PER_PARTITION) {
                List<String> mine = workload.partitionsOf(i);
                for (int p = 1; p < i; p++) {
                    if (committed[p]) {
                        continue;
                    }
                    boolean shared = mine.isEmpty();
                    for (String s : workload.partitions[p]) {
                        shared |= mine.contains(s);
                    }
                    if (shared) {
                        violation("PER_PARTITION: txn " + i + " committed before " + p + " of a shared partition");
                        return;
                    }
                }
            }
        }

        @Override
        public void rollback(Batch<Integer> batch) {
            clear();
        }

        private void clear() {
            pending.clear();
            pendingTxns.clear();
            staged = null;
        }
    }
}
