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
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The engine's contract, run against every policy x worker count {0 (inline), 1, 2, 3, 8, 64} x commit order, each on
 * several random workloads (seeds printed on failure): the final state equals a sequential apply, every transaction is
 * applied exactly once, no transaction starts before a conflicting one committed, barriers run alone, commits follow
 * the commit order. {@link EngineContractProperties} runs the same contract as a jqwik property with shrinking.
 */
class EngineContractTest {
    static final int[] WORKERS = {1, 2, 3, 8, 64};
    static final boolean LONG = Boolean.getBoolean("lanes.long");

    @TestFactory
    Stream<DynamicTest> everyPolicyWorkerCountAndCommitOrder() {
        List<DynamicTest> tests = new ArrayList<>();
        int workloads = LONG ? 40 : 4;
        for (Policy p : Policy.values()) {
            for (int w : WORKERS) {
                for (CommitOrder o : CommitOrder.values()) {
                    long base = (p.ordinal() * 1000L + w) * 10 + o.ordinal();
                    tests.add(DynamicTest.dynamicTest(p + " workers=" + w + " " + o, () -> {
                        for (int i = 0; i < workloads; i++) {
                            long seed = base * 100 + i;
                            checkContract(Workload.random(seed, 300), p, w, o, Knobs.random(seed));
                        }
                    }));
                }
            }
        }
        for (CommitOrder o : CommitOrder.values()) {
            // The inline block commit: batches kept open across submits, ended by size, barriers, window, budget.
            tests.add(DynamicTest.dynamicTest("inline workers=0 " + o, () -> {
                for (int i = 0; i < workloads; i++) {
                    long seed = i * 10L + o.ordinal();
                    checkContract(Workload.random(seed, 300), Policy.SEQUENTIAL, 0, o, Knobs.random(seed));
                }
            }));
        }
        return tests.stream();
    }

    static void checkContract(Workload w, Policy p, int workers, CommitOrder order, Knobs knobs) throws Exception {
        String what = p + " workers=" + workers + " " + order + " " + knobs + " " + w;
        SimTarget target = new SimTarget(w, order);
        target.maxApplyDelayMicros(knobs.applyDelayMicros());
        try (Engine<Integer> engine = EngineHarness.engine(target, p, workers, order, knobs)) {
            assertTrue(EngineHarness.runToEnd(engine, w), what);
            assertEquals(w.count, engine.lowWaterMark(), what);
        }
        assertEquals(List.of(), target.violations(), what);
        assertArrayEquals(w.sequentialState(), target.state(), "final state differs from a sequential apply: " + what);
        int[] applied = target.appliedCounts();
        for (int i = 1; i <= w.count; i++) {
            assertEquals(1, applied[i], "txn " + i + " applied " + applied[i] + " times: " + what);
        }
        if (order == CommitOrder.STRICT) {
            List<Integer> log = target.commitLog();
            for (int i = 0; i < log.size(); i++) {
                assertEquals(i + 1, log.get(i), "STRICT commit log out of order: " + what);
            }
        }
    }
}
