package io.lanes.applier.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Table metadata of MySQL and MariaDB from information_schema, matched exactly by name. */
final class MySqlCatalogQueries {
    private MySqlCatalogQueries() {
    }

    static TargetTable load(Connection c, String schema, String table) throws SQLException {
        List<TargetColumn> columns = new ArrayList<>();
        forEachRowOf(c, "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, COLUMN_TYPE, "
                + "IS_NULLABLE, CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION, NUMERIC_SCALE, DATETIME_PRECISION, EXTRA "
                + "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION",
                schema, table, rs -> {
                    String dataType = rs.getString(5).toLowerCase(Locale.ROOT);
                    String columnType = rs.getString(6).toLowerCase(Locale.ROOT);
                    boolean unsigned = columnType.contains("unsigned");
                    long charLength = rs.getLong(8);
                    boolean hasChar = !rs.wasNull();
                    long precision = rs.getLong(9);
                    boolean hasPrecision = !rs.wasNull();
                    int scale = rs.getInt(10);
                    int datetimePrecision = rs.getInt(11);
                    int size = hasChar ? (int) Math.min(Integer.MAX_VALUE, charLength)
                            : hasPrecision ? (int) precision : datetimePrecision;
                    int jdbcType = jdbcType(dataType, columnType);
                    boolean temporal = jdbcType == Types.TIMESTAMP || jdbcType == Types.TIME;
                    // EXTRA says VIRTUAL GENERATED / STORED GENERATED (MariaDB also PERSISTENT GENERATED); MySQL's
                    // DEFAULT_GENERATED is an expression default, a column written as any other.
                    String extra = rs.getString(12) == null ? "" : rs.getString(12).toUpperCase(Locale.ROOT);
                    boolean generated = extra.matches(".*\\b(VIRTUAL|STORED|PERSISTENT) GENERATED\\b.*");
                    columns.add(new TargetColumn(rs.getString(3), rs.getInt(4), jdbcType,
                            dataType + (unsigned ? " unsigned" : ""), size, temporal ? datetimePrecision : scale,
                            "YES".equals(rs.getString(7)), generated));
                });
        if (columns.isEmpty()) {
            return null;
        }
        Map<String, List<String>> uniques = new LinkedHashMap<>();
        forEachRowOf(c, "SELECT TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0 ORDER BY INDEX_NAME, SEQ_IN_INDEX",
                schema, table,
                rs -> uniques.computeIfAbsent(rs.getString(3), n -> new ArrayList<>()).add(rs.getString(4)));
        List<String> pk = uniques.getOrDefault("PRIMARY", List.of());
        List<TargetIndex> indexes = new ArrayList<>();
        uniques.forEach((name, cols) -> {
            if (!name.equals("PRIMARY")) {
                indexes.add(new TargetIndex(name, cols));
            }
        });
        return new TargetTable(schema, table, columns, pk, indexes);
    }

    /** One result row. */
    @FunctionalInterface
    private interface RowAction {
        void accept(ResultSet rs) throws SQLException;
    }

    /**
     * Runs an information_schema query whose parameters are the schema and table and whose first two columns are the
     * row's schema and table, and hands {@code action} the rows of exactly that table: information_schema compares
     * names case-insensitively, names are case-sensitive on the target.
     */
    private static void forEachRowOf(Connection c, String sql, String schema, String table, RowAction action)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (schema.equals(rs.getString(1)) && table.equals(rs.getString(2))) {
                        action.accept(rs);
                    }
                }
            }
        }
    }

    static int jdbcType(String dataType, String columnType) {
        return switch (dataType) {
            case "tinyint" -> Types.TINYINT;
            case "smallint", "year" -> Types.SMALLINT;
            case "mediumint", "int", "integer" -> Types.INTEGER;
            case "bigint" -> Types.BIGINT;
            case "decimal", "numeric" -> Types.DECIMAL;
            case "float" -> Types.REAL;
            case "double", "real" -> Types.DOUBLE;
            case "bit" -> Types.BIT;
            case "date" -> Types.DATE;
            case "datetime", "timestamp" -> Types.TIMESTAMP;
            case "time" -> Types.TIME;
            case "char", "enum", "set" -> dataType.equals("char") ? Types.CHAR : Types.VARCHAR;
            case "varchar" -> Types.VARCHAR;
            case "tinytext", "text", "mediumtext", "longtext", "json" -> Types.LONGVARCHAR;
            case "binary" -> Types.BINARY;
            case "varbinary", "vector" -> Types.VARBINARY;
            case "tinyblob", "blob", "mediumblob", "longblob" -> Types.LONGVARBINARY;
            default -> Types.OTHER;
        };
    }
}
