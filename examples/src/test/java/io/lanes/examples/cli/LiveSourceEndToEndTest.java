package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.testing.MariaDbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a live MariaDB under a sysbench-like concurrent write workload, followed by {@code lanes apply --source
 * mysql://...  --until-caught-up} into H2 and PostgreSQL at the same time; once the workload has stopped and a last apply
 * has caught up, every table's row count and order-independent checksum over all columns equal the source's.
 *
 * <p>Each follower runs {@code apply --until-caught-up} again and again until the workload has stopped, then once more,
 * so the last run resumes from the target's checkpoint. (A live run is "caught up" once everything the server had
 * written when it connected is committed, so each run during the workload stops part-way and the next one resumes from
 * its checkpoint.) The workload is bounded (a few seconds); the whole test takes well under a minute.
 */
class LiveSourceEndToEndTest {
    private static final int SCHEMAS = 3;
    private static final int ROWS = 100;
    private static final int WRITERS = 4;
    private static final Duration WORKLOAD = Duration.ofSeconds(Long.getLong("lanes.e2e.seconds",
            Boolean.getBoolean("lanes.long") ? 60 : 8));
    private static final String PG = "jdbc:postgresql://127.0.0.1:5432/test";

    @TempDir
    Path temp;

    @Test
    void aConcurrentWorkloadArrivesExactlyOnceInH2AndPostgres() throws Exception {
        String prefix = "lt_e2e_" + Long.toHexString(ProcessHandle.current().pid()) + "_"
                + Long.toHexString(System.nanoTime() & 0xffffff);
        List<String> schemas = new ArrayList<>();
        for (int i = 1; i <= SCHEMAS; i++) {
            schemas.add(prefix + "_" + i);
        }
        String h2 = "jdbc:h2:" + temp.resolve("target").toAbsolutePath();
        String pgCheckpoints = prefix + "_ckpt";
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            String source = "mysql://root@127.0.0.1:" + server.port() + "?file=bin.000001&pos=4";
            try (Connection c = DriverManager.getConnection(server.jdbcUrl(null)); Statement s = c.createStatement()) {
                for (String schema : schemas) {
                    s.execute("CREATE DATABASE `" + schema + "`");
                    s.execute("CREATE TABLE `" + schema + "`.sbtest1 (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                            + " k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '',"
                            + " pad CHAR(60) NOT NULL DEFAULT '', KEY k_1 (k)) ENGINE=InnoDB");
                    StringBuilder insert = new StringBuilder("INSERT INTO `" + schema + "`.sbtest1 (k, c, pad) VALUES ");
                    for (int r = 1; r <= ROWS; r++) {
                        insert.append(r > 1 ? "," : "").append("(").append(r * 7 % ROWS).append(",'")
                                .append(text(119)).append("','").append(text(59)).append("')");
                    }
                    s.execute(insert.toString());
                }
            }

            AtomicBoolean workloadRunning = new AtomicBoolean(true);
            AtomicLong committed = new AtomicLong();
            AtomicLong deadlocks = new AtomicLong();
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                writers.add(pool.submit(() -> {
                    write(server, schemas, workloadRunning, committed, deadlocks);
                    return null;
                }));
            }
            Future<Integer> h2Runs = pool.submit(() -> follow(workloadRunning, "apply", "--source", source,
                    "--target", h2, "--until-caught-up", "--json", "--workers", "3", "--server-id", "101"));
            Future<Integer> pgRuns = pool.submit(() -> follow(workloadRunning, "apply", "--source", source,
                    "--target", PG, "--target-user", "postgres", "--checkpoint-table",
                    pgCheckpoints + ".lanes_checkpoint", "--until-caught-up", "--json", "--workers", "3",
                    "--server-id", "102")); // two replicas at once need two server ids, as with real replicas
            try {
                Thread.sleep(WORKLOAD.toMillis());
                workloadRunning.set(false);
                for (Future<?> w : writers) {
                    w.get(60, TimeUnit.SECONDS);
                }
                int h2Count = h2Runs.get(180, TimeUnit.SECONDS);
                int pgCount = pgRuns.get(180, TimeUnit.SECONDS);
                assertTrue(committed.get() > 20, "the workload committed " + committed + " transactions");
                assertTrue(h2Count >= 2 && pgCount >= 2, "apply ran " + h2Count + " (H2) and " + pgCount
                        + " (PostgreSQL) times: one started during the workload, one after it");

                Map<String, String> expected = new TreeMap<>();
                try (Connection c = DriverManager.getConnection(server.jdbcUrl(null))) {
                    for (String schema : schemas) {
                        expected.put(schema, checksum(c, "`" + schema + "`.`sbtest1`"));
                    }
                }
                Map<String, String> onH2 = new TreeMap<>();
                try (Connection c = DriverManager.getConnection(h2 + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE")) {
                    for (String schema : schemas) {
                        onH2.put(schema, checksum(c, "\"" + schema + "\".\"sbtest1\""));
                    }
                }
                Map<String, String> onPg = new TreeMap<>();
                try (Connection c = DriverManager.getConnection(PG, "postgres", null)) {
                    for (String schema : schemas) {
                        onPg.put(schema, checksum(c, "\"" + schema + "\".\"sbtest1\""));
                    }
                }
                assertEquals(expected, onH2, "H2 (" + committed + " workload transactions, " + deadlocks
                        + " deadlocks rolled back)");
                assertEquals(expected, onPg, "PostgreSQL");
            } finally {
                workloadRunning.set(false);
                pool.shutdownNow();
                pool.awaitTermination(60, TimeUnit.SECONDS);
                try (Connection c = DriverManager.getConnection(PG, "postgres", null);
                        Statement st = c.createStatement()) {
                    for (String schema : schemas) {
                        st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
                    }
                    st.execute("DROP SCHEMA IF EXISTS \"" + pgCheckpoints + "\" CASCADE");
                }
            }
        }
    }

    /**
     * {@code --until-caught-up} stops at the end of the server's binlog as it was when the run connected: everything
     * written before is applied, and a writer that never stops does not keep the run going. The writer inserts rows
     * with increasing ids (one per transaction), so what reached the target must be the ids 1..n with n at least the
     * writer's count when the run started, and the run must end while the writer is still writing.
     */
    @Test
    void untilCaughtUpStopsAtTheServersEndAtConnectWhileWritesGoOn() throws Exception {
        String schema = "lt_cu_" + Long.toHexString(ProcessHandle.current().pid()) + "_"
                + Long.toHexString(System.nanoTime() & 0xffffff);
        String h2 = "jdbc:h2:" + temp.resolve("caught-up").toAbsolutePath();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            try (Connection c = DriverManager.getConnection(server.jdbcUrl(null)); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE `" + schema + "`");
                s.execute("CREATE TABLE `" + schema + "`.t (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)");
            }
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong written = new AtomicLong();
            Future<?> writer = pool.submit(() -> {
                try (Connection c = DriverManager.getConnection(server.jdbcUrl(schema));
                        PreparedStatement insert = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)")) {
                    while (writing.get()) {
                        long id = written.get() + 1;
                        insert.setLong(1, id);
                        insert.setString(2, "row " + id);
                        insert.executeUpdate(); // autocommit: one transaction per row
                        written.set(id);
                    }
                }
                return null;
            });
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (written.get() < 300 && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertTrue(written.get() >= 300, "the writer wrote " + written + " rows in 60 s");
                long beforeStart = written.get();
                int code = LanesCli.run("apply", "--source", "mysql://root@127.0.0.1:" + server.port()
                        + "?file=bin.000001&pos=4", "--target", h2, "--until-caught-up", "--json",
                        "--server-id", "103");
                long afterRun = written.get();
                assertEquals(0, code, "apply exit code (stderr names why)");
                assertTrue(!writer.isDone(), "the writer was still writing when the run ended");
                long count;
                long max;
                try (Connection c = DriverManager.getConnection(h2 + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE");
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM \"" + schema
                                + "\".\"t\"")) {
                    rs.next();
                    count = rs.getLong(1);
                    max = rs.getLong(2);
                }
                assertEquals(max, count, "the target holds ids 1.." + max + " without a gap");
                assertTrue(count >= beforeStart, "every row written before the run started is applied: " + count
                        + " applied, " + beforeStart + " written before the start");
                assertTrue(count <= afterRun, count + " applied, " + afterRun + " written when the run ended");
            } finally {
                writing.set(false);
                writer.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs the apply command again and again while the workload runs, then once more; each run must succeed. */
    private static int follow(AtomicBoolean workloadRunning, String... args) throws InterruptedException {
        int runs = 0;
        boolean last;
        do {
            last = !workloadRunning.get();
            int code = LanesCli.run(args);
            runs++;
            if (code != 0) {
                throw new AssertionError("apply run " + runs + " exited " + code + " (stderr names why)");
            }
            Thread.sleep(200);
        } while (!last);
        return runs;
    }

    /**
     * One writer: oltp_write_only-like transactions on random rows of random schemas until told to stop; deadlocks and
     * lock wait timeouts (concurrent writers touching the same rows) are rolled back and counted, as sysbench does.
     */
    private static void write(MariaDbServer server, List<String> schemas, AtomicBoolean running, AtomicLong committed,
            AtomicLong deadlocks) throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(null))) {
            c.setAutoCommit(false);
            while (running.get()) {
                String t = "`" + schemas.get(random.nextInt(schemas.size())) + "`.sbtest1";
                int id = 1 + random.nextInt(ROWS);
                try (PreparedStatement indexUpdate = c.prepareStatement("UPDATE " + t + " SET k = k + 1 WHERE id = ?");
                        PreparedStatement update = c.prepareStatement("UPDATE " + t + " SET c = ? WHERE id = ?");
                        PreparedStatement delete = c.prepareStatement("DELETE FROM " + t + " WHERE id = ?");
                        PreparedStatement insert = c.prepareStatement("INSERT INTO " + t
                                + " (id, k, c, pad) VALUES (?, ?, ?, ?)")) {
                    indexUpdate.setInt(1, id);
                    indexUpdate.executeUpdate();
                    update.setString(1, text(119));
                    update.setInt(2, 1 + random.nextInt(ROWS));
                    update.executeUpdate();
                    int moved = 1 + random.nextInt(ROWS);
                    delete.setInt(1, moved);
                    delete.executeUpdate();
                    insert.setInt(1, moved);
                    insert.setInt(2, random.nextInt(1000));
                    insert.setString(3, text(119));
                    insert.setString(4, random.nextInt(10) == 0 ? "" : text(59));
                    insert.executeUpdate();
                    if (random.nextInt(20) == 0) {
                        c.rollback(); // an aborted transaction: must not reach the targets
                    } else {
                        c.commit();
                        committed.incrementAndGet();
                    }
                } catch (SQLException e) {
                    c.rollback();
                    if (e.getErrorCode() != 1213 && e.getErrorCode() != 1205) { // deadlock, lock wait timeout
                        throw e;
                    }
                    deadlocks.incrementAndGet();
                }
            }
        }
    }

    private static String text(int length) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(i % 12 == 11 ? '-' : (char) ('0' + random.nextInt(10)));
        }
        return b.toString();
    }

    /** {@code count:sum-of-row-hashes}; rows hash id, k, c and pad (CHAR values compared without trailing blanks). */
    static String checksum(Connection c, String table) throws Exception {
        long count = 0;
        long sum = 0;
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, k, c, pad FROM " + table)) {
            while (rs.next()) {
                String row = rs.getLong(1) + "|" + rs.getLong(2) + "|" + rs.getString(3).stripTrailing() + "|"
                        + rs.getString(4).stripTrailing();
                byte[] d = sha.digest(row.getBytes(StandardCharsets.UTF_8));
                long h = 0;
                for (int i = 0; i < 8; i++) {
                    h = (h << 8) | (d[i] & 0xff);
                }
                sum += h;
                count++;
            }
        }
        return count + ":" + Long.toHexString(sum);
    }
}
