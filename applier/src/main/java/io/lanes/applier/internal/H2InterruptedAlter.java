package io.lanes.applier.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs what an H2 target keeps of an {@code ALTER TABLE} that a crash cut short. H2 (2.3) alters many tables by
 * copying them: it creates {@code T_COPY_n_m} with the new shape, copies every row, drops {@code T}, then renames the
 * copy to {@code T}, each step committed on its own. A process killed between the drop and the rename leaves no
 * {@code T} at all, only the complete copy, and the DDL's checkpoint was never written, so a restart runs the DDL again
 * and fails with "table not found" (seen in the crash harness: SIGKILL at a random moment).
 *
 * <p>Before a DDL touches {@code T} on H2: when {@code T} is missing and exactly one {@code T_COPY_n_m} exists in its
 * schema, the copy is renamed back to {@code T}. The copy holds every row (H2 drops the original only after the copy is
 * filled) and already has the new shape, so the DDL that runs next finds its change in effect, which the DDL path
 * already accepts as "applied before a restart". Called on a worker's own connection, before the DDL.
 */
final class H2InterruptedAlter {
    private static final Logger LOG = LoggerFactory.getLogger(H2InterruptedAlter.class);

    private H2InterruptedAlter() {
    }

    /**
     * Renames a leftover copy of {@code schema.table} back when the table itself is missing.
     *
     * @return true when a copy was renamed
     */
    static boolean repair(Connection c, String schema, String table) throws SQLException {
        Pattern copyName = Pattern.compile(Pattern.quote(table) + "_COPY_\\d+_\\d+");
        List<String> copies = new ArrayList<>();
        boolean present = false;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    if (name.equals(table)) {
                        present = true;
                    } else if (copyName.matcher(name).matches()) {
                        copies.add(name);
                    }
                }
            }
        }
        if (present || copies.size() != 1) {
            return false;
        }
        String sql = "ALTER TABLE " + quote(schema) + "." + quote(copies.get(0)) + " RENAME TO " + quote(table);
        DdlStatements.execute(c, sql);
        LOG.warn("H2 target: table {}.{} was missing and {} held its rows (an ALTER TABLE cut short by a crash, between "
                + "H2's drop of the original and its rename of the copy); renamed it back", schema, table,
                copies.get(0));
        return true;
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
