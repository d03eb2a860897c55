package io.lanes.applier.internal;

import io.lanes.applier.jdbc.TargetColumn;
import io.lanes.applier.jdbc.TargetTable;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL. Double-quoted identifiers of at most 63 UTF-8 bytes: PostgreSQL silently truncates longer names
 * (NAMEDATALEN - 1), which could make two source tables one, so longer names are refused instead.
 */
public final class PostgresDialect extends AbstractDialect {
    public static final PostgresDialect INSTANCE = new PostgresDialect();

    private PostgresDialect() {
        super('"', false);
    }

    @Override
    public Kind kind() {
        return Kind.POSTGRESQL;
    }

    @Override
    public int maxIdentifierLength() {
        return 63;
    }

    @Override
    protected int identifierLength(String name) {
        return name.getBytes(StandardCharsets.UTF_8).length;
    }

    @Override
    protected String upsertSql(TargetTable table, List<TargetColumn> key, List<TargetColumn> nonKey) {
        StringBuilder sql = insertInto(table, table.columns()).append(" ON CONFLICT (");
        appendColumnList(sql, key);
        sql.append(')');
        if (nonKey.isEmpty()) {
            return sql.append(" DO NOTHING").toString();
        }
        sql.append(" DO UPDATE SET ");
        appendEach(sql, nonKey, q -> q + " = EXCLUDED." + q);
        return sql.toString();
    }

    @Override
    protected String oneRowCondition(String target, String where) {
        return "ctid = (SELECT ctid FROM " + target + " WHERE " + where + " LIMIT 1)";
    }

    @Override
    public Map<String, String> recommendedConnectionProperties() {
        return Map.of("reWriteBatchedInserts", "true");
    }

    @Override
    public void initSession(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement s = connection.createStatement()) {
            s.execute("SET TIME ZONE 'UTC'");
        }
    }

    @Override
    public String binaryType() {
        return "bytea";
    }

    @Override
    public String textType() {
        return "text";
    }

    @Override
    public String timestampType() {
        return "timestamp(6) with time zone";
    }
}
