package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.ReplicationTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.testing.MariaDbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The replication client against a real MariaDB started by the test (mysql_native_password unless said otherwise). */
class ReplicationMariaDbTest {

    /** Runs {@code writers} threads, each committing {@code batches} x {@code perBatch} small transactions. */
    static void workload(MariaDbServer db, int writers, int batches, int perBatch) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                fs.add(pool.submit(() -> {
                    for (int b = 0; b < batches; b++) {
                        StringBuilder sql = new StringBuilder();
                        for (int i = 0; i < perBatch; i++) {
                            int n = b * perBatch + i;
                            sql.append("BEGIN; INSERT INTO d.t (w, n, v) VALUES (").append(writer).append(',').append(n)
                                    .append(", 'x'); UPDATE d.t SET v = CONCAT(v, 'y') WHERE w = ").append(writer)
                                    .append(" AND n = ").append(n).append("; COMMIT;\n");
                        }
                        db.sql(sql.toString());
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static void schema(MariaDbServer db) {
        db.sql("CREATE DATABASE d; CREATE TABLE d.t (id INT AUTO_INCREMENT PRIMARY KEY, w INT, n INT, v VARCHAR(200),"
                + " KEY (w, n)) ENGINE=InnoDB;");
    }

    @Test
    void concurrentWorkloadStreamsByFilePositionEqualToTheFilesBytes() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            createReplicationUser(db, "repl", "s3cret");
            schema(db);
            try (ReplicationClient c = client(db, "repl", "s3cret").startPosition(StartPosition.file("bin.000001", 4))
                    .build()) {
                ServerInfo info = c.start();
                assertTrue(info.mariaDb());
                assertEquals(1, info.serverId());
                assertEquals("CRC32", info.binlogChecksum());
                List<ReplicationEvent> got = new ArrayList<>();
                Thread writer = new Thread(() -> {
                    try {
                        workload(db, 4, 3, 20);
                        db.sql("FLUSH BINARY LOGS");
                        workload(db, 2, 2, 20);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                writer.start();
                // consume while the writers run
                while (writer.isAlive()) {
                    ReplicationEvent e = c.poll(Duration.ofMillis(50));
                    if (e != null) {
                        got.add(e);
                    }
                }
                writer.join();
                pollUntil(c, got, masterStatus(db), 30_000);
                List<FileEvent> files = readAll(db.binlogFiles());
                assertEquals(2, db.binlogFiles().size());
                assertStreamMatchesFiles(got, files, null);
                List<String> gtids = mariaDbGtids(got);
                assertEquals(mariaDbGtids(files), gtids);
                // 1 CREATE USER + 1 GRANT + CREATE DATABASE + CREATE TABLE + 4*3*20 + 2*2*20 transactions
                assertEquals(4 + 240 + 80, gtids.size());
                // a rotation was followed: some events come from the second file
                assertTrue(got.stream().anyMatch(e -> e.binlogFile().equals("bin.000002") && !e.isSynthetic()));
            }
        }
    }

    @Test
    void streamsFromAMariaDbGtidPosition() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            createReplicationUser(db, "repl", "pw");
            schema(db);
            workload(db, 2, 1, 10);
            String mid = db.sql("SELECT @@gtid_binlog_pos").trim();
            workload(db, 2, 1, 10);
            try (ReplicationClient c = client(db, "repl", "pw").startPosition(StartPosition.mariaDbGtid(mid)).build()) {
                c.start();
                List<ReplicationEvent> got = new ArrayList<>();
                pollUntil(c, got, masterStatus(db), 30_000);
                List<FileEvent> files = readAll(db.binlogFiles());
                List<String> all = mariaDbGtids(files);
                List<String> expected = all.subList(all.indexOf(mid) + 1, all.size());
                assertEquals(20, expected.size());
                assertEquals(expected, mariaDbGtids(got));
                // the transactions' events are the file's bytes
                FileEvent firstAfter = files.stream().filter(f -> f.type() == 162
                        && mariaDbGtids(List.of(f)).get(0).equals(expected.get(0))).findFirst().orElseThrow();
                assertStreamMatchesFiles(got.stream().filter(e -> !repeatable(e.eventType())).toList(),
                        files.stream().filter(f -> !repeatable(f.type())).toList(), firstAfter.key());
                // the last event's resume position is the GTID position the server is at now
                ReplicationEvent last = got.get(got.size() - 1);
                assertEquals(StartPosition.mariaDbGtid(db.sql("SELECT @@gtid_binlog_pos").trim()),
                        last.resumePosition());
            }
        }
    }

    @Test
    void wrongPasswordIsAClearAuthenticationError() {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            createReplicationUser(db, "repl", "right-one");
            try (ReplicationClient c = client(db, "repl", "Wr0ngPassw0rd").startPosition(StartPosition.file("bin.000001", 4))
                    .build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.AUTHENTICATION, e.kind());
                assertEquals(1045, e.serverErrorCode());
                assertTrue(e.getMessage().contains("'repl'"), e.getMessage());
                assertTrue(e.getMessage().contains("127.0.0.1:" + db.port()), e.getMessage());
                assertFalse(e.getMessage().contains("Wr0ngPassw0rd"));
                assertFalse(c.toString().contains("Wr0ngPassw0rd"));
            }
        }
    }

    @Test
    void tlsRequiredButNotOfferedIsAClearTlsError() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            createReplicationUser(db, "repl", "pw");
            try (ReplicationClient c = client(db, "repl", "pw").tls(TlsSettings.of(TlsMode.REQUIRED))
                    .startPosition(StartPosition.file("bin.000001", 4)).build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.TLS, e.kind());
                assertTrue(e.getMessage().contains("does not offer TLS"), e.getMessage());
            }
            // PREFERRED falls back to plain text on the same server
            try (ReplicationClient c = client(db, "repl", "pw").tls(TlsSettings.of(TlsMode.PREFERRED))
                    .startPosition(StartPosition.file("bin.000001", 4)).build()) {
                c.start();
                assertNotNull(c.poll(Duration.ofSeconds(5)));
            }
        }
    }

    /**
     * A file start reports the server's GTID position before it (BINLOG_GTID_POS): domains only in an earlier file
     * included, a transaction after the position not; a position inside an event is refused naming BINLOG_GTID_POS.
     */
    @Test
    void aFileStartReportsTheServersGtidPositionBeforeIt() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            createReplicationUser(db, "repl", "pw"); // REPLICATION SLAVE only: the function needs no more
            schema(db);
            db.sql("SET gtid_domain_id = 2; INSERT INTO d.t (w, n, v) VALUES (2, 1, 'a'); FLUSH BINARY LOGS;"
                    + " SET gtid_domain_id = 1; INSERT INTO d.t (w, n, v) VALUES (1, 1, 'b');");
            String[] status = db.sql("SHOW MASTER STATUS").split("\t");
            assertEquals("bin.000002", status[0]);
            long mid = Long.parseLong(status[1].trim());
            String before = db.sql("SELECT @@gtid_binlog_pos").trim();
            db.sql("SET gtid_domain_id = 0; INSERT INTO d.t (w, n, v) VALUES (0, 1, 'c');");
            assertNotEquals(before, db.sql("SELECT @@gtid_binlog_pos").trim());
            try (ReplicationClient c = client(db, "repl", "pw").startPosition(StartPosition.file("bin.000002", mid))
                    .build()) {
                ServerInfo info = c.start();
                assertEquals(parts(before), parts(info.startGtidPosition()), "at " + mid);
                assertTrue(info.startGtidPosition().contains("2-1-"), info.startGtidPosition());
            }
            try (ReplicationClient c = client(db, "repl", "pw").startPosition(StartPosition.file("bin.000002", 4))
                    .build()) {
                String atFileStart = c.start().startGtidPosition();
                assertTrue(atFileStart.contains("2-1-") && !atFileStart.contains("1-1-"), atFileStart);
            }
            try (ReplicationClient c = client(db, "repl", "pw").startPosition(StartPosition.file("bin.000002",
                    mid - 3)).build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.LOG_UNAVAILABLE, e.kind());
                assertTrue(e.getMessage().contains("bin.000002:" + (mid - 3))
                        && e.getMessage().contains("BINLOG_GTID_POS"), e.getMessage());
            }
        }
    }

    /** A GTID position's parts in domain order (the server prints them in no fixed order). */
    static java.util.Set<String> parts(String gtidPosition) {
        return new java.util.TreeSet<>(List.of(gtidPosition.trim().split("\\s*,\\s*")));
    }

    @Test
    void purgedStartPositionIsAClearError() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            createReplicationUser(db, "repl", "pw");
            schema(db);
            String oldGtid = db.sql("SELECT @@gtid_binlog_pos").trim();
            workload(db, 1, 1, 5);
            db.sql("FLUSH BINARY LOGS; FLUSH BINARY LOGS;");
            purgeTo(db, "bin.000003");
            try (ReplicationClient c = client(db, "repl", "pw").startPosition(StartPosition.file("bin.000001", 4))
                    .build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.LOG_UNAVAILABLE, e.kind());
                assertEquals(1236, e.serverErrorCode());
                assertTrue(e.getMessage().contains("bin.000001:4"), e.getMessage());
            }
            try (ReplicationClient c = client(db, "repl", "pw").startPosition(StartPosition.mariaDbGtid(oldGtid))
                    .build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.LOG_UNAVAILABLE, e.kind());
                assertTrue(e.getMessage().contains(oldGtid), e.getMessage());
            }
        }
    }

    @Test
    void anEventOverSixteenMebibytesArrivesWholeFromMultiplePackets() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog("--max-allowed-packet=64M")) {
            createReplicationUser(db, "repl", "pw");
            db.sql("CREATE DATABASE d; CREATE TABLE d.big (id INT PRIMARY KEY, b LONGBLOB);"
                    + " INSERT INTO d.big VALUES (1, REPEAT('z', 17 * 1024 * 1024));");
            try (ReplicationClient c = client(db, "repl", "pw").startPosition(StartPosition.file("bin.000001", 4))
                    .build()) {
                c.start();
                List<ReplicationEvent> got = new ArrayList<>();
                pollUntil(c, got, masterStatus(db), 60_000);
                assertTrue(got.stream().anyMatch(e -> e.bytes().length > 17 * 1024 * 1024), "the row event");
                assertStreamMatchesFiles(got, readAll(db.binlogFiles()), null);
            }
            // with a smaller limit the same event is a clear error naming where it is
            try (ReplicationClient c = client(db, "repl", "pw").startPosition(StartPosition.file("bin.000001", 4))
                    .maxEventSize(1 << 20).build()) {
                c.start();
                ReplicationException e = assertThrows(ReplicationException.class, () -> {
                    while (true) {
                        c.poll(Duration.ofSeconds(10));
                    }
                });
                assertEquals(ReplicationException.Kind.EVENT_TOO_LARGE, e.kind());
                assertTrue(e.getMessage().contains("bin.000001:"), e.getMessage());
            }
        }
    }

    @Test
    void semiSyncAcknowledgementsReleaseTheSourcesCommits() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog("--rpl-semi-sync-master-enabled=ON",
                "--rpl-semi-sync-master-timeout=200")) {
            createReplicationUser(db, "repl", "pw");
            schema(db);
            try (ReplicationClient c = client(db, "repl", "pw").startPosition(StartPosition.file("bin.000001", 4))
                    .semiSync(true).build()) {
                c.start();
                List<ReplicationEvent> got = new ArrayList<>();
                pollUntil(c, got, masterStatus(db), 30_000);
                assertEquals("1", status(db, "Rpl_semi_sync_master_clients"));
                // the setup statements ran without a semi-sync replica (and timed out); from now on wait for acks
                db.sql("SET GLOBAL rpl_semi_sync_master_timeout = 60000");
                int yesBefore = Integer.parseInt(status(db, "Rpl_semi_sync_master_yes_tx"));
                String noBefore = status(db, "Rpl_semi_sync_master_no_tx");
                workload(db, 1, 1, 5);
                pollUntil(c, got, masterStatus(db), 30_000);
                // each commit waited for the client's acknowledgement and got it (none fell back to asynchronous)
                assertEquals(yesBefore + 5, Integer.parseInt(status(db, "Rpl_semi_sync_master_yes_tx")));
                assertEquals(noBefore, status(db, "Rpl_semi_sync_master_no_tx"));
                assertStreamMatchesFiles(got, readAll(db.binlogFiles()), null);
            }
        }
    }

    static String status(MariaDbServer db, String name) {
        String[] f = db.sql("SHOW GLOBAL STATUS LIKE '" + name + "'").trim().split("\t");
        return f.length > 1 ? f[1] : "";
    }
}
