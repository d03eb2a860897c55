package io.lanes.applier.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lanes.applier.internal.SqlScript;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The script splitter the schema file goes through: delimiters, quotes, comments, USE. */
class SqlScriptTest {
    @Test
    void splitsAsTheCommandLineClientDoes() {
        String script = """
                -- a comment; not a statement
                /*!40101 SET @x = 1 */;
                CREATE TABLE `a;b` (c VARCHAR(3) DEFAULT 'x;y', d INT COMMENT "q\\";") ;
                # another; comment
                DELIMITER ;;
                CREATE TRIGGER t BEFORE INSERT ON x FOR EACH ROW BEGIN SET @a = 1; SET @b = 2; END ;;
                DELIMITER ;
                USE `we``ird`;
                /* multi
                   line; */ DROP TABLE y
                """;
        List<SqlScript.Statement> s = SqlScript.split(script);
        assertEquals(List.of("/*!40101 SET @x = 1 */",
                "CREATE TABLE `a;b` (c VARCHAR(3) DEFAULT 'x;y', d INT COMMENT \"q\\\";\")",
                "CREATE TRIGGER t BEFORE INSERT ON x FOR EACH ROW BEGIN SET @a = 1; SET @b = 2; END",
                "USE `we``ird`",
                "/* multi\n   line; */ DROP TABLE y"), s.stream().map(SqlScript.Statement::sql).toList());
        assertEquals(List.of(2, 3, 6, 8, 9), s.stream().map(SqlScript.Statement::line).toList());
        assertEquals("we`ird", SqlScript.useDatabase(s.get(3).sql()));
        assertEquals("plain", SqlScript.useDatabase("use plain"));
        assertNull(SqlScript.useDatabase("USER_VAR"));
        assertNull(SqlScript.useDatabase(s.get(1).sql()));
    }

    @Test
    void onlyStatementsThatMayDefineTablesAreParsed() {
        assertEquals(true, SchemaHistory.mayDefine("  /* c */ create table t (a int)"));
        assertEquals(true, SchemaHistory.mayDefine("-- x\nALTER TABLE t DROP a"));
        assertEquals(true, SchemaHistory.mayDefine("/*!40000 ALTER TABLE t DISABLE KEYS */"));
        assertEquals(true, SchemaHistory.mayDefine("RENAME TABLE a TO b"));
        assertEquals(true, SchemaHistory.mayDefine("drop\ttable t"));
        assertEquals(false, SchemaHistory.mayDefine("INSERT INTO t VALUES (1)"));
        assertEquals(false, SchemaHistory.mayDefine("CREATED_AT = 1"));
        assertEquals(false, SchemaHistory.mayDefine("DROP_X"));
        assertEquals(false, SchemaHistory.mayDefine("/* unterminated"));
        assertEquals(false, SchemaHistory.mayDefine(""));
    }

    @Test
    void floatWithADoublesPrecisionIsADouble() {
        SchemaHistory h = new SchemaHistory();
        h.apply("CREATE TABLE t (a FLOAT(30), b FLOAT(10), c FLOAT(7,2), d REAL, e NUMERIC(5,2), f BOOL)", "db", 0,
                "f:1");
        assertEquals(List.of("double", "float", "float", "double", "decimal", "tinyint"),
                h.table("db", "t").columns().stream().map(SourceColumn::type).toList());
    }
}
