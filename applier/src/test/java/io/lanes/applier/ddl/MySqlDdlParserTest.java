package io.lanes.applier.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.internal.DdlSyntaxException;
import io.lanes.applier.internal.MySqlDdl;
import io.lanes.applier.internal.MySqlDdl.Column;
import io.lanes.applier.internal.MySqlDdl.CreateTable;
import io.lanes.applier.internal.MySqlDdl.TableName;
import io.lanes.applier.internal.MySqlDdlParser;
import io.lanes.applier.internal.MySqlTokenizer;
import io.lanes.applier.internal.SqlToken;
import java.util.List;
import org.junit.jupiter.api.Test;

class MySqlDdlParserTest {

    @Test
    void tokenizerHandlesQuotingEscapesCommentsAndExecutableComments() {
        List<SqlToken> t = MySqlTokenizer.tokenize("CREATE /* no */ TABLE `a``b` (x INT) /*!50100 ENGINE=InnoDB */ -- c\n"
                + "COMMENT 'it''s \\n' # end", false, true);
        List<String> texts = t.stream().map(SqlToken::text).toList();
        assertEquals(List.of("CREATE", "TABLE", "a`b", "(", "x", "INT", ")", "ENGINE", "=", "InnoDB", "COMMENT", "it's \n", ""),
                texts);
        assertEquals(SqlToken.Type.QUOTED_IDENTIFIER, t.get(2).type());
        List<SqlToken> ansi = MySqlTokenizer.tokenize("\"x\"\"y\" 'a\\b'", true, false);
        assertEquals(SqlToken.Type.QUOTED_IDENTIFIER, ansi.get(0).type());
        assertEquals("x\"y", ansi.get(0).text());
        assertEquals("a\\b", ansi.get(1).text(), "NO_BACKSLASH_ESCAPES keeps the backslash");
    }

    @Test
    void parsesTheFixtureCustomersTable() {
        String sql = "CREATE TABLE customers (id INT UNSIGNED PRIMARY KEY AUTO_INCREMENT, email VARCHAR(190) NOT NULL UNIQUE, "
                + "name VARCHAR(100) CHARACTER SET utf8mb4, created DATETIME(6) NOT NULL, balance DECIMAL(12,2) DEFAULT 0, "
                + "tags SET('a','b','c'), tier ENUM('free','pro','ent'), flags BIT(5), doc JSON)";
        CreateTable c = (CreateTable) MySqlDdlParser.parse(sql, "shop", 0);
        assertEquals(new TableName("shop", "customers"), c.table());
        Column id = c.columns().get(0);
        assertTrue(id.primaryKey() && id.autoIncrement() && id.type().unsigned());
        assertTrue(c.columns().get(1).unique());
        assertEquals(Boolean.FALSE, c.columns().get(1).nullable());
        assertEquals(List.of("12", "2"), c.columns().get(4).type().params());
        assertEquals(new MySqlDdl.DefaultValue(MySqlDdl.DefaultValue.Kind.NUMBER, "0"), c.columns().get(4).defaultValue());
        assertEquals(List.of("a", "b", "c"), c.columns().get(5).type().params());
    }

    @Test
    void unqualifiedTableWithoutDefaultDatabaseIsAClearError() {
        DdlSyntaxException e = assertThrows(DdlSyntaxException.class,
                () -> MySqlDdlParser.parse("CREATE TABLE t (a INT)", null, 0));
        assertTrue(e.getMessage().contains("no default database"), e.getMessage());
    }

    @Test
    void statementsNotTranslatedAreRefusedWholeNotHalfParsed() {
        for (String sql : List.of("CREATE VIEW v AS SELECT 1",
                "CREATE TABLE t2 AS SELECT * FROM t", "GRANT ALL ON *.* TO x", "ALTER TABLE t ADD (a INT, b INT)",
                "CREATE TABLE t (a INT) garbage (", "INSERT INTO t VALUES (1)")) {
            assertThrows(DdlSyntaxException.class, () -> MySqlDdlParser.parse(sql, "db", 0), sql);
        }
    }

    @Test
    void aGeneratedColumnKeepsItsExpressionsTokensForTheTranslatorToJudge() {
        MySqlDdl.CreateTable c = (MySqlDdl.CreateTable) MySqlDdlParser.parse(
                "CREATE TABLE t (a INT, b BIGINT GENERATED ALWAYS AS ((a + 1) * 2) STORED NOT NULL)", "db", 0);
        MySqlDdl.Column b = c.columns().get(1);
        assertTrue(b.generated());
        assertEquals(Boolean.FALSE, b.nullable());
        assertEquals(List.of("(", "a", "+", "1", ")", "*", "2"),
                b.generation().stream().map(io.lanes.applier.internal.SqlToken::text).toList());
        assertEquals(null, c.columns().get(0).generation());
    }

    @Test
    void alterTableOperations() {
        MySqlDdl.AlterTable a = (MySqlDdl.AlterTable) MySqlDdlParser.parse("ALTER TABLE orders ADD COLUMN note VARCHAR(20) "
                + "DEFAULT 'n/a' AFTER total, DROP INDEX ix, MODIFY c INT NOT NULL, CHANGE d e BIGINT, ENGINE=InnoDB, "
                + "ALGORITHM=INPLACE, RENAME TO o2", "shop", 0);
        assertEquals(7, a.ops().size());
        assertEquals("total", ((MySqlDdl.AddColumn) a.ops().get(0)).after());
        assertEquals("d", ((MySqlDdl.ModifyColumn) a.ops().get(3)).oldName());
        assertTrue(a.ops().get(4) instanceof MySqlDdl.Ignored);
        assertFalse(a.ops().get(6) instanceof MySqlDdl.Ignored);
    }
}
