package io.lanes.core;

import io.lanes.core.internal.PlacementBase;

import java.util.Arrays;
import java.util.Objects;

/**
 * How much parallelism a {@link Scheduler} would allow on a sequence of transactions, found without applying them: the
 * transactions go through the real scheduler, through a {@link SchedulingContext} and {@link Placement} of this class
 * instead of the engine's, and each is given a depth in the dependency graph that results. The graph holds what the
 * scheduler states and what the engine adds on top of it:
 * <ul>
 *   <li>every {@link Placement#after} and {@link Placement#afterAllUpTo} the scheduler records;</li>
 *   <li>barriers ({@link Transaction#isBarrier()}, {@link Placement#asBarrier()}, and a transaction larger than the
 *       engine's default queue budget, {@link EngineSettings#queueBudgetBytes()}, which the engine runs alone): a
 *       barrier waits for everything before it, and everything after it waits for it;</li>
 *   <li>worker order, for a transaction that states no wait: a worker runs its queue in order, so such a transaction
 *       waits for the transaction queued before it on its worker. This is how the {@link SequentialScheduler} orders
 *       everything (all on worker 0); a transaction sent to a worker nothing was queued on waits for nothing there.</li>
 * </ul>
 * A transaction that states its waits is taken to wait for those only. Where such a transaction is queued (the
 * {@link PartitionScheduler} and the {@link WritesetScheduler} put it beside what it waits for, to save a hand-off
 * between workers) decides what else it queues behind, and that depends on which earlier transactions have committed
 * when it is dispatched, which a simulation where nothing commits early cannot know: counting it would keep every
 * update of rows a bulk insert wrote queued behind that insert on its one worker, which no engine does once the insert
 * has committed.
 *
 * <p>With unit cost per transaction and unlimited workers, a transaction's depth is one more than the deepest transaction
 * it waits for; the critical path is the greatest depth, and the parallelism the number of transactions divided by it.
 *
 * <p>The model: nothing in flight ever commits early. The context reports no transaction committed (the low-water mark
 * stays 0), so the scheduler states every dependency it knows of, and every stated dependency counts: this is what the
 * scheduler with these settings imposes when the source runs ahead of the target, not what a slow source lets a fast
 * target get away with. So a {@link WritesetScheduler} whose history fills up makes every later transaction wait for
 * everything before the point where it was cleared (as the real one does until the low-water mark passes that point).
 * Not modelled: the commit order, the checkpoint group window and the memory budget's waits, which bound how far the
 * engine runs ahead rather than what depends on what.
 *
 * <p>Workers: the context offers {@link #WORKERS} of them. Whenever the scheduler asks for a free or least loaded one,
 * or leaves the choice to the engine, it gets one nothing was queued on yet, as unlimited workers would give; only
 * once all have been used does it get the one whose queue ends earliest (the least deep last transaction), which
 * can then make a transaction that states no wait wait where unlimited workers would not.
 *
 * <p>Memory: a few bytes per transaction fed (its depth and worker), plus what the scheduler keeps, which, with
 * nothing ever committed, is never trimmed: the {@link LogicalClockScheduler} remembers every transaction's source
 * sequence number until the numbering restarts.
 *
 * <p>Not thread-safe: one thread feeds the transactions, in source order. The scheduler belongs to the simulation
 * (it is initialised by the constructor) and must not serve an engine at the same time.
 */
public final class ScheduleSimulation {
    /** The workers the context offers: more than any engine runs, and within the {@link WritesetScheduler}'s limit. */
    public static final int WORKERS = 1 << 19;

    private final Scheduler scheduler;
    private final long queueBudgetBytes;
    private final SimulatedPlacement placement = new SimulatedPlacement();
    private final SimulatedWorkers workers = new SimulatedWorkers();

    /** Indexed by sequence number (1-based): each transaction's depth, the deepest up to it, and its worker. */
    private int[] depth = new int[1024];
    private int[] deepestUpTo = new int[1024];
    private int[] workerOf = new int[1024];
    private int transactions;
    private long barrierFloor;
    private long barriers;

