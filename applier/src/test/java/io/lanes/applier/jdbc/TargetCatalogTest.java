package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.TargetTable.KeyKind;
import io.lanes.applier.testing.TestTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TargetCatalogTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void readsColumnsKeysAndUniqueIndexesAndRefreshesAfterDdl(TestTarget target) throws SQLException {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema();
            TargetCatalog catalog = new TargetCatalog(d);
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + d.qualify(schema, "t") + " (b VARCHAR(10) NOT NULL, a INT NOT NULL, "
                        + "u1 INT NOT NULL, u2 INT NOT NULL, n INT, PRIMARY KEY (a, b))");
                s.execute("CREATE UNIQUE INDEX " + d.quoteIdentifier("t_u") + " ON " + d.qualify(schema, "t")
                        + " (u2, u1)");
                s.execute("CREATE INDEX " + d.quoteIdentifier("t_n") + " ON " + d.qualify(schema, "t") + " (n)");
                c.commit();
                TargetTable t = catalog.table(c, schema, "t");
                assertEquals(List.of("b", "a", "u1", "u2", "n"), t.columns().stream().map(TargetColumn::name).toList());
                assertEquals(List.of(1, 2, 3, 4, 5), t.columns().stream().map(TargetColumn::position).toList());
                assertEquals(Types.VARCHAR, t.column("b").jdbcType());
                assertEquals(Types.INTEGER, t.column("a").jdbcType());
                assertFalse(t.column("a").nullable());
                assertTrue(t.column("n").nullable());
                assertEquals(List.of("a", "b"), t.primaryKey(), "key order, not column order");
                assertEquals(List.of(new TargetIndex("t_u", List.of("u2", "u1"))), t.uniqueIndexes());
                assertEquals(KeyKind.PRIMARY, t.rowKey().kind());
                assertSame(t, catalog.table(c, schema, "t"), "cached");

                s.execute("ALTER TABLE " + d.qualify(schema, "t") + " ADD COLUMN " + d.quoteIdentifier("added") + " INT");
                c.commit();
                assertSame(t, catalog.table(c, schema, "t"), "still cached until invalidated");
                catalog.invalidate(schema, "t");
                TargetTable refreshed = catalog.table(c, schema, "t");
                assertEquals(6, refreshed.columns().size());
                assertEquals("added", refreshed.columns().get(5).name());

                MissingTableException missing = assertThrows(MissingTableException.class,
                        () -> catalog.table(c, schema, "nope"));
                assertTrue(missing.getMessage().contains(schema) && missing.getMessage().contains("nope"),
                        missing.getMessage());
                assertEquals("nope", missing.table());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void uniqueNotNullIndexServesAsKeyWhenThereIsNoPrimaryKey(TestTarget target) throws SQLException {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema();
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + d.qualify(schema, "u") + " (x INT, y INT NOT NULL, v INT)");
                s.execute("CREATE UNIQUE INDEX ux ON " + d.qualify(schema, "u") + " (x)");
                s.execute("CREATE UNIQUE INDEX uy ON " + d.qualify(schema, "u") + " (y)");
                c.commit();
                TargetTable u = new TargetCatalog(d).table(c, schema, "u");
                assertEquals(KeyKind.UNIQUE_NOT_NULL, u.rowKey().kind());
                assertEquals(List.of("y"), u.rowKey().columns().stream().map(TargetColumn::name).toList(),
                        "the nullable unique index is not a key");
                assertTrue(d.upsert(u).sql().contains(d.quoteIdentifier("y")));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void keylessTableChangesOneOfTwoIdenticalRowsAndMatchesNulls(TestTarget target) throws SQLException {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema();
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + d.qualify(schema, "k") + " (a INT, b VARCHAR(10))");
                c.commit();
                TargetTable k = new TargetCatalog(d).table(c, schema, "k");
                assertEquals(KeyKind.ALL_COLUMNS, k.rowKey().kind());
                assertThrows(IllegalStateException.class, () -> d.upsert(k));
                try (PreparedStatement ins = c.prepareStatement(d.insert(k).sql())) {
                    for (int i = 0; i < 2; i++) {
                        ins.setInt(1, 1);
                        ins.setNull(2, Types.VARCHAR);
                        ins.addBatch();
                    }
                    ins.setInt(1, 2);
                    ins.setString(2, "two");
                    ins.addBatch();
                    ins.executeBatch();
                }
                try (PreparedStatement upd = c.prepareStatement(d.update(k, List.of("b")).sql())) {
                    upd.setString(1, "changed");
                    upd.setInt(2, 1);
                    upd.setNull(3, Types.VARCHAR);
                    assertEquals(1, upd.executeUpdate(), "one of the two identical rows, found through NULL");
                }
                try (PreparedStatement del = c.prepareStatement(d.delete(k).sql())) {
                    del.setInt(1, 2);
                    del.setString(2, "two");
                    assertEquals(1, del.executeUpdate());
                }
                c.commit();
                try (ResultSet rs = s.executeQuery("SELECT a, b FROM " + d.qualify(schema, "k") + " ORDER BY b")) {
                    StringBuilder sb = new StringBuilder();
                    while (rs.next()) {
                        sb.append(rs.getInt(1)).append('=').append(rs.getString(2)).append(';');
                    }
                    String rows = sb.toString();
                    assertTrue(rows.equals("1=null;1=changed;") || rows.equals("1=changed;1=null;"), rows);
                }
            }
        }
    }
}
