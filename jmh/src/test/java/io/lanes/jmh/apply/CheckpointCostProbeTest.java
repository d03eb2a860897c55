package io.lanes.jmh.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.jmh.report.BenchReportAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint cost probe end to end on a tiny workload (real pipelines into H2), and its pairing arithmetic: the
 * cost is the median of the per-round paired ratios, not a ratio of medians.
 */
class CheckpointCostProbeTest {

    @Test
    void aTinyProbeRunWritesJsonThatTheReportRenders(@TempDir Path docs) throws Exception {
        Path bench = Files.createDirectories(docs.resolve("bench"));
        Path out = CheckpointCostProbe.run(new String[] {"--rounds", "2", "--warmup", "0", "--transactions", "100",
            "--workers", "0,2", "--block-commit", "1,256", "-o", bench.resolve("checkpoint-probe.json").toString()});
        String json = Files.readString(out);
        assertEquals(16, json.split("\"wallNanos\"", -1).length - 1, "2 rounds x 8 configurations: " + json);
        assertTrue(json.contains("\"command\": \"") && json.contains("\"uptimeBefore\": \""), json);
        // JFR samples were counted into the runs, and the runs with checkpoint rows spent some in checkpoint code.
        assertTrue(json.contains("\"checkpointSamplesByFrame\": {\n    \"blockCommit 1\": {"), json);
        assertTrue(json.contains("JdbcCheckpointTable.write"), json);
        String md = BenchReportAccess.render(bench, docs);
        assertTrue(md.matches("(?s).*\\| 2 \\| 1 \\|[^\n]*\\| \\d+\\.\\d%, \\d+\\.\\d% \\| 2 \\|.*"), md);
        for (String line : List.of("| 0 | 1 |", "| 0 | 256 (default) |", "| 2 | 1 |", "| 2 | 256 (default) |")) {
            assertTrue(md.contains(line), line + " in " + md);
        }
        String[] seed004 = BenchReportAccess.goals("[]", json).stream().filter(g -> g[0].startsWith("Seed 004"))
                .findFirst().orElseThrow();
        assertTrue(seed004[2].equals("PASS") || seed004[2].equals("FAIL"), seed004[1] + ": " + seed004[2]);
        assertTrue(seed004[1].contains("block commit 256 (Lanes's default): 0 workers ") && seed004[1].contains(
                "Block commit 1 "), seed004[1]);
    }

    @Test
    void costIsTheMedianOfPairedRatiosWithinRounds() {
        List<CheckpointCostProbe.Run> runs = new ArrayList<>();
        // Three rounds whose load differs a lot between rounds: with checkpoint rows always 10% slower in its round.
        long[] noneWall = {1_000_000_000L, 3_000_000_000L, 1_500_000_000L};
        for (int round = 1; round <= 3; round++) {
            long none = noneWall[round - 1];
            runs.add(new CheckpointCostProbe.Run(round, 0, new CheckpointCostProbe.Config("none", 4, 256), 1000, none,
                    500_000_000L));
            runs.add(new CheckpointCostProbe.Run(round, 1, new CheckpointCostProbe.Config("table", 4, 256), 1000,
                    Math.round(none / 0.9), round == 2 ? 400_000_000L : 550_000_000L));
        }
        List<CheckpointCostProbe.Summary> s = CheckpointCostProbe.summarise(runs, List.of(4), List.of(256), 3);
        assertEquals(1, s.size());
        assertEquals(0.10, s.get(0).wallCost(), 1e-9);
        assertEquals(1 - 500.0 / 550.0, s.get(0).cpuCost(), 1e-9, "median of 1 - 500/550, 1 - 500/400, 1 - 500/550");
        assertEquals(1000 / 1.5 * 0.9, s.get(0).tpsWith(), 1e-6);
        assertEquals(3, s.get(0).rounds());
        assertEquals(2.0, CheckpointCostProbe.quantile(List.of(3.0, 1.0, 2.0), 0.5));
        assertEquals(1.5, CheckpointCostProbe.quantile(List.of(3.0, 1.0, 2.0), 0.25));
    }
}
