package io.lanes.core;

/**
 * Decides, for each transaction, which worker runs it and which earlier transactions it must wait for.
 *
 * <p>Threading: {@link #init} is called once per engine run by the thread calling {@link Engine#start()};
 * {@link #schedule} is then called only by the dispatching thread (the one calling {@link Engine#submit}), once per
 * transaction, in source order. An instance serves one engine at a time and needs no synchronisation.
 *
 * <p>Waiting happens in the workers, never here: a schedule call only records dependencies on the {@link Placement}, and
 * the engine makes the chosen worker wait for them, while the dispatching thread keeps dispatching independent work.
 * Dependencies point backwards (to smaller sequence numbers) by construction, so they can never form a cycle.
 *
 * <p>The engine adds on top of any policy: barriers ({@link Transaction#isBarrier()}), the commit order, the checkpoint
 * group window and the memory budget. Implementations shipped: {@link SequentialScheduler}, {@link PartitionScheduler},
 * {@link LogicalClockScheduler}, {@link WritesetScheduler}.
 */
public interface Scheduler {
    /**
     * Resets the policy's state for a new engine run.
     *
     * @param context the engine's view of the in-flight window, valid for the whole run, on the dispatching thread only
     */
    void init(SchedulingContext context);

    /**
     * Places one transaction. When the placement names no worker, the engine picks the least loaded one.
     *
     * @param txn the transaction, whose sequence number is {@link Placement#sequence()}
     * @param placement where the decision is recorded; valid only during this call
     */
    void schedule(Transaction<?> txn, Placement placement);

    /** A short name for logs and benchmarks. */
    default String name() {
        return getClass().getSimpleName();
    }
}
