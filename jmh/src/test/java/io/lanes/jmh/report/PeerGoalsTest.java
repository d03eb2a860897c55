package io.lanes.jmh.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The MariaDB side-by-side ratios: each Lanes series' best over MariaDB's best, per flush setting. */
class PeerGoalsTest {
    private static String[] row(String system, String mode, int threads, int flush, double tps, String state) {
        return new String[] {system, mode, Integer.toString(threads), Integer.toString(flush), "100000", "1.00",
            Long.toString(Math.round(tps)), state};
    }

    @Test
    void ratiosUseEachSeriesBestAndSkipRunsWithAWrongFinalState() {
        StringBuilder md = new StringBuilder();
        BenchReport.peerGoals(md, List.of(
                row("mariadb-replica", "-", 0, 1, 4000, "same"),
                row("mariadb-replica", "optimistic", 16, 1, 10000, "same"),
                row("lanes", "schema/block-64/partition", 10, 1, 15000, "same"),
                row("lanes", "schema/block-64/partition", 16, 1, 90000, "DIFFERENT"),
                row("mariadb-replica", "-", 0, 2, 11000, "same"),
                row("lanes", "schema/block-64/partition", 4, 2, 12000, "same"),
                row("lanes", "schema/block-64/partition/jvm-c1", 4, 2, 9000, "same")));
        String out = md.toString();
        assertTrue(out.contains("| 1 (durable) | schema/block-64/partition | 15000, 10 | 10000, optimistic, 16 | 1.50x | 2x: FAIL |"),
                out);
        assertTrue(out.contains("| 2 | schema/block-64/partition | 12000, 4 | 11000, single SQL thread, 0 | 1.09x | 1x: PASS |"),
                out);
        assertTrue(out.contains("| 2 | schema/block-64/partition/jvm-c1 | 9000, 4 | 11000, single SQL thread, 0 | 0.82x | 1x: FAIL |"),
                out);
        assertFalse(out.contains("90000"), "a run that did not reach the source's state is no result");
    }
}
