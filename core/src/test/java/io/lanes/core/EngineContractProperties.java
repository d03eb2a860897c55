package io.lanes.core;

import io.lanes.core.sim.EngineHarness.Knobs;
import io.lanes.core.sim.EngineHarness.Policy;
import io.lanes.core.sim.Workload;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * The contract of {@link EngineContractTest} as a jqwik property: policy, worker count, commit order, engine knobs and
 * the workload itself are generated, and a failure shrinks to a small workload.
 */
class EngineContractProperties {

    @Property(tries = 200, shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void parallelApplyEqualsSequentialApply(@ForAll Policy policy, @ForAll("workerCounts") int workers,
            @ForAll CommitOrder order, @ForAll("knobs") Knobs knobs, @ForAll("workloads") Workload workload)
            throws Exception {
        EngineContractTest.checkContract(workload, policy, workers, order, knobs);
    }

    @Provide
    Arbitrary<Integer> workerCounts() {
        return Arbitraries.of(0, 1, 2, 3, 8, 64);
    }

    @Provide
    Arbitrary<Knobs> knobs() {
        return Arbitraries.longs().map(Knobs::random);
    }

    @Provide
    Arbitrary<Workload> workloads() {
        Arbitrary<Workload.Spec> spec = Combinators.combine(
                Arbitraries.integers().between(0, 1_000).array(int[].class).ofMaxSize(3),
                Arbitraries.integers().between(0, 30).map(x -> x == 0),
                Arbitraries.longs().between(0, 30_000),
                Arbitraries.integers().between(0, 6).map(x -> x == 0))
                .as(Workload.Spec::new);
        Arbitrary<List<Workload.Spec>> specs = spec.list().ofMinSize(1).ofMaxSize(200);
        return Combinators.combine(specs, Arbitraries.integers().between(1, 100), Arbitraries.integers().between(1, 12),
                Arbitraries.of(true, false))
                .as((s, keys, parts, mariadb) -> Workload.of(s, keys, parts, mariadb, "generated"));
    }
}
