package io.lanes.core.sim;

import io.lanes.core.CommitOrder;
import io.lanes.core.Placement;
import io.lanes.core.Scheduler;
import io.lanes.core.SchedulingContext;
import io.lanes.core.Transaction;

/**
 * A scheduler run as on a machine whose processors never have time to spare: the engine's context with
 * {@link SchedulingContext#processorsToSpare()} answering false, so that the engine contract covers what a scheduler
 * does only then (the {@link io.lanes.core.WritesetScheduler} keeps a full run on its worker rather than move it to a
 * free one), which the load of the machine running the tests would decide otherwise.
 */
public final class BusyProcessors implements Scheduler {
    private final Scheduler scheduler;

    public BusyProcessors(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public void init(SchedulingContext context) {
        scheduler.init(new SchedulingContext() {
            @Override
            public int workerCount() {
                return context.workerCount();
            }

            @Override
            public boolean isCommitted(long sequence) {
                return context.isCommitted(sequence);
            }

            @Override
            public int workerOf(long sequence) {
                return context.workerOf(sequence);
            }

            @Override
            public int leastLoadedWorker() {
                return context.leastLoadedWorker();
            }

            @Override
            public int workerForIdleKey(int previous) {
                return context.workerForIdleKey(previous);
            }

            @Override
            public boolean processorsToSpare() {
                return false;
            }

            @Override
            public int pendingTransactions(int worker) {
                return context.pendingTransactions(worker);
            }

            @Override
            public long lowWaterMark() {
                return context.lowWaterMark();
            }

            @Override
            public CommitOrder commitOrder() {
                return context.commitOrder();
            }
        });
    }

    @Override
    public void schedule(Transaction<?> txn, Placement placement) {
        scheduler.schedule(txn, placement);
    }

    @Override
    public String name() {
        return scheduler.name() + " (busy processors)";
    }
}
