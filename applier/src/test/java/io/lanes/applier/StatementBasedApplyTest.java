package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.core.SequentialScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statement-based changes carry session values in INTVAR, RAND and USER_VAR events: a real MariaDB with
 * binlog_format=STATEMENT writes a log with AUTO_INCREMENT ids, LAST_INSERT_ID(), RAND() and user variables, and the
 * MariaDB target ends with the source's exact rows.
 */
class StatementBasedApplyTest {
    @TempDir
    Path temp;

    @Test
    void autoIncrementRandAndUserVariablesReachTheTargetAsOnTheSource() throws Exception {
        String db = "sbr_" + ProcessHandle.current().pid();
        List<String> source;
        List<Path> binlogs;
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-format=STATEMENT")) {
            server.sql("CREATE DATABASE " + db + "; USE " + db + ";"
                    + "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(40), r DOUBLE, ref BIGINT) ENGINE=InnoDB;"
                    + "SET @who = 'it''s me'; SET @n = 41;"
                    + "INSERT INTO t (name, r) VALUES (@who, RAND()), (CONCAT(@who, '!'), RAND());"
                    + "INSERT INTO t (name, ref) VALUES ('last', LAST_INSERT_ID());"
                    + "INSERT INTO t (name, ref) VALUES ('var', @n + 1);"
                    + "BEGIN; UPDATE t SET r = RAND(7) WHERE id = 1; INSERT INTO t (name) VALUES ('in txn'); COMMIT;");
            source = rows(DriverManager.getConnection(server.jdbcUrl(db)), Dialect.mysql(), db);
            server.sql("FLUSH BINARY LOGS");
            binlogs = new ArrayList<>();
            for (Path p : server.binlogFiles()) {
                Path copy = temp.resolve(p.getFileName());
                Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING);
                binlogs.add(copy);
            }
        }
        assertEquals(5, source.size(), source.toString());

        try (TestTarget target = TestTarget.mariadb()) {
            Dialect d = target.dialect();
            String mapped = target.newSchema("sbr");
            target.dropOnClose(mapped);
            String ckpt = target.newSchema("ckpt");
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(), FixtureApplyTest.credentials(d)), d)
                    .mapping(SchemaMapping.builder().rename(db, mapped).excludeSchemas("mysql").build())
                    .checkpointTable(new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint")).build();
            // The schema exists already on the target (newSchema): its CREATE DATABASE replays as "already done".
            FixtureApplyTest.apply(jdbc, binlogs, new SequentialScheduler(), 2);
            try (Connection c = target.session()) {
                List<String> actual = rows(c, d, mapped);
                assertEquals(source, actual);
                // LAST_INSERT_ID() after a multi-row insert is its first id, carried by the INTVAR event.
                assertEquals("3|last|null|1", actual.get(2));
                assertTrue(actual.get(0).matches("1\\|it's me\\|0\\.\\d+\\|null"), actual.get(0));
            }
        }
    }

    private static List<String> rows(Connection c, Dialect d, String schema) throws Exception {
        List<String> out = new ArrayList<>();
        try (c; Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, name, r, ref FROM " + d.qualify(schema, "t") + " ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4));
            }
        }
        return out;
    }
}
