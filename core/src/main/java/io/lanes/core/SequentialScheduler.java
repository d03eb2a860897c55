package io.lanes.core;

/**
 * Everything on worker 0, in source order: the baseline. With 0 workers the engine applies on the dispatching thread
 * instead (the single-threaded applier); with 1 worker it hands each transaction off to one thread.
 */
public final class SequentialScheduler implements Scheduler {
    @Override
    public void init(SchedulingContext context) {
        // no state
    }

    @Override
    public void schedule(Transaction<?> txn, Placement placement) {
        placement.toWorker(0);
    }

    @Override
    public String name() {
        return "sequential";
    }
}
