package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.RowsEvent;
import io.lanes.binlog.TransactionReader;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.binlog.testing.SpillFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Large transactions ({@link LanesBuilder#largeTransactionBytes}) are converted while their worker applies them. A
 * real MariaDB logs them with its defaults for row metadata (MINIMAL: column names come from the log's DDL) and
 * MINIMAL row images (an UPDATE's after image holds the changed columns only, a DELETE's the key only): a bulk
 * INSERT, a bulk UPDATE, a transaction of a bulk DELETE and small changes of another table, and a bulk INSERT logged
 * with foreign key checks off (a change of the checks inside the streamed rows), between small transactions. Applied
 * with 4 workers into PostgreSQL and H2 by the default scheduler (which runs them alone: they have no write keys) and
 * by the schema scheduler (which places them by schema as any other) with the threshold low enough for the four, and
 * with streaming off: each run ends in the source's state, and only the first two count them as large. A second test
 * applies a transaction larger than the heap in a JVM of 64 MiB: its row images wait in a spill file.
 */
class LargeTransactionsTest {
    private static final int ROWS = 30_000;

    @TempDir
    Path temp;

    @Test
    void largeTransactionsConvertedWhileAppliedEndInTheSourcesState() throws Exception {
        String db = "large_" + ProcessHandle.current().pid();
        List<Path> files;
        List<String> big;
        List<String> side;
        List<String> child;
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-image=MINIMAL")) {
            server.sql("CREATE DATABASE " + db + "; USE " + db + ";"
                    + "CREATE TABLE big (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(40), c VARBINARY(16)) ENGINE=InnoDB;"
                    + "CREATE TABLE side (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB;"
                    + "CREATE TABLE child (id INT PRIMARY KEY, big_id INT NOT NULL, KEY (big_id),"
                    + " CONSTRAINT fk FOREIGN KEY (big_id) REFERENCES big (id)) ENGINE=InnoDB;"
                    + "INSERT INTO side VALUES (1, 0);"
                    + "INSERT INTO big SELECT seq, seq % 1000, CONCAT('r', seq), IF(seq % 7 = 0, NULL, UNHEX(HEX(seq)))"
                    + " FROM seq_1_to_" + ROWS + ";"
                    + "UPDATE side SET v = v + 1 WHERE id = 1; UPDATE side SET v = v + 1 WHERE id = 1;"
                    + "UPDATE big SET a = a + 7, b = CONCAT(b, '-u') WHERE id % 3 = 0;"
                    + "UPDATE side SET v = v + 1 WHERE id = 1;"
                    + "BEGIN; DELETE FROM big WHERE id % 2 = 0; UPDATE side SET v = v + 100 WHERE id = 1;"
                    + " INSERT INTO side VALUES (2, 5); COMMIT;"
                    + "INSERT INTO side VALUES (3, 1);"
                    // rows referring to deleted parents: the target must take them with its checks off as well
                    + "SET foreign_key_checks = 0; INSERT INTO child SELECT seq, seq FROM seq_1_to_5000;"
                    + " SET foreign_key_checks = 1;"
                    + "UPDATE side SET v = v + 1 WHERE id = 3;");
            big = lines(server.sql("SELECT id, a, b, HEX(c) FROM " + db + ".big ORDER BY id"));
            side = lines(server.sql("SELECT id, v FROM " + db + ".side ORDER BY id"));
            child = lines(server.sql("SELECT COUNT(*), SUM(big_id) FROM " + db + ".child"));
            server.sql("FLUSH BINARY LOGS");
            files = server.copyBinlogFiles(temp.resolve("log"));
        }
        assertEquals(ROWS - ROWS / 2, big.size());
        // On H2, whose only switch for foreign key checks reaches every session, the one logged with them off runs
        // alone under every scheduler, as when converted whole; the others carry no write keys and are no barriers.
        BinlogBridge bridge = new BinlogBridge(SchemaMapping.identity(), TableMetadata.none());
        bridge.foreignKeyChecksOffRunsAlone(true);
        bridge.largeTransactionBytes(16 << 10);
        List<String> large = new java.util.ArrayList<>();
        // As the pipeline reads them: the row images beyond the threshold wait in a temporary file.
        BinlogReaderOptions spilling = BinlogReaderOptions.builder().spillThresholdBytes(16 << 10)
                .spillDirectory(temp).build();
        try (TransactionReader reader = TransactionReader.open(files, spilling)) {
            for (BinlogTransaction t; (t = reader.next()) != null; ) {
                boolean onDisk = t.rowsEvents().stream().anyMatch(RowsEvent::rowsOnDisk);
                io.lanes.core.Transaction<SourceTransaction> c = bridge.convert(t);
                if (c.payload().changes() instanceof io.lanes.applier.internal.StreamedChanges) {
                    RowChange first = (RowChange) c.payload().changes().stream()
                            .filter(RowChange.class::isInstance).findFirst().orElseThrow();
                    large.add(first.table().table() + (c.isBarrier() ? " alone" : "") + " keys "
                            + c.writeKeyCount() + (onDisk ? " spilled" : ""));
                }
            }
        }
        assertEquals(List.of("big keys 0 spilled", "big keys 0 spilled", "big keys 0 spilled",
                "child alone keys 0 spilled"), large);
        Path pipelineSpills = java.nio.file.Files.createDirectories(temp.resolve("pipeline-spills"));
        for (String run : List.of("writeset/16384", "schema/16384", "writeset/0")) {
            String scheduler = run.substring(0, run.indexOf('/'));
            long threshold = Long.parseLong(run.substring(run.indexOf('/') + 1));
            for (TestTarget target : List.of(TestTarget.postgres(), TestTarget.h2())) {
                try (target) {
                    target.dropOnClose(db);
                    String ck = target.newSchema("ck");
                    String user = target.dialect().kind() == Dialect.Kind.POSTGRESQL ? "postgres" : null;
                    String what = scheduler + ", threshold " + threshold + " " + target;
                    LanesStats stats;
                    try (Lanes lanes = Lanes.builder().source(files).target(target.url()).targetUser(user)
                            .pipeline("large").checkpointTable(ck, "lanes_checkpoint").scheduler(scheduler).workers(4)
                            .largeTransactionBytes(threshold).spillThresholdBytes(threshold).spillDirectory(pipelineSpills)
                            .build()) {
                        lanes.start();
                        assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(3)), what);
                        // Closed once committed, not when the collector gets to them (this JVM's heap is large).
                        assertEquals(0, SpillFiles.openIn(pipelineSpills), what + ": spill files still open");
                        lanes.stop();
                        stats = lanes.stats();
                    }
                    assertEquals(threshold > 0 ? 4 : 0, stats.largeTransactions(), what);
                    assertEquals(threshold > 0 ? 4 : 0, stats.spilledTransactions(), what);
                    String q = target.dialect().quoteIdentifier(db);
                    String hex = target.dialect().kind() == Dialect.Kind.POSTGRESQL ? "UPPER(ENCODE(c, 'hex'))"
                            : "UPPER(RAWTOHEX(c))";
                    assertSameRows(big, nullsAsText(target.rows("SELECT id, a, b, " + hex + " FROM " + q
                            + ".big ORDER BY id")), what);
                    assertEquals(side, target.rows("SELECT id, v FROM " + q + ".side ORDER BY id"), what);
                    assertEquals(child, target.rows("SELECT COUNT(*), SUM(big_id) FROM " + q + ".child"), what);
                    if (threshold > 0) {
                        // Started again over the same files: every transaction is passed over, its spill file closed
                        // as it is (only its GTID and statements are followed), and nothing is applied twice.
                        try (Lanes again = Lanes.builder().source(files).target(target.url()).targetUser(user)
                                .pipeline("large").checkpointTable(ck, "lanes_checkpoint").scheduler(scheduler)
                                .workers(4).largeTransactionBytes(threshold).spillThresholdBytes(threshold)
                                .spillDirectory(pipelineSpills).build()) {
                            again.start();
                            assertTrue(again.awaitCaughtUp(Duration.ofMinutes(3)), what);
                            assertEquals(0, SpillFiles.openIn(pipelineSpills), what + ": passed over, still open");
                            again.stop();
                            assertEquals(0, again.stats().transactionsRead(), what);
                            assertEquals(stats.transactionsRead(), again.stats().transactionsSkipped(), what);
                        }
                        assertEquals(side, target.rows("SELECT id, v FROM " + q + ".side ORDER BY id"), what);
                    }
                }
            }
        }
    }

    /**
     * A transaction larger than the heap: a real MariaDB's INSERT of 240,000 rows of 300 bytes (some 75 MB of log)
     * applied into PostgreSQL by a JVM of 64 MiB with the shipped settings. Its row images beyond the first 4 MiB wait
     * in a spill file and its rows are converted while applied, some thousands at a time, so the run ends in the
     * source's state; a reader that held the transaction's events whole ran out of heap.
     */
    @Test
    void aTransactionLargerThanTheHeapIsAppliedInASmallHeap() throws Exception {
        String db = "heap_" + ProcessHandle.current().pid();
        int rows = 240_000;
        List<Path> files;
        List<String> expected;
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE " + db + "; USE " + db + ";"
                    + "CREATE TABLE wide (id INT PRIMARY KEY, pad VARCHAR(300) NOT NULL) ENGINE=InnoDB;"
                    + "INSERT INTO wide SELECT seq, CONCAT(seq, ':', REPEAT(CHAR(97 + seq % 26), 290)) FROM seq_1_to_"
                    + rows + ";"
                    + "UPDATE wide SET pad = 'small' WHERE id = 7;");
            expected = new java.util.ArrayList<>(lines(server.sql("SELECT COUNT(*), SUM(LENGTH(pad)), MIN(id), MAX(id)"
                    + " FROM " + db + ".wide")));
            expected.addAll(lines(server.sql("SELECT pad FROM " + db + ".wide WHERE id IN (7, 8, " + rows
                    + ") ORDER BY id")));
            server.sql("FLUSH BINARY LOGS");
            files = server.copyBinlogFiles(temp.resolve("log"));
        }
        long logBytes = 0;
        for (Path f : files) {
            logBytes += java.nio.file.Files.size(f);
        }
        assertTrue(logBytes > 64L << 20, "more than the heap: the log holds " + logBytes + " bytes");
        Path spill = java.nio.file.Files.createDirectories(temp.resolve("spill"));
        try (TestTarget target = TestTarget.postgres()) {
            target.dropOnClose(db);
            String ck = target.newSchema("ck");
            List<String> command = new java.util.ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                    "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
                    io.lanes.applier.testing.SmallHeapApplyMain.class.getName(), target.url(), "postgres", ck,
                    spill.toString()));
            files.forEach(f -> command.add(f.toString()));
            Path log = temp.resolve("child.log");
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(p.waitFor(6, java.util.concurrent.TimeUnit.MINUTES), "the child did not finish");
            String output = java.nio.file.Files.readString(log);
            String tail = output.substring(Math.max(0, output.length() - 4000));
            assertEquals(0, p.exitValue(), tail);
            assertTrue(output.contains("DONE large=1 spilled=1 "), tail);
            String q = target.dialect().quoteIdentifier(db);
            List<String> actual = new java.util.ArrayList<>(target.rows("SELECT COUNT(*), SUM(LENGTH(pad)), MIN(id), "
                    + "MAX(id) FROM " + q + ".wide"));
            actual.addAll(target.rows("SELECT pad FROM " + q + ".wide WHERE id IN (7, 8, " + rows + ") ORDER BY id"));
            assertEquals(expected, actual);
        }
        try (java.util.stream.Stream<Path> left = java.nio.file.Files.list(spill)) {
            assertEquals(List.of(), left.toList(), "no spill file is left");
        }
    }

    /**
     * The same over the replication protocol: a live stream from a real MariaDB, whose large INSERT and UPDATE (logged
     * while Lanes follows the server) wait in spill files as they arrive and are converted while applied into
     * PostgreSQL, between small transactions of another table.
     */
    @Test
    void aLiveStreamsLargeTransactionsWaitInSpillFiles() throws Exception {
        String db = "live_large_" + ProcessHandle.current().pid();
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-image=MINIMAL");
                TestTarget target = TestTarget.postgres()) {
            server.sql("CREATE DATABASE " + db + "; USE " + db + ";"
                    + "CREATE TABLE big (id INT PRIMARY KEY, b VARCHAR(40)) ENGINE=InnoDB;"
                    + "CREATE TABLE side (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB;"
                    + "INSERT INTO side VALUES (1, 0); FLUSH BINARY LOGS;");
            List<Path> logs = server.binlogFiles();
            String startFile = logs.get(logs.size() - 1).getFileName().toString();
            target.dropOnClose(db);
            String ck = target.newSchema("ck");
            // The target has the tables as they were where the stream starts.
            String q = target.dialect().quoteIdentifier(db);
            try (java.sql.Connection c = target.connect(); java.sql.Statement st = c.createStatement()) {
                st.execute("CREATE SCHEMA " + q);
                st.execute("CREATE TABLE " + q + ".big (id INT PRIMARY KEY, b VARCHAR(40))");
                st.execute("CREATE TABLE " + q + ".side (id INT PRIMARY KEY, v INT NOT NULL)");
                st.execute("INSERT INTO " + q + ".side VALUES (1, 0)");
                if (!c.getAutoCommit()) {
                    c.commit();
                }
            }
            io.lanes.binlog.replication.ReplicationClient.Builder client = io.lanes.binlog.replication.ReplicationClient
                    .builder().host("127.0.0.1").port(server.port()).user("root").serverId(4242)
                    .tls(io.lanes.binlog.replication.TlsSettings.disabled());
            LanesStats stats;
            try (Lanes lanes = Lanes.builder()
                    .sourceServer(client, io.lanes.binlog.replication.StartPosition.file(startFile, 4))
                    .target(target.url()).targetUser("postgres").pipeline("live-large")
                    .checkpointTable(ck, "lanes_checkpoint").workers(4).largeTransactionBytes(16 << 10)
                    .spillThresholdBytes(16 << 10).spillDirectory(temp).build()) {
                lanes.start();
                assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(1)), "caught up at the start");
                server.sql("USE " + db + ";"
                        + "INSERT INTO big SELECT seq, CONCAT('r', seq) FROM seq_1_to_" + ROWS + ";"
                        + "UPDATE side SET v = v + 1 WHERE id = 1;"
                        + "UPDATE big SET b = CONCAT(b, '-u') WHERE id % 3 = 0;"
                        + "UPDATE side SET v = v + 1 WHERE id = 1;");
                List<String> expected = lines(server.sql("SELECT COUNT(*), SUM(id), SUM(LENGTH(b)) FROM " + db
                        + ".big UNION ALL SELECT COUNT(*), SUM(id), SUM(v) FROM " + db + ".side"));
                String query = "SELECT COUNT(*), SUM(id), SUM(LENGTH(b)) FROM " + q + ".big UNION ALL "
                        + "SELECT COUNT(*), SUM(id), SUM(v) FROM " + q + ".side";
                long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
                while (!expected.equals(target.rows(query)) && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                assertEquals(expected, target.rows(query));
                lanes.stop();
                stats = lanes.stats();
            }
            assertEquals(2, stats.largeTransactions(), stats.toString());
            assertEquals(2, stats.spilledTransactions(), stats.toString());
        }
    }

    /** Equal lists, or a message naming the first row that differs (not 15,000 rows). */
    private static void assertSameRows(List<String> expected, List<String> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": row " + i);
        }
        assertEquals(expected.size(), actual.size(), what + ": rows");
    }

    /** The client's tab-separated rows as {@link TestTarget#rows} gives them. */
    private static List<String> lines(String tsv) {
        return Arrays.stream(tsv.strip().split("\n")).map(l -> l.replace('\t', '|')).toList();
    }

    /** NULL as the client prints it. */
    private static List<String> nullsAsText(List<String> rows) {
        return rows.stream().map(r -> r.endsWith("|null") ? r.substring(0, r.length() - 5) + "|NULL" : r).toList();
    }
}
