package io.lanes.examples.cli;

import io.lanes.binlog.testing.MariaDbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Records the series of docs/ops/dashboard.png from a real run (not a test; run by hand, see docs/operations.md): a
 * MariaDB the run starts (default settings but a binlog) and a real {@code lanes apply} process following it into
 * PostgreSQL with {@code --metrics-port}; once the process has caught up, two clients write about 100 transactions a
 * second; 15 s in, a lock on the target table holds the target back for 15 s; the endpoint is scraped every 500 ms for
 * 60 s. Writes the scrapes as TSV
 * (milliseconds since the first scrape, series, value) to the file named by the first argument.
 */
public final class DashboardCapture {
    private static final String PG = "jdbc:postgresql://127.0.0.1:5432/test";

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "target/dashboard-capture.tsv");
        String schema = "lt_dash_" + Long.toHexString(ProcessHandle.current().pid());
        int port = MetricsLiveLagTest.freePort();
        Path temp = Files.createTempDirectory("lanes-dash");
        List<String> rows = new ArrayList<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            StringBuilder seed = new StringBuilder("CREATE DATABASE shop; CREATE TABLE shop.items (id INT PRIMARY KEY,"
                    + " qty INT, note VARCHAR(100)) ENGINE=InnoDB; INSERT INTO shop.items VALUES ");
            for (int i = 1; i <= 1000; i++) {
                seed.append(i > 1 ? "," : "").append("(").append(i).append(", 0, 'x')");
            }
            server.sql(seed + ";");
            Path props = temp.resolve("lanes.properties");
            Files.writeString(props, "lanes.schema.rename=shop=" + schema + "\nlanes.source.status-interval-seconds=1\n");
            Process apply = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), LanesCli.class.getName(), "apply",
                    "--source", "mysql://root@127.0.0.1:" + server.port() + "?file=bin.000001&pos=4",
                    "--target", PG, "--target-user", "postgres", "--checkpoint-table", schema + "_ckpt.lanes_checkpoint",
                    "--config", props.toString(), "--workers", "4", "--scheduler", "writeset", "--server-id", "121",
                    "--metrics-port", Integer.toString(port), "--json")
                    .redirectError(temp.resolve("apply.err").toFile()).redirectOutput(temp.resolve("apply.out").toFile())
                    .start();
            while (true) { // until the process serves and has caught up with the seed
                try {
                    if (MetricsLiveLagTest.scrape(port).getOrDefault("lanes_source_lag_seconds{pipeline=\"default\"}",
                            -1.0) == 0.0) {
                        break;
                    }
                } catch (java.net.ConnectException starting) {
                    // not serving yet
                }
                Thread.sleep(250);
            }
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                Thread t = new Thread(() -> write(server, writing));
                t.start();
                writers.add(t);
            }
            long t0 = System.currentTimeMillis();
            try (Connection pg = DriverManager.getConnection(PG, "postgres", null)) {
                boolean held = false;
                boolean released = false;
                while (System.currentTimeMillis() - t0 < 60_000) {
                    long at = System.currentTimeMillis() - t0;
                    if (!held && at >= 15_000) {
                        pg.setAutoCommit(false);
                        try (Statement st = pg.createStatement()) {
                            st.execute("LOCK TABLE \"" + schema + "\".\"items\" IN ACCESS EXCLUSIVE MODE");
                        }
                        held = true;
                    } else if (held && !released && at >= 30_000) {
                        pg.rollback();
                        released = true;
                    }
                    for (Map.Entry<String, Double> e : MetricsLiveLagTest.scrape(port).entrySet()) {
                        if (e.getKey().startsWith("lanes_")) {
                            rows.add(at + "\t" + e.getKey() + "\t" + e.getValue());
                        }
                    }
                    Thread.sleep(500);
                }
            } finally {
                writing.set(false);
                for (Thread t : writers) {
                    t.join();
                }
                apply.destroy();
                apply.waitFor(60, TimeUnit.SECONDS);
                try (Connection c = DriverManager.getConnection(PG, "postgres", null); Statement st = c.createStatement()) {
                    st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
                    st.execute("DROP SCHEMA IF EXISTS \"" + schema + "_ckpt\" CASCADE");
                }
            }
        }
        Files.write(out, rows, StandardCharsets.UTF_8);
        System.out.println("wrote " + rows.size() + " samples to " + out);
    }

    /** One client: single-row updates at random, about 50 transactions a second. */
    private static void write(MariaDbServer server, AtomicBoolean writing) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl("shop"));
                PreparedStatement update = c.prepareStatement("UPDATE items SET qty = qty + 1, note = ? WHERE id = ?")) {
            while (writing.get()) {
                update.setString(1, "n" + random.nextInt(1_000_000));
                update.setInt(2, 1 + random.nextInt(1000));
                update.executeUpdate();
                Thread.sleep(20);
            }
        } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
