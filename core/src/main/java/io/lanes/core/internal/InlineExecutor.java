package io.lanes.core.internal;

import io.lanes.core.ApplierFailedException;
import io.lanes.core.Placement;
import io.lanes.core.Scheduler;
import io.lanes.core.SchedulingContext;
import io.lanes.core.Transaction;
import io.lanes.core.WorkerStats;
import java.util.List;

/**
 * The executor of an engine with 0 workers: one {@link Worker}, driven on the dispatching thread, applies each task as
 * it is submitted into a block-commit batch that stays open across submits. The batch is committed when it reaches the
 * block-commit size, before and after a barrier, before a task that cannot join it, when a submit finds it older than
 * the checkpoint period, and when the runtime asks ({@link #commitHeld}: before the dispatcher would wait for the
 * low-water mark or memory that only this batch holds back, on {@code flush}, {@code stop}, and {@code
 * awaitLowWaterMark} on the dispatching thread). No thread of its own; nothing is placed ({@link #IN_ORDER}).
 *
 * <p>Threads: the dispatching thread for everything, except {@link #commitHeld}, {@link #drain} and {@link #close} from
 * the thread stopping the engine (no submit runs then) and {@link #wakeAll} and {@link #addWorkerStats} from any thread.
 */
final class InlineExecutor<P> implements TaskExecutor<P> {
    /** The scheduler of an engine with 0 workers: places nothing, so tasks wait for nothing but their order. */
    static final Scheduler IN_ORDER = new Scheduler() {
        @Override
        public void init(SchedulingContext context) {
        }

        @Override
        public void schedule(Transaction<?> txn, Placement placement) {
        }
    };

    private final EngineRuntime<P> runtime;
    private final Worker<P> worker;
    private final long periodNanos;
    /** The low-water mark recovery started from, for the failure an applier that cannot be created reports. */
    private final long recoveredLwm;

    @SuppressWarnings({"unchecked", "rawtypes"})
    InlineExecutor(EngineRuntime<P> runtime, RuntimeConfig<P> config, InFlightWindow window, long[] recoveredSkips,
            long recoveredLwm, WorkerHost host, WorkerCounters counters) {
        this.runtime = runtime;
        this.periodNanos = config.periodNanos();
        this.recoveredLwm = recoveredLwm;
        // The worker feeds a placement of its own that nothing consults: there is no choice to make.
        Worker<P>[] one = new Worker[1];
        IdleWorkers idle = new IdleWorkers(1);
        WorkerPlacement<P> placement = new WorkerPlacement<>(one, new long[1], new long[1], 1, idle);
        one[0] = new Worker<>(0, new WorkerSetup<>(config, window, recoveredSkips, host, placement, idle, counters,
                one));
        worker = one[0];
    }

    @Override
    public void start() {
        try {
            worker.openInline();
        } catch (Exception e) {
            throw new ApplierFailedException("the applier could not be created", -1, null, 0, recoveredLwm, e);
        }
    }

    @Override
    public void execute(Task<P> task, int placedWorker) {
        runtime.dispatched(task, 0);
        if (!worker.runInline(task)) {
            throw runtime.failedWhileDispatching();
        }
        if (worker.inlineBatchOlderThan(periodNanos, System.nanoTime()) && !worker.flushInline()) {
            throw runtime.failedWhileDispatching();
        }
    }

    @Override
    public boolean commitHeld() {
        return worker.flushInline();
    }

    @Override
    public boolean hasRoom(int worker) {
        return true; // no queue
    }

    @Override
    public void dispatcherParked() {
        // no placement to refresh
    }

    @Override
    public void drain(long lastDispatched) {
        // nothing is in flight but the open batch, which the runtime commits through commitHeld before this
    }

    @Override
    public void wakeAll() {
        // the one thread applying is the dispatching thread, which the runtime wakes itself
    }

    @Override
    public void close(boolean rollback) {
        if (rollback) {
            worker.rollbackInline();
        }
        worker.closeApplier();
    }

    @Override
    public void addWorkerStats(List<WorkerStats> out) {
        out.add(worker.snapshot(0));
    }
}
