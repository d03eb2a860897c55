package io.lanes.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesStats;
import io.lanes.core.EngineStats;
import io.lanes.core.WorkerStats;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The meters of a real run (the real MariaDB fixture with DDL, every column type and an ALTER mid-stream, applied
 * into H2 by three workers) equal the pipeline's own statistics, field by field; a Prometheus registry exports every
 * documented name; docs/operations.md lists exactly the meters the binder registers.
 */
class LanesMetricsTest {
    static final String FIXTURE = "/binlogs/mariadb-10.11/types-full-metadata.000001";
    static final Path DOC = Path.of("../docs/operations.md");
    static final String BEGIN = "<!-- metrics:begin (generated from LanesMetrics.meters(); do not edit by hand) -->\n";
    static final String END = "<!-- metrics:end -->";

    @TempDir
    Path temp;

    private Path fixture() throws Exception {
        Path log = temp.resolve("types-full-metadata.000001");
        try (InputStream in = getClass().getResourceAsStream(FIXTURE)) {
            assertNotNull(in, FIXTURE);
            Files.copy(in, log);
        }
        return log;
    }

    /** The value of the one meter named {@code name} with {@code tags} (pipeline "m" implied). */
    private static double value(MeterRegistry r, String name, String... tags) {
        List<Tag> want = new ArrayList<>(List.of(Tag.of("pipeline", "m")));
        for (int i = 0; i < tags.length; i += 2) {
            want.add(Tag.of(tags[i], tags[i + 1]));
        }
        Meter found = null;
        for (Meter m : r.getMeters()) {
            if (m.getId().getName().equals(name) && m.getId().getTags().containsAll(want)) {
                assertTrue(found == null, "two meters match " + name + " " + want);
                found = m;
            }
        }
        assertNotNull(found, name + " " + want);
        return found.measure().iterator().next().getValue();
    }

    @Test
    void theMetersOfARealRunEqualThePipelinesOwnStatistics() throws Exception {
        SimpleMeterRegistry simple = new SimpleMeterRegistry();
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        String url = "jdbc:h2:mem:metrics" + System.nanoTime();
        LanesStats s;
        try (Lanes lanes = Lanes.builder().source(fixture()).target(url).pipeline("m").workers(3).build()) {
            LanesMetrics.of(lanes).bindTo(simple);
            LanesMetrics.of(lanes).bindTo(prometheus);
            lanes.start();
            assertTrue(lanes.awaitCaughtUp(Duration.ofSeconds(120)));
            lanes.stop();
            s = lanes.stats();
        }
        Thread.sleep(LanesMetrics.DEFAULT_MAX_AGE_MILLIS + 50); // past any snapshot taken while running
        EngineStats e = s.engine();
        assertTrue(s.transactions() > 10 && s.rowsApplied() > 10 && e.barriers() > 3, s.toString());
        Map<String, Double> expected = new HashMap<>();
        expected.put("lanes.transactions.applied", (double) s.transactions());
        expected.put("lanes.transactions.read", (double) s.transactionsRead());
        expected.put("lanes.rows.applied", (double) s.rowsApplied());
        expected.put("lanes.rows.read", (double) s.rows());
        expected.put("lanes.events.read", (double) s.events());
        expected.put("lanes.large.transactions", (double) s.largeTransactions());
        expected.put("lanes.spilled.transactions", (double) s.spilledTransactions());
        expected.put("lanes.source.read", (double) s.sourceBytesRead());
        expected.put("lanes.retries", (double) e.retries());
        expected.put("lanes.commit.order.retries", (double) e.commitOrderRetries());
        expected.put("lanes.commit.order.deadlocks.broken", (double) e.commitOrderDeadlocksBroken());
        expected.put("lanes.barriers", (double) e.barriers());
        expected.put("lanes.queue.transactions", (double) e.queuedTransactions());
        expected.put("lanes.queue", (double) e.queuedBytes());
        expected.put("lanes.achieved.parallelism", e.achievedParallelism());
        expected.put("lanes.low.water.mark", (double) e.lowWaterMark());
        expected.put("lanes.source.lag", s.sourceLagSeconds());
        expected.put("lanes.last.applied.source.timestamp", s.lastAppliedSourceMillis() / 1000.0);
        expected.put("lanes.uptime", s.seconds());
        long bytes = 0;
        long commits = 0;
        for (WorkerStats w : s.workers()) {
            bytes += w.bytes();
            commits += w.commits();
        }
        expected.put("lanes.applied", (double) bytes);
        expected.put("lanes.commits", (double) commits);
        for (Map.Entry<String, Double> x : expected.entrySet()) {
            assertEquals(x.getValue(), value(simple, x.getKey()), 1e-9, x.getKey());
        }
        assertEquals(s.transactionsSkipped(), value(simple, "lanes.transactions.skipped", "reason", "resume"));
        assertEquals(e.skipped(), value(simple, "lanes.transactions.skipped", "reason", "recovered"));
        assertEquals(s.transactionsSkippedByErrorPolicy(),
                value(simple, "lanes.transactions.skipped", "reason", "error_policy"));
        assertTrue(Double.isNaN(value(simple, "lanes.source.behind")), "files: the distance to a server is unknown");
        assertEquals(1.0, value(simple, "lanes.state", "state", "stopped"));
        assertEquals(0.0, value(simple, "lanes.state", "state", "running"));
        assertEquals(3, s.workers().size());
        for (WorkerStats w : s.workers()) {
            String id = Integer.toString(w.workerId());
            assertEquals(w.transactions(), value(simple, "lanes.worker.transactions.applied", "worker", id));
            assertEquals(w.bytes(), value(simple, "lanes.worker.applied", "worker", id));
            assertEquals(w.commits(), value(simple, "lanes.worker.commits", "worker", id));
            assertEquals(w.queuedTransactions(), value(simple, "lanes.worker.queue.transactions", "worker", id));
            assertEquals(w.idleNanos() / 1e9, value(simple, "lanes.worker.wait", "worker", id, "state", "idle"));
            assertEquals(w.applyingNanos() / 1e9, value(simple, "lanes.worker.wait", "worker", id, "state",
                    "applying"));
            assertEquals(w.waitingForDependencyNanos() / 1e9, value(simple, "lanes.worker.wait", "worker", id,
                    "state", "waiting_for_dependency", "mysql_state", "Waiting for dependent transaction to commit"));
            assertEquals(w.waitingForCommitOrderNanos() / 1e9, value(simple, "lanes.worker.wait", "worker", id,
                    "state", "waiting_for_commit_order"));
            assertEquals(w.retryingNanos() / 1e9, value(simple, "lanes.worker.wait", "worker", id, "state",
                    "retrying"));
            assertEquals(1.0, value(simple, "lanes.worker.state", "worker", id, "state",
                    w.state().name().toLowerCase(java.util.Locale.ROOT)));
        }
        // Prometheus: every documented name is exported, with the same values
        String scrape = prometheus.scrape();
        for (LanesMeter m : LanesMetrics.meters()) {
            assertTrue(scrape.contains("\n" + m.prometheusName() + "{"), m.prometheusName() + " missing from:\n"
                    + scrape);
        }
        assertTrue(scrape.contains("lanes_transactions_applied_total{pipeline=\"m\"} " + (double) s.transactions()),
                scrape);
        assertTrue(scrape.contains("lanes_rows_applied_total{pipeline=\"m\"} " + (double) s.rowsApplied()), scrape);
        assertTrue(scrape.contains("# TYPE lanes_worker_wait_seconds_total counter"), scrape);
        assertTrue(scrape.contains("lanes_queue_bytes{pipeline=\"m\"} " + (double) e.queuedBytes()), scrape);
        assertTrue(scrape.contains("lanes_source_lag_seconds{pipeline=\"m\"} " + s.sourceLagSeconds()), scrape);
    }

