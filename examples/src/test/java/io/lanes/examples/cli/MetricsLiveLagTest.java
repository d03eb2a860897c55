package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.testing.MariaDbServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus endpoint of a real {@code lanes apply} process following a MariaDB the test starts (default settings
 * but a binlog) into PostgreSQL: while a lock held on the target table holds the target back, the scraped
 * {@code lanes_source_lag_seconds} rises about one second per second and {@code lanes_source_behind_bytes} is above 0;
 * once the lock is released both fall to 0 and every transaction is applied. The process logs progress lines (its
 * stderr is not a terminal) and stops gracefully on SIGTERM.
 *
 * <p>With {@code -Dlanes.dashboard.capture=FILE} the scrapes are written to FILE (tab-separated: milliseconds since
 * the first scrape, series, value), from which docs/ops/dashboard.png is drawn (see docs/operations.md).
 */
class MetricsLiveLagTest {
    private static final String PG = "jdbc:postgresql://127.0.0.1:5432/test";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path temp;

    /** The scraped samples: series (name and labels as exposed) to value. */
    static Map<String, Double> scrape(int port) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        Map<String, Double> m = new LinkedHashMap<>();
        for (String line : r.body().split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int sp = line.lastIndexOf(' ');
            m.put(line.substring(0, sp), Double.parseDouble(line.substring(sp + 1)));
        }
        return m;
    }

    static double value(Map<String, Double> scrape, String series) {
        Double v = scrape.get(series);
        assertTrue(v != null, series + " not in " + scrape.keySet());
        return v;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void lagRisesWhileTheTargetIsHeldBackAndFallsAfter() throws Exception {
        String id = Long.toHexString(ProcessHandle.current().pid()) + "_" + Long.toHexString(System.nanoTime() & 0xffffff);
        String schema = "lt_lag_" + id;
        int port = freePort();
        List<String[]> captured = new ArrayList<>();
        long t0 = System.currentTimeMillis();
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE shop; CREATE TABLE shop.items (id INT PRIMARY KEY, qty INT) ENGINE=InnoDB;"
                    + " INSERT INTO shop.items VALUES (1, 0);");
            Path props = temp.resolve("lanes.properties");
            Files.writeString(props, "lanes.schema.rename=shop=" + schema + "\nlanes.source.status-interval-seconds=1\n");
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), LanesCli.class.getName(), "apply",
                    "--source", "mysql://root@127.0.0.1:" + server.port() + "?file=bin.000001&pos=4",
                    "--target", PG, "--target-user", "postgres", "--checkpoint-table", schema + "_ckpt.lanes_checkpoint",
                    "--config", props.toString(), "--workers", "2", "--server-id", "111",
                    "--metrics-port", Integer.toString(port), "--progress-interval", "1", "--json"));
            Path err = temp.resolve("apply.err");
            Process apply = new ProcessBuilder(cmd).redirectError(err.toFile())
                    .redirectOutput(temp.resolve("apply.out").toFile()).start();
            try (Connection pg = DriverManager.getConnection(PG, "postgres", null)) {
                Map<String, Double> s = awaitScrape(port, apply, err, captured, t0,
                        m -> m.getOrDefault("lanes_transactions_applied_total{pipeline=\"default\"}", 0.0) >= 3
                                && m.getOrDefault("lanes_source_lag_seconds{pipeline=\"default\"}", -1.0) == 0.0);
                double appliedBefore = value(s, "lanes_transactions_applied_total{pipeline=\"default\"}");

                // hold the target back: a lock on the table every later transaction writes
                pg.setAutoCommit(false);
                try (Statement st = pg.createStatement()) {
                    st.execute("LOCK TABLE \"" + schema + "\".\"items\" IN ACCESS EXCLUSIVE MODE");
                }
                int writes = 8;
                List<Double> lags = new ArrayList<>();
                double behindWhileHeld = 0;
                for (int i = 1; i <= writes; i++) {
                    server.sql("UPDATE shop.items SET qty = qty + 1 WHERE id = 1");
                    Thread.sleep(500);
                    Map<String, Double> m = record(scrape(port), captured, t0);
                    lags.add(value(m, "lanes_source_lag_seconds{pipeline=\"default\"}"));
                    behindWhileHeld = Math.max(behindWhileHeld, m.getOrDefault(
                            "lanes_source_behind_bytes{pipeline=\"default\"}", Double.NaN));
                }
                for (int i = 1; i < lags.size(); i++) {
                    assertTrue(lags.get(i) >= lags.get(i - 1) - 1.01, "the lag must not fall while held back: "
                            + lags);
                }
                assertTrue(lags.get(lags.size() - 1) >= 3.0, "4 s held back must show: " + lags);
                assertTrue(lags.get(lags.size() - 1) > lags.get(0) + 2.0, "the lag must rise while held back: " + lags);
                assertTrue(behindWhileHeld > 0, "the server's binlog is ahead of the applied position");

                pg.rollback(); // release the lock
                Map<String, Double> after = awaitScrape(port, apply, err, captured, t0,
                        m -> m.getOrDefault("lanes_transactions_applied_total{pipeline=\"default\"}", 0.0)
                                >= appliedBefore + writes
                                && m.getOrDefault("lanes_source_lag_seconds{pipeline=\"default\"}", -1.0) == 0.0
                                && m.getOrDefault("lanes_source_behind_bytes{pipeline=\"default\"}", -1.0) == 0.0);
                assertEquals(appliedBefore + writes, value(after, "lanes_transactions_applied_total{pipeline=\"default\"}"));
                assertTrue(value(after, "lanes_rows_applied_total{pipeline=\"default\"}") >= 1 + writes);
                assertTrue(after.keySet().stream().anyMatch(k -> k.startsWith("lanes_worker_wait_seconds_total{")
                        && k.contains("state=\"applying\"")), after.keySet().toString());
                assertTrue(after.containsKey("lanes_queue_bytes{pipeline=\"default\"}"));
                assertTrue(after.containsKey("jvm_memory_used_bytes{area=\"heap\",id=\"Tenured Gen\"}")
                        || after.keySet().stream().anyMatch(k -> k.startsWith("jvm_memory_used_bytes")));
                try (Statement st = pg.createStatement(); var rs = st.executeQuery("SELECT qty FROM \"" + schema
                        + "\".\"items\" WHERE id = 1")) {
                    assertTrue(rs.next());
                    assertEquals(writes, rs.getInt(1));
                }
                pg.commit();
            } finally {
                apply.destroy(); // SIGTERM: the shutdown hook stops the pipeline gracefully
                assertTrue(apply.waitFor(60, TimeUnit.SECONDS), "apply did not stop on SIGTERM");
                try (Connection c = DriverManager.getConnection(PG, "postgres", null); Statement st = c.createStatement()) {
                    st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
                    st.execute("DROP SCHEMA IF EXISTS \"" + schema + "_ckpt\" CASCADE");
                }
            }
            String log = Files.readString(err, StandardCharsets.UTF_8);
            Matcher progress = Pattern.compile("progress: [A-Z_]+, [0-9,]+ transactions applied .* lag ").matcher(log);
            assertTrue(progress.find(), "one progress line per second on a non-terminal: " + log);
            assertTrue(log.contains("serving metrics at http://127.0.0.1:" + port + "/metrics"), log);
        }
        String capture = System.getProperty("lanes.dashboard.capture");
        if (capture != null) {
            StringBuilder sb = new StringBuilder();
            for (String[] row : captured) {
                sb.append(String.join("\t", row)).append('\n');
            }
            Files.writeString(Path.of(capture), sb.toString(), StandardCharsets.UTF_8);
        }
    }

    private static Map<String, Double> record(Map<String, Double> scrape, List<String[]> captured, long t0) {
        String at = Long.toString(System.currentTimeMillis() - t0);
        scrape.forEach((k, v) -> {
            if (k.startsWith("lanes_") || k.startsWith("jvm_memory_used_bytes")) {
                captured.add(new String[] {at, k, Double.toString(v)});
            }
        });
        return scrape;
    }

    /** Scrapes every 250 ms until {@code done} holds (60 s at most), recording each scrape. */
    private static Map<String, Double> awaitScrape(int port, Process apply, Path err, List<String[]> captured, long t0,
            java.util.function.Predicate<Map<String, Double>> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Map<String, Double> last = Map.of();
        while (System.nanoTime() < deadline) {
            if (!apply.isAlive()) {
                throw new AssertionError("apply exited " + apply.exitValue() + ": " + Files.readString(err));
            }
            try {
                last = record(scrape(port), captured, t0);
                if (done.test(last)) {
                    return last;
                }
            } catch (java.net.ConnectException notYet) {
                // the process is still starting
            }
            Thread.sleep(250);
        }
        throw new AssertionError("not reached in 60 s; last scrape: " + last + "\n" + Files.readString(err));
    }
}
