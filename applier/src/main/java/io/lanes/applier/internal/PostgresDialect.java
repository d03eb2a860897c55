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

    /**
     * The driver's {@code getImportedKeys} builds its rows through information_schema-style expansions: about 7 ms a
     * table on a warm PostgreSQL (issue 19, round 17), and every table a transaction touches after a DDL statement is
     * read again on the dispatching thread while the workers wait. This reads pg_constraint directly: one row per
     * column of each foreign key, its position in the key from the constraint's own column arrays, in the driver's
     * order.
     *
     * <p>Written to be cheap to plan as well as to run. The driver prepares a statement on the server only from its
     * fifth use, and PostgreSQL plans each of a prepared statement's first five executions for its values, so most of
     * a log's look-ups pay for planning. Joining the child table, both namespaces and both attribute rows as one
     * seven-relation join took 2.3-3.5 ms to plan on a warm session for under 0.1 ms of execution (round 18); the
     * child table found by a sub-select and the column names by scalar sub-selects leave three relations to join,
     * planned in 0.4-1.0 ms.
     */
    @Override
    public String importedKeysQuery() {
        return "SELECT con.conname AS fk_name, pn.nspname AS pktable_schem, pc.relname AS pktable_name,"
                + " k.ord AS key_seq,"
                + " (SELECT fa.attname FROM pg_catalog.pg_attribute fa"
                + " WHERE fa.attrelid = con.conrelid AND fa.attnum = k.fk_attnum) AS fkcolumn_name,"
                + " (SELECT pa.attname FROM pg_catalog.pg_attribute pa"
                + " WHERE pa.attrelid = con.confrelid AND pa.attnum = k.pk_attnum) AS pkcolumn_name"
                + " FROM pg_catalog.pg_constraint con"
                + " JOIN pg_catalog.pg_class pc ON pc.oid = con.confrelid"
                + " JOIN pg_catalog.pg_namespace pn ON pn.oid = pc.relnamespace"
                + " CROSS JOIN LATERAL unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(fk_attnum, pk_attnum, ord)"
                + " WHERE con.contype = 'f' AND con.conrelid = (SELECT fc.oid FROM pg_catalog.pg_class fc"
                + " JOIN pg_catalog.pg_namespace fn ON fn.oid = fc.relnamespace WHERE fn.nspname = ? AND fc.relname = ?)"
                + " ORDER BY pn.nspname, pc.relname, con.conname, k.ord";
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
