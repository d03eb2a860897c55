package io.lanes.applier.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The schema history's DDL following and its text form. */
class SchemaHistoryTest {
    private static List<String> names(SchemaHistory h, String schema, String table) {
        SourceTable t = h.table(schema, table);
        assertNotNull(t, schema + "." + table + " unknown: " + h.whyUnknown(schema, table));
        return t.columnNames();
    }

    @Test
    void followsCreateAlterRenameAndDrop() {
        SchemaHistory h = new SchemaHistory();
        h.apply("CREATE TABLE p (id INT UNSIGNED NOT NULL, code CHAR(2) CHARACTER SET binary, PRIMARY KEY (id), "
                + "UNIQUE KEY uk (code))", "db", 0, "f:1");
        h.apply("CREATE TABLE `c` (`id` BIGINT PRIMARY KEY, p_id INT UNSIGNED, e ENUM('x','y,z','it''s'),"
                + " g INT GENERATED ALWAYS AS (id * 2) VIRTUAL, h INT INVISIBLE, b BINARY(16),"
                + " CONSTRAINT fk FOREIGN KEY (p_id) REFERENCES p (id) ON DELETE CASCADE) ENGINE=InnoDB", "db", 0, "f:2");
        SourceTable c = h.table("db", "c");
        assertEquals(List.of("id", "p_id", "e", "g", "h", "b"), c.columnNames());
        assertEquals(List.of("x", "y,z", "it's"), c.columns().get(2).enumMembers());
        assertTrue(c.columns().get(3).generated());
        assertTrue(c.columns().get(4).invisible());
        assertTrue(c.columns().get(5).fixedBinary());
        assertEquals(16, c.columns().get(5).length());
        assertTrue(h.table("db", "p").columns().get(1).fixedBinary(), "CHAR CHARACTER SET binary");
        assertTrue(h.table("db", "p").columns().get(0).unsigned());
        assertEquals("PRIMARY", c.uniqueKeys().get(0).name());
        assertEquals("p", c.foreignKeys().get(0).parentTable());
        assertEquals("f:2", c.origin().substring(c.origin().length() - 3));

        h.apply("ALTER TABLE c ADD COLUMN first_col INT FIRST, ADD COLUMN mid TEXT AFTER p_id, DROP COLUMN h,"
                + " CHANGE e e2 ENUM('x','y') NOT NULL AFTER b, RENAME COLUMN p_id TO parent", "db", 0, "f:3");
        assertEquals(List.of("first_col", "id", "parent", "mid", "g", "b", "e2"), names(h, "db", "c"));
        assertEquals(List.of("parent"), h.table("db", "c").foreignKeys().get(0).columns());
        h.apply("ALTER TABLE db.c MODIFY mid VARCHAR(10) FIRST", null, 0, "f:4");
        assertEquals(List.of("mid", "first_col", "id", "parent", "g", "b", "e2"), names(h, "db", "c"));
        assertEquals("varchar", h.table("db", "c").columns().get(0).type());

        h.apply("TRUNCATE TABLE c", "db", 0, "f:5");
        h.apply("INSERT INTO c VALUES (1)", "db", 0, "f:6"); // a statement-based DML: no definition changes
        h.apply("GRANT ALL ON *.* TO 'u'@'%'", "db", 0, "f:7");
        assertEquals(7, names(h, "db", "c").size());

        h.apply("RENAME TABLE c TO other.c2, p TO p2", "db", 0, "f:8");
        assertNull(h.table("db", "c"));
        assertEquals(7, names(h, "other", "c2").size());
        h.apply("CREATE TABLE copy LIKE other.c2", "db", 0, "f:9");
        assertEquals(names(h, "other", "c2"), names(h, "db", "copy"));
        h.apply("ALTER TABLE copy RENAME TO copy2", "db", 0, "f:10");
        assertNull(h.table("db", "copy"));
        assertNotNull(h.table("db", "copy2"));
        h.apply("DROP TABLE IF EXISTS copy2, nothing", "db", 0, "f:11");
        assertNull(h.table("db", "copy2"));
        h.apply("DROP DATABASE other", null, 0, "f:12");
        assertNull(h.table("other", "c2"));
        assertNotNull(h.table("db", "p2"));
    }

    @Test
    void aTableStatementItCannotFollowMakesTheTableUnknownWithTheReason() {
        SchemaHistory h = new SchemaHistory();
        h.apply("CREATE TABLE t (a INT, b INT)", "db", 0, "bin.000001:100");
        h.apply("ALTER TABLE t ADD COLUMN (c INT, d INT, UNIQUE KEY (c)), ADD e INT FIRST", "db", 0, "bin.000001:150");
        assertEquals(List.of("e", "a", "b", "c", "d"), names(h, "db", "t"));
        assertEquals(List.of("c"), h.table("db", "t").uniqueKeys().get(0).columns());
        h.apply("ALTER TABLE t ADD COLUMN c2 INT GENERATED ALWAYS AS (c + 1) STORED AFTER nothing_here", "db", 0,
                "bin.000001:200");
        assertNull(h.table("db", "t"));
        String why = h.whyUnknown("db", "t");
        assertTrue(why.contains("bin.000001:200") && why.contains("nothing_here"), why);
        // an ALTER of a column the history does not have: the definition it holds is not the source's
        h.apply("CREATE TABLE u (a INT)", "db", 0, "bin.000001:300");
        h.apply("ALTER TABLE u DROP COLUMN zz", "db", 0, "bin.000001:400");
        assertNull(h.table("db", "u"));
        assertTrue(h.whyUnknown("db", "u").contains("zz"), h.whyUnknown("db", "u"));
        // defined again: known again
        h.apply("CREATE TABLE u (a INT)", "db", 0, "bin.000001:500");
        assertNotNull(h.table("db", "u"));
        assertNull(h.whyUnknown("db", "u"));
        // a temporary table is not a table of the log's row events
        h.apply("CREATE TEMPORARY TABLE u (x INT)", "db", 0, "bin.000001:600");
        assertEquals(List.of("a"), names(h, "db", "u"));
    }

