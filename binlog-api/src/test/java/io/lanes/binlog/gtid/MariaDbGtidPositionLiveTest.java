package io.lanes.binlog.gtid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.TransactionReader;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The MariaDB GTID position against a real server with default settings (gtid_strict_mode off): transactions in random
 * replication domains and server ids (seed printed on failure), each one's {@code @@last_gtid} added to a position,
 * which must equal the server's {@code @@gtid_binlog_pos} and {@code BINLOG_GTID_POS} at the binlog's end, parse from
 * the server's text through the one flavour rule, and equal what the GTIDs read back from the binlog files build.
 */
class MariaDbGtidPositionLiveTest {
    private static final long SEED = 20261126L;

    @Test
    void aPositionBuiltFromEachTransactionIsTheServersOwn() throws Exception {
        Random r = new Random(SEED);
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE gtidpos; CREATE TABLE gtidpos.t (id INT PRIMARY KEY)");
            MariaDbGtidPosition built = MariaDbGtidPosition.parse(server.sql("SELECT @@gtid_binlog_pos").trim());
            StringBuilder script = new StringBuilder();
            int n = 40;
            for (int i = 1; i <= n; i++) {
                long domain = r.nextInt(4) == 0 ? 4_000_000_000L + r.nextInt(3) : r.nextInt(3);
                long serverId = 1 + r.nextInt(3);
                script.append("SET SESSION gtid_domain_id = ").append(domain).append("; SET SESSION server_id = ")
                        .append(serverId).append("; INSERT INTO gtidpos.t VALUES (").append(i)
                        .append("); SELECT @@last_gtid;");
                if (i == n / 2) {
                    script.append("FLUSH BINARY LOGS;");
                }
            }
            List<String> lastGtids = server.sql(script.toString()).lines().map(String::trim)
                    .filter(l -> !l.isEmpty()).toList();
            assertEquals(n, lastGtids.size(), lastGtids.toString());
            for (String g : lastGtids) {
                List<MariaDbGtid> one = MariaDbGtidPosition.parseList(g);
                assertEquals(1, one.size(), g);
                assertEquals(g, one.get(0).toString(), "the GTID prints as the server printed it");
                assertFalse(built.contains(one.get(0)), g + " comes after what was built so far, seed " + SEED);
                built.add(one.get(0));
            }
            String serverText = server.sql("SELECT @@gtid_binlog_pos").trim();
            GtidSet parsed = GtidSet.parse(serverText);
            assertInstanceOf(MariaDbGtidPosition.class, parsed, serverText);
            assertEquals(built, parsed, "seed " + SEED + ": server " + serverText + ", built " + built);
            assertEquals(built, MariaDbGtidPosition.parse(built.toString()));

            List<Path> files = server.binlogFiles();
            String status = server.sql("SHOW MASTER STATUS").lines().findFirst().orElseThrow();
            String[] fileAndPos = status.split("\t");
            String atEnd = server.sql("SELECT BINLOG_GTID_POS('" + fileAndPos[0] + "', " + fileAndPos[1] + ")").trim();
            assertEquals(built, MariaDbGtidPosition.parse(atEnd), "BINLOG_GTID_POS at the end: " + atEnd);

            MariaDbGtidPosition read = new MariaDbGtidPosition();
            for (Path f : files) {
                try (TransactionReader tr = TransactionReader.open(f)) {
                    for (BinlogTransaction t; (t = tr.next()) != null; ) {
                        if (t.gtid() != null) {
                            read.add(t.gtid());
                        }
                    }
                }
            }
            assertEquals(built, read, "the GTIDs in the binlog files build the same position");
            assertTrue(read.containsAll(built) && built.containsAll(read));
        }
    }
}
