package io.lanes.applier;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** What the MariaDB GTID seeding tests read back: the target's rows and a GTID position's parts. */
final class GtidSeedTestSupport {
    private GtidSeedTestSupport() {
    }

    /** The ids in the target's {@code d.t}, ascending. */
    static List<Integer> ids(String url) throws Exception {
        List<Integer> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT \"id\" FROM \"d\".\"t\" ORDER BY \"id\"")) {
            while (rs.next()) {
                out.add(rs.getInt(1));
            }
        }
        return out;
    }

    /** A GTID position's parts (the server prints the domains in no fixed order). */
    static Set<String> parts(String gtidPosition) {
        return new TreeSet<>(List.of(gtidPosition.trim().split("\\s*,\\s*")));
    }

    /** The domains of a GTID position. */
    static Set<String> domains(String gtidPosition) {
        Set<String> out = new TreeSet<>();
        for (String p : parts(gtidPosition)) {
            out.add(p.substring(0, p.indexOf('-')));
        }
        return out;
    }
}
