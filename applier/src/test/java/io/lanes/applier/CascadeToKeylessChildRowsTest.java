package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.core.CommitOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Campaign seed 14161 (docs/reliability.md): with binlog_row_image=MINIMAL an UPDATE of a child row carries only the
 * child's primary key, so the writeset scheduler cannot give it its parent's key, and a later DELETE of that parent,
 * which the target cascades to the child row (the source's cascade is not logged), shares no key with it. Without a
 * commit order the DELETE committed first and the UPDATE found no row: the pipeline stopped at the first round. The
 * parent's DELETE now starts after every transaction before it. Each round here makes the race likely: a long
 * transaction that ends with the child's UPDATE, then the parent's DELETE, then both put back. Logged by a real MariaDB,
 * applied with 8 workers into PostgreSQL and H2, under no commit order and under the default.
 */
class CascadeToKeylessChildRowsTest {
    @TempDir
    Path temp;

    @Test
    void aParentsCascadingDeleteWaitsForEarlierChildRowsWithoutTheirParentKey() throws Exception {
        String db = "casc_" + ProcessHandle.current().pid();
        List<Path> files;
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-image=MINIMAL")) {
            StringBuilder sql = new StringBuilder("CREATE DATABASE " + db + "; USE " + db + ";"
                    + "CREATE TABLE parent (id INT PRIMARY KEY, name VARCHAR(20)) ENGINE=InnoDB;"
                    + "CREATE TABLE child (id INT PRIMARY KEY, pid INT NULL, n INT NOT NULL, KEY (pid),"
                    + " CONSTRAINT fk FOREIGN KEY (pid) REFERENCES parent (id) ON DELETE CASCADE ON UPDATE CASCADE)"
                    + " ENGINE=InnoDB;"
                    + "CREATE TABLE other (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB;"
                    + "INSERT INTO parent VALUES (7, 'p7'), (8, 'p8');"
                    + "INSERT INTO child VALUES (4, 7, 0), (5, 8, 0);"
                    + "INSERT INTO other SELECT seq, 0 FROM seq_1_to_5000;");
            for (int round = 0; round < 6; round++) {
                sql.append("BEGIN; UPDATE other SET v = v + 1; UPDATE child SET n = n + 1 WHERE id = 4; COMMIT;"
                        + "DELETE FROM parent WHERE id = 7; INSERT INTO parent VALUES (7, 'p7');"
                        + "INSERT INTO child VALUES (4, 7, 0);"
                        // the same through ON UPDATE CASCADE: the parent's key changes under a child row changed before
                        + "BEGIN; UPDATE other SET v = v + 1; UPDATE child SET n = n + 1 WHERE id = 5; COMMIT;"
                        + "UPDATE parent SET id = 9 WHERE id = 8; UPDATE parent SET id = 8 WHERE id = 9;");
            }
            server.sql(sql.toString());
            server.sql("FLUSH BINARY LOGS");
            files = server.copyBinlogFiles(temp.resolve("log"));
        }
        for (CommitOrder order : List.of(CommitOrder.NONE, CommitOrder.PER_PARTITION)) {
            for (TestTarget target : List.of(TestTarget.postgres(), TestTarget.h2())) {
                try (target) {
                    target.dropOnClose(db);
                    String ck = target.newSchema("ck");
                    String user = target.dialect().kind() == Dialect.Kind.POSTGRESQL ? "postgres" : null;
                    try (Lanes lanes = Lanes.builder().source(files).target(target.url()).targetUser(user)
                            .pipeline("casc").checkpointTable(ck, "lanes_checkpoint").scheduler("writeset").workers(8)
                            .commitOrder(order).build()) {
                        lanes.start();
                        assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), order + " " + target);
                        lanes.stop();
                    }
                    String q = target.dialect().quoteIdentifier(db);
                    assertEquals(List.of("4|7|0", "5|8|6"), target.rows("SELECT id, pid, n FROM " + q + ".child ORDER BY id"),
                            order + " " + target);
                    assertEquals(List.of("60000"), target.rows("SELECT SUM(v) FROM " + q + ".other"), order + " " + target);
                }
            }
        }
    }
}
