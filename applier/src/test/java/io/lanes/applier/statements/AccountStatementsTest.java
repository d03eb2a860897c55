package io.lanes.applier.statements;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesBuilder;
import io.lanes.applier.LanesException;
import io.lanes.applier.LanesStats;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.testing.CapturedOutput;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #18, defect 5: account management in the log never runs on a target unless asked for, and the schema filters
 * apply to every statement. The real fixture's {@code ALTER USER 'repl'@'%' IDENTIFIED BY ...} changed the target's
 * password although a schema include filter was set. The target here is a MariaDB of this test's own (its accounts are
 * the test's to change).
 */
class AccountStatementsTest {
    private static final String SECRET = "zk<9ZL)lpRoe452n"; // the fixture's throwaway password

    @TempDir
    Path temp;

    static MariaDbServer target;

    @BeforeAll
    static void startTarget() {
        target = MariaDbServer.start(List.of("--innodb-flush-log-at-trx-commit=0"));
    }

    @AfterAll
    static void stopTarget() {
        target.close();
    }

    private static String url(String db) {
        return "jdbc:mariadb://127.0.0.1:" + target.port() + "/" + db;
    }

    /** The fixture's first 6 transactions (ALTER USER, GRANT, then sysbench statements) into a fresh database. */
    private LanesBuilder poc(String db, String ckpt) throws Exception {
        Path log = StatementLogs.prefix(temp, StatementDatabaseTest.POC, "mariadb-repl-bin.000002", 6);
        target.sql("CREATE DATABASE " + db + "; CREATE DATABASE " + ckpt + ";"
                + "CREATE TABLE " + db + ".sbtest1 (id INT PRIMARY KEY, k INT, c CHAR(120), pad CHAR(60));"
                + "CREATE TABLE " + db + ".sbtest2 LIKE " + db + ".sbtest1;"
                + "CREATE TABLE " + db + ".sbtest3 LIKE " + db + ".sbtest1;"
                + "CREATE TABLE " + db + ".sbtest4 LIKE " + db + ".sbtest1;"
                + "CREATE TABLE " + db + ".sbtest5 LIKE " + db + ".sbtest1;");
        return Lanes.builder().source(log).target(url("")).targetUser("root").workers(2)
                .checkpointTable(ckpt, "lanes_checkpoint")
                .mapping(SchemaMapping.builder().rename("sbtest-repl", db).includeSchemas("sbtest-repl").build());
    }

    private static String password() {
        return target.sql("SELECT authentication_string FROM mysql.user WHERE user = 'repl' AND host = '%'").trim();
    }

    @Test
    void accountStatementsAreSkippedLoggedWithoutTheirSecretAndCounted() throws Exception {
        target.sql("DROP USER IF EXISTS 'repl'@'%'; CREATE USER 'repl'@'%' IDENTIFIED BY 'set by the test'");
        String before = password();
        CapturedOutput out = new CapturedOutput();
        StatementLogs.Run run;
        out.start();
        try {
            run = StatementLogs.run(poc("acct_skip", "acct_skip_ckpt"));
        } finally {
            out.stop();
        }
        LanesStats stats = run.ok();
        assertEquals(before, password(), "the target's password must not change");
        assertFalse(target.sql("SHOW GRANTS FOR 'repl'@'%'").contains("REPLICATION"), "the GRANT must not run");
        assertEquals(2, stats.statements().accountStatementsSkipped(), stats.toString());
        assertEquals(6, stats.transactions());
        assertTrue(out.text().contains("ALTER USER 'repl'@'%' IDENTIFIED BY '<redacted>'"), out.text());
        assertTrue(out.text().contains("mariadb-repl-bin.000002:522"), "the position is named");
        assertFalse(out.text().contains(SECRET), "the password was logged");
        assertFalse(out.text().contains(SECRET.substring(0, 8)), "part of the password was logged");
        // the sysbench statements of the included schema were applied
        assertNotEquals("0", target.sql("SELECT (SELECT COUNT(*) FROM acct_skip.sbtest1) + (SELECT COUNT(*) FROM "
                + "acct_skip.sbtest2) + (SELECT COUNT(*) FROM acct_skip.sbtest3) + (SELECT COUNT(*) FROM acct_skip.sbtest4)"
                + " + (SELECT COUNT(*) FROM acct_skip.sbtest5)").trim());
    }

    @Test
    void accountStatementsRunOnlyWhenAskedFor() throws Exception {
        target.sql("DROP USER IF EXISTS 'repl'@'%'; CREATE USER 'repl'@'%' IDENTIFIED BY 'set by the test'");
        String before = password();
        LanesStats stats = StatementLogs.run(poc("acct_apply", "acct_apply_ckpt").applyAccountStatements(true)).ok();
        assertEquals(0, stats.statements().accountStatementsSkipped());
        assertNotEquals(before, password(), "asked for: the log's ALTER USER ran");
        assertTrue(target.sql("SHOW GRANTS FOR 'repl'@'%'").contains("REPLICATION"), "asked for: the GRANT ran");
    }

    /**
     * A log a real MariaDB writes with binlog_format=STATEMENT. With {@code include a}: a statement in b is filtered
     * (counted), DDL qualifying b's table from a session in a is b's, and a statement that reads a and writes b cannot be
     * applied in part: the pipeline stops at it naming both, having applied what came before. (So does any statement
     * other than DDL the parser reads whose default database is a and which names b: its default database may resolve
     * a function or table the reader cannot see.)
     */
    @Test
    void schemaFiltersApplyToEveryStatement() throws Exception {
        List<Path> log;
        try (MariaDbServer source = MariaDbServer.startWithBinlog("--binlog-format=STATEMENT")) {
            source.sql("CREATE DATABASE a; CREATE DATABASE b;");
            source.sql("FLUSH BINARY LOGS");
            source.sql("USE a; CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB; CREATE TABLE b.t (id INT PRIMARY KEY) "
                    + "ENGINE=InnoDB; INSERT INTO t VALUES (1);"
                    + "USE b; INSERT INTO t VALUES (10), (11);"
                    + "USE a; INSERT INTO a.t VALUES (2); INSERT INTO b.t SELECT id + 100 FROM a.t;"
                    + "INSERT INTO a.t VALUES (3);");
            log = StatementLogs.binlogsAfterFirst(source, temp);
        }
        target.sql("CREATE DATABASE filt_a; CREATE DATABASE filt_b; CREATE DATABASE filt_ckpt;");
        SchemaMapping mapping = SchemaMapping.builder().rename("a", "filt_a").rename("b", "filt_b").includeSchemas("a")
                .build();
        StatementLogs.Run run = StatementLogs.run(Lanes.builder().source(log).target(url("")).targetUser("root")
                .workers(1).checkpointTable("filt_ckpt", "lanes_checkpoint").mapping(mapping));
        LanesException failure = run.failed();
        assertTrue(failure.getMessage().contains("include (a)") && failure.getMessage().contains("exclude (b)"),
                failure.getMessage());
        assertTrue(failure.getMessage().contains("INSERT INTO b.t SELECT"), failure.getMessage());
        assertEquals(List.of("1", "2"), List.of(target.sql("SELECT id FROM filt_a.t ORDER BY id").trim().split("\n")));
        assertEquals("0", target.sql("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'filt_b'")
                .trim(), "nothing of b");
        // CREATE TABLE b.t (from a session in a), INSERT INTO t (in b)
        assertEquals(2, run.stats().statements().statementsFiltered(), run.stats().toString());
    }
}
