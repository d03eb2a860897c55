package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Lanes;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zero dates ('0000-00-00', a zero DATETIME, a date with a zero month) logged by a MariaDB under a permissive sql_mode
 * reach a MariaDB target as they are: they were written as NULL (the ZeroDatePolicy meant for targets that cannot hold
 * them), so a MariaDB replica silently lost them. Found by the differential campaign (seed 4: DATE '0000-00-00' became
 * NULL on the MariaDB target). H2 still gets NULL by the documented policy.
 */
class ZeroDateMariaDbTargetTest {
    @TempDir
    Path temp;

    @Test
    void zeroDatesArriveAsTheyAreOnAMariaDbTarget() throws Exception {
        String db = "zd_" + ProcessHandle.current().pid();
        List<Path> files = new ArrayList<>();
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-metadata=FULL")) {
            server.sql("SET SESSION sql_mode = ''; CREATE DATABASE " + db + "; CREATE TABLE " + db + ".t (id INT PRIMARY KEY,"
                    + " d DATE, dt DATETIME(3), ok DATE);"
                    + "INSERT INTO " + db + ".t VALUES (1, '0000-00-00', '0000-00-00 00:00:00', '2020-01-02'),"
                    + " (2, '2021-00-10', '2021-03-00 10:11:12.5', NULL);"
                    + "UPDATE " + db + ".t SET ok = '1999-12-31' WHERE id = 1;");
            server.sql("FLUSH BINARY LOGS");
            for (Path p : server.binlogFiles()) {
                files.add(Files.copy(p, temp.resolve(p.getFileName())));
            }
        }
        try (TestTarget target = TestTarget.mariadb()) {
            target.dropOnClose(db);
            String ck = target.newSchema("ck");
            try (Lanes lanes = Lanes.builder().source(files).target(target.url()).targetUser("root").pipeline("zd")
                    .checkpointTable(ck, "lanes_checkpoint").workers(1).build()) {
                lanes.start();
                assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)));
                lanes.stop();
            }
            List<String> rows = new ArrayList<>();
            try (Connection c = target.connect(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT id, CAST(d AS CHAR), CAST(dt AS CHAR), CAST(ok AS CHAR) FROM `"
                            + db + "`.t ORDER BY id")) {
                while (rs.next()) {
                    rows.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4));
                }
            }
            assertEquals(List.of("1|0000-00-00|0000-00-00 00:00:00.000|1999-12-31",
                    "2|2021-00-10|2021-03-00 10:11:12.500|null"), rows);
        }
    }
}
