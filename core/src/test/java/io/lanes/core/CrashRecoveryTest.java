package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.core.sim.EngineHarness;
import io.lanes.core.sim.EngineHarness.Knobs;
import io.lanes.core.sim.EngineHarness.Policy;
import io.lanes.core.sim.SimTarget;
import io.lanes.core.sim.Workload;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Crashes at random points, then recovery from the checkpoints the workers stored in the target's own transactions:
 * no transaction lost, none applied twice, the final state equals a sequential apply.
 *
 * <p>A crash is either the target going down inside or right after a random commit (the engine sees failures, retries,
 * gives up and stops), or the process "dying" at a random point of the submit loop (an abort: open batches are rolled
 * back). Each workload crashes up to three times before a final run completes it.
 */
class CrashRecoveryTest {
    private static final boolean LONG = Boolean.getBoolean("lanes.long");

    @Test
    void crashesAtRandomPointsLoseNothingAndApplyNothingTwice() throws Exception {
        int runs = LONG ? 1_500 : 120;
        int[] workerChoices = {0, 1, 2, 3, 8, 64};
        int recoveriesWithSkips = 0;
        for (int run = 0; run < runs; run++) {
            long seed = 9_000_000L + run;
            Random r = new Random(seed);
            Workload w = Workload.random(seed, 400);
            Policy policy = Policy.values()[r.nextInt(Policy.values().length)];
            int workers = workerChoices[r.nextInt(workerChoices.length)];
            CommitOrder order = CommitOrder.values()[r.nextInt(3)];
            Knobs knobs = Knobs.random(seed);
            String what = "run " + run + ": " + policy + " workers=" + workers + " " + order + " " + knobs + " " + w;
            SimTarget target = new SimTarget(w, order);
            target.maxApplyDelayMicros(knobs.applyDelayMicros());
            int crashes = 1 + r.nextInt(3);
            for (int c = 0; c < crashes; c++) {
                Engine<Integer> engine = EngineHarness.engine(target, policy, workers, order, knobs);
                try {
                    RecoveryPoint rp = engine.start();
                    if (rp.alreadyApplied().length > 0) {
                        recoveriesWithSkips++;
                    }
                    int from = rp.position() == null ? 1 : Integer.parseInt(rp.position()) + 1;
                    assertEquals(rp.nextSequence(), from, what);
                    for (long s : rp.alreadyApplied()) {
                        assertTrue(target.isCommitted((int) s), "recovery skips " + s + " which is not applied: " + what);
                    }
                    for (int i = from; i <= rp.lowWaterMark(); i++) {
                        assertTrue(target.isCommitted(i), what);
                    }
                    boolean killInLoop = r.nextBoolean();
                    int remaining = w.count - from + 1;
                    if (!killInLoop) {
                        target.crashAtCommit(target.commits() + 1 + r.nextInt(Math.max(1, remaining / 2 + 1)));
                    }
                    int killAt = from + r.nextInt(Math.max(1, remaining));
                    try {
                        for (int i = from; i <= w.count; i++) {
                            if (killInLoop && i == killAt) {
                                engine.abort();
                                break;
                            }
                            assertEquals(i, engine.submit(w.transaction(i)), what);
                        }
                        if (!killInLoop) {
                            engine.abort(); // the target is down or about to be: the process dies here
                        }
                    } catch (ApplierFailedException expected) {
                        assertTrue(target.crashed(), "the engine failed without a crash: " + expected + " " + what);
                    }
                } finally {
                    engine.abort();
                }
                target.restart();
            }
            try (Engine<Integer> engine = EngineHarness.engine(target, policy, workers, order, knobs)) {
                assertTrue(EngineHarness.runToEnd(engine, w), what);
            }
            assertEquals(List.of(), target.violations(), what);
            int[] applied = target.appliedCounts();
            for (int i = 1; i <= w.count; i++) {
                assertEquals(1, applied[i], "txn " + i + " applied " + applied[i] + " times: " + what);
            }
            assertArrayEquals(w.sequentialState(), target.state(), what);
        }
        assertTrue(recoveriesWithSkips > 0, "no recovery ever had transactions to skip: the test proves too little");
    }
}
