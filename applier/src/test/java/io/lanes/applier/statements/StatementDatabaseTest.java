package io.lanes.applier.statements;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.LanesException;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue #18, defect 4: a statement runs in its own database (after schema mapping) or fails, never anywhere else. On a
 * MariaDB target a failed {@code USE} is only a driver warning: the statement then ran in the JDBC URL's database and
 * was checkpointed. Checked on every dialect (PostgreSQL's search_path and H2's current schema are the same kind of
 * trap) with the real statement-based fixture of the issue and a log a real MariaDB writes with binlog_format=STATEMENT.
 */
class StatementDatabaseTest {
    static final String POC = "/binlogs/mariadb-poc/domain_id_0/mariadb-repl-bin.000002.gz";

    @TempDir
    Path temp;

    /**
     * The reproduction: target URL {@code jdbc:mariadb://HOST:PORT/wrongdb}, wrongdb holding sbtest tables with
     * the ids the log updates, the fixture's statements (default database {@code sbtest-repl}, absent on the target)
     * applied with one worker. Before the fix the rows of wrongdb changed and the statements were checkpointed.
     */
    @Test
    void aStatementWhoseDatabaseIsMissingStopsInsteadOfRunningInTheUrlsDatabase() throws Exception {
        Path log = StatementLogs.prefix(temp, POC, "mariadb-repl-bin.000002", 40);
        List<String> statements = StatementLogs.statements(log);
        try (TestTarget target = TestTarget.mariadb()) {
            String wrong = target.newSchema("wrongdb");
            String ckpt = target.newSchema("ckpt");
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                for (int t = 1; t <= 5; t++) {
                    s.execute("CREATE TABLE `" + wrong + "`.sbtest" + t + " (id INT PRIMARY KEY, k INT NOT NULL, "
                            + "c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL)");
                }
                Matcher m = Pattern.compile("(?s)^(?:UPDATE|DELETE FROM) (sbtest\\d+) .*WHERE id=(\\d+)$").matcher("");
                for (String sql : statements) {
                    if (m.reset(sql).matches()) {
                        s.execute("INSERT IGNORE INTO `" + wrong + "`." + m.group(1) + " VALUES (" + m.group(2)
                                + ", 0, 'wrong', 'db')");
                    }
                }
                c.commit();
            }
            List<String> before = wrongRows(target, wrong);
            assertTrue(before.size() > 10, before.toString());

            StatementLogs.Run run = StatementLogs.run(StatementLogs.to(target, target.url() + wrong, ckpt)
                    .source(log).workers(1));

            LanesException failure = run.failed();
            assertTrue(failure.getMessage().contains("default database `sbtest-repl`"), failure.getMessage());
            assertTrue(failure.getMessage().contains("mariadb-repl-bin.000002:"), failure.getMessage());
            assertEquals(before, wrongRows(target, wrong), "no row of the URL's database may change");
            // The two account statements before it were skipped and committed; the statement itself was not.
            assertEquals(2, run.stats().transactions());
        }
    }

    /** The same fixture with its database renamed into one that exists: every statement lands there, none elsewhere. */
    @Test
    void statementsRunInTheirRenamedDatabaseWhateverTheUrlNames() throws Exception {
        Path log = StatementLogs.prefix(temp, POC, "mariadb-repl-bin.000002", 40);
        try (TestTarget target = TestTarget.mariadb()) {
            String wrong = target.newSchema("wrongdb");
            String db = target.newSchema("sbtest");
            String ckpt = target.newSchema("ckpt");
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                for (String schema : List.of(wrong, db)) {
                    for (int t = 1; t <= 5; t++) {
                        s.execute("CREATE TABLE `" + schema + "`.sbtest" + t + " (id INT PRIMARY KEY, k INT NOT NULL, "
                                + "c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL)");
                    }
                }
                c.commit();
            }
            StatementLogs.run(StatementLogs.to(target, target.url() + wrong, ckpt).source(log).workers(2)
                    .mapping(SchemaMapping.builder().rename("sbtest-repl", db).build())).ok();
            try (Connection c = target.session()) {
                int inserted = 0;
                for (int t = 1; t <= 5; t++) {
                    inserted += Integer.parseInt(StatementLogs.query(c, "SELECT COUNT(*) FROM `" + db + "`.sbtest" + t)
                            .get(0));
                    assertEquals(List.of("0"), StatementLogs.query(c, "SELECT COUNT(*) FROM `" + wrong + "`.sbtest" + t));
                }
                long inserts = StatementLogs.statements(log).stream().filter(q -> q.startsWith("INSERT")).count();
                long deletes = StatementLogs.statements(log).stream().filter(q -> q.startsWith("DELETE")).count();
                assertTrue(inserts > 0);
                // sysbench deletes a row and inserts it again: each insert of the log leaves its row unless a later
                // delete of the log removed it
                assertTrue(inserted >= inserts - deletes && inserted <= inserts, inserted + " rows");
            }
        }
    }

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    /**
     * A log a real MariaDB writes with binlog_format=STATEMENT, read after its CREATE DATABASE: on a target without the
     * statement's database (renamed to one that does not exist), the CREATE TABLE stops, naming the position, and nothing
     * is created in the URL's database (MariaDB), the search path's schema (PostgreSQL) or the session's schema (H2).
     * Once the database exists, the same log applies exactly.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void everyDialectRunsAStatementInItsOwnDatabaseOrNotAtAll(TestTarget target) throws Exception {
        List<Path> log;
        try (MariaDbServer source = MariaDbServer.startWithBinlog("--binlog-format=STATEMENT")) {
            source.sql("CREATE DATABASE d");
            source.sql("FLUSH BINARY LOGS");
            source.sql("USE d; CREATE TABLE t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB; INSERT INTO t VALUES (1, 10);"
                    + " UPDATE t SET v = v + 1 WHERE id = 1;");
            log = StatementLogs.binlogsAfterFirst(source, temp);
        }
        try (target) {
            Dialect d = target.dialect();
            String missing = "lt_" + ProcessHandle.current().pid() + "_missing_" + Long.toHexString(System.nanoTime());
            String url = target.dialect().kind() == Dialect.Kind.MYSQL ? target.url() + target.newSchema("urldb")
                    : target.url();
            String ckpt = target.newSchema("ckpt");
            SchemaMapping mapping = SchemaMapping.builder().rename("d", missing).build();

            StatementLogs.Run refused = StatementLogs.run(StatementLogs.to(target, url, ckpt).source(log).workers(1)
                    .mapping(mapping));
            LanesException failure = refused.failed();
            assertTrue(failure.getMessage().contains("CREATE TABLE t"), failure.getMessage());
            assertTrue(failure.position() != null && failure.position().startsWith("bin.000002:"), failure.position());
            try (Connection c = target.connect()) {
                // where a statement without its database could land: the URL's database (MariaDB), the search path's
                // first schema (PostgreSQL), the session's schema (H2), or the missing one
                String places = d.kind() == Dialect.Kind.MYSQL ? "'" + url.substring(url.lastIndexOf('/') + 1) + "'"
                        : "'public', 'PUBLIC'";
                assertEquals(List.of(), StatementLogs.query(c, "SELECT table_schema FROM information_schema.tables "
                        + "WHERE table_name IN ('t', 'T') AND table_schema IN (" + places + ", '" + missing + "')"),
                        "table t created somewhere");
            }

            target.createSchema(missing);
            StatementLogs.Run again = StatementLogs.run(StatementLogs.to(target, url, ckpt).source(log).workers(1)
                    .mapping(mapping));
            try (Connection c = target.connect()) {
                if (d.kind() != Dialect.Kind.MYSQL) {
                    // PostgreSQL and H2 run no MySQL DML text: the table is created where it belongs, the INSERT stops.
                    assertTrue(again.failed().getMessage().contains("INSERT INTO t"), again.failure().getMessage());
                    assertEquals(List.of("0"), StatementLogs.query(c, "SELECT COUNT(*) FROM " + d.qualify(missing, "t")));
                } else {
                    again.ok();
                    assertEquals(List.of("1|11"), StatementLogs.query(c, "SELECT id, v FROM " + d.qualify(missing, "t")));
                }
            }
        }
    }

    private static List<String> wrongRows(TestTarget target, String wrong) throws Exception {
        List<String> rows = new java.util.ArrayList<>();
        try (Connection c = target.session()) {
            for (int t = 1; t <= 5; t++) {
                rows.addAll(StatementLogs.query(c, "SELECT 'sbtest" + t + "', id, k, c, pad FROM `" + wrong + "`.sbtest"
                        + t + " ORDER BY id"));
            }
        }
        return rows;
    }
}
