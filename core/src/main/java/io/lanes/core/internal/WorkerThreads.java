package io.lanes.core.internal;

import io.lanes.core.CommitOrder;
import io.lanes.core.SchedulingContext;
import io.lanes.core.WorkerStats;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threaded executor: one {@link Worker} per configured worker, each on its own thread with its own queue. The
 * dispatching thread places each task (the scheduler's choice, else {@link WorkerPlacement}), waits while that worker's
 * queue is full, queues it and wakes the worker; worker 0 starts with the engine, the others when first given work.
 *
 * <p>Threads: see {@link TaskExecutor}. The dispatching thread alone writes {@link #dispatchedTo}, {@link #lastSeqTo}
 * and the placement's choice state; workers write their own fields and push themselves onto the idle hints.
 */
final class WorkerThreads<P> implements TaskExecutor<P> {
    private static final Logger LOG = LoggerFactory.getLogger(EngineRuntime.class);

    private final EngineRuntime<P> runtime;
    private final RuntimeConfig<P> config;
    private final InFlightWindow window;
    private final int workerCount;
    /**
     * The workers placement uses: the configured count, or for work that applies on this process's processors
     * ({@link io.lanes.core.ApplierFactory#appliesInProcess()}) at most {@link EngineRuntime#HOT_WORKERS} of them. The
     * others never start.
     */
    private final int activeWorkers;
    private final int queueCapacity;
    private final Worker<P>[] workers;
    /** Transactions dispatched to each worker; dispatching thread (stats read it racily). */
    private final long[] dispatchedTo;
    /** The sequence number last dispatched to each worker (the tail of its queue while it has work). */
    private final long[] lastSeqTo;
    private final IdleWorkers idle;
    /** Which worker gets work the scheduler did not place. */
    private final WorkerPlacement<P> placer;
    /** Read by the scheduler, on the dispatching thread, through {@link SchedulingContext#processorsToSpare()}. */
    private final ProcessorHeadroom headroom = ProcessorHeadroom.ofThisMachine();
    /** Counted down by worker 0 once its applier exists (or could not be made). */
    private final CountDownLatch started = new CountDownLatch(1);
    /** Counted down by each worker thread as it exits, and for each worker that never started. */
    private final CountDownLatch exited;

    @SuppressWarnings({"unchecked", "rawtypes"})
    WorkerThreads(EngineRuntime<P> runtime, RuntimeConfig<P> config, InFlightWindow window, long[] recoveredSkips,
            WorkerHost host, WorkerCounters counters) {
        this.runtime = runtime;
        this.config = config;
        this.window = window;
        this.workerCount = config.workers();
        this.activeWorkers = config.applierFactory().appliesInProcess()
                ? Math.min(workerCount, EngineRuntime.HOT_WORKERS) : workerCount;
        this.queueCapacity = config.workerQueueCapacity();
        int n = workerCount;
        idle = new IdleWorkers(n);
        dispatchedTo = new long[n];
        lastSeqTo = new long[n];
        workers = new Worker[n];
        placer = new WorkerPlacement<>(workers, dispatchedTo, lastSeqTo, activeWorkers, idle);
        WorkerSetup<P> setup = new WorkerSetup<>(config, window, recoveredSkips, host, placer, idle, counters, workers);
        for (int i = 0; i < n; i++) {
            workers[i] = new Worker<>(i, setup);
        }
        exited = new CountDownLatch(n);
    }

    @Override
    public void start() throws InterruptedException {
        config.scheduler().init(new ContextImpl());
        for (int i = activeWorkers - 1; i >= 0; i--) {
            idle.push(i);
        }
        if (activeWorkers < workerCount) {
            LOG.info("{}: the applier runs in this process: its work stays on {} of the {} workers (processors less "
                    + "one; more would only contend)", config.name(), activeWorkers, workerCount);
        }
        // Worker 0 starts now, so a target that refuses connections fails the start; the others start when first given
        // work: cheap work packs onto a few workers, and 1,024 configured workers then cost nothing until the work
        // needs them. Every worker counts as parked until then (Worker#parked).
        launch(workers[0]);
        started.await();
    }

    /** Starts a worker's thread once; the dispatching thread (or start) only. */
    private void launch(Worker<P> w) {
        if (!w.claimLaunch()) {
            return;
        }
        try {
            config.executor().execute(() -> runWorker(w));
        } catch (RuntimeException e) {
            exited.countDown();
            runtime.fail(-1, null, w.id, "worker " + w.id + " could not be started", e);
        }
    }

    private void runWorker(Worker<P> w) {
        try {
            w.runThread(started);
        } finally {
            exited.countDown();
        }
    }

    @Override
    public void execute(Task<P> task, int placedWorker) {
        int w = placedWorker >= 0 ? placedWorker
                : task.startLwm > 0 ? placer.workerToWaitFor(task.startLwm) : placer.leastLoadedWorker();
        if (!hasRoom(w)) {
            runtime.awaitWorkerQueue(task.seq, w);
        }
        runtime.dispatched(task, w);
        placer.dispatched(w, task.seq);
        Worker<P> worker = workers[w];
        worker.offer(task);
        if (!worker.launched()) {
            launch(worker);
        }
        worker.wakeIfParked();
    }

    @Override
    public boolean hasRoom(int worker) {
        return dispatchedTo[worker] - workers[worker].finished < queueCapacity;
    }

    @Override
    public boolean commitHeld() {
        return true; // workers commit as soon as their queue runs dry
    }

    @Override
    public void dispatcherParked() {
        placer.chooseAfresh(); // time passed while parked: the next placement chooses afresh
    }

    @Override
    public void drain(long lastDispatched) throws InterruptedException {
        window.awaitLwm(lastDispatched, Long.MAX_VALUE,
                () -> runtime.halted() || Thread.currentThread().isInterrupted());
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("interrupted while draining; the engine was aborted");
        }
    }

    @Override
    public void wakeAll() {
        for (Worker<P> w : workers) {
            w.unpark();
        }
    }

    @Override
    public void close(boolean rollback) {
        for (Worker<P> w : workers) {
            if (w.claimLaunch()) {
                exited.countDown(); // never started: nothing to wait for, and it can no longer start
                continue;
            }
            w.unpark();
        }
        EngineRuntime.awaitUninterruptibly(exited); // each worker rolls back its own open batch as it exits
    }

    @Override
    public void addWorkerStats(List<WorkerStats> out) {
        for (int i = 0; i < workers.length; i++) {
            out.add(workers[i].snapshot(dispatchedTo[i]));
        }
    }

    // ---------------------------------------------------------------- scheduler plumbing

    /** What the scheduler may ask; the dispatching thread (the scheduler runs inside submit). */
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
        public boolean processorsToSpare() {
            return headroom.spare(System.nanoTime());
        }

        @Override
        public long lowWaterMark() {
            return window.lwm();
        }

        @Override
        public CommitOrder commitOrder() {
            return config.commitOrder();
        }
    }
}
