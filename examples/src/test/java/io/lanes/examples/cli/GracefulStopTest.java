package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.examples.cli.DumpCommandTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C during {@code lanes apply}, for real: the command runs as a process of its own and gets SIGINT from kill(1).
 * A graceful stop commits and checkpoints what was read, prints one whole JSON line (status "stopped"), nothing on
 * stderr but the notice that it is stopping (no H2 shutdown-hook stack trace), and exits 130 for files (0 for a live
 * source, as --help says); the next run resumes exactly where it stopped.
 *
 * <p>When the signal arrives is random (seeded; the seed is printed and {@code -Dlanes.stop.seed=N} replays it) within
 * the first seconds of the apply. A machine fast enough to read the whole file before the signal is answered as the
 * CLI answers it (the files' end reached: exit 0, status ok, everything committed) and the file apply is tried again
 * with a third of the delay, up to five times, so that the stop mid-way is what is checked.
 */
class GracefulStopTest {
    static final Path SYSBENCH = DumpCommandTest.FIXTURES.resolve(
            "mariadb-10.11/sysbench-10schemas-update-index.000001.gz");
    static final long SYSBENCH_TRANSACTIONS = 10_040;

    @TempDir
    Path temp;

    /**
     * Files into an H2 file database: Ctrl-C mid-way, then the demo's own check on the same target resumes the rest and
     * finds every schema equal to the source server's checksums (which also needs the demo to read an H2 file target
     * back in H2's MySQL mode).
     */
    @Test
    void ctrlCDuringAnApplyOfFilesCommitsWhatWasReadPrintsOneJsonLineAndTheRerunResumesExactly() throws Exception {
        long seed = seed();
        Random random = new Random(seed);
        long delayMillis = 300 + random.nextInt(1500);
        String url = null;
        for (int attempt = 1; url == null; attempt++) {
            Path db = temp.resolve("replica-" + attempt);
            if (stopFileApplyMidWay(db, delayMillis, seed)) {
                url = "jdbc:h2:" + db.toAbsolutePath();
            } else {
                assertTrue(attempt < 5, "the apply read the whole file within " + delayMillis + " ms (seed " + seed
                        + ")");
                delayMillis /= 3;
            }
        }

        Result rest = DumpCommandTest.run("demo", "--target", url, "--json");
        assertEquals(0, rest.code(), rest.err());
        String json = ApplyCommandTest.last(rest);
        assertTrue(json.contains("\"verified\":true"), "the demo's checksums on the resumed target: " + json);
        long committedBefore = ApplyCommandTest.number(json, "skipped");
        assertEquals(SYSBENCH_TRANSACTIONS, committedBefore + ApplyCommandTest.number(json, "transactions"), json);
        Map<String, String> expected = DemoCommand.expectedChecksums();
        try (Connection c = DriverManager.getConnection(url + Dialect.h2RecommendedUrlOptions())) {
            assertEquals(expected, DemoCommand.checksums(c, Dialect.h2(), expected.keySet()));
        }
    }

    /**
     * Applies the sysbench file into the H2 file database {@code db} and sends SIGINT {@code delayMillis} after the
     * database file appears. True when that stopped the apply before the file's end, checked as a graceful stop; false
     * when the whole file had been read by then, checked as a complete apply (exit 0, status ok, every transaction).
     */
    private boolean stopFileApplyMidWay(Path db, long delayMillis, long seed) throws Exception {
        String url = "jdbc:h2:" + db.toAbsolutePath();
        ChildCli child = ChildCli.start(temp, "apply", "--source", SYSBENCH.toString(), "--target", url,
                "--pipeline", "demo", "--workers", "4", "--json");
        try (child) {
            awaitFile(child, db.resolveSibling(db.getFileName() + ".mv.db"));
            Thread.sleep(delayMillis);
            child.signal("INT");
            int status = child.waitFor(300);

            String err = child.err();
            if (status == 0) {
                String json = child.out().get(child.out().size() - 1);
                assertTrue(json.startsWith("{\"status\":\"ok\""), "exit 0 is a complete apply: " + json);
                assertEquals(SYSBENCH_TRANSACTIONS, ApplyCommandTest.number(json, "transactions"), json);
                System.out.println("GracefulStopTest: the whole file was read within " + delayMillis + " ms");
                return false;
            }
            assertEquals(130, status, "files stopped before their end: 130, as --help says; stderr:\n" + err);
            assertTrue(child.rawOut().endsWith("}\n"), "one whole line: " + child.rawOut());
            List<String> out = child.out();
            assertEquals(1, out.size(), "--json: the JSON line only: " + out);
            String json = out.get(0);
            new DumpCommandTest.JsonChecker(json).checkDocument();
            assertTrue(json.startsWith("{\"status\":\"stopped\""), json);
            long committed = ApplyCommandTest.number(json, "transactions");
            assertTrue(committed < SYSBENCH_TRANSACTIONS, "the signal came after the end (seed " + seed + "): " + json);
            assertEquals(ApplyCommandTest.number(json, "transactions_read"), committed,
                    "everything read was committed: " + json);
            assertFalse(err.contains("Exception") || err.contains("\tat "), "no stack trace: " + err);
            assertEquals(List.of("lanes: stopping: committing what was read (Ctrl-C again to abort)"),
                    err.lines().toList(), "stderr says it stops, nothing else");
            return true;
        }
    }

    /**
     * A live MariaDB under a steady write load, followed into an H2 file database: Ctrl-C exits 0 with one JSON line;
     * the next run, given the server without a start, resumes from the target's checkpoint and ends with exactly the
     * source's rows. A fresh target given no start is refused rather than started somewhere.
     */
    @Test
    void ctrlCWhileFollowingALiveServerExitsZeroAndTheRerunResumesFromTheCheckpoint() throws Exception {
        Random random = new Random(seed());
        Path db = temp.resolve("follower");
        String url = "jdbc:h2:" + db.toAbsolutePath();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE shop; CREATE TABLE shop.t (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)");
            String source = "mysql://root@127.0.0.1:" + server.port();

            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong written = new AtomicLong();
            Future<?> writer = pool.submit(() -> {
                try (Connection c = DriverManager.getConnection(server.jdbcUrl("shop"));
                        PreparedStatement insert = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)")) {
                    while (writing.get()) {
                        long id = written.get() + 1;
                        insert.setLong(1, id);
                        insert.setString(2, "row " + id);
                        insert.executeUpdate(); // autocommit: one transaction per row
                        written.set(id);
                        Thread.sleep(2);
                    }
                }
                return null;
            });
            try (ChildCli child = ChildCli.start(temp, "apply", "--source", source + "?file=bin.000001&pos=4",
                    "--target", url, "--workers", "3", "--server-id", "211", "--json")) {
                awaitFile(child, db.resolveSibling("follower.mv.db"));
                awaitReplica(child, server); // the stream flows from here on: the run has something to stop
                Thread.sleep(1000 + random.nextInt(1500));
                child.signal("INT");
                int status = child.waitFor(300);
                String err = child.err();
                assertEquals(0, status, "a live source stopped by Ctrl-C: 0, as --help says; stderr:\n" + err);
                List<String> out = child.out();
                assertEquals(1, out.size(), "--json: the JSON line only: " + out);
                new DumpCommandTest.JsonChecker(out.get(0)).checkDocument();
                assertTrue(out.get(0).startsWith("{\"status\":\"stopped\""), out.get(0));
                assertTrue(ApplyCommandTest.number(out.get(0), "transactions") > 0, out.get(0));
                assertFalse(err.contains("Exception") || err.contains("\tat "), "no stack trace: " + err);
                assertEquals(1, err.lines().count(), "stderr says it stops, nothing else: " + err);
                assertTrue(!writer.isDone(), "the writer was still writing when the run stopped");
                writing.set(false);
                writer.get(60, TimeUnit.SECONDS);
                long first = ApplyCommandTest.number(out.get(0), "transactions");

                Result rest = DumpCommandTest.run("apply", "--source", source, "--target", url, "--workers", "3",
                        "--server-id", "211", "--until-caught-up", "--json");
                assertEquals(0, rest.code(), rest.err());
                long n = written.get();
                try (Connection c = DriverManager.getConnection(url + Dialect.h2RecommendedUrlOptions());
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(\"id\"), MAX(\"id\") FROM \"shop\".\"t\"")) {
                    rs.next();
                    assertEquals(List.of(n, 1L, n), List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3)),
                            "count, min and max id on the target after the resumed run");
                }
                String gtid = server.sql("SELECT @@gtid_binlog_pos").trim();
                long sourceTransactions = Long.parseLong(gtid.substring(gtid.lastIndexOf('-') + 1));
                assertEquals(sourceTransactions, first + ApplyCommandTest.number(ApplyCommandTest.last(rest),
                        "transactions"), "each source transaction applied once, over the two runs (" + gtid + ")");
            } finally {
                writing.set(false);
            }

            Result fresh = DumpCommandTest.run("apply", "--source", source, "--target",
                    "jdbc:h2:" + temp.resolve("fresh").toAbsolutePath(), "--json");
            assertEquals(1, fresh.code(), fresh.err());
            assertTrue(fresh.err().contains("holds no checkpoint") && fresh.err().contains("lanes.source.start"),
                    fresh.err());
        } finally {
            pool.shutdownNow();
        }
    }

    /** The seed of when the signal comes: -Dlanes.stop.seed, else a new one, printed so that a failure replays. */
    static long seed() {
        long seed = Long.getLong("lanes.stop.seed", System.nanoTime());
        System.out.println("GracefulStopTest seed " + seed + " (-Dlanes.stop.seed=" + seed + " replays it)");
        return seed;
    }

    /** Waits until the server shows the child's replication connection (its Binlog Dump thread). */
    static void awaitReplica(ChildCli child, MariaDbServer server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (Long.parseLong(server.sql("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                + " WHERE COMMAND LIKE 'Binlog Dump%'").trim()) == 0) {
            assertTrue(child.process().isAlive(), "lanes ended before it followed the server: " + child.err());
            assertTrue(System.nanoTime() < deadline, "no replication connection after 120 s: " + child.err());
            Thread.sleep(20);
        }
    }

    /** Waits until the child has created its target's file (the pipeline has started), or fails with its stderr. */
    static void awaitFile(ChildCli child, Path file) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(file)) {
            assertTrue(child.process().isAlive(), "lanes ended before it started: " + child.err());
            assertTrue(System.nanoTime() < deadline, "no " + file + " after 120 s: " + child.err());
            Thread.sleep(20);
        }
    }
}
