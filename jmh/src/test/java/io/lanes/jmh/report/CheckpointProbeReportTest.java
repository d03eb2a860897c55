package io.lanes.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.LanesConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's use of the checkpoint cost probe ({@code checkpoint-probe.json}): its table in the checkpoint section,
 * and seed 004 judged at Lanes's default block commit with the block-commit-1 figures stated beside the verdict.
 */
class CheckpointProbeReportTest {
    private static final String SEED_004 = "Seed 004";

    @Test
    void defaultBlockCommitIs256AsTheGoalsTextSays() {
        assertEquals(256, LanesConfig.DEFAULT_BLOCK_COMMIT);
    }

    @Test
    void seed004IsJudgedAtTheDefaultBlockCommitAndStatesBlockCommit1() {
        String probe = probe(row(0, 1, 0.12, 0.09), row(4, 1, 0.20, 0.15), row(0, 256, 0.02, 0.01), row(4, 256, 0.04, 0.03));
        String[] g = seed004(BenchReportAccess.goals("[]", probe));
        assertEquals("PASS", g[2], g[1]);
        assertTrue(g[1].contains("block commit 256 (Lanes's default): 0 workers 2.0% wall, 1.0% CPU, 1.0% of CPU samples"
                + " in checkpoint code; 4 workers 4.0% wall, 3.0% CPU, 3.0% of CPU samples in checkpoint code"), g[1]);
        assertTrue(g[1].contains("Block commit 1 (each source transaction commits alone: a checkpoint row per "
                + "transaction), not judged: 0 workers 12.0% wall, 9.0% CPU, 9.0% of CPU samples in checkpoint code; "
                + "4 workers 20.0% wall, 15.0% CPU, 15.0% of CPU samples in checkpoint code"), g[1]);
        assertTrue(g[1].endsWith("15 interleaved rounds, median of paired ratios"), "quartiles 4 points apart: " + g[1]);

        String over = probe(row(0, 1, 0.01, 0.01), row(0, 256, 0.02, 0.01), row(4, 256, 0.06, 0.01));
        assertEquals("FAIL", seed004(BenchReportAccess.goals("[]", over))[2], "worst wall cost at the default is 6%");

        String noisy = probe(row(0, 256, 0.02, 0.01)).replace("\"wallCostQ3\": 0.04", "\"wallCostQ3\": 0.2");
        assertTrue(seed004(BenchReportAccess.goals("[]", noisy))[1].endsWith("; noisy: the per-round wall costs' quartiles"
                + " lie up to 20 points apart (a busy machine), the CPU-sample share is the steadier figure"), noisy);
    }

    @Test
    void withoutADefaultBlockCommitRowTheJmhPairsAreUsed() {
        String probe = probe(row(0, 1, 0.01, 0.01));
        String jmh = "[" + h2("table", 0, 900) + "," + h2("none", 0, 1000) + "]";
        String[] g = seed004(BenchReportAccess.goals(jmh, probe));
        assertEquals("FAIL", g[2], g[1]);
        assertTrue(g[1].startsWith("worst cost 10.0%"), g[1]);
        assertEquals("NOT MEASURED", seed004(BenchReportAccess.goals("[]", null))[2]);
    }