    @Test
    void beforeStartEveryMeterReadsAndTheReferenceDocumentMatchesTheCode() throws Exception {
        SimpleMeterRegistry r = new SimpleMeterRegistry();
        try (Lanes lanes = Lanes.builder().source(fixture()).target("jdbc:h2:mem:x" + System.nanoTime())
                .pipeline("m").workers(2).build()) {
            LanesMetrics.of(lanes).bindTo(r);
            assertEquals(0.0, value(r, "lanes.transactions.applied"));
            assertEquals(1.0, value(r, "lanes.state", "state", "new"));
            assertTrue(Double.isNaN(value(r, "lanes.source.lag")));
            assertEquals(0.0, value(r, "lanes.worker.wait", "worker", "1", "state", "idle"));
        }
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertTrue(begin >= 0 && end > begin, DOC + " lacks the generated-table markers");
        String generated = referenceTable();
        if (Boolean.getBoolean("lanes.docs.update")) {
            Files.writeString(DOC, doc.substring(0, begin + BEGIN.length()) + generated + doc.substring(end),
                    StandardCharsets.UTF_8);
            return;
        }
        assertEquals(generated, doc.substring(begin + BEGIN.length(), end), DOC + " differs from "
                + "LanesMetrics.meters(): regenerate with -Dlanes.docs.update=true");
    }

    @Test
    void theGrafanaDashboardReadsOnlySeriesTheBinderExports() throws Exception {
        String dashboard = Files.readString(Path.of("../docs/ops/lanes-dashboard.json"), StandardCharsets.UTF_8);
        java.util.Set<String> exported = new java.util.TreeSet<>();
        for (LanesMeter m : LanesMetrics.meters()) {
            exported.add(m.prometheusName());
        }
        java.util.regex.Matcher used = java.util.regex.Pattern.compile("\\b(lanes_[a-z_]+)\\b").matcher(dashboard);
        int count = 0;
        while (used.find()) {
            count++;
            assertTrue(exported.contains(used.group(1)), used.group(1) + " is not exported; exported: " + exported);
        }
        assertTrue(count >= 8, "the dashboard reads " + count + " series");
    }

    /** The metric reference: one row per meter. */
    static String referenceTable() {
        StringBuilder sb = new StringBuilder("| Prometheus name | type | labels | reads | meaning |\n|---|---|---|---|---|\n");
        for (LanesMeter m : LanesMetrics.meters()) {
            List<String> labels = new ArrayList<>(List.of("pipeline"));
            labels.addAll(m.tags());
            sb.append("| `").append(m.prometheusName()).append("` | ").append(m.kind().name().toLowerCase(
                    java.util.Locale.ROOT)).append(" | ").append(String.join(", ", labels)).append(" | `")
                    .append(m.source()).append("` | ").append(m.description()).append(" |\n");
        }
        return sb.toString();
    }
}
