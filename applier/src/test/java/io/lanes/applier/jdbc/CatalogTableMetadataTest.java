package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lanes.applier.TableRef;
import io.lanes.applier.TableShape;
import io.lanes.applier.testing.TestTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The foreign keys the writeset keys are built from, as each real target's catalog describes them. */
class CatalogTableMetadataTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    /** Parent tables in two schemas, one named in mixed case, and a child with four kinds of foreign key. */
    private static void createTables(TestTarget target, String s1, String s2) throws SQLException {
        Dialect d = target.dialect();
        String innodb = d.kind() == Dialect.Kind.MYSQL ? " ENGINE=InnoDB" : "";
        try (Connection c = target.session(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + d.qualify(s2, "Par") + " (id INT NOT NULL, PRIMARY KEY (id))" + innodb);
            s.execute("CREATE TABLE " + d.qualify(s1, "p") + " (a INT NOT NULL, b VARCHAR(10) NOT NULL, u INT NOT NULL,"
                    + " PRIMARY KEY (a, b), CONSTRAINT " + d.quoteIdentifier("p_u") + " UNIQUE (u))" + innodb);
            s.execute("CREATE TABLE " + d.qualify(s1, "c") + " (id INT NOT NULL, pb VARCHAR(10), pa INT, pu INT,"
                    + " up INT, other INT, PRIMARY KEY (id),"
                    + " CONSTRAINT " + d.quoteIdentifier("c_p") + " FOREIGN KEY (pa, pb) REFERENCES "
                    + d.qualify(s1, "p") + " (a, b),"
                    + " CONSTRAINT " + d.quoteIdentifier("c_u") + " FOREIGN KEY (pu) REFERENCES " + d.qualify(s1, "p")
                    + " (u),"
                    + " CONSTRAINT " + d.quoteIdentifier("c_self") + " FOREIGN KEY (up) REFERENCES "
                    + d.qualify(s1, "c") + " (id),"
                    + " CONSTRAINT " + d.quoteIdentifier("c_other") + " FOREIGN KEY (other) REFERENCES "
                    + d.qualify(s2, "Par") + " (id))" + innodb);
            c.commit();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void readsEveryKindOfForeignKeyWithTheParentsKey(TestTarget target) throws SQLException {
        try (target) {
            String s1 = target.newSchema("fk1");
            String s2 = target.newSchema("fk2");
            createTables(target, s1, s2);
            try (CatalogTableMetadata metadata = new CatalogTableMetadata(target::connect,
                    new TargetCatalog(target.dialect()))) {
                TableShape child = metadata.shape(s1, "c");
                assertNotNull(child);
                // Key names differ between engines (H2 names a unique constraint's index itself): compared by columns.
                Set<String> fks = child.foreignKeys().stream()
                        .map(f -> f.columns() + "->" + f.parent() + f.parentKey().columns())
                        .collect(Collectors.toSet());
                assertEquals(Set.of(
                        "[pa, pb]->" + new TableRef(s1, "p") + "[a, b]",
                        "[pu]->" + new TableRef(s1, "p") + "[u]",
                        "[up]->" + new TableRef(s1, "c") + "[id]",
                        "[other]->" + new TableRef(s2, "Par") + "[id]"), fks);
                assertEquals(TableShape.PRIMARY, child.foreignKeys().stream()
                        .filter(f -> f.columns().equals(List.of("pa", "pb"))).findFirst().orElseThrow().parentKey().name());
                assertEquals(List.of(), metadata.shape(s1, "p").foreignKeys());
                assertEquals(List.of(), metadata.shape(s2, "Par").foreignKeys());

                // Read again on a connection that broke: the prepared query is not reused across connections.
                metadata.close();
                metadata.invalidate();
                assertEquals(4, metadata.shape(s1, "c").foreignKeys().size());
            }
        }
    }

    /**
     * PostgreSQL's dialect reads pg_constraint itself rather than through the driver's {@code getImportedKeys} (7 ms a
     * table, issue 19 round 17): it must return what the driver returns, row for row.
     */
    @Test
    void postgresForeignKeyQueryReturnsTheDriversRows() throws SQLException {
        try (TestTarget target = TestTarget.postgres()) {
            Dialect d = target.dialect();
            String query = d.importedKeysQuery();
            assertNotNull(query);
            String s1 = target.newSchema("fk1");
            String s2 = target.newSchema("fk2");
            createTables(target, s1, s2);
            try (Connection c = target.session()) {
                // Partitioned tables: a foreign key to one is cloned per partition (pg_constraint.conparentid), and
                // one on a partitioned child is cloned on its partitions; the driver returns the clones too.
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE " + d.qualify(s2, "part") + " (id INT PRIMARY KEY) PARTITION BY RANGE (id)");
                    s.execute("CREATE TABLE " + d.qualify(s2, "part_a") + " PARTITION OF " + d.qualify(s2, "part")
                            + " FOR VALUES FROM (0) TO (100)");
                    s.execute("CREATE TABLE " + d.qualify(s2, "part_b") + " PARTITION OF " + d.qualify(s2, "part")
                            + " FOR VALUES FROM (100) TO (200)");
                    s.execute("CREATE TABLE " + d.qualify(s1, "pc") + " (id INT PRIMARY KEY, pid INT REFERENCES "
                            + d.qualify(s2, "part") + " (id)) PARTITION BY RANGE (id)");
                    s.execute("CREATE TABLE " + d.qualify(s1, "pc_a") + " PARTITION OF " + d.qualify(s1, "pc")
                            + " FOR VALUES FROM (0) TO (100)");
                    c.commit();
                }
                for (String[] table : new String[][] {{s1, "c"}, {s1, "p"}, {s2, "Par"}, {s1, "pc"}, {s1, "pc_a"},
                        {s2, "part_a"}}) {
                    List<String> driver = new ArrayList<>();
                    try (ResultSet rs = c.getMetaData().getImportedKeys(null, table[0], table[1])) {
                        while (rs.next()) {
                            driver.add(row(rs));
                        }
                    }
                    List<String> ours = new ArrayList<>();
                    try (PreparedStatement ps = c.prepareStatement(query)) {
                        ps.setString(1, table[0]);
                        ps.setString(2, table[1]);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                ours.add(row(rs));
                            }
                        }
                    }
                    assertEquals(driver, ours, table[0] + "." + table[1]);
                    int expected = switch (table[1]) {
                        case "c" -> 5; // one row per foreign key column
                        case "pc" -> 3; // to the partitioned parent and to its two partitions
                        case "pc_a" -> 1; // the clone of pc's
                        default -> 0;
                    };
                    assertEquals(expected, ours.size(), table[0] + "." + table[1] + ": " + ours);
                }
                c.commit();
            }
        }
    }

    @Test
    void otherDialectsUseTheDriversMethod() {
        assertNull(Dialect.mysql().importedKeysQuery());
        assertNull(Dialect.h2().importedKeysQuery());
    }

    private static String row(ResultSet rs) throws SQLException {
        return rs.getString("FK_NAME") + "|" + rs.getString("PKTABLE_SCHEM") + "|" + rs.getString("PKTABLE_NAME") + "|"
                + rs.getInt("KEY_SEQ") + "|" + rs.getString("FKCOLUMN_NAME") + "|" + rs.getString("PKCOLUMN_NAME");
    }
}
