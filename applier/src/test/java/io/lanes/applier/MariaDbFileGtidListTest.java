package io.lanes.applier;

import static io.lanes.applier.GtidSeedTestSupport.domains;
import static io.lanes.applier.GtidSeedTestSupport.ids;
import static io.lanes.applier.GtidSeedTestSupport.parts;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogReader;
import io.lanes.binlog.gtid.MariaDbGtid;
import io.lanes.binlog.MariaGtidListEvent;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.core.RecoveryPoint;
import java.nio.file.Files;
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
 * Applying a real MariaDB binlog file on its own: the GTID_LIST event at its start joins the GTID state, so the
 * checkpoint's GTID position is the server's {@code @@gtid_binlog_pos}, domains the file does not write in included.
 * Domain 2 is written only in {@code bin.000001}, by two server ids, the later one with a lower sequence number (allowed
 * without gtid_strict_mode): the domain's current GTID is then the last of its two GTID_LIST entries, not the highest
 * one. Domains 0 and 1 are written in {@code bin.000002}, the only file applied. A second run from the checkpoint
 * applies nothing again.
 */
class MariaDbFileGtidListTest {
    @TempDir
    Path temp;

    @Test
    void aFileApplyCheckpointsTheDomainsOfTheFilesGtidList() throws Exception {
        Path second = temp.resolve("bin.000002");
        String serverPosition;
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("SET gtid_domain_id = 2; CREATE DATABASE d;"
                    + "CREATE TABLE d.t (id INT NOT NULL PRIMARY KEY, v VARCHAR(20)) ENGINE=InnoDB;"
                    + "SET gtid_seq_no = 10; INSERT INTO d.t VALUES (1, 'd2');");
            server.sql("SET gtid_domain_id = 2; SET server_id = 5; SET gtid_seq_no = 3;"
                    + "INSERT INTO d.t VALUES (2, 'd2 s5');");
            server.sql("FLUSH BINARY LOGS");
            server.sql("SET gtid_domain_id = 0; INSERT INTO d.t VALUES (3, 'd0'); INSERT INTO d.t VALUES (4, 'd0');"
                    + "SET gtid_domain_id = 1; INSERT INTO d.t VALUES (5, 'd1');");
            server.sql("FLUSH BINARY LOGS"); // bin.000002 complete, ending with its ROTATE
            serverPosition = server.sql("SELECT @@gtid_binlog_pos").trim();
            Path written = server.dataDir().resolve("bin.000002");
            assertTrue(server.binlogFiles().contains(written), server.binlogFiles().toString());
            Files.copy(written, second);
        }
        assertEquals(Set.of("0", "1", "2"), domains(serverPosition), serverPosition);
        assertTrue(parts(serverPosition).contains("2-5-3"), "the later GTID of domain 2 is current: " + serverPosition);

        // The file's own GTID_LIST: domain 2 has an entry per server id, the current one (2-5-3) last.
        List<MariaDbGtid> list = gtidList(second);
        List<String> domain2 = list.stream().filter(g -> g.domainId() == 2).map(MariaDbGtid::toString).toList();
        assertEquals(Set.of("2-1-10", "2-5-3"), Set.copyOf(domain2), list.toString());
        assertEquals("2-5-3", domain2.get(domain2.size() - 1), "the domain's last entry is its current GTID: " + list);

        String url = "jdbc:h2:" + temp.resolve("target").toAbsolutePath();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA \"d\"");
            s.execute("CREATE TABLE \"d\".\"t\" (\"id\" INT NOT NULL PRIMARY KEY, \"v\" VARCHAR(20))");
        }

        Run fresh = run(second, url);
        assertNull(fresh.from().position(), "a fresh target");
        assertEquals(3, fresh.stats().transactions(), fresh.stats().toString());
        assertEquals(parts(serverPosition), parts(SourcePosition.parse(fresh.stats().sourcePosition()).gtidState()),
                "the last position read is the server's @@gtid_binlog_pos, domain 2 included");
        assertEquals(List.of(3, 4, 5), ids(url));

        Run again = run(second, url); // starts from the first run's final checkpoint
        assertEquals(parts(serverPosition), parts(SourcePosition.parse(again.from().position()).gtidState()),
                "the first run's final checkpoint is the server's @@gtid_binlog_pos");
        assertEquals(0, again.stats().transactions(), again.stats().toString());
        assertEquals(3, again.stats().transactionsSkipped(), again.stats().toString());
        assertEquals(List.of(3, 4, 5), ids(url));
    }

    /** Where a run started (the previous run's checkpoint) and what it did. */
    private record Run(RecoveryPoint from, LanesStats stats) {
    }

    private static Run run(Path binlog, String url) throws Exception {
        try (Lanes lanes = Lanes.builder().source(binlog).target(url).pipeline("maria-files").build()) {
            RecoveryPoint rp = lanes.start();
            assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), "caught up");
            return new Run(rp, lanes.stop());
        }
    }

    private static List<MariaDbGtid> gtidList(Path binlog) {
        try (BinlogReader in = BinlogReader.open(binlog)) {
            for (BinlogEvent e; (e = in.next()) != null; ) {
                if (e instanceof MariaGtidListEvent l) {
                    return l.gtids();
                }
            }
        }
        throw new AssertionError("no GTID_LIST event in " + binlog);
    }
}
