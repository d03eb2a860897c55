package io.lanes.applier.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.internal.DdlSyntaxException;
import io.lanes.applier.internal.DdlTranslator;
import io.lanes.applier.internal.MySqlDdl.TableName;
import io.lanes.applier.internal.MySqlDdlParser;
import io.lanes.applier.jdbc.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which generation expressions the translator keeps for H2 and PostgreSQL (integer + - * over signed integer columns
 * and literals into a signed BIGINT, every operand cast to BIGINT as MySQL computes) and that every other one is
 * refused at the offset of the token that is not kept.
 */
class GeneratedColumnTranslationTest {
    private static final DdlTranslator.TargetLookup NO_TABLES = new DdlTranslator.TargetLookup() {
        @Override
        public String primaryKeyName(TableName table) {
            return null;
        }

        @Override
        public boolean isPrimaryKeyColumn(TableName table, String column) {
            return false;
        }
    };

    private static List<String> translate(Dialect dialect, String sql) {
        return new DdlTranslator(dialect, s -> s, NO_TABLES).translate(MySqlDdlParser.parse(sql, "db", 0)).sql();
    }

    @Test
    void integerArithmeticIsTranslatedInBigint() {
        String create = "CREATE TABLE t (n INT, w SMALLINT, g BIGINT AS ((n + 1) * (w - 20)) STORED)";
        String pg = translate(Dialect.postgresql(), create).get(0);
        assertTrue(pg.contains("\"g\" bigint GENERATED ALWAYS AS ((CAST(\"n\" AS bigint) + CAST(1 AS bigint)) * "
                + "(CAST(\"w\" AS bigint) - CAST(20 AS bigint))) STORED"), pg);
        String h2 = translate(Dialect.h2(), "CREATE TABLE t (n INT, g BIGINT AS (n * 2) VIRTUAL)").get(0);
        assertTrue(h2.contains("\"g\" BIGINT GENERATED ALWAYS AS (CAST(\"n\" AS BIGINT) * CAST(2 AS BIGINT))"), h2);
    }

    @Test
    void everyOtherExpressionIsRefusedAtItsToken() {
        assertRefusedAt("CREATE TABLE t (n INT, g VARCHAR(9) AS (CONCAT('n=', n)))", "CONCAT");
        assertRefusedAt("CREATE TABLE t (n INT, g BIGINT AS (CONCAT('n=', n)))", "CONCAT");
        assertRefusedAt("CREATE TABLE t (n INT, g BIGINT AS (n / 2))", "/");
        assertRefusedAt("CREATE TABLE t (n INT UNSIGNED, g BIGINT AS (n - 1))", "n - 1");
        assertRefusedAt("CREATE TABLE t (n DECIMAL(5,2), g BIGINT AS (n * 2))", "n * 2");
        assertRefusedAt("CREATE TABLE t (n INT, g BIGINT AS (n * 2.5))", "2.5");
        assertRefusedAt("CREATE TABLE t (n INT, g BIGINT AS (n * 2), h BIGINT AS (g + 1))", "g + 1");
        assertRefusedAt("CREATE TABLE t (n INT, g BIGINT AS (m * 2))", "m * 2");
        assertRefusedAt("ALTER TABLE t ADD COLUMN g BIGINT AS (n * 2)", "n * 2");
        assertRefusedAt("ALTER TABLE t MODIFY g BIGINT AS (n * 3)", "n * 3");
    }

    private static void assertRefusedAt(String sql, String at) {
        for (Dialect d : List.of(Dialect.h2(), Dialect.postgresql())) {
            DdlSyntaxException e = assertThrows(DdlSyntaxException.class, () -> translate(d, sql), sql);
            assertTrue(e.getMessage().contains("generated column"), e.getMessage());
            assertEquals(sql.indexOf(at, sql.indexOf("AS (")), e.offset(), sql + ": " + e.getMessage());
        }
    }
}
