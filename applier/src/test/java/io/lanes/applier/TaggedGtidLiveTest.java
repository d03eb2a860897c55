package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.gtid.GtidSet;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.testkit.FakeBinlogServer;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.testing.TaggedGtidFixtures;
import io.lanes.binlog.replication.TlsSettings;
import io.lanes.core.RecoveryPoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live pipeline following a MySQL 8.3+ source whose transactions have tagged GTIDs (the fake source serving the real
 * MySQL 9.6 tagged transaction as mytag:3, 4, ...): checkpoints carry the whole GTID set, tags included, and each restart
 * resumes from it, applying every transaction exactly once.
 */
class TaggedGtidLiveTest {
    static final String U = TaggedGtidFixtures.UUID;

    @TempDir
    Path temp;

    @Test
    void restartsResumeFromTheTaggedGtidSetOfTheCheckpoint() throws Exception {
        String url = "jdbc:h2:" + temp.resolve("target").toAbsolutePath();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA \"test\"");
            // the source table: INT, INT, DECIMAL(10,2); no key, so a transaction applied twice leaves a duplicate row
            s.execute("CREATE TABLE \"test\".\"orders\" (\"a\" INT, \"b\" INT, \"c\" DECIMAL(10,2))");
        }
        Path two = Files.createDirectories(temp.resolve("two"));
        Path three = Files.createDirectories(temp.resolve("three"));

        // Run 1: the source has mytag:3-4; the stream starts after mytag:1-2 (and untagged 1-13)
        RecoveryPoint rp1 = run(TaggedGtidFixtures.taggedTransactions(two, 2), url, 2, U + ":1-13:mytag:1-4");
        assertNull(rp1.position(), "a fresh target");
        assertEquals(2, rows(url));

        // Run 2: the source has gained mytag:5; the checkpoint's set has the start and run 1's transactions
        RecoveryPoint rp2 = run(TaggedGtidFixtures.taggedTransactions(three, 3), url, 1, U + ":1-13:mytag:1-5");
        assertEquals(U + ":1-13:mytag:1-4", SourcePosition.parse(rp2.position()).gtidState());
        assertEquals(3, rows(url));

        // Run 3: nothing new; the set still has everything (not only what run 2 saw)
        RecoveryPoint rp3 = run(three.resolve("binlog.000004"), url, 0, U + ":1-13:mytag:1-5");
        assertEquals(U + ":1-13:mytag:1-5", SourcePosition.parse(rp3.position()).gtidState());
        assertEquals(3, rows(url), "every transaction applied once");
    }

    @Test
    void theCatchUpTargetKeepsTaggedSourcesApart() {
        GtidSet want = ServerStream.CatchUpTarget.parseGtids(U + ":1-13:mytag:1-5,\n" + U + ":x:7", false);
        assertEquals(U + ":1-13:mytag:1-5:x:7", want.toString());
        GtidSet upper = ServerStream.CatchUpTarget.parseGtids(U.toUpperCase() + ":MyTag:1-5:X:7", false);
        assertEquals(U + ":mytag:1-5:x:7", upper.toString());
        assertTrue(ServerStream.CatchUpTarget.parseGtids(U + ":1-13:mytag:1-5:x:7", false).containsAll(want));
        // mytag:4-5 missing: untagged 1-13 does not cover them
        assertFalse(ServerStream.CatchUpTarget.parseGtids(U + ":1-13:mytag:1-3:x:7", false).containsAll(want));
        assertFalse(ServerStream.CatchUpTarget.parseGtids(U + ":1-13:mytag:1-5", false).containsAll(want));
        assertNull(ServerStream.CatchUpTarget.parseGtids("not a set", false));
    }

    /** One run to caught-up against a fake source serving {@code binlog}; returns where it started. */
    private static RecoveryPoint run(Path binlog, String url, long transactions, String sourceGtids) throws Exception {
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(binlog).password("pw".toCharArray())
                .variable("gtid_mode", "ON").variable("gtid_executed", sourceGtids).build().start()) {
            ReplicationClient.Builder client = ReplicationClient.builder().host("127.0.0.1").port(fake.port())
                    .user("repl").password("pw".toCharArray()).serverId(9).tls(TlsSettings.disabled())
                    .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(100));
            try (Lanes lanes = Lanes.builder().sourceServer(client, StartPosition.mysqlGtidSet(U + ":1-13:mytag:1-2"))
                    .target(url).pipeline("tagged").checkpointPeriod(Duration.ofMillis(50)).build()) {
                RecoveryPoint rp = lanes.start();
                assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), "caught up");
                LanesStats stats = lanes.stop();
                assertEquals(transactions, stats.transactions(), stats.toString());
                return rp;
            }
        }
    }

    static long rows(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT COUNT(*) FROM \"test\".\"orders\"")) {
            assertTrue(r.next());
            return r.getLong(1);
        }
    }
}
