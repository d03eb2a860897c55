package io.lanes.jmh.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.jmh.report.BenchReportAccess;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * CI smoke pass, so the apply benchmarks never rot: one tiny in-process JMH iteration of {@link ApplyThroughput} (no
 * fork, no warmup, one short iteration) on a small generated workload, for the latency and h2 models, asserting that
 * every run committed transactions at a positive rate. Not a measurement: performance lives in JMH runs
 * (scripts/bench/run-all.sh).
 */
class ApplyThroughputSmokeTest {

    @Test
    void oneShortIterationOfEachModelCommitsTransactions() throws Exception {
        Options opts = new OptionsBuilder()
                .include(ApplyThroughput.class.getName() + ".applyFile")
                .forks(0).warmupIterations(0).measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(300)).timeUnit(TimeUnit.SECONDS)
                .param("scheduler", "schema", "writeset").param("workers", "0", "4")
                .param("workload", "uniform10").param("model", "latency", "h2").param("transactions", "200")
                .param("latencyMicros", "100").param("commitOrder", "partition")
                .shouldFailOnError(true)
                .build();
        long start = System.nanoTime();
        Collection<RunResult> results = new Runner(opts).run();
        assertEquals(8, results.size(), "2 schedulers x 2 worker counts x 2 models");
        List<String> seen = new ArrayList<>();
        for (RunResult r : results) {
            Result<?> tps = r.getSecondaryResults().get("transactions");
            seen.add(r.getParams().getParam("model") + "/" + r.getParams().getParam("scheduler") + "/"
                    + r.getParams().getParam("workers") + "=" + (tps == null ? "none" : tps.getScore()));
            assertTrue(tps != null && tps.getScore() > 0, "no committed transactions: " + seen);
        }
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60), "smoke pass too slow: " + seen);
    }

    /**
     * Both sides of the checkpoint-cost comparison apply the same data: with and without checkpoint rows, the H2 target
     * ends with the workload's per-schema SUM(k); only the exactly-once side has checkpoint rows.
     */
    @Test
    void checkpointVariantsApplyTheSameDataAndOnlyOneWritesCheckpoints() throws Exception {
        java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
        io.lanes.testkit.Workloads.Summary expected;
        try (io.lanes.binlog.encode.BinlogWriter w = io.lanes.binlog.encode.BinlogWriter.mariadb(sink)) {
            expected = io.lanes.testkit.Workloads.uniformSchemas(w, 10, ApplyWorkloads.ROWS, 150,
                    ApplyWorkloads.SEED);
        }
        for (String checkpoint : List.of("table", "none")) {
            ApplyThroughput b = new ApplyThroughput();
            b.scheduler = "schema";
            b.workers = 3;
            b.workload = "uniform10";
            b.model = "h2";
            b.checkpoint = checkpoint;
            b.transactions = 150;
            b.commitOrder = "partition";
            b.blockCommit = 4;
            b.prepare();
            b.freshDatabase();
            ApplyThroughput.Committed committed = new ApplyThroughput.Committed();
            b.applyFile(committed);
            assertTrue(committed.transactions >= 150, checkpoint + ": " + committed.transactions);
            try (java.sql.Connection c = java.sql.DriverManager.getConnection(b.h2Url());
                    java.sql.Statement st = c.createStatement()) {
                for (int i = 1; i <= 10; i++) {
                    try (java.sql.ResultSet rs = st.executeQuery("SELECT SUM(k) FROM \"db" + i + "\".\"sbtest1\"")) {
                        rs.next();
                        assertEquals(expected.sums().get("db" + i + ".sbtest1").longValue(), rs.getLong(1),
                                checkpoint + ": db" + i);
                    }
                }
                try (java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
                        + " WHERE LOWER(TABLE_NAME) = 'lanes_checkpoint'")) {
                    rs.next();
                    long tables = rs.getLong(1);
                    if (checkpoint.equals("none")) {
                        assertEquals(0, tables, "no checkpoint table without checkpoints");
                    } else {
                        assertEquals(1, tables);
                        try (java.sql.ResultSet rows = st.executeQuery("SELECT COUNT(*) FROM \"lanes\".\"lanes_checkpoint\"")) {
                            rows.next();
                            assertTrue(rows.getLong(1) > 0, "checkpoint rows written");
                        }
                    }
                }
            } finally {
                b.dropDatabase();
            }
        }
    }

    @Test
    void checkpointWritesAreRecognisedOnlyForTheCheckpointTable() {
        assertTrue(ApplyThroughput.isCheckpointWrite("MERGE INTO \"lanes\".\"lanes_checkpoint\" KEY(pipeline) VALUES (?)"));
        assertFalse(ApplyThroughput.isCheckpointWrite("SELECT * FROM \"lanes\".\"lanes_checkpoint\""));
        assertFalse(ApplyThroughput.isCheckpointWrite("CREATE TABLE IF NOT EXISTS \"lanes\".\"lanes_checkpoint\" (x int)"));
        assertFalse(ApplyThroughput.isCheckpointWrite("UPDATE \"db1\".\"sbtest1\" SET k = ? WHERE id = ?"));
    }

    @Test
    void reportReadsJmhJsonAndChecksGoals() {
        String json = "[" + result("latency", "uniform10", "schema", 0, 1000) + ","
                + result("latency", "uniform10", "schema", 10, 9000) + "]";
        List<String[]> goals = BenchReportAccess.goals(json);
        assertEquals("PASS", goals.get(0)[2], goals.get(0)[1]);
        assertEquals("NOT MEASURED", goals.get(1)[2]);
        String slow = "[" + result("latency", "uniform10", "schema", 0, 1000) + ","
                + result("latency", "uniform10", "schema", 10, 7000) + "]";
        assertEquals("FAIL", BenchReportAccess.goals(slow).get(0)[2]);
    }

    @Test
    void reportWritesTablesAndPngChartsFromJmhJson(@org.junit.jupiter.api.io.TempDir java.nio.file.Path docs)
            throws Exception {
        java.nio.file.Path bench = java.nio.file.Files.createDirectories(docs.resolve("bench"));
        java.nio.file.Files.writeString(bench.resolve("apply-test.json"), "["
                + result("latency", "uniform10", "schema", 0, 1000) + ","
                + result("latency", "uniform10", "schema", 10, 9000) + ","
                + result("latency", "uniform10", "writeset", 10, 4500) + "]");
        java.nio.file.Files.writeString(bench.resolve("peer-mariadb.tsv"),
                "system\tmode\tthreads\tflush\ttransactions\tseconds\ttps\tfinal state\n"
                        + "mariadb-replica\t-\t0\t1\t2000\t2.00\t1000\tsame\n"
                        + "lanes\tschema\t4\t1\t2000\t0.50\t4000\tsame\n");
        String md = BenchReportAccess.render(bench, docs);
        assertTrue(md.contains("| 10 | 9,000 ± NaN (9.00x, -) | 4,500 ± NaN (-, -) |"), md);
        assertTrue(md.contains("| lanes | schema | 4 | 1 | 2000 | 0.50 | 4000 | same |"), md);
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(bench)) {
            List<java.nio.file.Path> pngs = files.filter(p -> p.toString().endsWith(".png")).toList();
            assertEquals(2, pngs.size(), "one apply chart and the peer chart: " + pngs);
            for (java.nio.file.Path png : pngs) {
                byte[] head = java.util.Arrays.copyOf(java.nio.file.Files.readAllBytes(png), 4);
                assertEquals("\u0089PNG", new String(head, java.nio.charset.StandardCharsets.ISO_8859_1), png.toString());
            }
        }
    }

    private static String result(String model, String workload, String scheduler, int workers, double tps) {
        return "{\"benchmark\":\"io.lanes.jmh.apply.ApplyThroughput.applyFile\",\"params\":{\"model\":\"" + model
                + "\",\"workload\":\"" + workload + "\",\"scheduler\":\"" + scheduler + "\",\"workers\":\"" + workers
                + "\"},\"primaryMetric\":{\"score\":1.0},\"secondaryMetrics\":{\"transactions\":{\"score\":" + tps
                + ",\"scoreError\":\"NaN\"}}}";
    }
}
