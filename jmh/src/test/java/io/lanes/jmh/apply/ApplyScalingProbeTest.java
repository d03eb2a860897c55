package io.lanes.jmh.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.jmh.report.BenchReportAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-to-end scaling probe runs real pipelines (a CI smoke pass, so it never rots), and the report judges seed 001
 * from it: paired ratios within rounds, the JMH curves' line kept beside it, marked as not the judge.
 */
class ApplyScalingProbeTest {
    @Test
    void smokePassRunsEveryCountOfEveryCurveInEveryRound(@TempDir Path dir) throws Exception {
        Path out = ApplyScalingProbe.write(new String[] {"--rounds", "1", "--fast-rounds", "2", "--warmup", "0",
            "--workers", "0,1,1024", "--models", "noop,h2", "-o", dir.resolve("e2e-probe.json").toString()});
        String json = Files.readString(out);
        for (String curve : new String[] {"\"model\": \"noop\", \"workload\": \"uniform10\", \"scheduler\": \"writeset\"",
            "\"model\": \"h2\", \"workload\": \"sysbenchFixture\", \"scheduler\": \"logical-clock\""}) {
            for (int w : new int[] {0, 1, 1024}) {
                assertTrue(json.contains(curve) && json.contains("\"workers\": " + w + ", \"median\": "), json);
            }
        }
        assertFalse(json.contains("\"median\": 0.0") || json.contains("NaN"), "every run committed work: " + json);
        // The no-op and H2 curves run the fast rounds: two measurements for every count.
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"rounds\": \\[([^\\]]*)\\]").matcher(json);
        int arrays = 0;
        while (m.find()) {
            arrays++;
            assertEquals(2, m.group(1).split(",").length, json);
        }
        assertEquals(2 * 4 * 3, arrays, "2 models x 4 schedulers x 3 counts: " + json);
    }

    @Test
    void reportJudgesSeed001OnRatiosPairedWithinRounds(@TempDir Path docs) throws Exception {
        Path bench = Files.createDirectories(docs.resolve("bench"));
        Files.writeString(bench.resolve("e2e-probe.json"), "{\"command\": \"probe\", \"started\": \"s\", "
                + "\"finished\": \"f\", \"uptimeBefore\": \"a\", \"uptimeAfter\": \"b\", \"rounds\": 3, \"curves\": ["
                // steady: 1024 workers at 95% of 1 worker in every round
                + curve("h2", "schema", 0, 90, 90, 90) + "," + curve("h2", "schema", 1, 100, 100, 100) + ","
                + curve("h2", "schema", 1024, 95, 95, 95) + ","
                // 1024 workers at half the best count's rate: FAIL
                + curve("h2", "writeset", 0, 100, 100, 100) + "," + curve("h2", "writeset", 1, 100, 100, 100) + ","
                + curve("h2", "writeset", 1024, 50, 50, 50) + ","
                // a slow spell of the machine fell on different rounds: medians 33%, paired 100%: PASS
                + curve("noop", "logical-clock", 1, 600, 600, 200) + ","
                + curve("noop", "logical-clock", 1024, 600, 200, 200) + "]}");
        String md = BenchReportAccess.render(bench, docs);
        assertTrue(md.contains("| h2/sysbenchFixture/schema | 95% of 1 workers (paired); medians 95 / 100 tps (best 1 "
                + "workers) = 95% | PASS |"), md);
        assertTrue(md.contains("| h2/sysbenchFixture/writeset | 50% of 0 workers (paired); medians 50 / 100 tps (best 0 "
                + "workers) = 50% | FAIL |"), md);
        assertTrue(md.contains("| noop/uniform10/logical-clock | 100% of 1 workers (paired); medians 200 / 600 tps "
                + "(best 1 workers) = 33% | PASS |"), md);
        assertTrue(md.contains("| Seed 001: 1024 workers >= 90% of the best worker count, every scheduler and model (end "
                + "to end, interleaved probe"), md);
        assertTrue(md.contains("3 curves; worst 50% (h2/sysbenchFixture/writeset); below: h2/sysbenchFixture/writeset"),
                md);
        assertTrue(Files.size(bench.resolve("e2e-probe-h2-sysbenchFixture.png")) > 1000, "chart drawn");
    }

    private static String curve(String model, String scheduler, int workers, double... tps) {
        return String.format(Locale.ROOT, "{\"model\": \"%s\", \"workload\": \"%s\", \"scheduler\": \"%s\", "
                + "\"transactions\": 2000, \"commitOrder\": \"partition\", \"workers\": %d, %s}", model,
                model.equals("h2") ? "sysbenchFixture" : "uniform10", scheduler, workers,
                BenchReportAccess.medianAndRounds(tps));
    }
}
