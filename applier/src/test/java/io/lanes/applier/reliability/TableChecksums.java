package io.lanes.applier.reliability;

import io.lanes.applier.jdbc.Dialect;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-table checksums comparable across H2, PostgreSQL and MariaDB: every row read with {@code SELECT *}, each value
 * normalised (numbers as plain decimals without trailing zeros, bytes as hex, NULL as {@code NULL}), rows sorted, then
 * the row count and a SHA-256 over the sorted rows. Two targets holding the same rows give equal strings whatever order
 * they return them in.
 */
public final class TableChecksums {
    private TableChecksums() {
    }

    /** {@code "<rows> rows sha256=<hex>"} for one table, or {@code "absent"} when the table does not exist. */
    public static String of(Connection c, Dialect d, String schema, String table) throws SQLException {
        List<String> rows = rows(c, d, schema, table);
        if (rows == null) {
            return "absent";
        }
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (String r : rows) {
            sha.update(r.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) '\n');
        }
        return rows.size() + " rows sha256=" + HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    }

    /** The sorted normalised rows, or null when the table does not exist. */
    public static List<String> rows(Connection c, Dialect d, String schema, String table) throws SQLException {
        if (!exists(c, schema, table)) {
            return null;
        }
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + d.qualify(schema, table))) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.append(i == 1 ? "" : "|").append(normalise(rs.getObject(i)));
                }
                rows.add(row.toString());
            }
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
        Collections.sort(rows);
        return rows;
    }

    /** Checksums of each of {@code tables} in each target schema, keyed {@code sourceSchema.table}. */
    public static Map<String, String> all(Connection c, Dialect d, Map<String, String> sourceToTargetSchema,
            List<String> tables) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : sourceToTargetSchema.entrySet()) {
            for (String t : tables) {
                out.put(e.getKey() + "." + t, of(c, d, e.getValue(), t));
            }
        }
        return out;
    }

    static boolean exists(Connection c, String schema, String table) throws SQLException {
        try (var ps = c.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    static String normalise(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof BigDecimal b) {
            return b.signum() == 0 ? "0" : b.stripTrailingZeros().toPlainString();
        }
        if (v instanceof Number n) {
            return normalise(new BigDecimal(n.toString()));
        }
        if (v instanceof byte[] b) {
            return "0x" + HexFormat.of().formatHex(b);
        }
        return v.toString().replace("\\", "\\\\").replace("|", "\\|").replace("\n", "\\n");
    }
}
