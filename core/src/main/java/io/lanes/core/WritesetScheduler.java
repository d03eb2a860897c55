package io.lanes.core;

import io.lanes.core.internal.LongLongHashMap;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * By writeset, like MySQL's WRITESET dependency tracking: two transactions conflict when their write keys (hashed row
 * keys) meet. A transaction waits for the last in-flight writer of each of its keys; when all its unfinished
 * dependencies sit on one worker it queues behind them there (no wait, no global drain), otherwise it goes to the least
 * loaded worker and waits there. One with nothing in flight to wait for goes where
 * {@link SchedulingContext#workerForIdleKey} sends a schema that went idle: back to the worker its rows last ran on when
 * that one is free, else to a free worker. A transaction without write keys is a barrier.
 *
 * <p>History: only writers that have not committed can make a later transaction wait, so when the history would grow
 * past {@code historySize} keys the keys of committed writers (at or below the low-water mark) are dropped first, at a
 * cost linear in the history and amortised by letting the next drop wait until the history has doubled. Only when the
 * keys of transactions still in flight exceed {@link #IN_FLIGHT_HISTORY_FACTOR} times the history size is the history
 * cleared, like MySQL's (binlog_transaction_dependency_history_size), and every later transaction waits for all
 * transactions before the clearing point (the information about them is gone) until the low-water mark passes it. So a
 * bulk transaction larger than the history no longer makes everything after it wait for it.
 *
 * <p>Runs (issue 19): under a commit order ({@link SchedulingContext#commitOrder()} other than
 * {@link CommitOrder#NONE}), block commit can only group transactions whose commit-order predecessors have committed or
 * sit in the same group; placing each transaction on whichever worker is free leaves every group one transaction long,
 * one target commit per source transaction. With {@code runLength > 1} a transaction goes to the worker holding its
 * predecessor in the commit order while that one is in flight, up to {@code runLength} in a row; then the next run
 * starts on a free worker, so runs apply in parallel and each commits as one target transaction (with no worker free,
 * the run goes on where it is: moving it to a busy worker would only tie two runs' commits together; and so it does
 * while the machine's processors have no time to spare, {@link SchedulingContext#processorsToSpare()}, where the free
 * worker could not apply it sooner and would only split the block commits; and while most of the run's transactions
 * waited for one still in flight when placed, a sign that the next run would wait for this one on the free worker
 * rather than apply beside it). The predecessor is the
 * transaction just before it under {@link CommitOrder#STRICT}, and the previous transaction of its schema under
 * {@link CommitOrder#PER_PARTITION}: there each schema has its run, and schemas commit side by side as under the
 * partition scheduler, which matters when commits are durable and many schemas are busy (one run in source order for
 * all schemas made every commit wait for the one before it: a third of the throughput on issue 19's workload 4). A
 * transaction of several schemas continues one of their runs and joins them on its worker. A transaction with
 * dependencies joins its run too: its dependencies precede it in source order, and under a commit order a run cannot
 * commit before them anyway, so waiting for them there costs no parallelism the commit order had not already taken.
 * Dependencies are recorded exactly as without runs; only the choice of worker changes. Without a commit order there
 * are no runs (block commit groups whatever is ready there).
 *
 * <p>Not thread-safe: the engine calls {@link #schedule} from its one dispatching thread, in sequence order.
 */
public final class WritesetScheduler implements Scheduler {
    /** MySQL's {@code binlog_transaction_dependency_history_size} default. */
    public static final int DEFAULT_HISTORY_SIZE = 25_000;
    /**
     * The run length {@link #WritesetScheduler()} uses (measured against 1 and 16 on issue 19's workloads:
     * docs/commit-order.md). It was the engine's default block commit when chosen; the block commit default became 256
     * later, measured with runs of 64 (a run still grows past 64 where it is while no worker is free), so it stays.
     */
    public static final int DEFAULT_RUN_LENGTH = 64;
    /**
     * How many times the history size the keys of in-flight writers may reach before the history is cleared: their
     * transactions are held in memory anyway (bounded by the engine's queue budget), so their keys cost in proportion.
     */
    public static final int IN_FLIGHT_HISTORY_FACTOR = 8;

    private final int historySize;
    /** Each key's last writer: its sequence number. */
    private final LongLongHashMap lastWriter;
    /**
     * The worker of each of the last {@code WORKER_RING_MASK + 1} transactions, by sequence number modulo its size: the
     * sequence number packed above the worker + 1 (0: the engine's choice). A key's last writer that has committed
     * still tells where its rows ran (a transaction with nothing in flight to wait for goes back there when free).
     */
    private final long[] workerRing = new long[WORKER_RING_MASK + 1];
    private static final int WORKER_RING_MASK = (1 << 16) - 1;
    private static final int WORKER_BITS = 20;
    private static final long WORKER_MASK = (1L << WORKER_BITS) - 1;
    private SchedulingContext ctx;
    private int workers;
    private long floor;
    /** The history size at which committed writers' keys are dropped next. */
    private long dropAt;
    private final int runLength;
    /** Under {@link CommitOrder#STRICT}: the one run of transactions consecutive in source order. */
    private final Run sourceOrderRun = new Run();
    /** Under {@link CommitOrder#PER_PARTITION}: each partition key's (schema's) run. */
    private final Map<String, Run> partitionRuns = new HashMap<>();

    /** Transactions consecutive in a commit order, on one worker. */
    private static final class Run {
        /** -1: no run. */
        int worker = -1;
        /** The run's last transaction. */
        long last;
        int length;
        /** How many of the run's transactions waited for one still in flight when placed. */
        int dependent;
    }

    /** The default history size and {@link #DEFAULT_RUN_LENGTH}. */
    public WritesetScheduler() {
        this(DEFAULT_HISTORY_SIZE, DEFAULT_RUN_LENGTH);
    }

    /** @param historySize how many distinct keys to remember before dropping committed writers' keys (no runs) */
    public WritesetScheduler(int historySize) {
        this(historySize, 1);
    }

    /**
     * @param historySize how many distinct keys to remember before dropping committed writers' keys
     * @param runLength how many transactions consecutive in the commit order may be sent to one worker in a row under a
     *     commit order (1: no runs, every dependency-free one goes where {@link SchedulingContext#workerForIdleKey}
     *     sends it)
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
        Arrays.fill(workerRing, 0);
        floor = 0;
        dropAt = historySize;
        sourceOrderRun.worker = -1;
        partitionRuns.clear();
    }

    @Override
    public void schedule(Transaction<?> txn, Placement placement) {
        int n = txn.writeKeyCount();
        long seq = placement.sequence();
        if (n == 0) {
            sourceOrderRun.worker = -1;
            partitionRuns.clear();
            placement.asBarrier();
            return;
        }
        if (floor > ctx.lowWaterMark()) {
            placement.afterAllUpTo(floor);
        }
        // Committed writers' keys are dropped before the look-ups, so that each key is looked up and recorded in one
        // probe of the history (issue 19, round 21: the two passes were most of the default's extra work on a short
        // log); only when the history must be cleared are this transaction's keys looked up first and recorded after.
        boolean clearAfter = makeRoom(n);
        long[] keys = txn.writeKeysShared();
        int worker = -1;
        int previousWorker = -1;
        boolean oneWorker = true;
        boolean anyDependency = false;
        long lastPrev = 0;
        for (int i = 0; i < n; i++) {
            long prev = clearAfter ? lastWriter.get(keys[i]) : lastWriter.put(keys[i], seq);
            // Rows last written by the same transaction come in a row (a bulk update of one earlier insert's rows):
            // one wait for it and one look-up of its worker, not one per row (the engine also keeps a repeated wait
            // once, but only after this loop has looked it up again). A key this transaction repeats finds itself.
            if (prev > 0 && prev != seq && prev != lastPrev) {
                lastPrev = prev;
                if (previousWorker < 0) {
                    previousWorker = workerItRanOn(prev);
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
        CommitOrder order = runLength > 1 && workers > 1 ? ctx.commitOrder() : CommitOrder.NONE;
        Run continued = order == CommitOrder.NONE ? null : runToContinue(txn, seq, order);
        int freeWorker = -1;
        if (continued != null && continued.length >= runLength && 2 * continued.dependent <= continued.length
                && ctx.processorsToSpare()) {
            // A full run moves to a free worker; with none free, moving would only tie two runs' commits together, and
            // with no processor to spare the free worker could not apply it sooner (it would only split the blocks).
            // Nor while most of the run's transactions waited for one still in flight: its next run would wait on the
            // free worker for this one's (issue 19's w2 at 30,000 transactions, one schema's sysbench oltp_write_only:
            // each move handed the run over between workers that applied nothing side by side, achieved parallelism
            // 0.98, every worker waiting a third of its time, more and shorter block commits than the schema
            // scheduler's one worker).
            // The processors are asked first: the engine's free worker comes off its list of idle workers (it is about
            // to get work), so it is asked for only where the run may move there.
            int free = ctx.workerForIdleKey(continued.worker);
            if (free != continued.worker && ctx.pendingTransactions(free) == 0) {
                freeWorker = free;
                continued = null;
            }
        }
        if (continued != null) {
            // Consecutive in the commit order on one worker: block commit can group them.
            worker = continued.worker;
            placement.toWorker(worker);
        } else if (freeWorker >= 0) {
            worker = freeWorker;
            placement.toWorker(worker);
        } else if (anyDependency && oneWorker) {
            placement.toWorker(worker);
        } else if (!anyDependency && workers > 1) {
            // Nothing in flight to wait for: as a schema that went idle, back to the worker its rows last ran on
            // when that one is free, else a free worker (so two busy rows never share a worker while one is free).
            worker = ctx.workerForIdleKey(previousWorker);
            placement.toWorker(worker);
        } else {
            worker = -1; // dependencies on several workers: the engine's least loaded worker, which waits there
        }
        if (order != CommitOrder.NONE) {
            int dependent = anyDependency ? 1 : 0;
            extendRuns(txn, seq, order, worker, continued == null ? 1 : continued.length + 1,
                    continued == null ? dependent : continued.dependent + dependent);
        }
        workerRing[(int) seq & WORKER_RING_MASK] = (seq << WORKER_BITS) | (worker + 1L);
        if (clearAfter) {
            // This transaction's dependencies are known; later ones lose sight of everything before it.
            lastWriter.clear();
            dropAt = historySize;
            floor = seq - 1;
            for (int i = 0; i < n; i++) {
                lastWriter.put(keys[i], seq);
            }
        }
    }

    /**
     * The run this transaction continues: under {@link CommitOrder#STRICT} the source-order run when the transaction
     * just before it is its last and still in flight there; under {@link CommitOrder#PER_PARTITION} the first of its
     * schemas' runs whose last transaction is still in flight there. Null when none.
     */
    private Run runToContinue(Transaction<?> txn, long seq, CommitOrder order) {
        if (order == CommitOrder.STRICT) {
            return sourceOrderRun.last == seq - 1 && open(sourceOrderRun) ? sourceOrderRun : null;
        }
        for (int i = 0; i < txn.partitionKeyCount(); i++) {
            Run r = partitionRuns.get(txn.partitionKey(i));
            if (r != null && open(r)) {
                return r;
            }
        }
        return null;
    }

    /** The run's last transaction is still in flight on its worker (full or not). */
    private boolean open(Run r) {
        return r.worker >= 0 && ctx.workerOf(r.last) == r.worker;
    }

    /**
     * Records the transaction as the last of its runs: the source-order run, or each of its schemas' runs (a
     * transaction of several schemas joins them into one run on its worker, as the partition scheduler moves them).
     */
    private void extendRuns(Transaction<?> txn, long seq, CommitOrder order, int worker, int length, int dependent) {
        if (order == CommitOrder.STRICT) {
            set(sourceOrderRun, worker, seq, length, dependent);
            return;
        }
        if (partitionRuns.size() > 4096) {
            partitionRuns.clear(); // a log of very many schemas: forget the runs rather than grow without bound
        }
        for (int i = 0; i < txn.partitionKeyCount(); i++) {
            set(partitionRuns.computeIfAbsent(txn.partitionKey(i), k -> new Run()), worker, seq, length, dependent);
        }
    }

    private static void set(Run r, int worker, long seq, int length, int dependent) {
        r.worker = worker;
        r.last = seq;
        r.length = worker < 0 ? 0 : length;
        r.dependent = worker < 0 ? 0 : dependent;
    }

    /**
     * Before a transaction of {@code n} keys is looked up: drops committed writers' keys once the history would grow past
     * {@code dropAt}. True when even then the keys of writers in flight would exceed {@link #IN_FLIGHT_HISTORY_FACTOR}
     * times the history size: the history is to be cleared once this transaction's keys have been looked up.
     */
    private boolean makeRoom(int n) {
        if (lastWriter.size() + n <= dropAt) {
            return false;
        }
        // Entries hold the writer's sequence number: one at or below the low-water mark has committed.
        lastWriter.removeValuesBelow(ctx.lowWaterMark() + 1);
        dropAt = Math.max(historySize, 2L * lastWriter.size());
        return lastWriter.size() + n > (long) IN_FLIGHT_HISTORY_FACTOR * historySize;
    }

    /** The worker a transaction was placed on (-1: the engine's choice, or too long ago to remember). */
    private int workerItRanOn(long seq) {
        long entry = workerRing[(int) seq & WORKER_RING_MASK];
        return entry >>> WORKER_BITS == seq ? (int) (entry & WORKER_MASK) - 1 : -1;
    }

    @Override
    public String name() {
        return "writeset";
    }
}