    /** Simulates {@code scheduler} under the engine's default queue budget; initialises the scheduler. */
    public ScheduleSimulation(Scheduler scheduler) {
        this(scheduler, EngineSettings.defaults().queueBudgetBytes());
    }

    /**
     * @param scheduler the policy; initialised here, and used by this simulation only
     * @param queueBudgetBytes the engine's queue budget: a transaction larger than this runs alone (a barrier)
     */
    public ScheduleSimulation(Scheduler scheduler, long queueBudgetBytes) {
        if (queueBudgetBytes < 1) {
            throw new IllegalArgumentException("budget < 1: " + queueBudgetBytes);
        }
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.queueBudgetBytes = queueBudgetBytes;
        scheduler.init(new SimulatedContext());
    }

    /**
     * Places the next transaction in source order: its sequence number is one more than the previous one's (the first
     * is 1), as in the engine.
     *
     * @return its depth: 1 for a transaction that waits for nothing
     * @throws IllegalArgumentException when the scheduler names a later transaction or a worker out of range
     */
    public int add(Transaction<?> txn) {
        Objects.requireNonNull(txn, "txn");
        if (transactions == Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("too many transactions to simulate: " + transactions);
        }
        int seq = transactions + 1;
        ensureCapacity(seq);
        placement.reset(seq);
        scheduler.schedule(txn, placement);
        if (placement.worker() >= WORKERS) {
            throw new IllegalArgumentException(scheduler.name() + " placed transaction " + seq + " on worker "
                    + placement.worker() + " of " + WORKERS);
        }
        boolean barrier = txn.isBarrier() || placement.isBarrier() || txn.sizeBytes() > queueBudgetBytes;
        int waitsFor = placement.dependencyDepth;
        // The engine's own waits: a barrier (and a transaction that starts after all before it) starts after everything
        // before it; anything else after the last barrier.
        long upTo = barrier || txn.startsAfterAllBefore() ? seq - 1 : barrierFloor;
        if (upTo > 0) {
            waitsFor = Math.max(waitsFor, deepestUpTo[(int) upTo]);
        }
        int worker = placement.worker() >= 0 ? placement.worker() : workers.free();
        if (!placement.statesWaits) {
            waitsFor = Math.max(waitsFor, workers.tailDepth(worker));
        }
        int d = waitsFor + 1;
        depth[seq] = d;
        deepestUpTo[seq] = Math.max(deepestUpTo[seq - 1], d);
        workerOf[seq] = worker;
        workers.queue(worker, d);
        transactions = seq;
        if (barrier) {
            barrierFloor = seq;
            barriers++;
        }
        return d;
    }

    /** The simulated scheduler's {@link Scheduler#name()}. */
    public String schedulerName() {
        return scheduler.name();
    }

    /** Transactions added. */
    public long transactions() {
        return transactions;
    }

    /** Transactions that ran as barriers: marked so, made so by the scheduler, or larger than the queue budget. */
    public long barriers() {
        return barriers;
    }

    /** The length of the longest chain of waits, in transactions (unit cost); 0 before any transaction. */
    public long criticalPath() {
        return deepestUpTo[transactions];
    }

    /** Transactions per step of the critical path: the speed-up over one at a time with unlimited workers; 0 when empty. */
    public double parallelism() {
        long path = criticalPath();
        return path == 0 ? 0 : (double) transactions / path;
    }

    @Override
    public String toString() {
        return "ScheduleSimulation{" + scheduler.name() + ", transactions=" + transactions + ", criticalPath="
                + criticalPath() + '}';
    }

    private void ensureCapacity(int seq) {
        if (seq < depth.length) {
            return;
        }
        int n = (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(seq + 1L, depth.length * 2L));
        depth = Arrays.copyOf(depth, n);
        deepestUpTo = Arrays.copyOf(deepestUpTo, n);
        workerOf = Arrays.copyOf(workerOf, n);
    }

    /** The engine's view of the in-flight window, with nothing ever committed. */
    private final class SimulatedContext implements SchedulingContext {
        @Override
        public int workerCount() {
            return WORKERS;
        }

        @Override
        public boolean isCommitted(long sequence) {
            return sequence <= 0;
        }