    @Test
    void reportRendersTheProbeTableWithHowItWasMeasuredAndKeepsTheJmhTable(@TempDir Path docs) throws Exception {
        Path bench = Files.createDirectories(docs.resolve("bench"));
        Files.writeString(bench.resolve("checkpoint-probe.json"), probe(row(0, 1, 0.12, 0.09), row(4, 256, 0.04, 0.03)));
        String md = BenchReportAccess.render(bench, docs);
        String section = md.substring(md.indexOf("## Exactly-once checkpoint cost"), md.indexOf("## Side by side"));
        assertTrue(section.contains("| workers | block commit | with checkpoint rows (tps) | without (tps) | wall cost [q1, q3] |"
                + " CPU cost [q1, q3] | CPU µs / transaction (with, without) | checkpoint code, share of CPU samples (with,"
                + " without) | rounds |"), section);
        assertTrue(section.contains("| 0 | 1 | 880 | 1,000 | 12.0% [10.0, 14.0] | 9.0% [8.0, 10.0] | 110, 100 | 9.0%, 0.5% |"
                + " 15 |"), section);
        assertTrue(section.contains("| 4 | 256 (default) | 960 | 1,000 | 4.0% [2.0, 6.0] | 3.0% [2.0, 4.0] | 103, 100 |"
                + " 3.0%, 0.5% | 15 |"), section);
        assertTrue(section.contains("command: java -cp jmh/target/benchmarks.jar io.lanes.jmh.apply.CheckpointCostProbe"),
                section);
        assertTrue(section.contains("load before: 10:00 up 1 day, load average: 0.10, 0.20, 0.30"), section);
        assertTrue(section.contains("shuffled order") && section.contains("median over rounds of the paired ratio"),
                section);
        assertTrue(section.contains("](bench/checkpoint-probe.json)"), section);
        assertFalse(section.contains("### JMH pass"), "no JMH results, no JMH table: " + section);
        assertTrue(md.contains("| Seed 004: exactly-once checkpointing costs <= 5% of throughput (h2, at the default block"
                + " commit 256) |"), md);

        Files.writeString(bench.resolve("apply-h2-checkpoint.json"),
                "[" + h2("table", 4, 900) + "," + h2("none", 4, 1000) + "]");
        String both = BenchReportAccess.render(bench, docs);
        String section2 = both.substring(both.indexOf("## Exactly-once checkpoint cost"), both.indexOf("## Side by side"));
        assertTrue(section2.contains("### JMH pass"), section2);
        assertTrue(section2.contains("| uniform10 | schema | 4 | 1 | 900 | 1,000 | 10.0% |"), section2);
        assertTrue(section2.indexOf("| 4 | 256 (default) |") < section2.indexOf("### JMH pass"), "probe first");
    }

    private static String[] seed004(List<String[]> goals) {
        return goals.stream().filter(g -> g[0].startsWith(SEED_004)).findFirst().orElseThrow();
    }

    /** A probe result line: tps without 1,000, CPU 100 us per transaction without; quartiles at the cost -/+ 2 points. */
    private static String row(int workers, int blockCommit, double wallCost, double cpuCost) {
        return String.format(java.util.Locale.ROOT, "{\"workers\": %d, \"blockCommit\": %d, \"tpsWith\": %s,"
                + " \"tpsWithout\": 1000, \"wallCost\": %s, \"wallCostQ1\": %s, \"wallCostQ3\": %s,"
                + " \"cpuMicrosPerTransactionWith\": %s, \"cpuMicrosPerTransactionWithout\": 100, \"cpuCost\": %s,"
                + " \"cpuCostQ1\": %s, \"cpuCostQ3\": %s, \"rounds\": 15, \"checkpointSampleShareWith\": %s,"
                + " \"checkpointSampleShareWithout\": 0.005}", workers, blockCommit,
                1000 * (1 - wallCost), wallCost, wallCost - 0.02, wallCost + 0.02, 100 / (1 - cpuCost), cpuCost,
                cpuCost - 0.01, cpuCost + 0.01, cpuCost);
    }

    private static String probe(String... rows) {
        return "{\"probe\": \"io.lanes.jmh.apply.CheckpointCostProbe\", \"command\": \"java -cp jmh/target/benchmarks.jar"
                + " io.lanes.jmh.apply.CheckpointCostProbe --rounds 15\", \"started\": \"2026-01-01T10:00:00Z\","
                + " \"finished\": \"2026-01-01T10:02:00Z\", \"uptimeBefore\": \"10:00 up 1 day, load average: 0.10, 0.20,"
                + " 0.30\", \"uptimeAfter\": \"10:02 up 1 day, load average: 1.00, 0.50, 0.40\", \"workload\":"
                + " \"uniform10\", \"transactions\": 2000, \"scheduler\": \"schema\", \"commitOrder\": \"partition\","
                + " \"rounds\": 15, \"warmupRounds\": 3, \"results\": [" + String.join(",", rows) + "], \"runs\": []}";
    }

    private static String h2(String checkpoint, int workers, double tps) {
        return "{\"benchmark\":\"io.lanes.jmh.apply.ApplyThroughput.applyFile\",\"params\":{\"model\":\"h2\","
                + "\"workload\":\"uniform10\",\"scheduler\":\"schema\",\"workers\":\"" + workers + "\",\"checkpoint\":\""
                + checkpoint + "\",\"blockCommit\":\"1\",\"commitOrder\":\"partition\"},\"primaryMetric\":{\"score\":1.0},"
                + "\"secondaryMetrics\":{\"transactions\":{\"score\":" + tps + ",\"scoreError\":\"NaN\"}}}";
    }
}
