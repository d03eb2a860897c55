package io.lanes.applier.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The collations a MySQL/MariaDB target has, by id and by name, read once from its information_schema: MariaDB 10.10+
 * lists its UCA 14.0 collations under their full names ({@code utf8mb4_uca1400_nopad_ai_ci}) only in
 * COLLATION_CHARACTER_SET_APPLICABILITY, older servers and MySQL in COLLATIONS. Immutable.
 */
public final class TargetCollations {
    private final Map<Integer, String> byId;
    private final Set<String> names;

    TargetCollations(Map<Integer, String> byId, Set<String> names) {
        this.byId = Map.copyOf(byId);
        this.names = Set.copyOf(names);
    }

    /** Reads the target's collations on this connection (plain reads of information_schema, in its open transaction). */
    public static TargetCollations read(Connection c) throws SQLException {
        Map<Integer, String> byId = new HashMap<>();
        Set<String> names = new HashSet<>();
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT ID, COLLATION_NAME FROM information_schema.COLLATIONS")) {
                while (rs.next()) {
                    String name = rs.getString(2).toLowerCase(Locale.ROOT);
                    names.add(name);
                    if (rs.getObject(1) != null) {
                        byId.put(rs.getInt(1), name);
                    }
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT ID, FULL_COLLATION_NAME FROM "
                    + "information_schema.COLLATION_CHARACTER_SET_APPLICABILITY")) {
                while (rs.next()) {
                    String name = rs.getString(2).toLowerCase(Locale.ROOT);
                    names.add(name);
                    if (rs.getObject(1) != null) {
                        byId.putIfAbsent(rs.getInt(1), name);
                    }
                }
            } catch (SQLException noFullNames) {
                // MySQL, MariaDB before 10.10: COLLATIONS has every name
            }
        }
        return new TargetCollations(byId, names);
    }

    /** Collations given by hand (tests). */
    public static TargetCollations of(Map<Integer, String> byId) {
        Set<String> names = new HashSet<>();
        byId.values().forEach(n -> names.add(n.toLowerCase(Locale.ROOT)));
        return new TargetCollations(byId, names);
    }

    public boolean has(int id) {
        return byId.containsKey(id);
    }

    public boolean has(String name) {
        return names.contains(name.toLowerCase(Locale.ROOT));
    }

    /** The target's name for a collation id, or null. */
    public String nameOf(int id) {
        return byId.get(id);
    }
}
