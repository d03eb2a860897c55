package io.lanes.applier.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesException;
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
 * DML the source logged as SQL text (binlog_format=STATEMENT) into H2: H2 ran it as written in its MySQL mode, with its own
 * semantics, so rows could differ from the source without a word (a JSON literal became a JSON string, and the next
 * row event on that row then found nothing). Found by the differential campaign (seed 41). It is now refused as on
 * PostgreSQL, naming the position, before anything of the transaction is applied; the DDL before it still applies.
 */
class StatementDmlIntoH2Test {
    @TempDir
    Path temp;

    @Test
    void statementBasedDmlStopsTheH2PipelineNamingThePosition() throws Exception {
        String db = "sd_" + ProcessHandle.current().pid();
        List<Path> files = new ArrayList<>();
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".t (id INT PRIMARY KEY, j JSON);"
                    + "SET SESSION binlog_format = 'STATEMENT'; INSERT INTO " + db + ".t VALUES (1, '{\"a\": 1}');");
            server.sql("FLUSH BINARY LOGS");
            for (Path p : server.binlogFiles()) {
                files.add(Files.copy(p, temp.resolve(p.getFileName())));
            }
        }
        try (TestTarget target = TestTarget.h2()) {
            LanesException e;
            try (Lanes lanes = Lanes.builder().source(files).target(target.url()).pipeline("sd").workers(1).build()) {
                lanes.start();
                e = assertThrows(LanesException.class, () -> lanes.awaitCaughtUp(Duration.ofMinutes(2)));
            } catch (LanesException alsoOnClose) {
                e = alsoOnClose;
            }
            assertTrue(e.getMessage().contains("data statement (DML)") && e.getMessage().contains("bin.000001:"),
                    e.getMessage());
            try (Connection c = target.connect(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"" + db + "\".\"t\"")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the table exists (its CREATE applied), the row does not");
            }
        }
    }
}
