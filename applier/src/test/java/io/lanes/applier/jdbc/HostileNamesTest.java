package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lanes.applier.testing.TestTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Identifiers that try to escape quoting create real tables on every target, rows go in and out through the generated
 * INSERT/UPDATE/DELETE/upsert, the catalog finds them by their exact names, and a sentinel table survives.
 */
class HostileNamesTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    /** Names every target must hold exactly. MySQL identifiers cannot hold characters beyond the BMP. */
    static List<String> hostileNames(Dialect d) {
        List<String> names = new ArrayList<>(List.of("select", "weird name", "a`b", "a\"b", "x'; DROP TABLE sentinel; --",
                "semi;colon", "back\\slash", "ünïcödé_名前", "%_like_", "from", "Table", "1starts_with_digit",
                "`); DROP TABLE sentinel; --", "\"); DROP TABLE sentinel; --"));
        names.add("L".repeat(d.kind() == Dialect.Kind.POSTGRESQL ? 63 : 64));
        if (d.kind() != Dialect.Kind.MYSQL) {
            names.add("emoji 🚀");
        }
        return names;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void hostileTableAndColumnNamesRoundTrip(TestTarget target) throws SQLException {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema("`\"; x");
            TargetCatalog catalog = new TargetCatalog(d);
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + d.qualify(schema, "sentinel") + " (id INT PRIMARY KEY)");
                c.commit();
                for (String name : hostileNames(d)) {
                    String keyColumn = name;
                    String valueColumn = "v " + name.substring(0, Math.min(name.length(), 40)) + "`\"";
                    s.execute("CREATE TABLE " + d.qualify(schema, name) + " (" + d.quoteIdentifier(keyColumn)
                            + " INT NOT NULL, " + d.quoteIdentifier(valueColumn) + " VARCHAR(200), PRIMARY KEY ("
                            + d.quoteIdentifier(keyColumn) + "))");
                    c.commit();

                    TargetTable table = catalog.table(c, schema, name);
                    assertEquals(List.of(keyColumn, valueColumn), table.columns().stream().map(TargetColumn::name).toList(),
                            "columns of " + name);
                    assertEquals(List.of(keyColumn), table.primaryKey(), "primary key of " + name);

                    String sqlLooking = "'); DROP TABLE sentinel; -- " + name;
                    try (PreparedStatement ins = c.prepareStatement(d.insert(table).sql())) {
                        for (int id = 1; id <= 3; id++) {
                            ins.setInt(1, id);
                            ins.setString(2, sqlLooking + id);
                            ins.addBatch();
                        }
                        assertEquals(3, ins.executeBatch().length);
                    }
                    try (PreparedStatement upd = c.prepareStatement(d.update(table, List.of(valueColumn)).sql())) {
                        upd.setString(1, "updated " + name);
                        upd.setInt(2, 2);
                        assertEquals(1, upd.executeUpdate());
                    }
                    try (PreparedStatement del = c.prepareStatement(d.delete(table).sql())) {
                        del.setInt(1, 3);
                        assertEquals(1, del.executeUpdate());
                    }
                    try (PreparedStatement ups = c.prepareStatement(d.upsert(table).sql())) {
                        ups.setInt(1, 1);
                        ups.setString(2, "upserted");
                        ups.executeUpdate();
                        ups.setInt(1, 4);
                        ups.setString(2, "inserted by upsert");
                        ups.executeUpdate();
                    }
                    c.commit();
                    List<String> rows = new ArrayList<>();
                    try (ResultSet rs = s.executeQuery("SELECT " + d.quoteIdentifier(keyColumn) + ", "
                            + d.quoteIdentifier(valueColumn) + " FROM " + d.qualify(schema, name) + " ORDER BY 1")) {
                        while (rs.next()) {
                            rows.add(rs.getInt(1) + "=" + rs.getString(2));
                        }
                    }
                    assertEquals(List.of("1=upserted", "2=updated " + name, "4=inserted by upsert"), rows, "rows of " + name);
                }
                assertNotNull(catalog.find(c, schema, "sentinel"), "sentinel survived");
                assertEquals(null, catalog.find(c, schema, "sentinel_"), "no pattern match on _");
                assertThrows(MissingTableException.class, () -> catalog.table(c, schema, "s%"));
            }
        }
    }
}
