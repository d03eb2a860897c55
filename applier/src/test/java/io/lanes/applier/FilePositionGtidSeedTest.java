package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.TransactionReader;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.testkit.FakeBinlogServer;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.testing.TaggedGtidFixtures;
import io.lanes.binlog.replication.TlsSettings;
import io.lanes.core.RecoveryPoint;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A start at a binlog file and position: the checkpoint's MySQL GTID set is the server's executed set up to where the
 * run stopped (the file's PREVIOUS_GTIDS, the transactions before the start position, and what the run applied), not
 * only what the run applied. A MySQL server sends PREVIOUS_GTIDS only to a dump that starts at the file's beginning, and
 * so does the fake source serving these real MySQL binlogs.
 */
class FilePositionGtidSeedTest {
    static final String U = TaggedGtidFixtures.UUID;
    /** The server's executed set once it has written the tagged file with three transactions. */
    static final String EXECUTED = U + ":1-13:mytag:1-5";

    @TempDir
    Path temp;

    /**
     * The tagged file: PREVIOUS_GTIDS {@code U:1-13:mytag:1-2}, then {@code mytag:3}, {@code mytag:4}, {@code mytag:5}.
     * Started after {@code mytag:3}, the run applies two transactions and its checkpoint holds all of
     * {@code U:1-13:mytag:1-5}; a second run resumes from that set and applies nothing again.
     */
    @Test
    void aStartInTheMiddleOfAFileCarriesThePreviousGtidsAndTheTransactionsBeforeIt() throws Exception {
        Path binlog = TaggedGtidFixtures.taggedTransactions(Files.createDirectories(temp.resolve("src")), 3);
        long afterFirst = transactionEnds(binlog).get(0);
        String url = orders();

        RecoveryPoint fresh = runLive(binlog, url, StartPosition.file("binlog.000004", afterFirst), 2);
        assertNull(fresh.position(), "a fresh target");
        assertEquals(2, rows(url));

        // the second run starts from the checkpoint: its GTID set is the server's executed set at the stop
        RecoveryPoint resumed = runLive(binlog, url, StartPosition.file("binlog.000004", afterFirst), 0);
        assertEquals(EXECUTED, SourcePosition.parse(resumed.position()).gtidState());
        assertEquals(2, rows(url), "mytag:3, before the start position, was not sent again on the resume");
    }

    /** At position 4 the server sends the PREVIOUS_GTIDS event itself: the checkpoint holds it too. */
    @Test
    void aStartAtTheBeginningOfAFileCarriesItsPreviousGtids() throws Exception {
        Path binlog = TaggedGtidFixtures.taggedTransactions(Files.createDirectories(temp.resolve("src")), 3);
        String url = orders();
        runLive(binlog, url, StartPosition.file("binlog.000004", 4), 3);
        RecoveryPoint resumed = runLive(binlog, url, StartPosition.file("binlog.000004", 4), 0);
        assertEquals(EXECUTED, SourcePosition.parse(resumed.position()).gtidState());
        assertEquals(3, rows(url));
    }

    /**
     * The real MySQL 8.0.28 binlog {@code rust_mysql_common/mysql-enum-string-set.000001} as it is (GTIDs 1 to 5 of one
     * server, an empty PREVIOUS_GTIDS), started after GTID 2 at 791: the checkpoint after GTID 5 is {@code 1-5}.
     */
    @Test
    void anUnchangedMySqlBinlogStartedAfterItsSecondTransaction() throws Exception {
        String uuid = "93e95066-a2f4-11ec-9b69-9657f0ae95e2";
        Path binlog = temp.resolve("mysql-enum-string-set.000001");
        try (InputStream in = getClass().getResourceAsStream("/binlogs/rust_mysql_common/mysql-enum-string-set.000001")) {
            assertNotNull(in, "fixture on the class path (binlog-api's test jar)");
            Files.copy(in, binlog);
        }
        assertEquals(791, transactionEnds(binlog).get(1), "GTID 2 ends at 791");
        Path checkpoints = Files.createDirectories(temp.resolve("checkpoints"));
        AtomicLong delivered = new AtomicLong();
        StartPosition start = StartPosition.file(binlog.getFileName().toString(), 791);
        try (FakeBinlogServer fake = fake(binlog, uuid + ":1-5")) {
            for (int run = 0; run < 2; run++) {
                try (Lanes lanes = Lanes.builder().sourceServer(client(fake), start)
                        .sink((t, worker) -> {
                            delivered.incrementAndGet();
                            return CompletableFuture.completedFuture(null);
                        }, checkpoints).pipeline("seed").checkpointPeriod(Duration.ofMillis(50)).build()) {
                    RecoveryPoint rp = lanes.start();
                    assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), "caught up");
                    lanes.stop();
                    if (run == 1) {
                        assertEquals(uuid + ":1-5", SourcePosition.parse(rp.position()).gtidState());
                    }
                }
            }
        }
        assertEquals(3, delivered.get(), "GTIDs 3, 4 and 5, once each");
    }

    /** Applying binlog files: each file's PREVIOUS_GTIDS joins the set as well. */
    @Test
    void fileApplyCarriesThePreviousGtidsOfTheFiles() throws Exception {
        Path binlog = TaggedGtidFixtures.taggedTransactions(Files.createDirectories(temp.resolve("src")), 3);
        String url = orders();
        for (int run = 0; run < 2; run++) {
            try (Lanes lanes = Lanes.builder().source(binlog).target(url).pipeline("files").build()) {
                RecoveryPoint rp = lanes.start();
                assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), "caught up");
                lanes.stop();
                if (run == 1) {
                    assertEquals(EXECUTED, SourcePosition.parse(rp.position()).gtidState());
                }
            }
        }
        assertEquals(3, rows(url));
    }

    /** A position inside an event is refused, naming it, before anything is applied. */
    @Test
    void aStartPositionInsideAnEventIsRefused() throws Exception {
        Path binlog = TaggedGtidFixtures.taggedTransactions(Files.createDirectories(temp.resolve("src")), 3);
        long inside = transactionEnds(binlog).get(0) + 5;
        String url = orders();
        try (FakeBinlogServer fake = fake(binlog, EXECUTED);
                Lanes lanes = Lanes.builder().sourceServer(client(fake), StartPosition.file("binlog.000004", inside))
                        .target(url).pipeline("inside").build()) {
            lanes.start();
            LanesException e = assertThrows(LanesException.class, () -> lanes.awaitCaughtUp(Duration.ofMinutes(2)));
            assertTrue(e.getMessage().contains("binlog.000004:" + inside), e.getMessage());
            assertThrows(LanesException.class, lanes::stop);
        }
        assertEquals(0, rows(url));
    }

    /** One live run to caught-up; returns where it started. */
    private static RecoveryPoint runLive(Path binlog, String url, StartPosition start, long transactions)
            throws Exception {
        try (FakeBinlogServer fake = fake(binlog, EXECUTED);
                Lanes lanes = Lanes.builder().sourceServer(client(fake), start).target(url).pipeline("seed")
                        .checkpointPeriod(Duration.ofMillis(50)).build()) {
            RecoveryPoint rp = lanes.start();
            assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), "caught up");
            LanesStats stats = lanes.stop();
            assertEquals(transactions, stats.transactions(), stats.toString());
            return rp;
        }
    }

    private static FakeBinlogServer fake(Path binlog, String executed) {
        return FakeBinlogServer.builder().binlogFile(binlog).password("pw".toCharArray())
                .variable("gtid_mode", "ON").variable("gtid_executed", executed).build().start();
    }

    private static ReplicationClient.Builder client(FakeBinlogServer fake) {
        return ReplicationClient.builder().host("127.0.0.1").port(fake.port()).user("repl")
                .password("pw".toCharArray()).serverId(9).tls(TlsSettings.disabled())
                .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(100)).maxReconnectAttempts(3);
    }

    /** Where each transaction of the file ends. */
    private static List<Long> transactionEnds(Path binlog) {
        try (TransactionReader r = TransactionReader.open(binlog)) {
            List<Long> ends = new java.util.ArrayList<>();
            for (BinlogTransaction t; (t = r.next()) != null; ) {
                ends.add(t.endPosition());
            }
            return ends;
        }
    }

    /** An H2 target with the tagged fixture's table (no key: a transaction applied twice leaves a second row). */
    private String orders() throws Exception {
        String url = "jdbc:h2:" + temp.resolve("target").toAbsolutePath();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS \"test\"");
            s.execute("CREATE TABLE IF NOT EXISTS \"test\".\"orders\" (\"a\" INT, \"b\" INT, \"c\" DECIMAL(10,2))");
        }
        return url;
    }

    private static long rows(String url) throws Exception {
        return TaggedGtidLiveTest.rows(url); // the same table
    }
}
