package io.lanes.applier.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lanes.applier.Lanes;
import io.lanes.applier.jdbc.Dialect;
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
 * A row-based MariaDB log keeps a transaction's SAVEPOINT statement (the rows rolled back to it are cut from the log, the
 * statement stays): PostgreSQL stopped on it ("not a DDL statement Lanes translates"), so any transaction with a
 * savepoint stopped the pipeline. Found by the differential campaign (CampaignTest, every PostgreSQL seed with a
 * savepoint). Now the savepoint runs in the target's transaction and the target ends with the source's rows.
 */
class SavepointApplyTest {
    @TempDir
    Path temp;

    @Test
    void aTransactionWithSavepointsArrivesAsOnTheSource() throws Exception {
        String db = "sp_" + ProcessHandle.current().pid();
        List<Path> files = new ArrayList<>();
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(10));"
                    + "BEGIN; INSERT INTO " + db + ".t VALUES (1, 'kept'); SAVEPOINT `sp one`;"
                    + " INSERT INTO " + db + ".t VALUES (2, 'undone'); ROLLBACK TO SAVEPOINT `sp one`;"
                    + " SAVEPOINT sp2; UPDATE " + db + ".t SET v = 'changed' WHERE id = 1; RELEASE SAVEPOINT sp2;"
                    + " INSERT INTO " + db + ".t VALUES (3, 'after'); COMMIT;");
            String log = server.sql("SHOW BINLOG EVENTS");
            assertEquals(true, log.contains("SAVEPOINT"), "the log keeps the SAVEPOINT statement: " + log);
            server.sql("FLUSH BINARY LOGS");
            for (Path p : server.binlogFiles()) {
                files.add(Files.copy(p, temp.resolve(p.getFileName())));
            }
        }
        for (TestTarget target : List.of(TestTarget.postgres(), TestTarget.h2())) {
            try (target) {
                target.dropOnClose(db);
                String ck = target.newSchema("ck");
                var builder = Lanes.builder().source(files).target(target.url()).pipeline("sp")
                        .checkpointTable(ck, "lanes_checkpoint").workers(1);
                if (target.dialect().kind() == Dialect.Kind.POSTGRESQL) {
                    builder.targetUser("postgres");
                }
                try (Lanes lanes = builder.build()) {
                    lanes.start();
                    assertEquals(true, lanes.awaitCaughtUp(Duration.ofMinutes(2)));
                    lanes.stop();
                }
                List<String> rows = new ArrayList<>();
                try (Connection c = target.connect(); Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT id, v FROM " + target.dialect().qualify(db, "t")
                                + " ORDER BY id")) {
                    while (rs.next()) {
                        rows.add(rs.getInt(1) + "=" + rs.getString(2));
                    }
                }
                assertEquals(List.of("1=changed", "3=after"), rows, target.toString());
            }
        }
    }
}
