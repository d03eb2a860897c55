package io.lanes.applier.statements;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.LanesStats;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.ddl.DdlHandler;
import io.lanes.applier.ddl.SessionVariables;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.ddl.StatementPolicy;
import io.lanes.applier.ddl.UnsupportedDdlException;
import io.lanes.applier.jdbc.CollationMap;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.TargetCatalog;
import io.lanes.applier.testing.TestTarget;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue #18, defect 6: MySQL 8 logs into MariaDB. Every MySQL 8 statement carries collation_connection and
 * collation_server 255 ({@code utf8mb4_0900_ai_ci}), which MariaDB does not have: before the fix every statement failed
 * with {@code Unknown collation: '255'}. Real MySQL 8.0 logs (rust_mysql_common's fixtures; their tables live in the
 * source's {@code mysql} schema, renamed here, and each starts with an account statement, skipped) apply into MariaDB and
 * PostgreSQL; the COLLATE clauses of a statement's text follow the documented table, or the user's map.
 */
class MySql8CollationTest {
    @TempDir
    Path temp;

    static Stream<Arguments> logs() {
        return Stream.of(
                Arguments.of("mysql-enum-string-set.000001", "t", "0", TestTarget.mariadb()),
                Arguments.of("binlog-invisible-columns.000001", "t1", "2", TestTarget.mariadb()),
                Arguments.of("mysql_type_bit.000001", "foo", "1", TestTarget.mariadb()),
                Arguments.of("mysql-enum-string-set.000001", "t", "0", TestTarget.postgres()),
                Arguments.of("mysql_type_bit.000001", "foo", "1", TestTarget.postgres()));
    }

    @ParameterizedTest(name = "{0} into {3}")
    @MethodSource("logs")
    void mysql8LogsApply(String file, String table, String rows, TestTarget target) throws Exception {
        Path log = StatementLogs.fixture(temp, "/binlogs/rust_mysql_common/" + file, file);
        try (target) {
            Dialect d = target.dialect();
            String db = target.newSchema("mysql8");
            String ckpt = target.newSchema("ckpt");
            LanesStats stats = StatementLogs.run(StatementLogs.to(target, target.url(), ckpt).source(log).workers(1)
                    .mapping(SchemaMapping.builder().rename("mysql", db).build())).ok();
            assertEquals(1, stats.statements().accountStatementsSkipped(), "ALTER USER 'root'@'localhost'");
            try (Connection c = target.session()) {
                assertEquals(List.of(rows), StatementLogs.query(c, "SELECT COUNT(*) FROM " + d.qualify(db, table)));
            }
        }
    }

    private static SourceStatement mysql8(String sql, String db) {
        // as MySQL 8 logs a statement: collation_connection and collation_server utf8mb4_0900_ai_ci
        return new SourceStatement(sql, db, 0, 255, 255, Instant.parse("2024-01-01T00:00:00Z"), null, "mysql-bin.000001:4",
                SessionVariables.NONE);
    }

    @Test
    void collateClausesFollowTheTableOrTheUsersMap() throws Exception {
        try (TestTarget target = TestTarget.mariadb()) {
            String db = target.newSchema("coll");
            SchemaMapping mapping = SchemaMapping.identity();
            DdlHandler defaults = DdlHandler.forDialect(Dialect.mysql(), mapping, new TargetCatalog(Dialect.mysql()));
            DdlHandler mapped = DdlHandler.forDialect(Dialect.mysql(), mapping, new TargetCatalog(Dialect.mysql()),
                    new StatementPolicy(StatementPolicy.Triggers.GUARD,
                            CollationMap.parse(List.of("utf8mb4_0900_ai_ci=utf8mb4_unicode_520_ci")), "lanes"));
            try (Connection c = target.session()) {
                defaults.apply(c, mysql8("CREATE TABLE t (a VARCHAR(10) COLLATE utf8mb4_0900_ai_ci, "
                        + "b VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs, c VARCHAR(10), "
                        + "d VARCHAR(10) COLLATE utf8mb4_sv_0900_ai_ci) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin",
                        db));
                mapped.apply(c, mysql8("CREATE TABLE u (a VARCHAR(10) COLLATE 'utf8mb4_0900_ai_ci')", db));
                assertEquals(List.of("a|utf8mb4_uca1400_nopad_ai_ci", "b|utf8mb4_uca1400_nopad_as_cs",
                        "c|utf8mb4_nopad_bin", "d|utf8mb4_uca1400_swedish_nopad_ai_ci"), StatementLogs.query(c,
                        "SELECT column_name, collation_name FROM information_schema.columns WHERE table_schema = '" + db
                                + "' AND table_name = 't' ORDER BY column_name"));
                assertEquals(List.of("a|utf8mb4_unicode_520_ci"), StatementLogs.query(c, "SELECT column_name, "
                        + "collation_name FROM information_schema.columns WHERE table_schema = '" + db
                        + "' AND table_name = 'u'"));
                UnsupportedDdlException e = assertThrows(UnsupportedDdlException.class, () -> defaults.apply(c,
                        mysql8("CREATE TABLE v (a VARCHAR(10) CHARACTER SET gb18030 COLLATE gb18030_chinese_ci)", db)));
                assertTrue(e.getMessage().contains("gb18030_chinese_ci") && e.getMessage().contains("collation-map")
                        && e.getMessage().contains("mysql-bin.000001:4"), e.getMessage());
            }
        }
    }

    @Test
    void theDefaultTableNamesTheNearestCollationMariaDbHas() {
        assertEquals(List.of("utf8mb4_uca1400_nopad_ai_ci", "utf8mb4_unicode_520_nopad_ci", "utf8mb4_unicode_520_ci",
                "utf8mb4_unicode_ci"), CollationMap.defaultCandidates("utf8mb4_0900_ai_ci"));
        assertEquals("utf8mb4_0900_ai_ci", CollationMap.mysqlOnlyName(255));
        assertEquals("utf8mb4_mn_cyrl_0900_as_cs", CollationMap.mysqlOnlyName(323));
        assertEquals("utf8mb4_0900_bin", CollationMap.mysqlOnlyName(309));
        assertEquals(List.of(), CollationMap.defaultCandidates("gb18030_chinese_ci"));
    }
}
