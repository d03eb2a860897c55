package io.lanes.core.internal;

import io.lanes.core.Applier;
import io.lanes.core.ApplierFactory;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import io.lanes.core.WaitState;
import io.lanes.core.WorkerStats;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker: takes tasks from its queue in order, waits for their dependencies, applies consecutive ones into one
 * target transaction (a batch), waits for commit order, commits with its checkpoint, marks them committed.
 *
 * <p>The rule that keeps workers from deadlocking each other: a worker never waits while its open batch could be needed
 * by someone else. A task joins the open batch only if everything it waits for (start and commit) has committed or is in
 * the batch; otherwise the batch is committed first. The only wait with an open batch is the commit-order wait of the
 * batch's first transaction, whose predecessors are all older than every transaction in the batch and so never wait for
 * it. A target-level lock between them (a commit-order deadlock: an earlier transaction, on another worker, waits in
 * the target for a lock this batch holds) is found within milliseconds by asking the target's lock views
 * ({@link Applier#sessionsWaitingForThis}) while the wait lasts, or else broken by {@code commitOrderTimeout}: either way
 * this, the later batch, is rolled back, waits for its predecessors holding nothing, and is applied again. The earlier
 * transaction is never the one rolled back.
 *
 * <p>What it may ask of the engine goes through its {@link WorkerHost}; the settings it reads are copied into final
 * fields when it is made ({@link WorkerSetup}). Threads: the worker's own thread runs {@link #runThread}; with 0
 * workers the dispatching thread drives it instead through the inline methods ({@link InlineExecutor}). The dispatching
 * thread hands it work ({@link #offer}, {@link #wakeIfParked}); the fields read by others are volatile and say who
 * writes them.
 */
final class Worker<P> {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    private static final int SPINS_BEFORE_PARK = 100;
    /** The longest a hot worker with cheap work spins for its next transaction before parking. */
    private static final long HOT_SPIN_NANOS = 50_000;
    /** This worker's current spin limit (see spinNanos); its own thread only. */
    private long spinBudgetNanos = HOT_SPIN_NANOS;
    /** Time the open batch spent waiting for its next transaction (awaitNextWhileCheap, lingerForNext); own thread only. */
    private long waitedInBatchNanos;
    /** The longest an open batch lingers for its next transaction (lingerForNext). */
    static final long LINGER_MAX_NANOS = 1_000_000;
    /** Below this a linger is not worth the sleep (a wake-up from a timed park costs about as much). */
    static final long LINGER_MIN_NANOS = 20_000;
    /** A lingering worker looks again this often whether it should stop (a peer started waiting, the engine halts). */
    private static final long LINGER_SLICE_NANOS = 100_000;
    /** This worker's current linger limit (see lingerForNext); its own thread only. */
    private long lingerBudgetNanos = LINGER_MAX_NANOS / 4;
    /** Moving average of the time this worker's commits took (the last statements flushed and the commit); own thread. */
    private long commitNanos;
    private static final WaitState[] STATES = WaitState.values();

    final int id;
    private final WorkerHost host;
    private final InFlightWindow window;
    private final ApplierFactory<P> applierFactory;
    private final CheckpointStore store;
    /** The placement whose estimates this worker feeds and reads (see WorkerSetup); its choices are not made here. */
    private final WorkerPlacement<P> placement;
    private final IdleWorkers idle;
    private final WorkerCounters counters;
    /** Every worker of the engine (this one included), for the commit-order deadlock check. */
    private final Worker<P>[] peers;
    private final long[] recoveredSkips;
    private final int maxBatch;
    private final int maxRetries;
    private final long retryBackoffNanos;
    private final long retryMaxBackoffNanos;
    /** The commit-order wait of the open batch's first transaction, with its deadlock probe. */
    private final CommitOrderGate<P> commitOrder;
    private final TaskQueue<P> queue = new TaskQueue<>();
    private volatile Thread thread;
    /**
     * True while this worker's thread is parked or about to park, and before its thread has started (placing work there
     * costs a thread start, as a wake-up does). Written by its own thread, and by the dispatching thread when it wakes
     * it ({@link #wakeIfParked}); read by placement.
     */
    volatile boolean parked = true;
    /** Set once when the thread is started, or when the engine shuts down first (it then never starts). */
    private final java.util.concurrent.atomic.AtomicBoolean launched = new java.util.concurrent.atomic.AtomicBoolean();
    private Applier<P> applier;
    /** The same applier, for other workers' commit-order deadlock checks (Applier#targetSession is thread-safe). */
    private volatile Applier<P> sharedApplier;
    /**
     * Sequence number of the open batch's first transaction, Long.MAX_VALUE with none; written by this worker's thread,
     * read by others looking for the worker their open batch blocks.
     */
    volatile long openBatchFirst = Long.MAX_VALUE;

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Task<P>[] batch = new Task[16];
    private int batchSize;
    private int batchAttempts;
    private final BatchView<P> batchView = new BatchView<>();
    private final WorkerApplyContext context;

    /** Sequence numbers this worker committed beyond the published low-water mark. */
    private final CommittedSequences done = new CommittedSequences();

    /** Transactions committed; read by the dispatcher to compute this worker's load. */
    volatile long finished;
    /** When the current step (an apply, a wait, a wake-up) began: a worker long in one step is not a place for work. */
    volatile long stepStartedAt = System.nanoTime();
    private static final java.lang.invoke.VarHandle STEP;

    static {
        try {
            STEP = java.lang.invoke.MethodHandles.lookup().findVarHandle(Worker.class, "stepStartedAt", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** Moving average of this worker's time per transaction; pessimistic until it has committed something. */
    volatile long serviceNanos = 1_000_000;
    private long batchStartedAt;
    /** Set by the dispatcher when it unparks this worker (wakeIfParked), to measure wake-up time. */
    volatile long wakeRequestedAt;
    private volatile long bytes;
    private volatile long commits;
    private final AtomicLongArray times = new AtomicLongArray(STATES.length);
    private volatile WaitState state = WaitState.IDLE;
    private volatile long stateSince = System.nanoTime();

    Worker(int id, WorkerSetup<P> setup) {
        this.id = id;
        this.context = new WorkerApplyContext(id, this::dependsOnEarlierInBatch);
        RuntimeConfig<P> config = setup.config();
        this.host = setup.host();
        this.window = setup.window();
        this.applierFactory = config.applierFactory();
        this.store = config.store();
        this.placement = setup.placement();
        this.idle = setup.idle();
        this.counters = setup.counters();
        this.peers = setup.peers();
        this.recoveredSkips = setup.recoveredSkips();
        this.maxBatch = config.maxBatch();
        this.maxRetries = config.maxRetries();
        this.retryBackoffNanos = config.retryBackoffNanos();
        this.retryMaxBackoffNanos = config.retryMaxBackoffNanos();
        this.commitOrder = new CommitOrderGate<>(this, peers, window, host, this::halted,
                config.commitOrderTimeoutNanos(), config.commitOrderDeadlockDetection());
    }

    /** The wait state this worker is in; any thread. */
    WaitState state() {
        return state;
    }

    /** This worker's applier: its own thread only (null before it is created and after it is closed). */
    Applier<P> applier() {
        return applier;
    }

    /** The same applier as seen by other workers (its {@link Applier#targetSession} is thread-safe); null before. */
    Applier<P> sharedApplier() {
        return sharedApplier;
    }

    /** True for the one caller that may start this worker's thread (or, at shutdown, count it as never started). */
    boolean claimLaunch() {
        return !launched.get() && launched.compareAndSet(false, true);
    }

    boolean launched() {
        return launched.get();
    }

    /** Queues a task; the dispatching thread only (the queue's one producer). */
    void offer(Task<P> t) {
        queue.offer(t);
    }

    /**
     * The dispatching thread, after {@link #offer}: wakes this worker if it is parked (or not started yet: then the
     * unpark is a no-op and the thread starting finds the task). It counts as awake from now on, so the next placements
     * pack onto it instead of waking another worker.
     */
    void wakeIfParked() {
        if (parked) {
            long now = System.nanoTime();
            parked = false;
            stepStartedAt = now;
            wakeRequestedAt = now;
            LockSupport.unpark(thread);
        }
    }

    /** Any thread (halt, shutdown): unparks this worker's thread if it has one, so that it sees the engine's state. */
    void unpark() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    // ---------------------------------------------------------------- thread body

    /**
     * The worker's thread body: creates the applier (counting {@code started} down once that is done or failed), then
     * takes and applies work until the engine halts or shuts down, and closes the applier.
     */
    void runThread(CountDownLatch started) {
        thread = Thread.currentThread();
        stateSince = System.nanoTime();
        try {
            try {
                applier = applierFactory.create(id);
                sharedApplier = applier;
            } catch (Throwable e) {
                host.fail(-1, null, id, "applier for worker " + id + " could not be created", e);
                return;
            } finally {
                started.countDown();
            }
            wakeRequestedAt = 0; // a thread start (and the applier's creation) is not a wake-up to learn from
            loop();
        } catch (Throwable e) {
            host.fail(batchSize > 0 ? batch[0].seq : -1, batchSize > 0 ? batch[0].txn.position() : null, id,
                    "worker " + id + " died", e);
            rollbackQuietly();
        } finally {
            closeApplier();
            enter(WaitState.STOPPED);
        }
    }

    /** With 0 workers: the dispatching thread creates the applier. */
    void openInline() throws Exception {
        thread = Thread.currentThread();
        applier = applierFactory.create(id);
    }

    void closeApplier() {
        if (applier != null) {
            try {
                applier.close();
            } catch (Throwable e) {
                LOG.warn("worker {}: closing the applier failed", id, e);
            }
            applier = null;
        }
    }

    private void loop() {
        for (;;) {
            Task<P> t = queue.peek();
            if (t == null) {
                if (host.halted() || host.workersMayExit()) {
                    rollbackQuietly();
                    return;
                }
                idle();
                continue;
            }
            if (halted()) {
                rollbackQuietly();
                return;
            }
            if (batchSize > 0 && !canJoin(t) && !commitBatch()) {
                return;
            }
            if (batchSize == 0 && !awaitStart(t)) {
                return;
            }
            queue.remove(t);
            addToBatch(t);
            Task<P> next = queue.peek();
            if (next == null && !t.barrier && batchSize < maxBatch) {
                next = awaitNextWhileCheap();
                if (next == null) {
                    next = lingerForNext();
                }
            }
            boolean end = t.barrier || batchSize >= maxBatch || next == null || !canJoin(next);
            if (!applyTask(t, end)) {
                return;
            }
            if (end && !commitBatch()) {
                return;
            }
        }
    }

    /**
     * With 0 workers: applies one task on the calling (dispatching) thread into the open batch, which stays open across
     * calls (block commit, as on a worker): it is committed here when it reaches the block-commit size or before a task
     * that cannot join it (a barrier, or one whose predecessors are neither committed nor in the batch), and a barrier
     * is committed alone at once. The dispatcher commits it otherwise through {@link #flushInline}.
     *
     * @return false when the engine failed
     */
    boolean runInline(Task<P> t) {
        if (batchSize > 0 && !canJoin(t) && !commitBatch()) {
            return false;
        }
        addToBatch(t);
        boolean end = t.barrier || batchSize >= maxBatch;
        if (!applyTask(t, end)) {
            return false;
        }
        return !end || commitBatch();
    }

    /** With 0 workers, on the dispatching thread: commits the open batch, if any; false when the engine failed. */
    boolean flushInline() {
        return batchSize == 0 || commitBatch();
    }

    /** With 0 workers, on the dispatching thread: true when a batch is open and was opened {@code nanos} or more ago. */
    boolean inlineBatchOlderThan(long nanos, long now) {
        return batchSize > 0 && now - batchStartedAt >= nanos;
    }

    boolean hasOpenBatch() {
        return batchSize > 0;
    }

    /** With 0 workers, when the engine is aborted: undoes the open batch (the applier is closed next). */
    void rollbackInline() {
        rollbackQuietly();
    }

    /**
     * For a hot worker fed cheap work whose queue ran dry with a batch open: the next transaction, if it comes within
     * one wake-up's time (at most {@link #HOT_SPIN_NANOS}), else null. The batch then takes it instead of committing
     * alone: with an apply cheaper than a commit, ending a batch whenever the worker outpaced the dispatcher for a moment
     * meant one commit per transaction (a pipeline with workers ran slower than with none, which keeps its batch
     * open across transactions).
     */
    private Task<P> awaitNextWhileCheap() {
        if (id >= EngineRuntime.HOT_WORKERS || !placement.isCheap()) {
            return null;
        }
        long from = System.nanoTime();
        long until = from + spinNanos();
        for (int i = 1;; i++) {
            Task<P> next = queue.peek();
            if (next != null) {
                spun(true);
                waitedInBatchNanos += System.nanoTime() - from;
                return next;
            }
            if ((i & 63) == 0 && (System.nanoTime() - until >= 0 || host.halted())) {
                spun(false);
                waitedInBatchNanos += System.nanoTime() - from;
                return null;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * For a worker whose queue ran dry with a batch open, where a commit costs more than a sleep: waits, asleep, up to
     * the time its commits take (at most {@link #LINGER_MAX_NANOS}) for the next transaction, so that the batch takes it
     * instead of committing now; null when none came. Without it a worker fed a little slower than it applies (several
     * workers sharing one reading thread) committed whenever its queue ran dry for a moment: issue 19's workload 4,
     * 1,000,000 transactions over 4 workers, made about 30,000 target commits of 25-50 transactions where one worker made
     * 4,000, and every commit and its statements cost both processes processor time. Like a group commit's delay
     * (MySQL's binlog_group_commit_sync_delay, Tungsten's block commit interval), bounded and adaptive: halved after
     * each linger that ended empty-handed, grown again by each that did not, so a source that paused costs one short
     * wait per burst.
     *
     * <p>It does not linger while it could hold up others: the dispatching thread waits (for memory, a checkpoint group
     * or a queue: a commit frees them), or another worker waits for a dependency or for its turn to commit (its
     * predecessor may be in this batch); it stops lingering as soon as either starts, and when the engine halts or shuts
     * down. It sleeps without counting as parked, so the dispatcher keeps placing work here without paying a wake-up.
     */
    private Task<P> lingerForNext() {
        long budget = Math.min(lingerBudgetNanos, commitNanos);
        if (budget < LINGER_MIN_NANOS || mayNotLinger()) {
            return null;
        }
        enter(WaitState.IDLE);
        long from = System.nanoTime();
        long until = from + budget;
        Task<P> next;
        for (;;) {
            LockSupport.parkNanos(this, Math.min(LINGER_SLICE_NANOS, until - System.nanoTime()));
            next = queue.peek();
            if (next != null || System.nanoTime() - until >= 0 || mayNotLinger()) {
                break;
            }
        }
        long now = System.nanoTime();
        waitedInBatchNanos += now - from;
        stepStartedAt = now;
        long b = lingerBudgetNanos;
        lingerBudgetNanos = next != null && canJoin(next) ? Math.min(LINGER_MAX_NANOS, b + (b >> 2) + 10_000)
                : Math.max(LINGER_MIN_NANOS, b >> 1);
        if (Thread.interrupted()) {
            host.fail(-1, null, id, "worker " + id + " was interrupted", new InterruptedException());
        }
        return next;
    }

    /** Whether lingering with the open batch could hold up another thread of the engine (see lingerForNext). */
    private boolean mayNotLinger() {
        if (host.halted() || host.workersMayExit() || host.dispatcherWaits()) {
            return true;
        }
        for (Worker<P> w : peers) {
            WaitState s = w.state;
            if (w != this && (s == WaitState.WAITING_FOR_COMMIT_ORDER || s == WaitState.WAITING_FOR_DEPENDENCY)) {
                return true;
            }
        }
        return false;
    }

    /**
     * How long a hot worker spins for its next transaction now: up to one measured wake-up (at most
     * {@link #HOT_SPIN_NANOS}), halved after each spin that ended empty-handed and grown again by each that did not. A
     * spin that keeps failing means the dispatcher is not running (the stream paused, or another process holds the
     * processor the dispatcher needs, where spinning would only take more of its time).
     */
    private long spinNanos() {
        return Math.min(spinBudgetNanos, placement.wakeNanos());
    }

    private void spun(boolean gotWork) {
        long b = spinBudgetNanos;
        spinBudgetNanos = gotWork ? Math.min(HOT_SPIN_NANOS, b + (b >> 2) + 500) : b >> 1;
    }

    private void idle() {
        enter(WaitState.IDLE);
        idle.push(id);
        // A hot worker fed cheap work spins a while (see spinNanos) before parking: the next transaction usually comes
        // sooner (the dispatcher decodes one in microseconds), and a park would cost the dispatcher an unpark per
        // transaction, more than the work itself (a pipeline with one worker then ran slower than with none). Only the
        // first (processors - 1) workers spin, so spinning never takes a processor from the dispatcher.
        long spinUntil = id < EngineRuntime.HOT_WORKERS && placement.isCheap() ? System.nanoTime() + spinNanos() : 0;
        for (int i = 0;; i++) {
            if (queue.peek() != null) {
                if (spinUntil != 0) {
                    spun(true);
                }
                return;
            }
            if (i >= SPINS_BEFORE_PARK && (spinUntil == 0 || (i & 63) == 0 && System.nanoTime() - spinUntil >= 0)) {
                if (spinUntil != 0) {
                    spun(false);
                }
                break;
            }
            Thread.onSpinWait();
        }
        parked = true;
        if (queue.peek() == null && !host.halted() && !host.workersMayExit()) {
            LockSupport.park(this);
        }
        parked = false;
        long now = System.nanoTime();
        long requested = wakeRequestedAt;
        if (requested != 0) {
            wakeRequestedAt = 0;
            placement.recordWakeTime(now - requested);
        }
        stepStartedAt = now;
        if (Thread.interrupted()) {
            host.fail(-1, null, id, "worker " + id + " was interrupted", new InterruptedException());
        }
    }

    private boolean halted() {
        if (Thread.interrupted()) {
            host.fail(batchSize > 0 ? batch[0].seq : -1, batchSize > 0 ? batch[0].txn.position() : null, id,
                    "worker " + id + " was interrupted", new InterruptedException());
        }
        return host.halted();
    }

    // ---------------------------------------------------------------- dependencies

    private boolean canJoin(Task<P> n) {
        if (n.barrier || batch[batchSize - 1].barrier) {
            return false;
        }
        for (long d : n.startDeps) {
            if (!committedOrInBatch(d)) {
                return false;
            }
        }
        if (n.startLwm > 0 && !lwmCoveredWithBatch(n.startLwm)) {
            return false;
        }
        for (long d : n.commitDeps) {
            if (!committedOrInBatch(d)) {
                return false;
            }
        }
        return n.commitLwm <= 0 || lwmCoveredWithBatch(n.commitLwm);
    }

    private boolean committedOrInBatch(long seq) {
        return window.isCommitted(seq) || indexInBatch(seq) >= 0;
    }

    /** True when every transaction up to {@code upTo} committed or sits in the open batch. */
    private boolean lwmCoveredWithBatch(long upTo) {
        long l = window.lwm();
        if (l >= upTo) {
            return true;
        }
        int i = indexInBatch(l + 1);
        if (i < 0) {
            return false;
        }
        long j = i + (upTo - l - 1);
        return j < batchSize && batch[(int) j].seq == upTo;
    }

    private int indexInBatch(long seq) {
        int lo = 0;
        int hi = batchSize - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long s = batch[mid].seq;
            if (s < seq) {
                lo = mid + 1;
            } else if (s > seq) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** With an empty batch: waits until the task's start dependencies committed. False when the engine halted. */
    private boolean awaitStart(Task<P> t) {
        stepStartedAt = System.nanoTime();
        for (long d : t.startDeps) {
            if (!window.isCommitted(d)) {
                enter(WaitState.WAITING_FOR_DEPENDENCY);
                if (!window.awaitCommitted(d, Long.MAX_VALUE, this::halted)) {
                    return false;
                }
            }
        }
        if (t.startLwm > 0 && window.lwm() < t.startLwm) {
            enter(WaitState.WAITING_FOR_DEPENDENCY);
            return window.awaitLwm(t.startLwm, Long.MAX_VALUE, this::halted);
        }
        return true;
    }

    // ---------------------------------------------------------------- apply, commit, retry

    private void addToBatch(Task<P> t) {
        if (batchSize == 0) {
            batchStartedAt = System.nanoTime();
            waitedInBatchNanos = 0;
            openBatchFirst = t.seq;
        }
        if (batchSize == batch.length) {
            batch = Arrays.copyOf(batch, batchSize * 2);
        }
        batch[batchSize++] = t;
    }

    /** Whether the transaction at {@code index} in the batch waits (as its scheduler stated) for one earlier in it. */
    private boolean dependsOnEarlierInBatch(int index) {
        if (index <= 0 || index >= batchSize) {
            return false;
        }
        Task<P> t = batch[index];
        for (long d : t.startDeps) {
            int i = indexInBatch(d);
            if (i >= 0 && i < index) {
                return true;
            }
        }
        return t.startLwm > 0 && batch[0].seq <= t.startLwm;
    }

    private boolean applyTask(Task<P> t, boolean end) {
        enter(WaitState.APPLYING);
        STEP.setOpaque(this, System.nanoTime()); // read racily by the dispatcher; no fence per transaction
        context.set(t.seq, batchAttempts, end, batchSize - 1);
        try {
            applier.apply(t.txn, context);
            return true;
        } catch (Throwable e) {
            return retryBatch(e, t, end);
        }
    }

    /**
     * After a failure: roll back, back off, apply the whole batch again; gives up after the configured retries.
     *
     * @return true when the batch is applied again (uncommitted), false when the engine stopped or failed
     */
    private boolean retryBatch(Throwable error, Task<P> failing, boolean endHint) {
        Throwable e = error;
        Task<P> f = failing;
        for (;;) {
            boolean retryable = !(e instanceof VirtualMachineError) && retryable(e);
            rollbackQuietly();
            if (e instanceof VirtualMachineError) {
                host.fail(f.seq, f.txn.position(), id, "fatal error applying transaction " + f.seq, e);
                return false;
            }
            if (!retryable) {
                return stopAtFailing(f, e, "on worker " + id + " with an error retrying cannot fix");
            }
            if (host.halted()) {
                return false;
            }
            batchAttempts++;
            if (batchAttempts > maxRetries) {
                return stopAtFailing(f, e, batchAttempts + " times on worker " + id);
            }
            counters.retried();
            LOG.warn("worker {}: transaction {} at {} failed (attempt {} of {}), retrying its batch of {}", id, f.seq,
                    f.txn.position(), batchAttempts, maxRetries + 1, batchSize, e);
            enter(WaitState.RETRYING);
            long backoff = Math.min(retryMaxBackoffNanos, retryBackoffNanos << Math.min(20, batchAttempts - 1));
            long deadline = System.nanoTime() + backoff;
            for (long left = backoff; left > 0; left = deadline - System.nanoTime()) {
                if (halted()) {
                    return false;
                }
                LockSupport.parkNanos(this, left);
            }
            Throwable again = reapply(endHint);
            if (again == null) {
                return true;
            }
            e = again;
            f = reapplyFailed;
        }
    }

    /**
     * Gives up on the batch: pins its failing transaction ({@link #commitAloneUntilFailure}, when the batch holds more
     * than one) and stops the engine there with "transaction S at P failed {@code how}".
     *
     * @return true when every transaction then committed alone (the batch is empty and the work goes on), else false
     */
    private boolean stopAtFailing(Task<P> failing, Throwable error, String how) {
        Task<P> f = failing;
        Throwable e = error;
        if (batchSize > 1) {
            Task<P> pinned = commitAloneUntilFailure();
            if (pinned == null) {
                LOG.warn("worker {}: a batch failed ({}), yet each of its transactions committed alone", id,
                        e.toString());
                return true;
            }
            f = pinned;
            e = pinnedFailure != null ? pinnedFailure : e;
        }
        host.fail(f.seq, f.txn.position(), id, "transaction " + f.seq + " at " + f.txn.position() + " failed " + how, e);
        return false;
    }

    /**
     * Before the engine stops on a failure it cannot retry past: the batch (rolled back) is applied again one
     * transaction at a time, each committed alone, up to the first that fails again. That one is the failing
     * transaction; everything before it is committed, as a single-threaded replica that stops at it would leave the
     * target. A failure at the commit of a batch, or one that an applier's deferred writes raised while applying a later
     * transaction, names no transaction of the batch in particular: this pins it. (Before, the target's state depended
     * on timing: whether the transaction before the failing one had committed alone before it joined its batch.)
     *
     * @return the transaction the engine stops at: the one that failed alone ({@link #pinnedFailure} set), or the one
     *         it could not try (engine halted, commit order waited too long; {@link #pinnedFailure} null), the batch
     *         then holding it and the ones after it; null when every transaction committed alone (the batch is then
     *         empty and the work goes on)
     */
    private Task<P> commitAloneUntilFailure() {
        int whole = batchSize;
        Task<P>[] tasks = Arrays.copyOf(batch, whole);
        for (int i = 0; i < whole; i++) {
            Task<P> t = tasks[i];
            batch[0] = t;
            batchSize = 1;
            openBatchFirst = t.seq;
            try {
                if (host.halted() || !applyAlone(t)) {
                    // Stopped before this one could fail or not (the engine halted, or its commit order waited too
                    // long): it is where the engine stops, with the batch's own failure.
                    keepInBatch(tasks, i);
                    pinnedFailure = null;
                    return t;
                }
                commitWithCheckpoint();
            } catch (Throwable e) {
                rollbackQuietly();
                keepInBatch(tasks, i);
                pinnedFailure = e;
                return t;
            }
            markCommitted();
        }
        return null;
    }

    /** The batch becomes tasks[from..]: the ones not committed, left where a failure report expects them. */
    private void keepInBatch(Task<P>[] tasks, int from) {
        for (int j = from; j < tasks.length; j++) {
            batch[j - from] = tasks[j];
        }
        batchSize = tasks.length - from;
        if (batchSize > 0) {
            openBatchFirst = batch[0].seq;
        }
    }

    /** Applies one transaction as a batch of its own, waiting for its commit order; false when that wait gave up. */
    private boolean applyAlone(Task<P> t) throws Exception {
        enter(WaitState.APPLYING);
        context.set(t.seq, batchAttempts, true, 0);
        applier.apply(t.txn, context);
        if (commitOrder.satisfied(t)) {
            return true;
        }
        enter(WaitState.WAITING_FOR_COMMIT_ORDER);
        if (commitOrder.await(t, System.nanoTime() + commitOrder.timeoutNanos())) {
            return true;
        }
        rollbackQuietly();
        return false;
    }

    /**
     * The failure of the transaction {@link #commitAloneUntilFailure} returned; null when it stopped there for another
     * reason (the engine halted, or the commit order waited too long), the batch's own failure then standing.
     */
    private Throwable pinnedFailure;

    private boolean retryable(Throwable e) {
        try {
            return applier.isRetryable(e);
        } catch (RuntimeException classifierFailure) {
            LOG.warn("worker {}: the applier could not classify a failure; retrying it", id, classifierFailure);
            return true;
        }
    }

    private Task<P> reapplyFailed;

    /** Applies every task of the batch again; returns the failure, with {@link #reapplyFailed} set, or null. */
    private Throwable reapply(boolean endHint) {
        enter(WaitState.APPLYING);
        for (int i = 0; i < batchSize; i++) {
            Task<P> t = batch[i];
            context.set(t.seq, batchAttempts, i == batchSize - 1 && endHint, i);
            try {
                applier.apply(t.txn, context);
            } catch (Throwable e) {
                reapplyFailed = t;
                return e;
            }
        }
        return null;
    }

    private boolean commitBatch() {
        if (batchSize == 0) {
            return true; // committed transaction by transaction while a failure was pinned
        }
        Task<P> first = batch[0];
        if (!commitOrder.satisfied(first)) {
            enter(WaitState.WAITING_FOR_COMMIT_ORDER);
            long waitStart = System.nanoTime();
            boolean ok = commitOrder.awaitOrFindDeadlock(first, waitStart + commitOrder.timeoutNanos());
            if (!ok) {
                if (halted()) {
                    rollbackQuietly();
                    return false;
                }
                Worker<P> earlier = commitOrder.takeBlockedEarlier();
                if (earlier != null) {
                    // A commit-order deadlock, seen in the target's lock views: break it now, not after the timeout.
                    counters.commitOrderDeadlockBroken();
                    LOG.info("worker {}: commit-order deadlock broken after {} ms: transaction {} ({}) holds a lock that"
                            + " worker {} (from transaction {}, \"{}\") waits for in the target; rolling back the later"
                            + " batch of {} and applying it again after the earlier ones commit", id,
                            (System.nanoTime() - waitStart) / 1_000_000, first.seq,
                            WaitState.WAITING_FOR_COMMIT_ORDER.description(), earlier.id, earlier.openBatchFirst,
                            WaitState.APPLYING.description(), batchSize);
                } else {
                    // Suspected commit-order deadlock: an earlier transaction may be blocked on what this batch holds.
                    counters.commitOrderRetried();
                    LOG.info("worker {}: transaction {} waited over {} ms for preceding transactions to commit; rolling"
                            + " back its batch of {} and retrying after them", id, first.seq,
                            commitOrder.timeoutNanos() / 1_000_000, batchSize);
                }
                rollbackQuietly();
                if (!commitOrder.await(first, Long.MAX_VALUE)) {
                    return false;
                }
                batchAttempts++;
                Throwable e = reapply(true);
                if (e != null && !retryBatch(e, reapplyFailed, true)) {
                    return false;
                }
            }
        }
        for (;;) {
            try {
                commitWithCheckpoint();
                break;
            } catch (Throwable e) {
                if (!retryBatch(e, first, true)) {
                    return false;
                }
                if (batchSize == 0) {
                    return true; // committed transaction by transaction while the failure was pinned
                }
            }
        }
        markCommitted();
        return true;
    }

    /** Commits the open batch with this worker's checkpoint, which the store may write in the same target transaction. */
    private void commitWithCheckpoint() throws Exception {
        Checkpoint cp = buildCheckpoint();
        enter(WaitState.APPLYING);
        long start = System.nanoTime();
        store.saveWorkerCheckpoint(cp);
        applier.commit(batchView.of(batch, batchSize), cp);
        long took = System.nanoTime() - start;
        commitNanos = commitNanos == 0 ? took : commitNanos + ((took - commitNanos) >> 3);
    }

    private void rollbackQuietly() {
        if (batchSize == 0 || applier == null) {
            return;
        }
        try {
            applier.rollback(batchView.of(batch, batchSize));
        } catch (Throwable e) {
            LOG.warn("worker {}: rollback of a batch of {} failed", id, batchSize, e);
        }
    }

    private void markCommitted() {
        long b = 0;
        int n = batchSize;
        for (int i = 0; i < n; i++) {
            Task<P> t = batch[i];
            window.markCommitted(t.seq);
            done.add(t.seq);
            b += t.bytes;
        }
        bytes += sumSizes(n);
        commits++;
        long now = System.nanoTime();
        long old = serviceNanos;
        // Not the time spent waiting for the next transaction with the batch open: that is the dispatcher's pace, not
        // the cost of the work (counted, cheap work would stop looking cheap and spread over parked workers).
        long perTransaction = Math.max(0, now - batchStartedAt - waitedInBatchNanos) / n;
        waitedInBatchNanos = 0;
        serviceNanos = commits == 1 ? perTransaction : old + ((perTransaction - old) >> 2); // the first replaces the guess
        placement.recordServiceTime(perTransaction);
        stepStartedAt = now;
        finished += n;
        host.release(b);
        if (queue.peek() == null) {
            // Before the low-water mark moves: whoever waits for it finds this worker among the idle ones at once.
            idle.push(id);
        }
        window.advance();
        host.wakeDispatcherIfWaiting();
        for (int i = 0; i < n; i++) {
            batch[i].txn = null;
            batch[i] = null;
        }
        batchSize = 0;
        batchAttempts = 0;
        openBatchFirst = Long.MAX_VALUE;
    }

    private long sumSizes(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += batch[i].txn.sizeBytes();
        }
        return s;
    }

    // ---------------------------------------------------------------- checkpoints

    private Checkpoint buildCheckpoint() {
        InFlightWindow.Mark mark = window.published();
        return Checkpoint.ofWorker(id, mark.sequence(), mark.position(),
                done.bitmapAbove(mark.sequence(), batch, batchSize, recoveredSkips));
    }

    // ---------------------------------------------------------------- stats

    private void enter(WaitState s) {
        WaitState cur = state;
        if (cur == s) {
            return;
        }
        long now = System.nanoTime();
        int i = cur.ordinal();
        times.lazySet(i, times.get(i) + (now - stateSince));
        stateSince = now;
        state = s;
    }

    WorkerStats snapshot(long dispatchedTo) {
        long now = System.nanoTime();
        WaitState s = state;
        long since = stateSince;
        long[] t = new long[STATES.length];
        for (int i = 0; i < t.length; i++) {
            t[i] = times.get(i);
        }
        t[s.ordinal()] += Math.max(0, now - since);
        long fin = finished;
        return new WorkerStats(id, fin, bytes, commits, t[WaitState.IDLE.ordinal()], t[WaitState.APPLYING.ordinal()],
                t[WaitState.WAITING_FOR_DEPENDENCY.ordinal()], t[WaitState.WAITING_FOR_COMMIT_ORDER.ordinal()],
                t[WaitState.RETRYING.ordinal()], (int) Math.max(0, dispatchedTo - fin), s);
    }

    long applyingNanos() {
        long v = times.get(WaitState.APPLYING.ordinal());
        if (state == WaitState.APPLYING) {
            v += Math.max(0, System.nanoTime() - stateSince);
        }
        return v;
    }
}
