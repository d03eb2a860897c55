package io.lanes.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 003 is judged at 4 source sessions and, where measured, at 1..3 sessions, each row with its ceiling. */
class Seed003SessionsReportTest {
    @Test
    void everyMeasuredSessionCountGetsItsOwnVerdict() {
        String jmh = "[" + r("oneSchemaLowConcurrency", "writeset", 12_000) + ","
                + r("oneSchemaLowConcurrency", "logical-clock", 3_500) + ","
                + r("oneSchemaLowConcurrency-2", "writeset", 12_000) + ","
                + r("oneSchemaLowConcurrency-2", "logical-clock", 2_100) + "]";
        List<String[]> goals = BenchReportAccess.goals(jmh);
        String[] four = row(goals, "Seed 003: writeset");
        assertEquals("FAIL", four[2], four[1]);
        assertEquals("12,000 / 3,500 tps = 3.43x", four[1]);
        String[] two = row(goals, "Seed 003 with 2 source sessions");
        assertEquals("PASS", two[2], two[1]);
        assertEquals("Seed 003 with 2 source sessions (commit groups of 1..2; ceiling 5.3x): writeset at 8 workers >= 4x"
                + " logical clock (latency, oneSchemaLowConcurrency-2, commit order none)", two[0]);
        assertEquals(0, goals.stream().filter(g -> g[0].startsWith("Seed 003 with 1 ")
                || g[0].startsWith("Seed 003 with 3 ")).count(), "unmeasured session counts get no row");
    }

    private static String[] row(List<String[]> goals, String prefix) {
        return goals.stream().filter(g -> g[0].startsWith(prefix)).findFirst().orElseThrow();
    }

    private static String r(String workload, String scheduler, double tps) {
        return "{\"benchmark\":\"io.lanes.jmh.apply.ApplyThroughput.applyFile\",\"params\":{\"model\":\"latency\","
                + "\"workload\":\"" + workload + "\",\"scheduler\":\"" + scheduler + "\",\"workers\":\"8\","
                + "\"checkpoint\":\"table\",\"blockCommit\":\"1\",\"commitOrder\":\"none\"},\"primaryMetric\":{\"score\":"
                + "1.0},\"secondaryMetrics\":{\"transactions\":{\"score\":" + tps + ",\"scoreError\":\"NaN\"}}}";
    }
}
