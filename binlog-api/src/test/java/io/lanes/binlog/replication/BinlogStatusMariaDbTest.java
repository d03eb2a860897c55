package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.ReplicationTestSupport.client;
import static io.lanes.binlog.replication.ReplicationTestSupport.createReplicationUser;
import static io.lanes.binlog.replication.ReplicationTestSupport.masterStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ReplicationClient#binlogStatus()} against a real MariaDB (default settings but a binlog): the end position and
 * file sizes equal what the server's own SHOW statements and files say, a refused statement is named, not hidden.
 */
class BinlogStatusMariaDbTest {

    @Test
    void theBinlogStatusEqualsTheServersOwnAnswersAndFiles() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            createReplicationUser(db, "repl", "s3cret");
            db.sql("CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY, v TEXT); INSERT INTO d.t VALUES (1, 'a');"
                    + " FLUSH BINARY LOGS; INSERT INTO d.t VALUES (2, REPEAT('b', 5000));");
            ReplicationClient c = client(db, "repl", "s3cret").startPosition(StartPosition.file("bin.000001", 4))
                    .build(); // never started: the status needs no stream
            BinlogStatus s = c.binlogStatus();
            assertNull(s.problem());
            assertEquals(masterStatus(db), s.end());
            assertEquals(db.sql("SELECT @@gtid_binlog_pos").trim(), s.gtidPosition());
            List<BinlogStatus.BinlogFile> files = s.files();
            assertEquals(2, files.size(), files.toString());
            assertEquals("bin.000001", files.get(0).name());
            assertEquals(Files.size(db.dataDir().resolve("bin.000001")), files.get(0).size());
            long second = s.end().position();
            assertEquals(files.get(0).size() - 4 + second, s.bytesAfter("bin.000001", 4));
            assertEquals(second - 300, s.bytesAfter("bin.000002", 300));
            assertEquals(0, s.bytesAfter("bin.000002", second));
            assertEquals(-1, s.bytesAfter("bin.000099", 4));
            c.close();
        }
    }

    @Test
    void anAccountWithoutMonitorPrivilegesGetsTheRefusalNamed() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            db.sql("CREATE USER bare@'%' IDENTIFIED BY 'pw'; GRANT REPLICATION SLAVE ON *.* TO bare@'%';");
            try (ReplicationClient c = client(db, "bare", "pw").startPosition(StartPosition.file("bin.000001", 4))
                    .build()) {
                BinlogStatus s = c.binlogStatus();
                assertNull(s.end());
                assertTrue(s.files().isEmpty());
                assertNotNull(s.problem());
                assertTrue(s.problem().contains("SHOW MASTER STATUS"), s.problem());
                assertEquals(-1, s.bytesAfter("bin.000001", 4));
            }
            try (ReplicationClient c = client(db, "bare", "wrong").startPosition(StartPosition.file("bin.000001", 4))
                    .build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::binlogStatus);
                assertEquals(ReplicationException.Kind.AUTHENTICATION, e.kind());
            }
        }
    }
}
