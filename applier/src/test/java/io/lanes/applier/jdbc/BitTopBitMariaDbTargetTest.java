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
 * A BIT(64) value with the top bit set in a table without a key, updated and deleted on the source: a MySQL/MariaDB
 * target finds the row by all its values, and the BIT value was bound as a negative long, which MariaDB stores right but
 * never finds equal to the column ("UPDATE ... matched no row on the target"). Found by the differential campaign
 * (seed 13, BIT(64) in a keyless table). Now bound as its unsigned value.
 */
class BitTopBitMariaDbTargetTest {
    @TempDir
    Path temp;

    @Test
    void aKeylessRowWithTheTopBitOfABit64IsFoundAgain() throws Exception {
        for (String metadata : List.of("FULL", "MINIMAL")) {
            String db = "bt_" + metadata.toLowerCase() + "_" + ProcessHandle.current().pid();
            Path dir = Files.createDirectories(temp.resolve(metadata));
            List<Path> files = new ArrayList<>();
            try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-metadata=" + metadata)) {
                server.sql("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".t (n INT, b BIT(64), s BIT(5));"
                        + "INSERT INTO " + db + ".t VALUES (1, b'1" + "0".repeat(62) + "1', b'10001'),"
                        + " (2, 18446744073709551615, b'11111'), (3, 5, b'00001');"
                        + "UPDATE " + db + ".t SET n = 10 WHERE n = 1; DELETE FROM " + db + ".t WHERE n = 2;");
                server.sql("FLUSH BINARY LOGS");
                for (Path p : server.binlogFiles()) {
                    files.add(Files.copy(p, dir.resolve(p.getFileName())));
                }
            }
            try (TestTarget target = TestTarget.mariadb()) {
                target.dropOnClose(db);
                String ck = target.newSchema("ck");
                try (Lanes lanes = Lanes.builder().source(files).target(target.url()).targetUser("root").pipeline("bt")
                        .checkpointTable(ck, "lanes_checkpoint").workers(1).build()) {
                    lanes.start();
                    assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), metadata);
                    lanes.stop();
                }
                List<String> rows = new ArrayList<>();
                try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                        "SELECT n, CAST(b AS UNSIGNED), CAST(s AS UNSIGNED) FROM `" + db + "`.t ORDER BY n")) {
                    while (rs.next()) {
                        rows.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
                    }
                }
                assertEquals(List.of("3|5|1", "10|9223372036854775809|17"), rows, metadata);
            }
        }
    }
}
