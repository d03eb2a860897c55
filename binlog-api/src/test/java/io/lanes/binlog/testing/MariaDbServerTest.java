package io.lanes.binlog.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class MariaDbServerTest {
    @Test
    void startsWithARowBinlogRunsSqlAndSurvivesAKill() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            assertEquals("ROW", db.sql("SELECT @@binlog_format").trim());
            db.sql("CREATE DATABASE t; CREATE TABLE t.x (id INT PRIMARY KEY); INSERT INTO t.x VALUES (1),(2)");
            assertFalse(db.binlogFiles().isEmpty());
            assertTrue(Files.size(db.binlogFiles().get(0)) > 256);
            db.kill();
            assertFalse(db.isRunning());
            db.restart();
            assertEquals("2", db.sql("SELECT COUNT(*) FROM t.x").trim());
        }
    }
}
