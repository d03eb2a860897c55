package io.lanes.core;

import io.lanes.core.internal.LongLongHashMap;

/**
 * By writeset, like MySQL's WRITESET dependency tracking: two transactions conflict when their write keys (hashed row
 * keys) meet within a bounded history. A transaction waits for the last writer of each of its keys; when all its
 * unfinished dependencies sit on one worker it queues behind them there (no wait, no global drain), otherwise it goes to
 * the least loaded worker and waits there. One with nothing in flight to wait for goes where
 * {@link SchedulingContext#workerForIdleKey} sends a schema that went idle: back to the worker its rows last ran on when
 * that one is free, else to a free worker. A transaction without write keys is a barrier. When the history is full it
 * is cleared, and every later transaction waits for all transactions before the clearing point (the information about
 * them is gone) until the low-water mark passes it.
 *
 * <p>Runs (issue 19, experimental, off by default): with {@code runLength > 1}, a transaction with nothing in flight to
 * wait for goes to the worker that got the transaction just before it, while that one is still in flight and the run
 * there is shorter than {@code runLength}. Block commit only groups transactions that are consecutive in commit order on
 * one worker; round-robin placement of independent transactions leaves every group one transaction long. Dependencies
 * are recorded exactly as without runs: only the choice of worker for a dependency-free transaction changes.
 *
 * <p>Not thread-safe: the engine calls {@link #schedule} from its one dispatching thread, in sequence order.
 */
public final class WritesetScheduler implements Scheduler {
    /** MySQL's {@code binlog_transaction_dependency_history_size} default. */
    public static final int DEFAULT_HISTORY_SIZE = 25_000;

    private final int historySize;
    private final LongLongHashMap lastWriter;
    /** History entries pack the writer's sequence number above its worker + 1 (0: not known). */
    private static final int WORKER_BITS = 20;
    private static final long WORKER_MASK = (1L << WORKER_BITS) - 1;
    private SchedulingContext ctx;
    private int workers;
    private long floor;
    private final int runLength;
    /** The worker the previous transaction was sent to by this scheduler (-1: the engine chose, or a barrier). */
    private int runWorker = -1;
    private int runCount;

    public WritesetScheduler() {
        this(DEFAULT_HISTORY_SIZE);
    }

    /** @param historySize how many distinct keys to remember before clearing the history */
    public WritesetScheduler(int historySize) {
        this(historySize, 1);
    }

    /**
     * @param historySize how many distinct keys to remember before clearing the history
     * @param runLength how many consecutive dependency-free transactions may be sent to one worker in a row (1: no runs,
     *     every one goes where {@link SchedulingContext#workerForIdleKey} sends it)
     */
    public WritesetScheduler(int historySize, int runLength) {
        if (historySize < 1) {
            throw new IllegalArgumentException("history size < 1: " + historySize);
        }
        if (runLength < 1) {
            throw new IllegalArgumentException("run length < 1: " + runLength);
        }
        this.runLength = runLength;
        this.historySize = historySize;
        this.lastWriter = new LongLongHashMap(Math.min(historySize, 1 << 16));
    }

    @Override
    public void init(SchedulingContext context) {
        this.ctx = context;
        this.workers = context.workerCount();
        if (workers >= WORKER_MASK) {
            throw new IllegalArgumentException("the writeset scheduler supports up to " + (WORKER_MASK - 1) + " workers");
        }
        lastWriter.clear();
        floor = 0;
        runWorker = -1;
        runCount = 0;
    }

    @Override
    public void schedule(Transaction<?> txn, Placement placement) {
        int n = txn.writeKeyCount();
        long seq = placement.sequence();
        if (n == 0) {
            runWorker = -1;
            placement.asBarrier();
            return;
        }
        if (floor > ctx.lowWaterMark()) {
            placement.afterAllUpTo(floor);
        }
        int worker = -1;
        int previousWorker = -1;
        boolean oneWorker = true;
        boolean anyDependency = false;
        for (int i = 0; i < n; i++) {
            long entry = lastWriter.get(txn.writeKey(i));
            long prev = entry >>> WORKER_BITS;
            if (prev > 0 && prev != seq) {
                if (previousWorker < 0) {
                    previousWorker = (int) (entry & WORKER_MASK) - 1;
                }
                int w = ctx.workerOf(prev);
                if (w >= 0) {
                    placement.after(prev);
                    anyDependency = true;
                    if (worker < 0) {
                        worker = w;
                    } else if (w != worker) {
                        oneWorker = false;
                    }
                }
            }
        }
        if (anyDependency && oneWorker) {
            placement.toWorker(worker);
        } else if (!anyDependency && workers > 1) {
            if (runLength > 1 && runWorker >= 0 && runCount < runLength && ctx.workerOf(seq - 1) == runWorker) {
                // Continue the run: consecutive in commit order on one worker, so block commit can group them.
                worker = runWorker;
            } else {
                // Nothing in flight to wait for: as a schema that went idle, back to the worker its rows last ran on
                // when that one is free, else a free worker (so two busy rows never share a worker while one is free).
                worker = ctx.workerForIdleKey(previousWorker);
            }
            placement.toWorker(worker);
        } else {
            worker = -1; // dependencies on several workers: the engine's least loaded worker, which waits there
        }
        if (worker >= 0 && worker == runWorker) {
            runCount++;
        } else {
            runWorker = worker;
            runCount = 1;
        }
        if (lastWriter.size() + n > historySize) {
            // This transaction's dependencies are known; later ones lose sight of everything before it.
            lastWriter.clear();
            floor = seq - 1;
        }
        long entry = (seq << WORKER_BITS) | (worker + 1L);
        for (int i = 0; i < n; i++) {
            lastWriter.put(txn.writeKey(i), entry);
        }
    }

    @Override
    public String name() {
        return "writeset";
    }
}
