package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Lanes;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated columns whose expression is integer arithmetic over integer columns, logged by a real MariaDB under FULL
 * and MINIMAL row images, applied into H2 and PostgreSQL: the CREATE is translated to the target's own generated
 * column (computed in BIGINT as MySQL computes it, so n * 2 of INT's maximum is not a 32-bit overflow there), the
 * applier writes the other columns only, and each target's rows equal the source's, NULLs, duplicate keyless rows and
 * an UPDATE of one of two identical keyless rows included. Before, every such CREATE was refused.
 */
class GeneratedColumnsTranslatedTest {
    @TempDir
    Path temp;

    @Test
    void integerGenerationExpressionsAreComputedByH2AndPostgres() throws Exception {
        for (String image : List.of("FULL", "MINIMAL")) {
            String db = "gct_" + image.toLowerCase() + "_" + ProcessHandle.current().pid();
            List<Path> files;
            try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-image=" + image)) {
                server.sql("CREATE DATABASE " + db + ";"
                        + "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, n INT, v BIGINT AS (n * 2) VIRTUAL,"
                        + " s BIGINT AS ((n + 1) * (w - 2)) STORED, w SMALLINT);"
                        + "CREATE TABLE " + db + ".nokey (n INT, g BIGINT GENERATED ALWAYS AS (`n` * 2) STORED);"
                        + "INSERT INTO " + db + ".t (id, n, w) VALUES (1, 10, 0), (2, 2147483647, 7), (3, NULL, 1),"
                        + " (4, -5, NULL);"
                        + "UPDATE " + db + ".t SET n = n + 1 WHERE id = 1; UPDATE " + db + ".t SET w = 5 WHERE id = 2;"
                        + "DELETE FROM " + db + ".t WHERE id = 3;"
                        + "INSERT INTO " + db + ".nokey (n) VALUES (1), (1), (2), (NULL);"
                        + "UPDATE " + db + ".nokey SET n = 7 WHERE n = 1 LIMIT 1;"
                        + "DELETE FROM " + db + ".nokey WHERE n = 2;");
                server.sql("FLUSH BINARY LOGS");
                files = server.copyBinlogFiles(temp.resolve(image));
            }
            for (TestTarget target : List.of(TestTarget.h2(), TestTarget.postgres())) {
                try (target) {
                    target.dropOnClose(db);
                    String ck = target.newSchema("ck");
                    // H2's private in-memory database has the empty user its first connection made
                    String user = target.dialect().kind() == Dialect.Kind.POSTGRESQL ? "postgres" : null;
                    try (Lanes lanes = Lanes.builder().source(files).target(target.url()).targetUser(user)
                            .pipeline("gct").checkpointTable(ck, "lanes_checkpoint").workers(1).build()) {
                        lanes.start();
                        assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), image + " " + target);
                        lanes.stop();
                    }
                    String q = target.dialect().quoteIdentifier(db);
                    assertEquals(List.of("1|11|22|-24|0", "2|2147483647|4294967294|6442450944|5", "4|-5|-10|null|null"),
                            target.rows("SELECT id, n, v, s, w FROM " + q + ".t ORDER BY id"), image + " " + target);
                    assertEquals(List.of("1|2", "7|14", "null|null"),
                            target.rows("SELECT n, g FROM " + q + ".nokey ORDER BY n NULLS LAST"),
                            image + " " + target);
                }
            }
        }
    }
}