    @Test
    void keysOnPrefixesOrExpressionsKeepNoColumnSoEveryRowConflicts() {
        SchemaHistory h = new SchemaHistory();
        h.apply("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(100), code VARCHAR(10), UNIQUE KEY u_name (name(10)),"
                + " UNIQUE KEY u_expr ((LOWER(code))), UNIQUE KEY u_code (code))", "db", 0, "f:1");
        SourceTable t = h.table("db", "t");
        assertNotNull(t, h.whyUnknown("db", "t"));
        assertEquals(List.of(List.of("id"), List.of(), List.of(), List.of("code")),
                t.uniqueKeys().stream().map(SourceTable.Key::columns).toList());
        h.apply("CREATE UNIQUE INDEX u2 ON t (name(5), code)", "db", 0, "f:2");
        assertEquals(List.of(), h.table("db", "t").uniqueKeys().get(4).columns());
        h.apply("ALTER TABLE t RENAME INDEX u_code TO u_code2, ADD COLUMN x INT", "db", 0, "f:3");
        assertEquals(List.of("id", "name", "code", "x"), names(h, "db", "t"), "RENAME INDEX keeps the table known");
    }

    @Test
    void textFormRoundTripsHostileNames() {
        SchemaHistory h = new SchemaHistory();
        h.apply("CREATE TABLE `we,ird\\\\ \t``name` (`a,b` INT, `c\nd` SET('1,2','\\\\t',''), `e` DECIMAL(65,30),"
                + " PRIMARY KEY (`a,b`))", "s\tx", 0, "f:1");
        h.apply("CREATE TABLE t2 (x INT)", "s\tx", 0, "f:2");
        h.apply("ALTER TABLE t2 DROP COLUMN zz", "s\tx", 0, "f:3\n");
        SchemaHistory back = SchemaHistory.fromText(h.toText());
        assertEquals(h.toText(), back.toText());
        assertEquals(h.tables(), back.tables().stream().toList().size() == 1 ? back.tables() : null);
        assertNotNull(back.whyUnknown("s\tx", "t2"));
    }

    /** Random definitions survive the text form exactly; the seed is printed to replay a failure. */
    @Test
    void randomDefinitionsRoundTrip() {
        long seed = Long.getLong("lanes.test.seed", System.nanoTime());
        Random r = new Random(seed);
        for (int round = 0; round < 200; round++) {
            SchemaHistory h = new SchemaHistory();
            int tables = 1 + r.nextInt(4);
            for (int t = 0; t < tables; t++) {
                List<SourceColumn> cols = new ArrayList<>();
                int n = 1 + r.nextInt(6);
                for (int c = 0; c < n; c++) {
                    List<String> params = new ArrayList<>();
                    for (int p = r.nextInt(3); p > 0; p--) {
                        params.add(word(r));
                    }
                    cols.add(new SourceColumn(word(r) + c, r.nextBoolean() ? "enum" : "int", params, r.nextBoolean(),
                            r.nextBoolean() ? null : word(r), r.nextBoolean(), r.nextBoolean(), r.nextBoolean()));
                }
                List<SourceTable.Key> keys = r.nextBoolean() ? List.of()
                        : List.of(new SourceTable.Key(SourceTable.PRIMARY, List.of(cols.get(0).name())));
                List<SourceTable.ForeignKey> fks = r.nextBoolean() ? List.of() : List.of(new SourceTable.ForeignKey(
                        r.nextBoolean() ? null : word(r), List.of(cols.get(0).name()), word(r), word(r), List.of(word(r))));
                h.put(new SourceTable(word(r), word(r) + t, cols, keys, fks, word(r)));
            }
            SchemaHistory back = SchemaHistory.fromText(h.toText());
            assertEquals(new java.util.HashSet<>(h.tables()), new java.util.HashSet<>(back.tables()),
                    "seed " + seed + " (replay with -Dlanes.test.seed=" + seed + ")");
        }
    }

    private static String word(Random r) {
        String alphabet = "ab,\\\t\n\r`'\" é\u0000c";
        StringBuilder b = new StringBuilder();
        for (int i = r.nextInt(6); i >= 0; i--) {
            b.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    @Test
    void fromTextRefusesWhatItDidNotWrite() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SchemaHistory.fromText("CREATE TABLE t (a INT)"));
        assertTrue(e.getMessage().contains("not a schema history"), e.getMessage());
        assertFalse(SchemaHistory.fromText(new SchemaHistory().toText()).tables().iterator().hasNext());
    }
}
