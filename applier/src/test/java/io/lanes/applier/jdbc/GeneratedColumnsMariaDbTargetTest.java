package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Lanes;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table with VIRTUAL and STORED generated columns, logged by a real MariaDB with both metadata settings, applied into a
 * MariaDB target: the row events carry the generated columns' values, and Lanes wrote them, which MariaDB refuses
 * (error 1906, "The value specified for generated column ... has been ignored"), stopping the pipeline at the first row.
 * Found by the differential campaign (every MariaDB seed with generated columns). Now the target computes them.
 */
class GeneratedColumnsMariaDbTargetTest {
    @TempDir
    Path temp;

    @Test
    void generatedColumnsAreComputedByTheTargetNotWritten() throws Exception {
        for (String metadata : List.of("FULL", "MINIMAL")) {
            String db = "gc_" + metadata.toLowerCase() + "_" + ProcessHandle.current().pid();
            Path dir = Files.createDirectories(temp.resolve(metadata));
            List<Path> files = new ArrayList<>();
            String table = "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, n INT, v BIGINT AS (n * 2) VIRTUAL,"
                    + " s VARCHAR(20) AS (CONCAT('n=', n)) STORED, w INT)";
            try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-metadata=" + metadata)) {
                server.sql("CREATE DATABASE " + db + "; " + table + ";"
                        + "CREATE TABLE " + db + ".nokey (n INT, g INT AS (n + 1) STORED);"
                        + "INSERT INTO " + db + ".t (id, n, w) VALUES (1, 10, 0), (2, 20, 0), (3, NULL, 0);"
                        + "UPDATE " + db + ".t SET n = n + 1 WHERE id = 1; UPDATE " + db + ".t SET w = 5 WHERE id = 2;"
                        + "DELETE FROM " + db + ".t WHERE id = 3;"
                        + "INSERT INTO " + db + ".nokey (n) VALUES (1), (2); UPDATE " + db + ".nokey SET n = 7 WHERE n = 1;"
                        + "DELETE FROM " + db + ".nokey WHERE n = 2;");
                server.sql("FLUSH BINARY LOGS");
                for (Path p : server.binlogFiles()) {
                    files.add(Files.copy(p, dir.resolve(p.getFileName())));
                }
            }
            try (TestTarget target = TestTarget.mariadb()) {
                target.dropOnClose(db);
                String ck = target.newSchema("ck");
                try (Lanes lanes = Lanes.builder().source(files).target(target.url()).targetUser("root").pipeline("gc")
                        .checkpointTable(ck, "lanes_checkpoint").workers(1).build()) {
                    lanes.start();
                    assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)));
                    lanes.stop();
                }
                assertEquals(List.of("1|11|22|n=11|0", "2|20|40|n=20|5"),
                        target.rows("SELECT id, n, v, s, w FROM `" + db + "`.t ORDER BY id"), metadata);
                assertEquals(List.of("7|8"), target.rows("SELECT n, g FROM `" + db + "`.nokey"), metadata);
            }
        }
    }
}
