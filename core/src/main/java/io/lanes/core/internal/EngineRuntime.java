package io.lanes.core.internal;

import io.lanes.core.ApplierFailedException;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import io.lanes.core.CommitOrder;
import io.lanes.core.EngineStats;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Scheduler;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's moving parts; {@link io.lanes.core.Engine} is its public face and states the contracts. Not API.
 *
 * <p>The dispatching thread (whoever calls {@link #submit}, one at a time) owns the scheduler, the sequence counter,
 * and the commit-order bookkeeping; workers own their queues' consumer side and their batches; shared state is the
 * {@link InFlightWindow}, the queued-bytes counter and the run phase. Tasks are applied by a {@link TaskExecutor} chosen
 * once at {@link #start}: {@link WorkerThreads}, or with 0 workers {@link InlineExecutor}; the workers reach the runtime
 * only through its {@link WorkerHost} ({@link Host}).
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

    private final CheckpointStore store;
    private final WorkerCounters counters = new WorkerCounters();
    /** What the workers may ask of this runtime. */
    private final WorkerHost host = new Host();
    /**
     * Bytes given back by workers as their transactions commit. The bytes charged are the dispatching thread's own
     * counter ({@link #chargedBytes}): one shared counter updated by both sides at every transaction made them take its
     * cache line from each other at every transaction.
     */
    private final AtomicLong releasedBytes = new AtomicLong();
    private InFlightWindow window;
    private long[] recoveredSkips = new long[0];

    private final RuntimeConfig<P> config;
    /**
     * The configured scheduler, or with 0 workers {@link InlineExecutor#IN_ORDER}; chosen by start() with
     * {@link #executor}.
     */
    private Scheduler scheduler;
    private final CommitOrder commitOrder;
    private final int workerCount;
    private final long budget;
    /**
     * Where tasks are applied, chosen once by start() (before any thread that reads it is started; a thread halting the
     * engine before start finishes sees null); the dispatching thread calls it once per transaction.
     */
    private TaskExecutor<P> executor;

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
    private volatile long barriers;
    private volatile long skipped;
    private RecoveryPoint recoveryPoint;

    public EngineRuntime(RuntimeConfig<P> config) {
        this.config = config;
        this.store = config.store();
        this.commitOrder = config.commitOrder();
        this.workerCount = config.workers();
        this.budget = config.budgetBytes();
    }

    // ---------------------------------------------------------------- lifecycle

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
        dispatcherThread = Thread.currentThread();
        // The one place the worker count chooses how tasks are applied.
        if (workerCount == 0) {
            executor = new InlineExecutor<>(this, config, window, recoveredSkips, rp.lowWaterMark(), host, counters);
            scheduler = InlineExecutor.IN_ORDER;
        } else {
            executor = new WorkerThreads<>(this, config, window, recoveredSkips, host, counters);
            scheduler = config.scheduler();
        }
        try {
            executor.start();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abort();
            throw new IllegalStateException("interrupted while starting workers", e);
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

    /** True once the engine halted after a failure or an abort; any thread. */
    boolean halted() {
        return phase == HALTED;
    }

    /** The first failure wins; halts every worker and wakes every waiting thread. Any thread. */
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
        TaskExecutor<P> ex = executor;
        if (ex != null) {
            ex.wakeAll();
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
        if (phase == DRAINING) {
            executor.commitHeld(); // on failure the engine halted: the shutdown below reports it
        }
        long last = (long) LAST_DISPATCHED.getAcquire(this);
        try {
            executor.drain(last);
        } catch (InterruptedException e) {
            abort();
            throw e;
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
        executor.close(!saveLwm);
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
        try {
            store.engineStopped();
        } catch (RuntimeException e) {
            LOG.warn("{}: the checkpoint store failed to release its resources", config.name(), e);
        }
        phase = STOPPED;
    }

    /** A wait that may be interrupted. */
    interface InterruptibleWait {
        void await() throws InterruptedException;
    }

    /** Waits through interrupts, then restores the interrupt status if there was one. */
    static void awaitUninterruptibly(InterruptibleWait wait) {
        boolean interrupted = false;
        for (;;) {
            try {
                wait.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static void awaitUninterruptibly(CountDownLatch latch) {
        awaitUninterruptibly(latch::await);
    }

    private ApplierFailedException finalFailure() {
        ApplierFailedException f = failure.get();
        return new ApplierFailedException(f.getMessage(), f.failedSequence(), f.failedPosition(), f.workerId(),
                window.lwm(), f.getCause());
    }

    /** Called on the dispatching thread when it finds the engine halted by a failure: stops cleanly, then throws. */
    RuntimeException failedWhileDispatching() {
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
        if (seq - knownLwm > window.window()) {
            knownLwm = window.lwm();
            if (seq - knownLwm > window.window()) {
                // What this thread holds open itself (the inline batch) may be what holds the low-water mark back, and
                // only this thread can commit it: commit it now rather than wait for ourselves.
                commitHeldOrThrow();
                knownLwm = window.lwm();
                if (seq - knownLwm > window.window()) {
                    awaitDispatch(WaitState.WAITING_FOR_CHECKPOINT_GROUP, seq, 0, -1);
                    knownLwm = window.lwm();
                }
            }
        }
        long charge = Math.min(txn.sizeBytes(), budget);
        if (chargedBytes - knownReleased + charge > budget) {
            knownReleased = releasedBytes.get();
            long queued = chargedBytes - knownReleased;
            if (queued + charge > budget && queued > 0) {
                commitHeldOrThrow(); // the same for the queued bytes
                knownReleased = releasedBytes.get();
                queued = chargedBytes - knownReleased;
                if (queued + charge > budget && queued > 0) {
                    awaitDispatch(WaitState.WAITING_FOR_MEMORY, seq, charge, -1);
                    knownReleased = releasedBytes.get();
                }
            }
        }
        // From here on the transaction is committed to: the scheduler records it, so no interruption may leave it
        // half-dispatched (its sequence number would hold the low-water mark back for ever).
        boolean skip = isRecoveredSkip(seq);
        placement.reset(seq);
        scheduler.schedule(txn, placement);
        if (placement.worker >= workerCount) {
            throw new IllegalStateException(scheduler.name() + " placed transaction " + seq + " on worker "
                    + placement.worker + " of " + workerCount);
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
        if (barrier || txn.startsAfterAllBefore()) {
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
        executor.execute(task, placement.worker);
        return seq;
    }

    /**
     * The executor, on the dispatching thread, once it knows the task's worker (0 inline): charges the task's bytes and
     * records it as dispatched, before the task is handed over.
     */
    void dispatched(Task<P> task, int worker) {
        CHARGED.setRelease(this, chargedBytes + task.bytes);
        window.dispatch(task.seq, worker, task.txn.position());
        LAST_DISPATCHED.setRelease(this, task.seq);
    }

    /**
     * The threaded executor, on the dispatching thread: waits until {@code worker}'s queue has room for transaction
     * {@code seq}. The task is committed to by then (the scheduler recorded it), so an interruption does not stop the
     * wait; it is kept for the caller to see.
     */
    void awaitWorkerQueue(long seq, int worker) {
        awaitUninterruptibly(() -> awaitDispatch(WaitState.WAITING_FOR_WORKER_QUEUE, seq, 0, worker));
    }

    private void commitHeldOrThrow() {
        if (!executor.commitHeld()) {
            throw failedWhileDispatching();
        }
    }

    /**
     * Commits what the dispatching thread holds open: with 0 workers the open block-commit batch; with workers nothing
     * (they commit as soon as their queue runs dry). The caller is the dispatching thread (Engine#flush's contract).
     */
    public void flush() {
        int ph = phase;
        if (ph == NEW) {
            throw new IllegalStateException("the engine is not started");
        }
        if (ph == HALTED || (ph == STOPPED && failure.get() != null)) {
            throw failedWhileDispatching();
        }
        if (ph != STOPPED) {
            Thread me = Thread.currentThread();
            if (dispatcherThread != me) {
                dispatcherThread = me;
            }
            commitHeldOrThrow();
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
                        ready = executor.hasRoom(worker);
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
            executor.dispatcherParked();
            DISPATCHER_STATE.setOpaque(this, WaitState.DISPATCHING);
        }
    }

    /** Wakes the dispatching thread if it waits for the low-water mark to reach where it resumes, or for memory. */
    void wakeDispatcherIfWaiting() {
        if (dispatcherWaiting && window.lwm() >= dispatcherResumeLwm) {
            Thread d = dispatcherThread;
            if (d != null) {
                LockSupport.unpark(d);
            }
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
        if (seq > window.lwm() && phase == RUNNING && Thread.currentThread() == dispatcherThread) {
            // Only the dispatching thread may commit what it holds open (the inline batch); another thread waits for it
            // to do so.
            if (!executor.commitHeld()) {
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

    public EngineStats stats() {
        long now = System.nanoTime();
        List<WorkerStats> ws = new ArrayList<>();
        long applying = 0;
        long committed = 0;
        TaskExecutor<P> ex = executor;
        if (ex != null) {
            ex.addWorkerStats(ws);
            for (WorkerStats s : ws) {
                applying += s.applyingNanos();
                committed += s.transactions();
            }
        }
        long lwm = lowWaterMark();
        long up = startNanos == 0 ? 0 : now - startNanos;
        long last = (long) LAST_DISPATCHED.getAcquire(this);
        return new EngineStats(up, lwm, last, committed, Math.max(0, last - lwm - countSkippedAbove(lwm)),
                queuedBytes(), up == 0 ? 0 : (double) applying / up, barriers, counters.retries(),
                counters.commitOrderRetries(), skipped, (WaitState) DISPATCHER_STATE.getOpaque(this), ws,
                counters.commitOrderDeadlocksBroken());
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

    // ---------------------------------------------------------------- the workers' handle

    /** The {@link WorkerHost} the workers are given: the part of this runtime they may use. */
    private final class Host implements WorkerHost {
        @Override
        public void fail(long seq, String position, int worker, String message, Throwable cause) {
            EngineRuntime.this.fail(seq, position, worker, message, cause);
        }

        @Override
        public boolean halted() {
            return phase == HALTED;
        }

        @Override
        public boolean workersMayExit() {
            return workersMayExit;
        }

        @Override
        public boolean dispatcherWaits() {
            return dispatcherWaiting;
        }

        @Override
        public void release(long bytes) {
            if (bytes != 0) {
                releasedBytes.addAndGet(bytes);
            }
        }

        @Override
        public void wakeDispatcherIfWaiting() {
            EngineRuntime.this.wakeDispatcherIfWaiting();
        }
    }
}
