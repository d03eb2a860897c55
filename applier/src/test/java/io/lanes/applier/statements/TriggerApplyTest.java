package io.lanes.applier.statements;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.LanesStats;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.ddl.StatementPolicy;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue #18, defect 7: in a row-based log the rows a source trigger wrote are in the log, so a trigger the log creates
 * on the target must not fire again on the rows Lanes applies; in a statement-based stretch it must fire, as the
 * statement's effects are not in the log otherwise. Logs written by a real MariaDB the test starts, with an AFTER INSERT
 * trigger copying rows (sakila's film to film_text) and a BEFORE INSERT trigger setting a column to NOW() (sakila's
 * create_date).
 */
class TriggerApplyTest {
    @TempDir
    Path temp;

    private static final String SCHEMA = "USE tg; CREATE TABLE film (id INT PRIMARY KEY, title VARCHAR(20)) ENGINE=InnoDB;"
            + "CREATE TABLE film_text (id INT PRIMARY KEY, title VARCHAR(20)) ENGINE=InnoDB;"
            + "CREATE TABLE customer (id INT PRIMARY KEY, created DATETIME) ENGINE=InnoDB;"
            + "CREATE TRIGGER ins_film AFTER INSERT ON film FOR EACH ROW INSERT INTO film_text VALUES (NEW.id, NEW.title);"
            + "CREATE TRIGGER created BEFORE INSERT ON customer FOR EACH ROW SET NEW.created = NOW();";

    /** A log with the triggers, then rows logged as rows and, optionally, as statements; the source's clock fixed. */
    private List<Path> log(boolean statements) throws Exception {
        try (MariaDbServer source = MariaDbServer.startWithBinlog()) {
            source.sql("CREATE DATABASE tg");
            source.sql("FLUSH BINARY LOGS");
            source.sql(SCHEMA + "SET timestamp = 1000000000; SET SESSION binlog_format = ROW;"
                    + "INSERT INTO film VALUES (1, 'a'), (2, 'b'); INSERT INTO customer (id) VALUES (1);"
                    + (statements ? "SET timestamp = 1100000000; SET SESSION binlog_format = STATEMENT;"
                            + "INSERT INTO film VALUES (3, 'c'); INSERT INTO customer (id) VALUES (2);" : ""));
            return StatementLogs.binlogsAfterFirst(source, temp);
        }
    }

    /**
     * MariaDB, rows and statements: the guarded triggers fire for the statements only, so film_text holds every film
     * once and each created value is the source's (before the fix the triggers fired on the applied rows: film_text's
     * logged rows collided with the ones the trigger had just written).
     */
    @Test
    void onMariaDbTriggersFireForStatementsAndNeverForAppliedRows() throws Exception {
        List<Path> log = log(true);
        try (TestTarget target = TestTarget.mariadb()) {
            String tg = target.newSchema("tg");
            String ckpt = target.newSchema("ckpt");
            LanesStats stats = StatementLogs.run(StatementLogs.to(target, target.url(), ckpt).source(log).workers(2)
                    .mapping(SchemaMapping.builder().rename("tg", tg).build())).ok();
            assertEquals(0, stats.statements().triggersNotCreated());
            try (Connection c = target.session()) {
                assertEquals(List.of("1|a", "2|b", "3|c"), StatementLogs.query(c, "SELECT * FROM `" + tg
                        + "`.film_text ORDER BY id"));
                assertEquals(List.of("1|2001-09-09 01:46:40", "2|2004-11-09 11:33:20"), StatementLogs.query(c,
                        "SELECT id, created FROM `" + tg + "`.customer ORDER BY id"));
                assertEquals(List.of("2"), StatementLogs.query(c, "SELECT COUNT(*) FROM information_schema.triggers "
                        + "WHERE trigger_schema = '" + tg + "'"));
            }
        }
    }

    /** With triggers skipped, the statement-based stretch loses the trigger's effects: why guard is the default. */
    @Test
    void skippingTriggersIsRightForRowBasedLogsOnly() throws Exception {
        List<Path> log = log(true);
        try (TestTarget target = TestTarget.mariadb()) {
            String tg = target.newSchema("tg");
            String ckpt = target.newSchema("ckpt");
            LanesStats stats = StatementLogs.run(StatementLogs.to(target, target.url(), ckpt).source(log).workers(1)
                    .triggers(StatementPolicy.Triggers.SKIP).mapping(SchemaMapping.builder().rename("tg", tg).build()))
                    .ok();
            assertEquals(2, stats.statements().triggersNotCreated());
            try (Connection c = target.session()) {
                assertEquals(List.of("1|a", "2|b"), StatementLogs.query(c, "SELECT * FROM `" + tg
                        + "`.film_text ORDER BY id"), "the statement's trigger effect is missing");
            }
        }
    }

    static Stream<TestTarget> translatedTargets() {
        return Stream.of(TestTarget.h2(), TestTarget.postgres());
    }

    /**
     * H2 and PostgreSQL, rows only: the source's triggers are not created (MySQL trigger bodies do not run there),
     * counted, and the rows land exactly once (before the fix the CREATE TRIGGER stopped the apply).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("translatedTargets")
    void onH2AndPostgresTheLogsRowsLandOnce(TestTarget target) throws Exception {
        List<Path> log = log(false);
        try (target) {
            Dialect d = target.dialect();
            String tg = target.newSchema("tg");
            String ckpt = target.newSchema("ckpt");
            LanesStats stats = StatementLogs.run(StatementLogs.to(target, target.url(), ckpt).source(log).workers(2)
                    .mapping(SchemaMapping.builder().rename("tg", tg).build())).ok();
            assertEquals(2, stats.statements().triggersNotCreated(), stats.toString());
            try (Connection c = target.session()) {
                assertEquals(List.of("1|a", "2|b"), StatementLogs.query(c, "SELECT id, title FROM "
                        + d.qualify(tg, "film_text") + " ORDER BY id"));
                List<String> created = StatementLogs.query(c, "SELECT created FROM " + d.qualify(tg, "customer"));
                assertTrue(created.get(0).startsWith("2001-09-09 01:46:40"), created.toString());
            }
        }
    }
}
