package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
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
 * with streaming off: each run ends in the source's state, and only the first two count them as large.
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
        for (Path f : files) {
            try (io.lanes.binlog.TransactionReader reader = io.lanes.binlog.TransactionReader.open(f)) {
                for (io.lanes.binlog.BinlogTransaction t; (t = reader.next()) != null; ) {
                    io.lanes.core.Transaction<SourceTransaction> c = bridge.convert(t);
                    if (c.payload().changes() instanceof io.lanes.applier.internal.StreamedChanges) {
                        RowChange first = (RowChange) c.payload().changes().stream()
                                .filter(RowChange.class::isInstance).findFirst().orElseThrow();
                        large.add(first.table().table() + (c.isBarrier() ? " alone" : "") + " keys "
                                + c.writeKeyCount());
                    }
                }
            }
        }
        assertEquals(List.of("big keys 0", "big keys 0", "big keys 0", "child alone keys 0"), large);
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
                            .largeTransactionBytes(threshold).build()) {
                        lanes.start();
                        assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(3)), what);
                        lanes.stop();
                        stats = lanes.stats();
                    }
                    assertEquals(threshold > 0 ? 4 : 0, stats.largeTransactions(), what);
                    String q = target.dialect().quoteIdentifier(db);
                    String hex = target.dialect().kind() == Dialect.Kind.POSTGRESQL ? "UPPER(ENCODE(c, 'hex'))"
                            : "UPPER(RAWTOHEX(c))";
                    assertSameRows(big, nullsAsText(target.rows("SELECT id, a, b, " + hex + " FROM " + q
                            + ".big ORDER BY id")), what);
                    assertEquals(side, target.rows("SELECT id, v FROM " + q + ".side ORDER BY id"), what);
                    assertEquals(child, target.rows("SELECT COUNT(*), SUM(big_id) FROM " + q + ".child"), what);
                }
            }
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
