package io.lanes.applier.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.TargetCatalog;
import io.lanes.applier.jdbc.TargetColumn;
import io.lanes.applier.jdbc.TargetIndex;
import io.lanes.applier.jdbc.TargetTable;
import io.lanes.applier.testing.TestTarget;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The DDL of the real fixtures (types-full-metadata.sql, sysbench's sbtest) and a tour of ALTER/RENAME/DROP, translated
 * and run on PostgreSQL and H2, and run as is on MariaDB; the resulting tables are checked through the catalog.
 */
class DdlTranslationTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    /** The DDL statements of the fixture's SQL, each with the default database of its session. */
    static List<SourceStatement> fixtureDdl() throws IOException {
        String text;
        try (InputStream in = DdlTranslationTest.class.getResourceAsStream("/binlogs/mariadb-10.11/types-full-metadata.sql")) {
            assertNotNull(in, "fixture types-full-metadata.sql on the test class path (binlog-api test-jar)");
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<SourceStatement> out = new ArrayList<>();
        String db = null;
        for (String raw : text.split(";\\s*\\n")) {
            String sql = raw.strip();
            String upper = sql.toUpperCase(java.util.Locale.ROOT);
            if (upper.startsWith("USE ")) {
                db = sql.substring(4).strip();
            } else if (upper.startsWith("CREATE") || upper.startsWith("ALTER") || upper.startsWith("DROP")) {
                out.add(SourceStatement.of(sql, db));
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void fixtureDdlCreatesTheFixtureTables(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String shop = "lt_shop_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100000;
            target.dropOnClose(shop);
            SchemaMapping mapping = SchemaMapping.builder().rename("shop", shop).build();
            TargetCatalog catalog = new TargetCatalog(d);
            DdlHandler handler = DdlHandler.forDialect(d, mapping, catalog);
            List<SourceStatement> ddl = fixtureDdl();
            assertEquals(5, ddl.size(), ddl.toString());
            try (Connection c = target.session()) {
                for (SourceStatement s : ddl) {
                    handler.apply(c, s);
                    c.commit();
                }
                TargetTable customers = catalog.table(c, shop, "customers");
                assertEquals(List.of("id", "email", "name", "created", "balance", "vip", "tags", "tier", "photo", "notes",
                        "born", "wake", "flags", "score", "ratio", "big", "tiny", "small", "med", "yr", "ts", "doc", "uuid",
                        "fixed"), customers.columns().stream().map(TargetColumn::name).toList());
                assertEquals(List.of("id"), customers.primaryKey());
                assertEquals(List.of(List.of("email")), customers.uniqueIndexes().stream().map(TargetIndex::columns).toList());
                assertFalse(customers.column("email").nullable());
                TargetTable orders = catalog.table(c, shop, "orders");
                assertEquals(List.of("id", "customer_id", "total", "placed", "note"),
                        orders.columns().stream().map(TargetColumn::name).sorted(
                                java.util.Comparator.comparingInt(n -> List.of("id", "customer_id", "total", "placed", "note")
                                        .indexOf(n))).toList());
                assertEquals(5, orders.columns().size());
                TargetTable weird = catalog.table(c, shop, "weird name");
                assertEquals(List.of("select", "a`b"), weird.columns().stream().map(TargetColumn::name).toList());
                assertEquals(List.of("select"), weird.primaryKey());

                try (Statement s = c.createStatement()) {
                    // Widened unsigned and the extremes of the fixture fit; the foreign key holds.
                    s.execute("INSERT INTO " + d.qualify(shop, "customers") + " (" + d.quoteIdentifier("id") + ", "
                            + d.quoteIdentifier("email") + ", " + d.quoteIdentifier("created") + ", "
                            + d.quoteIdentifier("big") + ", " + d.quoteIdentifier("med") + ") VALUES (4294967295, 'x@y', "
                            + "TIMESTAMP '2024-01-02 03:04:05.123456', -9223372036854775808, -8388608)");
                    s.execute("INSERT INTO " + d.qualify(shop, "orders") + " (" + d.quoteIdentifier("id") + ", "
                            + d.quoteIdentifier("customer_id") + ") VALUES (1, 4294967295)");
                    c.commit();
                    assertThrows(SQLException.class, () -> s.execute("INSERT INTO " + d.qualify(shop, "orders") + " ("
                            + d.quoteIdentifier("id") + ", " + d.quoteIdentifier("customer_id") + ") VALUES (2, 7)"),
                            "foreign key enforced");
                    c.rollback();
                    try (ResultSet rs = s.executeQuery("SELECT " + d.quoteIdentifier("note") + " FROM "
                            + d.qualify(shop, "orders"))) {
                        assertTrue(rs.next());
                        assertEquals("n/a", rs.getString(1), "the added column's default");
                    }
                }
                c.commit();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void sysbenchTableAndAlterRenameDropTour(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String db = target.newSchema("sb");
            TargetCatalog catalog = new TargetCatalog(d);
            DdlHandler handler = DdlHandler.forDialect(d, SchemaMapping.identity(), catalog);
            try (Connection c = target.session()) {
                apply(handler, c, db, "CREATE TABLE sbtest1(id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT "
                        + "NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id))");
                apply(handler, c, db, "CREATE INDEX k_1 ON sbtest1(k)");
                TargetTable sb = catalog.table(c, db, "sbtest1");
                assertEquals(List.of("id", "k", "c", "pad"), sb.columns().stream().map(TargetColumn::name).toList());
                assertEquals(List.of("id"), sb.primaryKey());
                assertTrue(indexExists(c, d, db, "sbtest1", "k_1"), "index k_1");
                try (Statement s = c.createStatement()) {
                    s.execute("INSERT INTO " + d.qualify(db, "sbtest1") + " (" + d.quoteIdentifier("id") + ") VALUES (1)");
                    try (ResultSet rs = s.executeQuery("SELECT " + d.quoteIdentifier("k") + ", " + d.quoteIdentifier("c")
                            + " FROM " + d.qualify(db, "sbtest1"))) {
                        assertTrue(rs.next());
                        assertEquals(0, rs.getInt(1));
                        assertEquals("", rs.getString(2), "CHAR default '' and no padding on read");
                    }
                }
                c.commit();

                // A second table in the same schema with an index of the same name: index names are per table in MySQL.
                apply(handler, c, db, "CREATE TABLE sbtest2 (id INT PRIMARY KEY, k INT, KEY k_1 (k))");
                apply(handler, c, db, "DROP INDEX k_1 ON sbtest1");
                assertFalse(indexExists(c, d, db, "sbtest1", "k_1"));
                assertTrue(indexExists(c, d, db, "sbtest2", "k_1"));

                apply(handler, c, db, "ALTER TABLE sbtest1 ADD COLUMN extra VARCHAR(10) DEFAULT 'x''y', MODIFY k BIGINT NULL, "
                        + "CHANGE pad pad2 VARCHAR(80) NOT NULL, ADD UNIQUE KEY uk (c, pad2), ENGINE=InnoDB");
                TargetTable altered = catalog.table(c, db, "sbtest1");
                assertTrue(altered.column("k").nullable());
                assertEquals(java.sql.Types.BIGINT, altered.column("k").jdbcType());
                assertNull(altered.column("pad"));
                assertNotNull(altered.column("pad2"));
                assertEquals(List.of(List.of("c", "pad2")), altered.uniqueIndexes().stream().map(TargetIndex::columns).toList());

                apply(handler, c, db, "RENAME TABLE sbtest1 TO `renamed ``one```");
                assertNull(catalog.find(c, db, "sbtest1"));
                assertNotNull(catalog.find(c, db, "renamed `one`"));
                apply(handler, c, db, "TRUNCATE TABLE `renamed ``one```");
                apply(handler, c, db, "DROP TABLE IF EXISTS `renamed ``one```, sbtest2, nonexistent");
                assertNull(catalog.find(c, db, "renamed `one`"));
                assertNull(catalog.find(c, db, "sbtest2"));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void filtersSkipExcludedTablesAndSchemas(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String db = target.newSchema("f");
            SchemaMapping mapping = SchemaMapping.builder().excludeTables("*.tmp_*").excludeSchemas("other").build();
            DdlHandler handler = DdlHandler.forDialect(d, mapping, null);
            try (Connection c = target.session()) {
                assertTrue(handler.apply(c, SourceStatement.of("CREATE TABLE tmp_x (a INT)", db)).skipped());
                assertTrue(handler.apply(c, SourceStatement.of("CREATE DATABASE other", null)).skipped());
                assertTrue(handler.apply(c, SourceStatement.of("CREATE TABLE other.t (a INT)", db)).skipped());
                assertFalse(handler.apply(c, SourceStatement.of("CREATE TABLE kept (a INT)", db)).skipped());
                c.commit();
                TargetCatalog catalog = new TargetCatalog(d);
                assertNull(catalog.find(c, db, "tmp_x"));
                assertNotNull(catalog.find(c, db, "kept"));
            }
        }
    }

    /** MySQL and H2 commit DDL before the checkpoint: a statement replayed after a crash finds its work done. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void replayedDdlIsToleratedWhereDdlCommitsOnItsOwn(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String db = target.newSchema("replay");
            DdlHandler handler = DdlHandler.forDialect(d, SchemaMapping.identity(), new TargetCatalog(d));
            try (Connection c = target.session()) {
                List<String> replayable = List.of("CREATE TABLE r (id INT PRIMARY KEY, v INT, KEY v_1 (v))",
                        "ALTER TABLE r ADD COLUMN w INT", "CREATE INDEX w_1 ON r (w)", "DROP INDEX w_1 ON r",
                        "ALTER TABLE r DROP COLUMN w", "DROP TABLE r");
                for (String sql : replayable) {
                    apply(handler, c, db, sql);
                    if (d.kind() == Dialect.Kind.POSTGRESQL) {
                        assertThrows(SQLException.class, () -> handler.apply(c, SourceStatement.of(sql, db)), sql);
                        c.rollback();
                    } else {
                        DdlResult again = handler.apply(c, SourceStatement.of(sql, db));
                        c.commit();
                        assertTrue(d.kind() == Dialect.Kind.H2 && !again.warnings().isEmpty() || d.kind() == Dialect.Kind.MYSQL,
                                sql + " " + again);
                    }
                }
                // A genuine error is still an error.
                assertThrows(SQLException.class, () -> handler.apply(c, SourceStatement.of("ALTER TABLE gone ADD x INT", db)));
                c.rollback();
            }
        }
    }

    private static void apply(DdlHandler handler, Connection c, String db, String sql) throws SQLException {
        handler.apply(c, SourceStatement.of(sql, db));
        c.commit();
    }

    private static boolean indexExists(Connection c, Dialect d, String schema, String table, String index)
            throws SQLException {
        try (ResultSet rs = c.getMetaData().getIndexInfo(d.metadataCatalog(schema), d.metadataSchema(schema), table, false,
                false)) {
            while (rs.next()) {
                String name = rs.getString("INDEX_NAME");
                if (name != null && (name.equals(index) || name.equals(table + "_" + index))) {
                    return true;
                }
            }
        }
        return false;
    }
}
