package io.lanes.connect.testing;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Reads tables of any of the test databases into comparable text rows (values normalised across vendors). */
public final class Tables {
    private Tables() {
    }

    /** Every row of a table as text, sorted; {@code quote} is the identifier quote of the database. */
    public static List<String> rows(String url, String schema, String table, char quote) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT * FROM " + quote + schema + quote + "." + quote + table + quote)) {
            List<String> out = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    String text;
                    if (v instanceof BigDecimal d) {
                        text = d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
                    } else if (v instanceof Number num) {
                        text = new BigDecimal(num.toString()).stripTrailingZeros().toPlainString();
                    } else if (v instanceof java.sql.Timestamp ts) {
                        text = ts.toLocalDateTime().toString();
                    } else if (v instanceof java.time.LocalDateTime dt) {
                        text = dt.toString();
                    } else {
                        text = String.valueOf(v);
                    }
                    sb.append(i == 1 ? "" : "|").append(text);
                }
                out.add(sb.toString());
            }
            out.sort(null);
            return out;
        }
    }

    public static long count(String url, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public static void execute(String url, List<String> statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}
