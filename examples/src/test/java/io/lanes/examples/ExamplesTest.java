package io.lanes.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesException;
import io.lanes.applier.LanesStats;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.core.WorkerStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every example of the README runs here, against real H2, PostgreSQL and a throwaway MariaDB. */
class ExamplesTest {
    static final Path TYPES = Path.of("../binlog-api/src/test/resources/binlogs/mariadb-10.11/types-full-metadata.000001");

    @TempDir
    Path temp;

    @Test
    void applyBinlogToH2AndResume() throws Exception {
        String url = "jdbc:h2:" + temp.resolve("replica").toAbsolutePath();
        LanesStats first = ApplyBinlogToH2.apply(TYPES, url);
        assertEquals(22, first.transactions());
        assertEquals(3, count(url, "customers"));
        assertEquals(3, count(url, "orders"));
        assertEquals(1, count(url, "weird name"));
        LanesStats again = ApplyBinlogToH2.apply(TYPES, url);
        assertEquals(0, again.transactions());
        assertEquals(22, again.transactionsSkipped());
        assertEquals(3, count(url, "customers"));
    }

    @Test
    void printTableChangesWithBinlogApiAlone() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int n = PrintTableChanges.print(TYPES, "shop", "orders", new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(n, lines.size());
        assertTrue(n >= 3, lines.toString());
        assertTrue(lines.stream().allMatch(l -> l.contains("id=")), "FULL metadata names the columns: " + lines);
        assertEquals(0, PrintTableChanges.print(TYPES, "shop", "no_such_table", new PrintStream(new ByteArrayOutputStream())));
    }

