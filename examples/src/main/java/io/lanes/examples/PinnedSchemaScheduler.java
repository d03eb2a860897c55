package io.lanes.examples;

import io.lanes.core.Placement;
import io.lanes.core.Scheduler;
import io.lanes.core.SchedulingContext;
import io.lanes.core.Transaction;
import java.util.HashMap;
import java.util.Map;

/**
 * Example 4: a user-written scheduling policy. Every schema is pinned to one worker (by hash, as MySQL 5.6's
 * database-parallel replica did), so a schema's transactions always run on the same thread and connection, for targets
 * that like a stable connection per schema (per-connection caches, session state). A transaction touching several
 * schemas runs on the first one's worker and waits for the last transaction of each of the others.
 *
 * <p>Unlike the built-in {@code schema} policy it never moves a schema to an idle worker, so it balances less well: a
 * trade a user policy may choose. Called by the dispatching thread only (see {@link Scheduler}); one instance per
 * pipeline.
 *
 * <pre>{@code
 * Lanes.builder().source(files).target(url).scheduler(new PinnedSchemaScheduler()).workers(8).build();
 * }</pre>
 */
public final class PinnedSchemaScheduler implements Scheduler {
    private SchedulingContext context;
    private final Map<String, Long> lastOfSchema = new HashMap<>();
    private final Map<Long, Integer> workerOfSequence = new HashMap<>();

    @Override
    public void init(SchedulingContext context) {
        this.context = context;
        lastOfSchema.clear();
        workerOfSequence.clear();
    }

    @Override
    public void schedule(Transaction<?> txn, Placement placement) {
        if (txn.partitionKeyCount() == 0) {
            placement.asBarrier(); // touches no known schema (e.g. a server-wide statement): runs alone
            return;
        }
        int worker = workerFor(txn.partitionKey(0));
        placement.toWorker(worker);
        for (String schema : txn.partitionKeys()) {
            Long previous = lastOfSchema.put(schema, placement.sequence());
            if (previous != null) {
                placement.after(previous); // dropped by the engine when already committed
            }
        }
        workerOfSequence.put(placement.sequence(), worker);
        if (workerOfSequence.size() > 1 << 16) {
            workerOfSequence.clear(); // only kept for workerOf(); bounded memory
        }
    }

    /** The worker a schema is pinned to. */
    public int workerFor(String schema) {
        return Math.floorMod(schema.hashCode(), context.workerCount());
    }

    /** The worker a transaction was placed on (for tests and logs); -1 when not remembered. */
    public int workerOf(long sequence) {
        return workerOfSequence.getOrDefault(sequence, -1);
    }

    @Override
    public String name() {
        return "pinned-schema";
    }
}