        @Override
        public int workerOf(long sequence) {
            return sequence > 0 && sequence <= transactions ? workerOf[(int) sequence] : -1;
        }

        @Override
        public int leastLoadedWorker() {
            return workers.free();
        }

        @Override
        public int workerForIdleKey(int previous) {
            // The previous worker still has the key's last transaction in flight (nothing commits): a free one.
            return workers.free();
        }

        @Override
        public int pendingTransactions(int worker) {
            return workers.queued(worker);
        }

        @Override
        public long lowWaterMark() {
            return 0;
        }
    }

    /** The one placement, reused per transaction; it folds each stated wait into the depth it imposes at once. */
    private final class SimulatedPlacement extends PlacementBase {
        /** Whether the scheduler stated any wait on an earlier transaction. */
        boolean statesWaits;
        int dependencyDepth;

        @Override
        protected void reset(long s) {
            super.reset(s);
            statesWaits = false;
            dependencyDepth = 0;
        }

        @Override
        public Placement after(long s) {
            return waitFor(s, depth);
        }

        @Override
        public Placement afterAllUpTo(long s) {
            return waitFor(s, deepestUpTo);
        }

        /** Folds in a wait for transaction {@code s}, as deep as {@code depthOf[s]} says. */
        private Placement waitFor(long s, int[] depthOf) {
            checkEarlier(s);
            if (s > 0) {
                statesWaits = true;
                dependencyDepth = Math.max(dependencyDepth, depthOf[(int) s]);
            }
            return this;
        }
    }

    /**
     * The workers' queues: the depth of the last transaction queued on each, and how many were queued; a worker never
     * queued on is free. Once every worker has been used, the free one is the worker whose last transaction is the
     * least deep, kept at the top of a binary min-heap of the used workers.
     */
    private static final class SimulatedWorkers {
        private int[] tailDepth = new int[64];
        private int[] queued = new int[64];
        /** Used workers, ordered as a min-heap by tailDepth; position[w] is w's index in it plus 1 (0: unused). */
        private int[] heap = new int[64];
        private int[] position = new int[64];
        private int used;
        /** No worker below this is unused. */
        private int nextUnused;

        int tailDepth(int w) {
            return w < tailDepth.length ? tailDepth[w] : 0;
        }

        int queued(int w) {
            return w < queued.length ? queued[w] : 0;
        }

        /** A worker nothing was queued on, else the one whose last transaction is the least deep. */
        int free() {
            while (nextUnused < WORKERS && nextUnused < position.length && position[nextUnused] != 0) {
                nextUnused++;
            }
            return nextUnused < WORKERS ? nextUnused : heap[0];
        }

        void queue(int w, int depth) {
            if (w >= tailDepth.length) {
                int n = Math.min(WORKERS, Math.max(w + 1, tailDepth.length * 2));
                tailDepth = Arrays.copyOf(tailDepth, n);
                queued = Arrays.copyOf(queued, n);
                heap = Arrays.copyOf(heap, n);
                position = Arrays.copyOf(position, n);
            }
            tailDepth[w] = depth;
            queued[w]++;
            if (position[w] == 0) {
                heap[used] = w;
                position[w] = used + 1;
                used++;
                siftUp(used - 1);
            } else {
                siftDown(position[w] - 1); // a worker's queue only grows deeper
            }
        }

        private void siftUp(int i) {
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (tailDepth[heap[parent]] <= tailDepth[heap[i]]) {
                    return;
                }
                swap(i, parent);
                i = parent;
            }
        }

        private void siftDown(int i) {
            for (;;) {
                int smallest = i;
                int l = 2 * i + 1;
                int r = l + 1;
                if (l < used && tailDepth[heap[l]] < tailDepth[heap[smallest]]) {
                    smallest = l;
                }
                if (r < used && tailDepth[heap[r]] < tailDepth[heap[smallest]]) {
                    smallest = r;
                }
                if (smallest == i) {
                    return;
                }
                swap(i, smallest);
                i = smallest;
            }
        }

        private void swap(int i, int j) {
            int a = heap[i];
            int b = heap[j];
            heap[i] = b;
            heap[j] = a;
            position[b] = i + 1;
            position[a] = j + 1;
        }
    }
}
