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

    public WritesetScheduler() {
        this(DEFAULT_HISTORY_SIZE);
    }

    /** @param historySize how many distinct keys to remember before clearing the history */
    public WritesetScheduler(int historySize) {
        if (historySize < 1) {
            throw new IllegalArgumentException("history size < 1: " + historySize);
        }
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
    }

    @Override
    public void schedule(Transaction<?> txn, Placement placement) {
        int n = txn.writeKeyCount();
        long seq = placement.sequence();
        if (n == 0) {
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
            // Nothing in flight to wait for: as a schema that went idle, back to the worker its rows last ran on when
            // that one is free, else a free worker (so two busy rows never share a worker while one is free).
            worker = ctx.workerForIdleKey(previousWorker);
            placement.toWorker(worker);
        } else {
            worker = -1; // dependencies on several workers: the engine's least loaded worker, which waits there
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
