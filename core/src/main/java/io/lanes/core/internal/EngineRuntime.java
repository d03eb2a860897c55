package io.lanes.core.internal;

import io.lanes.core.ApplierFactory;
import io.lanes.core.ApplierFailedException;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import io.lanes.core.CommitOrder;
import io.lanes.core.EngineSettings;
import io.lanes.core.EngineStats;
import io.lanes.core.Placement;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Scheduler;
import io.lanes.core.SchedulingContext;
import io.lanes.core.StatsListener;
import io.lanes.core.Transaction;
import io.lanes.core.WaitState;
import io.lanes.core.WorkerStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's moving parts; {@link io.lanes.core.Engine} is its public face and states the contracts. Not API.
 *
 * <p>The dispatching thread (whoever calls {@link #submit}, one at a time) owns the scheduler, the sequence counter,
 * the per-worker dispatch counters and the commit-order bookkeeping; workers own their queues' consumer side and their
 * batches; shared state is the {@link InFlightWindow}, the queued-bytes counter and the run phase.
 */
public final class EngineRuntime<P> {
    private static final Logger LOG = LoggerFactory.getLogger(EngineRuntime.class);

    /**
     * Cheap work goes to the first this many workers only (the processors less one for the dispatching thread): with
     * an apply cheaper than a wake-up, a thread beyond the processors that can run it at once only adds switching
     * (measured: no-op applies lost up to half their throughput spread over 16-1,024 workers on 2 processors).
     */
    static final int HOT_WORKERS = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    private static final java.lang.invoke.VarHandle DISPATCHER_STATE;
    private static final java.lang.invoke.VarHandle LAST_DISPATCHED;
    private static final java.lang.invoke.VarHandle CHARGED;

    static {
        try {
            java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup();
            DISPATCHER_STATE = l.findVarHandle(EngineRuntime.class, "dispatcherState", WaitState.class);
            LAST_DISPATCHED = l.findVarHandle(EngineRuntime.class, "lastDispatched", long.class);
            CHARGED = l.findVarHandle(EngineRuntime.class, "chargedBytes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int NEW = 0;
    private static final int RUNNING = 1;
    private static final int DRAINING = 2;
    private static final int HALTED = 3;
    private static final int STOPPED = 4;

    final ApplierFactory<P> applierFactory;
    final CheckpointStore store;
    final int maxBatch;
    final int maxRetries;
    final long retryBackoffNanos;
    final long retryMaxBackoffNanos;
    final long commitOrderTimeoutNanos;
    /** Whether workers waiting for commit order ask their applier who waits for their locks (Applier#sessionsWaitingForThis). */
    final boolean commitOrderDeadlockDetection;
    final LongAdder retries = new LongAdder();
    final LongAdder commitOrderRetries = new LongAdder();
    /** Commit-order deadlocks found in the target's lock views and broken by rolling the later batch back. */
    final LongAdder commitOrderDeadlocksBroken = new LongAdder();
    /**
     * Bytes given back by workers as their transactions commit. The bytes charged are the dispatching thread's own
     * counter ({@link #chargedBytes}): one shared counter updated by both sides at every transaction made them take its
     * cache line from each other at every transaction.
     */
    final AtomicLong releasedBytes = new AtomicLong();
    IdleWorkers idle;
    InFlightWindow window;
    long[] recoveredSkips = new long[0];

    private final RuntimeConfig<P> config;
    private final Scheduler scheduler;
    private final CommitOrder commitOrder;
    private final int workerCount;
    /**
     * The workers placement uses: the configured count, or for work that applies on this process's processors
     * ({@link io.lanes.core.ApplierFactory#appliesInProcess()}) at most {@link #HOT_WORKERS} of them. The others never
     * start.
     */
    private final int activeWorkers;
    private final long budget;
    private volatile Worker<P>[] workers;
    private Worker<P> inline;
    private long[] dispatchedTo;
    /** The sequence number last dispatched to each worker (the tail of its queue while it has work). */
    private long[] lastSeqTo;

    private volatile int phase = NEW;
    private volatile boolean workersMayExit;
    private final AtomicReference<ApplierFailedException> failure = new AtomicReference<>();
    private volatile boolean dispatcherWaiting;
    /** While the dispatcher waits for the checkpoint group: the low-water mark worth waking it for. */
    private volatile long dispatcherResumeLwm = Long.MIN_VALUE;
    private volatile Thread dispatcherThread;
    /** Written by the dispatching thread, read by stats: opaque access is enough and keeps submit free of fences. */
    @SuppressWarnings("unused")
    private WaitState dispatcherState = WaitState.WAITING_FOR_SOURCE;
    private CountDownLatch started;
    private CountDownLatch exited;
    /** Publishes and saves the low-water mark, and calls the stats listener; created by start(). */
    private CheckpointThread checkpointThread;
    private long startNanos;

    // dispatcher-owned
    /** Written by the dispatching thread (release), read by others (acquire). */
    @SuppressWarnings("unused")
    private long lastDispatched;
    private long nextSeq;
    /** Bytes charged against the budget; written by the dispatching thread (release), read by others (acquire). */
    private long chargedBytes;
    /**
     * The low-water mark and the released bytes as the dispatching thread last read them. Both only grow, so a stale
     * value errs on the safe side (a dependency kept that has committed, a wait considered that is not needed); they
     * are read afresh only when the stale value would make the dispatcher wait: the workers write both at every commit,
     * and reading them at every transaction made the dispatcher wait for their cache lines.
     */
    private long knownLwm;
    private long knownReleased;
    private long barrierFloor;
    private int skipIndex;
    private final PlacementRequest placement = new PlacementRequest();
    private final Map<String, long[]> lastByPartition = new HashMap<>();
    /** Which worker gets work the scheduler did not place; created by start(). */
    private WorkerPlacement<P> placer;
    private volatile long barriers;
    private volatile long skipped;
    private RecoveryPoint recoveryPoint;

    public EngineRuntime(RuntimeConfig<P> config) {
        this.config = config;
        this.applierFactory = config.applierFactory();
        this.store = config.store();
        this.scheduler = config.scheduler();
        this.commitOrder = config.commitOrder();
        this.workerCount = config.workers();
        this.activeWorkers = applierFactory.appliesInProcess() ? Math.min(workerCount, HOT_WORKERS) : workerCount;
        this.budget = config.budgetBytes();
        this.maxBatch = config.maxBatch();
        this.maxRetries = config.maxRetries();
        this.retryBackoffNanos = config.retryBackoffNanos();
        this.retryMaxBackoffNanos = config.retryMaxBackoffNanos();
        this.commitOrderTimeoutNanos = config.commitOrderTimeoutNanos();
        this.commitOrderDeadlockDetection = config.commitOrderDeadlockDetection();
    }

    // ---------------------------------------------------------------- lifecycle

    @SuppressWarnings({"unchecked", "rawtypes"})
    public synchronized RecoveryPoint start() {
        if (phase != NEW) {
            throw new IllegalStateException("the engine was started already");
        }
        Collection<io.lanes.core.Checkpoint> saved;
        try {
            saved = store.load();
        } catch (Exception e) {
            throw new IllegalStateException("loading checkpoints failed", e);
        }
        RecoveryPoint rp = RecoveryPoint.fromCheckpoints(saved, config.initialPosition());
        recoveryPoint = rp;
        recoveredSkips = rp.alreadyApplied();
        window = new InFlightWindow(config.groupSize(), config.groupSize(), config.periodNanos(), rp.lowWaterMark(),
                rp.position(), this::wakeDispatcherIfWaiting);
        nextSeq = rp.nextSequence();
        knownLwm = rp.lowWaterMark();
        LAST_DISPATCHED.setRelease(this, rp.lowWaterMark());
        barrierFloor = 0;
        startNanos = System.nanoTime();
        if (rp.lowWaterMark() > 0 || recoveredSkips.length > 0) {
            LOG.info("{}: recovering from {}", config.name(), rp);
        }
        int n = Math.max(1, workerCount);
        idle = new IdleWorkers(n);
        dispatchedTo = new long[n];
        lastSeqTo = new long[n];
        Worker<P>[] ws = new Worker[n];
        for (int i = 0; i < n; i++) {
            ws[i] = new Worker<>(i, this);
        }
        workers = ws;
        placer = new WorkerPlacement<>(ws, dispatchedTo, lastSeqTo, activeWorkers, idle);
        dispatcherThread = Thread.currentThread();
        if (workerCount == 0) {
            inline = workers[0];
            try {
                inline.openInline();
            } catch (Exception e) {
                throw new ApplierFailedException("the applier could not be created", -1, null, 0, rp.lowWaterMark(), e);
            }
            exited = new CountDownLatch(0);
        } else {
            scheduler.init(new ContextImpl());
            for (int i = activeWorkers - 1; i >= 0; i--) {
                idle.push(i);
            }
            if (activeWorkers < workerCount) {
                LOG.info("{}: the applier runs in this process: its work stays on {} of the {} workers (processors less "
                        + "one; more would only contend)", config.name(), activeWorkers, workerCount);
            }
            // Worker 0 starts now, so a target that refuses connections fails the start; the others start when
            // first given work: cheap work packs onto a few workers, and 1,024 configured workers then cost nothing
            // until the work needs them.
            started = new CountDownLatch(1);
            exited = new CountDownLatch(n);
            for (Worker<P> w : workers) {
                w.parked = true; // not running yet: placing work there costs a thread start, as a wake-up does
            }
            launch(workers[0]);
            try {
                started.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                abort();
                throw new IllegalStateException("interrupted while starting workers", e);
            }
        }
        phase = RUNNING;
        if (failure.get() != null) {
            shutdown(false);
            throw finalFailure();
        }
        checkpointThread = new CheckpointThread(config.name(), window, store, config.periodNanos(),
                config.statsListener(), config.statsIntervalNanos(), () -> phase == HALTED, this::stats);
        config.executor().execute(checkpointThread);
        return rp;
    }

    /** Starts a worker's thread once; the dispatching thread (or start) only. */
    private void launch(Worker<P> w) {
        if (!w.claimLaunch()) {
            return;
        }
        try {
            config.executor().execute(w);
        } catch (RuntimeException e) {
            exited.countDown();
            fail(-1, null, w.id, "worker " + w.id + " could not be started", e);
        }
    }

    void workerStarted() {
        started.countDown();
    }

    void workerExited() {
        exited.countDown();
    }

    boolean halted() {
        return phase == HALTED;
    }

    boolean workersMayExit() {
        return workersMayExit;
    }

    /** The first failure wins; halts every worker and wakes every waiting thread. */
    void fail(long seq, String position, int worker, String message, Throwable cause) {
        ApplierFailedException f = new ApplierFailedException(message, seq, position, worker, -1, cause);
        if (failure.compareAndSet(null, f)) {
            LOG.error("{}: stopping: {}", config.name(), message, cause);
            halt();
        }
    }

    private void halt() {
        phase = HALTED;
        if (window != null) {
            window.wakeEveryone();
        }
        if (workers != null) {
            for (Worker<P> w : workers) {
                Thread t = w.thread;
                if (t != null && w != inline) {
                    LockSupport.unpark(t);
                }
            }
        }
        Thread d = dispatcherThread;
        if (d != null) {
            LockSupport.unpark(d);
        }
    }

    /** Graceful stop: drain, stop workers, save the final low-water mark. */
    public void stop() throws InterruptedException {
        synchronized (this) {
            if (phase == NEW) {
                phase = STOPPED;
                return;
            }
            if (phase == STOPPED) {
                if (failure.get() != null) {
                    throw finalFailure();
                }
                return;
            }
            if (phase == RUNNING) {
                phase = DRAINING;
            }
        }
        if (workerCount == 0 && phase == DRAINING) {
            inline.flushInline(); // on failure the engine halted: the shutdown below reports it
        }
        long last = (long) LAST_DISPATCHED.getAcquire(this);
        if (workerCount > 0) {
            window.awaitLwm(last, Long.MAX_VALUE, () -> phase == HALTED || Thread.currentThread().isInterrupted());
            if (Thread.currentThread().isInterrupted()) {
                abort();
                throw new InterruptedException("interrupted while draining; the engine was aborted");
            }
        }
        shutdown(true);
        if (failure.get() != null) {
            throw finalFailure();
        }
    }

    /** Hard stop: open batches are rolled back, nothing more is saved. */
    public void abort() {
        synchronized (this) {
            if (phase == STOPPED) {
                return;
            }
            if (phase == NEW) {
                phase = STOPPED;
                return;
            }
            halt();
        }
        shutdown(false);
    }

    private synchronized void shutdown(boolean saveLwm) {
        if (phase == STOPPED) {
            return;
        }
        workersMayExit = true;
        for (Worker<P> w : workers) {
            if (w != inline && w.claimLaunch()) {
                exited.countDown(); // never started: nothing to wait for, and it can no longer start
                continue;
            }
            Thread t = w.thread;
            if (t != null && w != inline) {
                LockSupport.unpark(t);
            }
        }
        awaitUninterruptibly(exited);
        if (inline != null) {
            if (!saveLwm) {
                inline.rollbackInline();
            }
            inline.closeApplier();
        }
        // The checkpoint thread stops before the final save: a periodic save of an older mark still in flight could
        // otherwise commit after the final one and leave the saved low-water mark behind.
        if (checkpointThread != null) {
            checkpointThread.stop();
            awaitUninterruptibly(checkpointThread.exited());
        }
        if (saveLwm) {
            InFlightWindow.Mark m = window.publishCurrent();
            try {
                store.saveLowWaterMark(Checkpoint.ofLowWaterMark(m.sequence(), m.position()));
            } catch (Exception e) {
                LOG.warn("{}: saving the final low-water mark {} failed (the worker checkpoints still hold it)",
                        config.name(), m.sequence(), e);
            }
        }
        phase = STOPPED;
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        for (;;) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private ApplierFailedException finalFailure() {
        ApplierFailedException f = failure.get();
        return new ApplierFailedException(f.getMessage(), f.failedSequence(), f.failedPosition(), f.workerId(),
                window.lwm(), f.getCause());
    }

    /** Called on the dispatching thread when it finds the engine halted by a failure: stops cleanly, then throws. */
    private RuntimeException failedWhileDispatching() {
        if (failure.get() != null) {
            shutdown(true);
            return finalFailure();
        }
        return new IllegalStateException("the engine was aborted");
    }

    // ---------------------------------------------------------------- dispatch

    public long submit(Transaction<P> txn) throws InterruptedException {
        int ph = phase;
        if (ph != RUNNING) {
            if (ph == HALTED || (ph == STOPPED && failure.get() != null)) {
                throw failedWhileDispatching();
            }
            throw new IllegalStateException(ph == NEW ? "the engine is not started" : "the engine is stopping");
        }
        Thread me = Thread.currentThread();
        if (dispatcherThread != me) {
            dispatcherThread = me;
        }
        DISPATCHER_STATE.setOpaque(this, WaitState.DISPATCHING);
        try {
            return dispatch(txn);
        } finally {
            DISPATCHER_STATE.setOpaque(this, WaitState.WAITING_FOR_SOURCE);
        }
    }

    private long dispatch(Transaction<P> txn) throws InterruptedException {
        long seq = nextSeq;
        if (workerCount == 0 && inline.hasOpenBatch() && (seq - window.lwm() > window.window()
                || queuedBytes() + Math.min(txn.sizeBytes(), budget) > budget)) {
            // The open inline batch is what holds the low-water mark and the queued bytes back, and only this thread
            // can commit it: commit it now rather than wait for ourselves.
            flushInlineOrThrow();
        }
        if (seq - knownLwm > window.window()) {
            knownLwm = window.lwm();
            if (seq - knownLwm > window.window()) {
                awaitDispatch(WaitState.WAITING_FOR_CHECKPOINT_GROUP, seq, 0, -1);
                knownLwm = window.lwm();
            }
        }
        long charge = Math.min(txn.sizeBytes(), budget);
        if (chargedBytes - knownReleased + charge > budget) {
            knownReleased = releasedBytes.get();
            long queued = chargedBytes - knownReleased;
            if (queued + charge > budget && queued > 0) {
                awaitDispatch(WaitState.WAITING_FOR_MEMORY, seq, charge, -1);
                knownReleased = releasedBytes.get();
            }
        }
        // From here on the transaction is committed to: the scheduler records it, so no interruption may leave it
        // half-dispatched (its sequence number would hold the low-water mark back for ever).
        boolean skip = isRecoveredSkip(seq);
        placement.reset(seq);
        if (workerCount > 0) {
            scheduler.schedule(txn, placement);
            if (placement.worker >= workerCount) {
                throw new IllegalStateException(scheduler.name() + " placed transaction " + seq + " on worker "
                        + placement.worker + " of " + workerCount);
            }
        }
        boolean oversized = txn.sizeBytes() > budget;
        boolean barrier = txn.isBarrier() || placement.barrier || oversized;
        nextSeq = seq + 1;
        if (skip) {
            LAST_DISPATCHED.setRelease(this, seq);
            window.markSkipped(seq, txn.position());
            skipped++;
            if (barrier) {
                barrierFloor = seq;
            }
            return seq;
        }
        Task<P> task = new Task<>();
        task.txn = txn;
        task.seq = seq;
        task.barrier = barrier;
        long lwm = knownLwm;
        long startLwm = Math.max(placement.afterAllUpTo, barrierFloor);
        if (barrier) {
            startLwm = seq - 1;
        }
        task.startLwm = startLwm > lwm ? startLwm : 0;
        task.startDeps = placement.dependencies(window);
        switch (commitOrder) {
            case STRICT:
                task.commitLwm = seq - 1 > lwm ? seq - 1 : 0;
                break;
            case PER_PARTITION:
                setPartitionCommitOrder(task, txn, lwm);
                break;
            default:
                break;
        }
        if (barrier) {
            barrierFloor = seq;
            barriers++;
        }
        task.bytes = charge;
        if (workerCount == 0) {
            window.dispatch(seq, 0, txn.position());
            LAST_DISPATCHED.setRelease(this, seq);
            CHARGED.setRelease(this, chargedBytes + charge);
            if (!inline.runInline(task)) {
                throw failedWhileDispatching();
            }
            if (inline.inlineBatchOlderThan(config.periodNanos(), System.nanoTime())) {
                flushInlineOrThrow();
            }
            return seq;
        }
        int w = placement.worker >= 0 ? placement.worker
                : task.startLwm > 0 ? placer.workerToWaitFor(task.startLwm) : placer.leastLoadedWorker();
        if (dispatchedTo[w] - workers[w].finished >= config.workerQueueCapacity()) {
            boolean interrupted = false;
            for (;;) {
                try {
                    awaitDispatch(WaitState.WAITING_FOR_WORKER_QUEUE, seq, 0, w);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        CHARGED.setRelease(this, chargedBytes + charge);
        window.dispatch(seq, w, txn.position());
        LAST_DISPATCHED.setRelease(this, seq);
        placer.dispatched(w, seq);
        Worker<P> worker = workers[w];
        worker.queue.offer(task);
        if (!worker.launched()) {
            launch(worker);
        }
        if (worker.parked) {
            // Counts as awake from now on, so the next placements pack onto it instead of waking another worker.
            long now = System.nanoTime();
            worker.parked = false;
            worker.stepStartedAt = now;
            worker.wakeRequestedAt = now;
            LockSupport.unpark(worker.thread);
        }
        return seq;
    }

    private void flushInlineOrThrow() {
        if (!inline.flushInline()) {
            throw failedWhileDispatching();
        }
    }

    /**
     * Commits what the dispatching thread holds open: with 0 workers the open block-commit batch; with workers nothing
     * (they commit as soon as their queue runs dry).
     */
    public void flush() {
        int ph = phase;
        if (ph == NEW) {
            throw new IllegalStateException("the engine is not started");
        }
        if (ph == HALTED || (ph == STOPPED && failure.get() != null)) {
            throw failedWhileDispatching();
        }
        if (workerCount == 0 && ph != STOPPED) {
            Thread me = Thread.currentThread();
            if (dispatcherThread != me) {
                dispatcherThread = me;
            }
            flushInlineOrThrow();
        }
    }

    private boolean isRecoveredSkip(long seq) {
        long[] skips = recoveredSkips;
        while (skipIndex < skips.length && skips[skipIndex] < seq) {
            skipIndex++;
        }
        return skipIndex < skips.length && skips[skipIndex] == seq;
    }

    private void setPartitionCommitOrder(Task<P> task, Transaction<P> txn, long lwm) {
        int keys = txn.partitionKeyCount();
        if (keys == 0) {
            task.commitLwm = task.seq - 1 > lwm ? task.seq - 1 : 0;
            return;
        }
        long[] deps = null;
        int n = 0;
        for (int i = 0; i < keys; i++) {
            long[] last = lastByPartition.get(txn.partitionKey(i));
            if (last == null) {
                lastByPartition.put(txn.partitionKey(i), new long[] {task.seq});
                continue;
            }
            long prev = last[0];
            last[0] = task.seq;
            if (prev != task.seq && !window.isCommitted(prev)) {
                if (deps == null) {
                    deps = new long[keys];
                }
                deps[n++] = prev;
            }
        }
        if (n > 0) {
            task.commitDeps = n == deps.length ? deps : Arrays.copyOf(deps, n);
        }
        if (lastByPartition.size() > 4 * window.window() + 1024) {
            for (Iterator<long[]> it = lastByPartition.values().iterator(); it.hasNext();) {
                if (window.isCommitted(it.next()[0])) {
                    it.remove();
                }
            }
        }
    }

    private void awaitDispatch(WaitState state, long seq, long charge, int worker) throws InterruptedException {
        DISPATCHER_STATE.setOpaque(this, state);
        // Waiting for the checkpoint group to move: be woken once an eighth of the window is free, not at each commit.
        // A dispatcher that decodes faster than the workers commit otherwise wakes, dispatches one transaction and
        // parks again for every commit, and every commit pays the unpark (measured: a pipeline with one worker and a
        // 500 us commit ran 5-15% slower than the same work applied on the reading thread).
        dispatcherResumeLwm = state == WaitState.WAITING_FOR_CHECKPOINT_GROUP
                ? Math.min(seq - 1, seq - window.window() + Math.max(1, window.window() / 8)) : Long.MIN_VALUE;
        dispatcherWaiting = true;
        try {
            for (;;) {
                boolean ready;
                switch (state) {
                    case WAITING_FOR_CHECKPOINT_GROUP:
                        ready = seq - window.lwm() <= window.window();
                        break;
                    case WAITING_FOR_MEMORY:
                        long q = queuedBytes();
                        ready = q == 0 || q + charge <= budget;
                        break;
                    default:
                        ready = dispatchedTo[worker] - workers[worker].finished < config.workerQueueCapacity();
                        break;
                }
                if (ready) {
                    return;
                }
                // STOPPED too: an abort halts and then stops; a dispatcher parked across both saw neither change of
                // its wait condition nor HALTED, and waited forever (seen: LanesTest's abort hung the reading thread)
                int ph = phase;
                if (ph == HALTED || ph == STOPPED) {
                    throw failedWhileDispatching();
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while " + state.description());
                }
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(50));
            }
        } finally {
            dispatcherWaiting = false;
            dispatcherResumeLwm = Long.MIN_VALUE;
            placer.chooseAfresh(); // time passed while parked: the next placement chooses afresh
            DISPATCHER_STATE.setOpaque(this, WaitState.DISPATCHING);
        }
    }

    void wakeDispatcherIfWaiting() {
        if (dispatcherWaiting && window.lwm() >= dispatcherResumeLwm) {
            Thread d = dispatcherThread;
            if (d != null) {
                LockSupport.unpark(d);
            }
        }
    }

    void release(long bytes) {
        if (bytes != 0) {
            releasedBytes.addAndGet(bytes);
        }
    }

    /**
     * Bytes of dispatched transactions not yet committed; any thread. The released bytes are read first: a worker
     * releases only bytes whose charge happened-before it took the transaction, so the charged bytes read after them
     * include every charge they release.
     */
    long queuedBytes() {
        long released = releasedBytes.get();
        return Math.max(0, (long) CHARGED.getAcquire(this) - released);
    }

    /** The measured time per transaction is below both a wake-up and the cheap limit; see {@link WorkerPlacement}. */
    boolean isCheap() {
        return placer.isCheap();
    }

    void recordServiceTime(long nanosPerTransaction) {
        placer.recordServiceTime(nanosPerTransaction);
    }

    /** The measured time from an unpark to the worker running (moving average). */
    long wakeNanos() {
        return placer.wakeNanos();
    }

    void recordWakeTime(long nanos) {
        placer.recordWakeTime(nanos);
    }

    // ---------------------------------------------------------------- queries

    public long lowWaterMark() {
        return window == null ? 0 : window.lwm();
    }

    public long lastDispatched() {
        return (long) LAST_DISPATCHED.getAcquire(this);
    }

    public RecoveryPoint recoveryPoint() {
        return recoveryPoint;
    }

    /** Waits until the LWM reached {@code seq}; false on timeout or when the engine halted. */
    public boolean awaitLowWaterMark(long seq, long timeoutNanos) throws InterruptedException {
        if (window == null) {
            throw new IllegalStateException("the engine is not started");
        }
        long deadline = timeoutNanos == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        if (workerCount == 0 && seq > window.lwm() && phase == RUNNING && Thread.currentThread() == dispatcherThread) {
            // Only the dispatching thread may commit the open inline batch; another thread waits for it to do so.
            if (!inline.flushInline()) {
                return false;
            }
        }
        boolean ok = window.awaitLwm(seq, deadline, () -> phase == HALTED || phase == STOPPED
                || Thread.currentThread().isInterrupted());
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return ok || window.lwm() >= seq;
    }

    /** The workers (null before start); read by a worker looking for the one its open batch blocks. */
    Worker<P>[] workersForDeadlockCheck() {
        return workers;
    }

    public EngineStats stats() {
        long now = System.nanoTime();
        List<WorkerStats> ws = new ArrayList<>();
        long applying = 0;
        long committed = 0;
        Worker<P>[] all = workers;
        if (all != null) {
            for (int i = 0; i < all.length; i++) {
                WorkerStats s = all[i].snapshot(dispatchedTo[i]);
                ws.add(s);
                applying += s.applyingNanos();
                committed += s.transactions();
            }
        }
        long lwm = lowWaterMark();
        long up = startNanos == 0 ? 0 : now - startNanos;
        long last = (long) LAST_DISPATCHED.getAcquire(this);
        return new EngineStats(up, lwm, last, committed, Math.max(0, last - lwm - countSkippedAbove(lwm)),
                queuedBytes(), up == 0 ? 0 : (double) applying / up, barriers, retries.sum(),
                commitOrderRetries.sum(), skipped, (WaitState) DISPATCHER_STATE.getOpaque(this), ws,
                commitOrderDeadlocksBroken.sum());
    }

    private long countSkippedAbove(long lwm) {
        long[] s = recoveredSkips;
        long last = (long) LAST_DISPATCHED.getAcquire(this);
        int n = 0;
        for (long x : s) {
            if (x > lwm && x <= last) {
                n++;
            }
        }
        return n;
    }

    // ---------------------------------------------------------------- the checkpoint thread

    // ---------------------------------------------------------------- scheduler plumbing

    private final class ContextImpl implements SchedulingContext {
        @Override
        public int workerCount() {
            return activeWorkers;
        }

        @Override
        public boolean isCommitted(long sequence) {
            return window.isCommitted(sequence);
        }

        @Override
        public int workerOf(long sequence) {
            return window.workerOf(sequence);
        }

        @Override
        public int leastLoadedWorker() {
            return placer.leastLoadedWorker();
        }

        @Override
        public int workerForIdleKey(int previous) {
            return placer.workerForIdleKey(previous);
        }

        @Override
        public int pendingTransactions(int worker) {
            return (int) placer.load(worker);
        }

        @Override
        public long lowWaterMark() {
            return window.lwm();
        }

        @Override
        public CommitOrder commitOrder() {
            return commitOrder;
        }
    }
}
