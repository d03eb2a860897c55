package io.lanes.jmh.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.core.Transaction;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The scheduler cost benchmark measures what it says (one pass, not a timing): every scheduler places every
 * transaction on worker 0, as both do on 2 processors shared with the target, and the writeset scheduler records the
 * waits for in-flight writers that the workload's repeated rows call for.
 */
class SchedulerCostBenchmarkTest {
    @Test
    void everySchedulerPlacesTheWorkloadsOnWorkerZeroAndWritesetRecordsItsWaits() {
        for (String workload : new String[] {"oltp", "mixed"}) {
            long[] waits = new long[2];
            String[] schedulers = {"schema", "writeset"};
            for (int i = 0; i < schedulers.length; i++) {
                SchedulerCostBenchmark b = new SchedulerCostBenchmark();
                b.scheduler = schedulers[i];
                b.workload = workload;
                b.setUp();
                assertEquals(0, b.schedule(), workload + "/" + schedulers[i] + ": every transaction on worker 0");
                waits[i] = b.recordedWaits();
            }
            assertTrue(waits[1] > 0, workload + ": writeset waits for in-flight writers of the same rows");
        }
    }

    @Test
    void theWorkloadsAreTheSameForASeedAndHaveTheirShape() {
        Transaction<?>[] oltp = SchedulerCostBenchmark.workload("oltp", 42);
        assertEquals(SchedulerCostBenchmark.TRANSACTIONS, oltp.length);
        assertTrue(Arrays.stream(oltp).allMatch(t -> t.writeKeyCount() == 4 && t.partitionKey(0).equals("sb")));
        Transaction<?>[] mixed = SchedulerCostBenchmark.workload("mixed", 42);
        assertEquals(1, Arrays.stream(mixed).filter(t -> t.writeKeyCount() == 40_000).count(), "one bulk transaction");
        assertTrue(Arrays.equals(oltp[7].writeKeys(), SchedulerCostBenchmark.workload("oltp", 42)[7].writeKeys()));
    }
}
