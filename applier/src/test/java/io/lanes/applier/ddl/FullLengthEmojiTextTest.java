package io.lanes.applier.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * A utf8mb4 CHAR(n)/VARCHAR(n) filled to its length with characters outside the BMP (emoji): MySQL counts code points, H2
 * counts UTF-16 units, so the translated H2 column VARCHAR(n) refused the row ("Value too long for column ... (8)").
 * Found by the differential campaign (seed 178: 'emoji 😀' in a VARCHAR(7)). H2 columns now have room for 2n units;
 * PostgreSQL counts code points like MySQL.
 */
class FullLengthEmojiTextTest {
    @TempDir
    Path temp;

    @Test
    void textFilledWithEmojiToItsDeclaredLengthArrives() throws Exception {
        String db = "em_" + ProcessHandle.current().pid();
        List<Path> files = new ArrayList<>();
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-metadata=FULL")) {
            server.sql("SET NAMES utf8mb4; CREATE DATABASE " + db + " CHARACTER SET utf8mb4; CREATE TABLE " + db + ".t (id INT PRIMARY KEY,"
                    + " c CHAR(3), v VARCHAR(7)); INSERT INTO " + db + ".t VALUES (1, '😀😀😀', 'emoji 😀'),"
                    + " (2, 'a😀', '😀😀😀😀😀😀😀');");
            server.sql("FLUSH BINARY LOGS");
            for (Path p : server.binlogFiles()) {
                files.add(Files.copy(p, temp.resolve(p.getFileName())));
            }
        }
        for (TestTarget target : List.of(TestTarget.h2(), TestTarget.postgres())) {
            try (target) {
                target.dropOnClose(db);
                String ck = target.newSchema("ck");
                var builder = Lanes.builder().source(files).target(target.url()).pipeline("em")
                        .checkpointTable(ck, "lanes_checkpoint").workers(1);
                if (target.dialect().kind() == Dialect.Kind.POSTGRESQL) {
                    builder.targetUser("postgres");
                }
                try (Lanes lanes = builder.build()) {
                    lanes.start();
                    assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(2)), target.toString());
                    lanes.stop();
                }
                List<String> rows = new ArrayList<>();
                try (Connection c = target.connect(); Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT id, c, v FROM " + target.dialect().qualify(db, "t")
                                + " ORDER BY id")) {
                    while (rs.next()) {
                        rows.add(rs.getInt(1) + "|" + rs.getString(2).stripTrailing() + "|" + rs.getString(3));
                    }
                }
                assertEquals(List.of("1|😀😀😀|emoji 😀", "2|a😀|😀😀😀😀😀😀😀"), rows, target.toString());
            }
        }
    }
}
