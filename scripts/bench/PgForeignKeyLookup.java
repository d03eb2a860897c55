import io.lanes.applier.jdbc.Dialect;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How long reading one table's foreign keys takes on the PostgreSQL at 127.0.0.1:5432 (database test, user postgres):
 * the driver's DatabaseMetaData.getImportedKeys against the PostgreSQL dialect's pg_constraint query (issue 19, round
 * 17), and the driver's three other catalog calls a table's first use makes (getColumns, getPrimaryKeys,
 * getIndexInfo), on one connection, every table of the schema, round after round (the first rounds show a fresh
 * connection's cost). Apply a log first so the schema has tables, e.g. the mixed log's mix1:
 *
 *   java -cp examples/target/lanes.jar scripts/bench/PgForeignKeyLookup.java [SCHEMA=mix1] [ROUNDS=5]
 */
public class PgForeignKeyLookup {
    public static void main(String[] args) throws SQLException {
        String schema = args.length > 0 ? args[0] : "mix1";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        String query = Dialect.postgresql().importedKeysQuery();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "")) {
            c.setAutoCommit(false);
            DatabaseMetaData md = c.getMetaData();
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = md.getTables(null, schema, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            if (tables.isEmpty()) {
                throw new IllegalStateException("schema " + schema + " has no tables: apply a log into it first");
            }
            System.out.printf(Locale.ROOT, "schema %s, %d tables: %s%n", schema, tables.size(), tables);
            System.out.println("round\tgetImportedKeys ms/table\tpg_constraint query ms/table\tsame rows"
                    + "\tgetColumns+getPrimaryKeys+getIndexInfo ms/table");
            try (PreparedStatement ps = c.prepareStatement(query)) {
                for (int round = 1; round <= rounds; round++) {
                    long t0 = System.nanoTime();
                    List<String> driver = new ArrayList<>();
                    for (String t : tables) {
                        try (ResultSet rs = md.getImportedKeys(null, schema, t)) {
                            while (rs.next()) {
                                driver.add(row(rs));
                            }
                        }
                    }
                    long t1 = System.nanoTime();
                    List<String> ours = new ArrayList<>();
                    for (String t : tables) {
                        ps.setString(1, schema);
                        ps.setString(2, t);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                ours.add(row(rs));
                            }
                        }
                    }
                    long t2 = System.nanoTime();
                    for (String t : tables) {
                        drain(md.getColumns(null, schema, t, "%"));
                        drain(md.getPrimaryKeys(null, schema, t));
                        drain(md.getIndexInfo(null, schema, t, true, false));
                    }
                    long t3 = System.nanoTime();
                    c.commit();
                    System.out.printf(Locale.ROOT, "%d\t%.2f\t%.2f\t%s\t%.2f%n", round, ms(t1 - t0, tables),
                            ms(t2 - t1, tables), driver.equals(ours), ms(t3 - t2, tables));
                }
            }
        }
    }

    private static double ms(long nanos, List<String> tables) {
        return nanos / 1e6 / tables.size();
    }

    private static void drain(ResultSet rs) throws SQLException {
        try (rs) {
            while (rs.next()) {
                rs.getString(1);
            }
        }
    }

    private static String row(ResultSet rs) throws SQLException {
        return rs.getString("FK_NAME") + "|" + rs.getString("PKTABLE_SCHEM") + "|" + rs.getString("PKTABLE_NAME") + "|"
                + rs.getInt("KEY_SEQ") + "|" + rs.getString("FKCOLUMN_NAME") + "|" + rs.getString("PKCOLUMN_NAME");
    }
}
