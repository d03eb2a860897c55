package io.lanes.jmh.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19's realistic-workload section: parsing the driver's TSV, medians per setting and variant, and the goals'
 * ratios taken within a round. Every expected figure below is worked out by hand from {@link #TSV}.
 */
class RealisticWorkloadsReportTest {
    /**
     * w1, variant default, three rounds: round 3's writeset:4:none failed, round 2's was not exact. w2, variant run1:
     * PostgreSQL row counts, one setting only (no ratio). Plus a header, a line not understood and the end mark.
     */
    private static final String TSV = String.join("\n",
            "# 2026-11-27T00:00:00Z commit abc1234 nproc=2 load=0.50 0.40 0.30",
            "1\tw1\tdefault\tsetting\tseconds\ttx/s\tcommit-order wait s\tdeadlocks broken\tcommit-order timeouts\texact",
            "1\tw1\tdefault\twriteset:4:partition\t2.0\t1000\t4.0\t1\t0\tyes",
            "1\tw1\tdefault\twriteset:4:none\t1.0\t2000\t0.0\t0\t0\tyes",
            "1\tw1\tdefault\tschema:4:partition\t1.0\t2500\t0.0\t0\t0\tyes",
            "2\tw1\tdefault\twriteset:4:partition\t2.0\t900\t2.0\t2\t1\tyes",
            "2\tw1\tdefault\twriteset:4:none\t1.0\t1500\t0.0\t0\t0\tno (mix1.t)",
            "2\tw1\tdefault\tschema:4:partition\t1.0\t1800\t0.0\t0\t0\tyes",
            "3\tw1\tdefault\twriteset:4:partition\t4.0\t1200\t8.0\t0\t0\tyes",
            "3\tw1\tdefault\twriteset:4:none\tfailed: {\"error\": \"connection refused\"}",
            "3\tw1\tdefault\tschema:4:partition\t1.0\t1200\t0.0\t-\t-\tyes",
            "1\tw2\trun1\twriteset:16:partition\t2.0\t3000\t16.0\t0\t0\tcounts",
            "1\tw2\trun1\twriteset:16:partition\t1.0\t5000\t4.0\t0\t0\tcounts",
            "not a run",
            "DONE", "");

    private static List<RealisticWorkloads.Run> runs(RealisticWorkloads.Data d, String workload, String setting) {
        return d.runs().stream().filter(r -> r.workload().equals(workload) && r.setting().equals(setting)).toList();
    }

    @Test
    void parsesRunsCommentsAndFailuresAndSkipsHeaders() {
        RealisticWorkloads.Data d = RealisticWorkloads.parse(TSV.lines().toList());
        assertEquals(List.of("2026-11-27T00:00:00Z commit abc1234 nproc=2 load=0.50 0.40 0.30"), d.comments());
        assertEquals(11, d.runs().size());
        assertEquals(1, d.notUnderstood(), "the line 'not a run'");
        RealisticWorkloads.Run failed = runs(d, "w1", "writeset:4:none").get(2);
        assertEquals(3, failed.round());
        assertTrue(failed.failed());
        RealisticWorkloads.Run first = runs(d, "w1", "writeset:4:partition").get(0);
        assertEquals(4, first.workers());
        assertEquals(0.5, first.waitShare(), 1e-12, "4.0 s / (4 workers x 2.0 s)");
    }

    @Test
    void summarisesMediansTotalsAndExactness() {
        RealisticWorkloads.Data d = RealisticWorkloads.parse(TSV.lines().toList());
        // tx/s 1000, 900, 1200; wait shares 4/(4x2) = 0.5, 2/(4x2) = 0.25, 8/(4x4) = 0.5
        assertEquals(new RealisticWorkloads.Summary(3, 0, 1000, 900, 1200, 0.5, 3, 1, "yes"),
                RealisticWorkloads.summarize(runs(d, "w1", "writeset:4:partition")));
        // the failed run counts as a run, not exact, without throughput: median of 2000 and 1500
        assertEquals(new RealisticWorkloads.Summary(3, 1, 1750, 1500, 2000, 0, 0, 0, "no (2 of 3)"),
                RealisticWorkloads.summarize(runs(d, "w1", "writeset:4:none")));
        // round 3 did not report deadlocks or timeouts: the totals are over the runs that did
        assertEquals(new RealisticWorkloads.Summary(3, 0, 1800, 1200, 2500, 0, 0, 0, "yes"),
                RealisticWorkloads.summarize(runs(d, "w1", "schema:4:partition")));
        // 16 workers: 16/(16x2) = 0.5, 4/(16x1) = 0.25
        assertEquals(new RealisticWorkloads.Summary(2, 0, 4000, 3000, 5000, 0.375, 0, 0, "yes (row counts)"),
                RealisticWorkloads.summarize(runs(d, "w2", "writeset:16:partition")));
    }

    @Test
    void postgresRowsComparedAsTextAreExactAndADifferingTableIsNot() {
        RealisticWorkloads.Data d = RealisticWorkloads.parse(List.of(
                "1\tw3\tdefault\twriteset:4:partition\t1.0\t2000\t0.0\t0\t0\trows",
                "2\tw3\tdefault\twriteset:4:partition\t1.0\t1000\t0.0\t0\t0\trows",
                "1\tw3\tdefault\tschema:4:partition\t1.0\t2000\t0.0\t0\t0\trows",
                "2\tw3\tdefault\tschema:4:partition\t1.0\t1000\t0.0\t0\t0\tno (tpcc.stock: rows differ)"));
        assertEquals("yes", RealisticWorkloads.summarize(runs(d, "w3", "writeset:4:partition")).exact());
        assertEquals("no (1 of 2)", RealisticWorkloads.summarize(runs(d, "w3", "schema:4:partition")).exact());
    }

    @Test
    void ratiosAreTakenWithinEachRoundThenSummarised() {
        RealisticWorkloads.Data d = RealisticWorkloads.parse(TSV.lines().toList());
        List<RealisticWorkloads.Run> w1 = d.runs().stream().filter(r -> r.workload().equals("w1")).toList();
        RealisticWorkloads.Ratio defaultOverNone = RealisticWorkloads.RATIOS.get(0);
        RealisticWorkloads.Ratio defaultOverSchema = RealisticWorkloads.RATIOS.get(1);
        RealisticWorkloads.Ratio strictOverNone = RealisticWorkloads.RATIOS.get(2);
        // round 1: 1000 / 2000, round 2: 900 / 1500; round 3's none failed
        assertArrayEquals(new double[] {0.5, 0.6}, RealisticWorkloads.roundRatios(w1, defaultOverNone), 1e-12);
        // 1000 / 2500, 900 / 1800, 1200 / 1200
        assertArrayEquals(new double[] {0.4, 0.5, 1.0}, RealisticWorkloads.roundRatios(w1, defaultOverSchema), 1e-12);
        assertEquals(0, RealisticWorkloads.roundRatios(w1, strictOverNone).length, "no strict run");
        assertEquals("0.55x (0.50-0.60, 2 rounds)",
                RealisticWorkloads.ratioCell(RealisticWorkloads.roundRatios(w1, defaultOverNone)));
        assertEquals("0.50x (0.40-1.00, 3 rounds)",
                RealisticWorkloads.ratioCell(RealisticWorkloads.roundRatios(w1, defaultOverSchema)));
        assertEquals("0.70x (1 round)", RealisticWorkloads.ratioCell(new double[] {0.7}));
        assertEquals("-", RealisticWorkloads.ratioCell(new double[0]));
    }

    @Test
    void rendersTablesRatiosAndOneChartPerTargetAndWorkload(@TempDir Path bench) throws Exception {
        Files.createDirectories(bench.resolve("issue19"));
        Files.writeString(bench.resolve("issue19/mariadb.tsv"), TSV);
        StringBuilder md = new StringBuilder();
        RealisticWorkloads.append(md, bench, bench.getParent());
        String out = md.toString();
        String link = bench.getFileName() + "/issue19/";
        assertTrue(out.contains("### Target mariadb\n\nFrom `issue19/mariadb.tsv` (1 line(s) not understood, left out)."),
                out);
        assertTrue(out.contains("```\n2026-11-27T00:00:00Z commit abc1234 nproc=2 load=0.50 0.40 0.30\n```"), out);
        assertTrue(out.contains("#### mariadb / w1: the mixed log"), out);
        // rows in the script's order of settings: schema, none, partition
        int schema = out.indexOf("| schema:4:partition | default | 3 | 1,800 (1,200-2,500) | 0.0% | 0 | 0 | yes |");
        int none = out.indexOf("| writeset:4:none | default | 3 (1 failed) | 1,750 (1,500-2,000) | 0.0% | 0 | 0 | no (2 of 3) |");
        int partition = out.indexOf("| writeset:4:partition | default | 3 | 1,000 (900-1,200) | 50.0% | 3 | 1 | yes |");
        assertTrue(schema > 0 && none > schema && partition > none, out);
        assertTrue(out.contains("| default | 0.55x (0.50-0.60, 2 rounds) | 0.50x (0.40-1.00, 3 rounds) | - |"), out);
        assertTrue(out.contains("| writeset:16:partition | run1 | 2 | 4,000 (3,000-5,000) | 37.5% | 0 | 0 | yes (row counts) |"),
                out);
        assertTrue(out.contains("No variant ran both settings of a ratio in one round."), "w2 has no ratio: " + out);
        for (String w : List.of("w1", "w2")) {
            assertTrue(out.contains("![mariadb " + w + "](" + link + "mariadb-" + w + ".png)"), out);
            assertNotNull(ImageIO.read(bench.resolve("issue19/mariadb-" + w + ".png").toFile()), w);
        }
    }

    @Test
    void withoutDataTheSectionSaysHowToProduceIt(@TempDir Path bench) throws Exception {
        String page = BenchReport.render(bench, bench.getParent());
        assertTrue(page.contains("- [Realistic logs with the shipped defaults (issue 19)]"
                + "(#realistic-logs-with-the-shipped-defaults-issue-19)"), "in the contents");
        assertTrue(page.contains("## Realistic logs with the shipped defaults (issue 19)\n\n"), page);
        assertTrue(page.contains("scripts/bench/realistic-workloads.sh --rounds 3 --target postgres"), page);
        assertTrue(page.contains("No data yet: run the commands above"), page);
    }
}
