package io.lanes.core.sim;

import io.lanes.core.ApplierFailedException;
import io.lanes.core.CommitOrder;
import io.lanes.core.Engine;
import io.lanes.core.LogicalClockScheduler;
import io.lanes.core.PartitionScheduler;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Scheduler;
import io.lanes.core.SequentialScheduler;
import io.lanes.core.WritesetScheduler;
import java.time.Duration;
import java.util.Random;
import java.util.function.Supplier;

/** Runs a {@link Workload} through an engine into a {@link SimTarget}, with engine knobs drawn from a seed. */
public final class EngineHarness {
    /** The policies of the test contract. */
    public enum Policy {
        SEQUENTIAL(SequentialScheduler::new),
        PARTITION(PartitionScheduler::new),
        LOGICAL_CLOCK(LogicalClockScheduler::new),
        WRITESET(() -> new WritesetScheduler(64)),
        WRITESET_SMALL_HISTORY(() -> new WritesetScheduler(3)),
        WRITESET_RUNS(() -> new WritesetScheduler(64, 8)),
        /** Runs on processors with no time to spare, where a full run stays on its worker. */
        WRITESET_RUNS_BUSY(() -> new BusyProcessors(new WritesetScheduler(64, 8)));

        private final Supplier<Scheduler> factory;

        Policy(Supplier<Scheduler> factory) {
            this.factory = factory;
        }

        public Scheduler create() {
            return factory.get();
        }
    }

    /** Engine knobs, drawn from a seed so a failing case can be replayed. */
    public record Knobs(int groupSize, long budget, int queueCapacity, int maxBatch, int applyDelayMicros) {
        public static Knobs random(long seed) {
            Random r = new Random(seed * 31 + 7);
            return new Knobs(
                    r.nextBoolean() ? 512 : 2 + r.nextInt(40),
                    r.nextBoolean() ? 128L << 20 : 1_000 + r.nextInt(50_000),
                    r.nextBoolean() ? 16_384 : 1 + r.nextInt(8),
                    r.nextBoolean() ? 64 : 1 + r.nextInt(5),
                    r.nextInt(4) == 0 ? r.nextInt(200) : 0);
        }
    }

    private EngineHarness() {
    }

    public static Engine<Integer> engine(SimTarget target, Policy policy, int workers, CommitOrder order, Knobs k) {
        return Engine.<Integer>builder(target::applier)
                .scheduler(policy.create())
                .workers(workers)
                .commitOrder(order)
                .checkpointStore(target.checkpointStore())
                .checkpointGroupSize(k.groupSize())
                .checkpointPeriod(Duration.ofMillis(20))
                .queueBudgetBytes(k.budget())
                .workerQueueCapacity(k.queueCapacity())
                .blockCommit(k.maxBatch())
                .retries(3)
                .retryBackoff(Duration.ofMillis(1), Duration.ofMillis(4))
                .commitOrderTimeout(Duration.ofSeconds(5))
                .build();
    }

    /**
     * Starts an engine, re-reads the workload from the recovery point and submits until the end or until the engine
     * fails.
     *
     * @return true when every transaction was submitted and the engine stopped cleanly
     */
    public static boolean runToEnd(Engine<Integer> engine, Workload w) throws InterruptedException {
        RecoveryPoint rp = engine.start();
        int from = rp.position() == null ? 1 : Integer.parseInt(rp.position()) + 1;
        if (from != rp.nextSequence()) {
            throw new AssertionError("recovery position " + rp.position() + " but next sequence " + rp.nextSequence());
        }
        try {
            for (int i = from; i <= w.count; i++) {
                long seq = engine.submit(w.transaction(i));
                if (seq != i) {
                    throw new AssertionError("transaction " + i + " got sequence " + seq);
                }
            }
            engine.stop();
            return true;
        } catch (ApplierFailedException e) {
            engine.abort();
            return false;
        }
    }
}
