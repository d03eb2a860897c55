package io.lanes.jmh.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seed 003's recorded workloads (one schema, 4 sysbench sessions on a real MariaDB source) go whole through a pipeline
 * under both schedulers the goal compares: 5,007 source transactions (prepare included), every one committed.
 */
class RecordedWorkloadsTest {
    @ParameterizedTest
    @CsvSource({"oneSchema4SessionsFixture, writeset", "oneSchema4SessionsFixture, logical-clock",
        "oneSchema4SessionsDurableFixture, writeset", "oneSchema4SessionsDurableFixture, logical-clock"})
    void everyRecordedTransactionIsCommitted(String workload, String scheduler) throws Exception {
        ApplyThroughput b = ApplyThroughput.configured("noop", workload, scheduler, 8, 0, "none");
        b.freshDatabase();
        assertEquals(5_007, b.applyFile(new ApplyThroughput.Committed()));
    }
}
