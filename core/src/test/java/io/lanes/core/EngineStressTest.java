package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.core.sim.EngineHarness;
import io.lanes.core.sim.EngineHarness.Knobs;
import io.lanes.core.sim.EngineHarness.Policy;
import io.lanes.core.sim.SimTarget;
import io.lanes.core.sim.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Long randomized runs of the whole engine, bounded in time (about 8 s; a few minutes with -Dlanes.long=true): large
 * workloads with tiny windows and batches (many hand-offs and checkpoint publications), transient commit failures,
 * crashes and recoveries, and a thread reading stats all the while. Every run ends with the full contract check.
 */
class EngineStressTest {
    private static final boolean LONG = Boolean.getBoolean("lanes.long");

    @Test
    void randomizedRunsBoundedInTime() throws Exception {
        long endAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(LONG ? 240 : 8);
        int[] workerChoices = {1, 2, 3, 4, 8, 16, 64, 256};
        int runs = 0;
        long transactions = 0;
        for (long seed = 77_000_000L; System.nanoTime() < endAt; seed++) {
            Random r = new Random(seed);
            Workload w = Workload.random(seed, 3_000);
            Policy policy = Policy.values()[r.nextInt(Policy.values().length)];
            int workers = workerChoices[r.nextInt(workerChoices.length)];
            CommitOrder order = CommitOrder.values()[r.nextInt(3)];
            Knobs base = Knobs.random(seed);
            Knobs knobs = new Knobs(r.nextBoolean() ? 2 + r.nextInt(16) : base.groupSize(), base.budget(),
                    base.queueCapacity(), base.maxBatch(), 0);
            String what = "seed " + seed + ": " + policy + " workers=" + workers + " " + order + " " + knobs + " " + w;
            SimTarget target = new SimTarget(w, order);
            if (r.nextInt(3) == 0) {
                target.transientFailureRate(0.01);
            }
            if (r.nextInt(3) == 0) {
                target.crashAtCommit(1 + r.nextInt(Math.max(1, w.count / 4)));
                Engine<Integer> crashing = EngineHarness.engine(target, policy, workers, order, knobs);
                try {
                    EngineHarness.runToEnd(crashing, w);
                } catch (ApplierFailedException expected) {
                    // the target crashed
                } finally {
                    crashing.abort();
                }
                target.restart();
            }
            Engine<Integer> engine = EngineHarness.engine(target, policy, workers, order, knobs);
            ConcurrentLinkedQueue<String> statsErrors = new ConcurrentLinkedQueue<>();
            AtomicBoolean stop = new AtomicBoolean();
            Thread reader = new Thread(() -> {
                long lastLwm = 0;
                while (!stop.get()) {
                    EngineStats s = engine.stats();
                    if (s.lowWaterMark() < lastLwm) {
                        statsErrors.add("low-water mark went back " + lastLwm + " -> " + s.lowWaterMark());
                    }
                    if (s.lowWaterMark() > s.dispatched() && s.dispatched() > 0) {
                        statsErrors.add("low-water mark " + s.lowWaterMark() + " beyond dispatched " + s.dispatched());
                    }
                    if (s.queuedBytes() < 0) {
                        statsErrors.add("negative queued bytes " + s.queuedBytes());
                    }
                    lastLwm = s.lowWaterMark();
                    Thread.yield();
                }
            });
            reader.start();
            try {
                assertTrue(EngineHarness.runToEnd(engine, w), what);
            } finally {
                stop.set(true);
                reader.join();
                engine.abort();
            }
            List<String> errors = new ArrayList<>(target.violations());
            errors.addAll(statsErrors);
            assertEquals(List.of(), errors, what);
            assertArrayEquals(w.sequentialState(), target.state(), what);
            int[] applied = target.appliedCounts();
            for (int i = 1; i <= w.count; i++) {
                assertEquals(1, applied[i], "txn " + i + " applied " + applied[i] + " times: " + what);
            }
            assertEquals(0, engine.stats().queuedBytes(), what);
            runs++;
            transactions += w.count;
        }
        System.out.printf("engine stress: %d runs, %d transactions%n", runs, transactions);
        assertTrue(runs > 0);
    }
}
