package io.lanes.applier;

import static io.lanes.applier.GtidSeedTestSupport.domains;
import static io.lanes.applier.GtidSeedTestSupport.ids;
import static io.lanes.applier.GtidSeedTestSupport.parts;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.replication.TlsSettings;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.core.RecoveryPoint;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live run from a real MariaDB started at a binlog file position in the middle of a file: its checkpoint's GTID
 * position is the server's {@code @@gtid_binlog_pos} at the end, every domain included, not only the domains the run
 * saw. The domains: 2 written only in the first binlog file (before the start file: neither the stream nor the start
 * file's prefix carries it; only the server's {@code BINLOG_GTID_POS} does), 3 written in the start file before the
 * start position only, 0 and 1 written after it. A second run resumes by that GTID position and applies only what came
 * since, a transaction in domain 2 included.
 */
class MariaDbFilePositionGtidSeedTest {
    @TempDir
    Path temp;

    @Test
    void aFileStartInTheMiddleOfAFileCheckpointsTheServersWholeGtidPosition() throws Exception {
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE d; CREATE TABLE d.t (id INT NOT NULL PRIMARY KEY, v VARCHAR(20)) ENGINE=InnoDB;"
                    + "SET gtid_domain_id = 2; INSERT INTO d.t VALUES (1, 'd2'); INSERT INTO d.t VALUES (2, 'd2');"
                    + "FLUSH BINARY LOGS;"
                    + "SET gtid_domain_id = 3; INSERT INTO d.t VALUES (3, 'd3');"
                    + "SET gtid_domain_id = 0; INSERT INTO d.t VALUES (4, 'd0');");
            String[] status = server.sql("SHOW MASTER STATUS").split("\t");
            assertEquals("bin.000002", status[0], "the start file is the second one");
            StartPosition start = StartPosition.file(status[0], Long.parseLong(status[1].trim()));
            server.sql("SET gtid_domain_id = 0; INSERT INTO d.t VALUES (5, 'd0');"
                    + "SET gtid_domain_id = 1; INSERT INTO d.t VALUES (6, 'd1');"
                    + "SET gtid_domain_id = 0; INSERT INTO d.t VALUES (7, 'd0');");
            String afterFirst = server.sql("SELECT @@gtid_binlog_pos").trim();
            assertEquals(Set.of("0", "1", "2", "3"), domains(afterFirst), afterFirst);

            String url = "jdbc:h2:" + temp.resolve("target").toAbsolutePath();
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA \"d\"");
                s.execute("CREATE TABLE \"d\".\"t\" (\"id\" INT NOT NULL PRIMARY KEY, \"v\" VARCHAR(20))");
            }

            Run fresh = run(server, url, start);
            assertNull(fresh.from().position(), "a fresh target");
            assertEquals(3, fresh.stats().transactions(), fresh.stats().toString());
            assertEquals(List.of(5, 6, 7), ids(url), "only the transactions after the start position");

            // one more transaction, in the domain the first run never saw: the resume must send it and nothing else
            server.sql("SET gtid_domain_id = 2; INSERT INTO d.t VALUES (8, 'd2');");
            String afterSecond = server.sql("SELECT @@gtid_binlog_pos").trim();
            Run resumed = run(server, url, start); // starts from the first run's checkpoint
            assertEquals(parts(afterFirst), parts(SourcePosition.parse(resumed.from().position()).gtidState()),
                    "the first run's checkpoint is the server's @@gtid_binlog_pos, domains 2 and 3 included");
            assertEquals(1, resumed.stats().transactions(), "only id 8: " + resumed.stats());
            assertEquals(List.of(5, 6, 7, 8), ids(url));

            Run again = run(server, url, start);
            assertEquals(parts(afterSecond), parts(SourcePosition.parse(again.from().position()).gtidState()));
            assertEquals(0, again.stats().transactions(), again.stats().toString());
            assertEquals(List.of(5, 6, 7, 8), ids(url));
        }
    }

    /** Where a run started (the previous run's checkpoint) and what it did. */
    private record Run(RecoveryPoint from, LanesStats stats) {
    }

    /** One live run to caught-up. */
    private static Run run(MariaDbServer server, String url, StartPosition start) throws Exception {
        ReplicationClient.Builder client = ReplicationClient.builder().host("127.0.0.1").port(server.port())
                .user("root").serverId(77).tls(TlsSettings.disabled())
                .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200)).maxReconnectAttempts(3);
        try (Lanes lanes = Lanes.builder().sourceServer(client, start).target(url).pipeline("maria-seed")
                .checkpointPeriod(Duration.ofMillis(50)).build()) {
            RecoveryPoint rp = lanes.start();
            assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), "caught up");
            return new Run(rp, lanes.stop());
        }
    }
}