    @Test
    void aUserSchedulerPinsEachSchemaToOneWorker() throws Exception {
        String url = "jdbc:h2:" + temp.resolve("pinned").toAbsolutePath();
        PinnedSchemaScheduler scheduler = new PinnedSchemaScheduler();
        LanesStats s;
        try (Lanes lanes = Lanes.builder().source(TYPES).target(url).scheduler(scheduler).workers(3).build()) {
            lanes.start();
            assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)));
            s = lanes.stop();
        }
        assertEquals("pinned-schema", Lanes.builder().source(TYPES).target(url).scheduler(scheduler).buildConfig()
                .schedulerName());
        assertEquals(22, s.transactions());
        assertEquals(3, count(url, "customers"));
        assertEquals(1, count(url, "weird name"));
        // The 7 row transactions (all in schema shop) ran on shop's worker; only barriers (DDL) may run elsewhere.
        int pinned = scheduler.workerFor("shop");
        long onPinned = s.workers().stream().filter(w -> w.workerId() == pinned).mapToLong(WorkerStats::transactions)
                .sum();
        assertTrue(onPinned >= 7, "worker " + pinned + " ran " + onPinned + ": " + s.workers());
    }

    @Test
    void cdcSinkDeliversEveryChangeAcknowledgedAndResumesAfterAFailedAck() throws Exception {
        Path checkpoints = temp.resolve("cdc");
        List<String> delivered = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger publishes = new AtomicInteger();
        // Run 1: the downstream refuses its third publish: the pipeline stops; that transaction is not checkpointed.
        CdcJsonSink.Downstream flaky = events -> {
            if (publishes.incrementAndGet() == 3) {
                return CompletableFuture.failedFuture(new IllegalStateException("broker unavailable"));
            }
            return CompletableFuture.runAsync(() -> delivered.addAll(events));
        };
        // No retries: the failed ack stops the pipeline at once.
        Lanes first = Lanes.builder().source(TYPES).sink(new CdcJsonSink(flaky), checkpoints)
                .scheduler("schema").workers(1).blockCommit(1).retries(0).build();
        first.start();
        Lanes failing = first;
        LanesException e = assertThrows(LanesException.class, () -> failing.awaitCaughtUp(Duration.ofMinutes(1)));
        assertTrue(e.getMessage().contains("broker unavailable"), e.getMessage());
        assertThrows(LanesException.class, first::stop);
        List<String> run1 = new ArrayList<>(delivered);
        assertFalse(run1.isEmpty());

        // Run 2: a healthy downstream; the pipeline resumes after the last acknowledged batch.
        delivered.clear();
        try (Lanes second = CdcJsonSink.pipeline(List.of(TYPES),
                events -> CompletableFuture.runAsync(() -> delivered.addAll(events)), checkpoints, 2)) {
            second.start();
            assertTrue(second.awaitCaughtUp(Duration.ofMinutes(1)));
        }
        List<String> run2 = new ArrayList<>(delivered);
        Set<String> keys1 = keys(run1);
        Set<String> keys2 = keys(run2);
        Set<String> overlap = new LinkedHashSet<>(keys1);
        overlap.retainAll(keys2);
        assertTrue(overlap.isEmpty(), "acknowledged and checkpointed events came again: " + overlap);

        // Run 3 from scratch: the reference list of every change.
        List<String> all = Collections.synchronizedList(new ArrayList<>());
        try (Lanes reference = CdcJsonSink.pipeline(List.of(TYPES),
                events -> CompletableFuture.runAsync(() -> all.addAll(events)), temp.resolve("cdc-ref"), 1)) {
            reference.start();
            assertTrue(reference.awaitCaughtUp(Duration.ofMinutes(1)));
        }
        Set<String> union = new LinkedHashSet<>(keys1);
        union.addAll(keys2);
        assertEquals(keys(all), union, "every change delivered, across the failure");
        // Row events carry their images and the transaction id; 14 row changes in this log.
        long rows = all.stream().filter(j -> j.contains("\"op\":\"insert\"") || j.contains("\"op\":\"update\"")
                || j.contains("\"op\":\"delete\"")).count();
        assertEquals(14, rows, all.toString());
        String insert = all.stream().filter(j -> j.contains("\"op\":\"insert\"")).findFirst().orElseThrow();
        assertTrue(insert.contains("\"before\":null") && insert.contains("\"after\":{")
                && insert.contains("\"transaction_id\":\"0-"), insert);
        String delete = all.stream().filter(j -> j.contains("\"op\":\"delete\"")).findFirst().orElseThrow();
        assertTrue(delete.contains("\"after\":null") && delete.contains("\"before\":{"), delete);
    }

    private static Set<String> keys(List<String> events) {
        Set<String> out = new LinkedHashSet<>();
        Pattern p = Pattern.compile("\"position\":\"([^\"]+)\",\"index\":(\\d+)");
        for (String e : events) {
            Matcher m = p.matcher(e);
            assertTrue(m.find(), e);
            assertTrue(out.add(m.group(1) + "#" + m.group(2)), "delivered twice in one run: " + e);
        }
        return out;
    }

    @Test
    void followALiveMariaDbIntoPostgres() throws Exception {
        String pg = "jdbc:postgresql://127.0.0.1:5432/test";
        String db = "lt_live_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime() & 0xffffff);
        String ckpt = db + "_ckpt";
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE USER repl@'%' IDENTIFIED BY 'repl-pw'; GRANT REPLICATION SLAVE, REPLICATION CLIENT,"
                    + " BINLOG MONITOR ON *.* TO repl@'%';");
            String[] status = server.sql("SHOW MASTER STATUS").trim().split("\t");
            StartPosition from = StartPosition.file(status[0], Long.parseLong(status[1]));
            server.sql("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".account (id INT PRIMARY KEY,"
                    + " owner VARCHAR(40) NOT NULL, balance DECIMAL(12,2) NOT NULL);"
                    + " INSERT INTO " + db + ".account VALUES (1,'ann',10.50),(2,'bob',20.00),(3,'cy',0.00);");
            try {
                Lanes lanes = FollowMariaDbIntoPostgres.start("127.0.0.1", server.port(), "repl",
                        () -> "repl-pw".toCharArray(), pg, "postgres", null, from, "live-" + db, ckpt);
                assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(1)));
                awaitTarget(pg, db, "{1=ann 10.50, 2=bob 20.00, 3=cy 0.00}");

                server.sql("UPDATE " + db + ".account SET balance = balance + 5 WHERE id = 1;"
                        + " DELETE FROM " + db + ".account WHERE id = 3;"
                        + " INSERT INTO " + db + ".account VALUES (4,'dee',1.25);");
                awaitTarget(pg, db, "{1=ann 15.50, 2=bob 20.00, 4=dee 1.25}");
                LanesStats s = lanes.stop();
                assertTrue(s.transactions() >= 5, s.toString());

                // Changes while stopped, then a new pipeline resumes after the checkpoint.
                server.sql("UPDATE " + db + ".account SET owner = 'bo' WHERE id = 2;"
                        + " INSERT INTO " + db + ".account VALUES (5,'eve',7.00);");
                try (Lanes again = FollowMariaDbIntoPostgres.start("127.0.0.1", server.port(), "repl",
                        () -> "repl-pw".toCharArray(), pg, "postgres", null, from, "live-" + db, ckpt)) {
                    assertTrue(again.recoveryPoint().position() != null);
                    awaitTarget(pg, db, "{1=ann 15.50, 2=bo 20.00, 4=dee 1.25, 5=eve 7.00}");
                    assertTrue(again.awaitCaughtUp(Duration.ofMinutes(1)));
                    assertEquals(2, again.stats().transactions(), again.stats().toString());
                }
            } finally {
                try (Connection c = postgres(pg); Statement st = c.createStatement()) {
                    st.execute("DROP SCHEMA IF EXISTS \"" + db + "\" CASCADE");
                    st.execute("DROP SCHEMA IF EXISTS \"" + ckpt + "\" CASCADE");
                }
            }
        }
    }

    private static void awaitTarget(String pg, String schema, String expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String actual = null;
        while (System.nanoTime() < deadline) {
            actual = accounts(pg, schema);
            if (expected.equals(actual)) {
                return;
            }
            Thread.sleep(50);
        }
        assertEquals(expected, actual);
    }

    private static String accounts(String pg, String schema) throws Exception {
        TreeMap<Integer, String> rows = new TreeMap<>();
        try (Connection c = postgres(pg); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT id, owner, balance FROM \"" + schema + "\".\"account\"")) {
                while (rs.next()) {
                    rows.put(rs.getInt(1), rs.getString(2) + " " + rs.getBigDecimal(3).toPlainString());
                }
            } catch (java.sql.SQLException notYet) {
                return "(no table yet: " + notYet.getMessage() + ")";
            }
        }
        return rows.toString();
    }

    private static Connection postgres(String url) throws Exception {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        return DriverManager.getConnection(url, p);
    }

    private static long count(String url, String table) throws Exception {
        try (Connection c = DriverManager.getConnection(url + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"shop\".\"" + table + "\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
