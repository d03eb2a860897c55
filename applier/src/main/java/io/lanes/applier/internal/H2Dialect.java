package io.lanes.applier.internal;

import io.lanes.applier.jdbc.TargetColumn;
import io.lanes.applier.jdbc.TargetTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/** H2 2.x. Double-quoted identifiers up to 256 characters (H2's default MAX_IDENTIFIER_LENGTH). */
public final class H2Dialect extends AbstractDialect {
    public static final H2Dialect INSTANCE = new H2Dialect();
    /**
     * MySQL mode makes H2 accept AUTO_INCREMENT, ENGINE=, backticks, UNSIGNED and friends; DATABASE_TO_LOWER folds
     * unquoted names as MySQL on Linux keeps them; NON_KEYWORDS frees MySQL column names H2 reserves.
     */
    public static final String RECOMMENDED_URL_OPTIONS =
            ";MODE=MySQL;DATABASE_TO_LOWER=TRUE;NON_KEYWORDS=KEY,VALUE,YEAR,MONTH,DAY,HOUR,MINUTE,SECOND,USER,TOP,ROW";

    private H2Dialect() {
        super('"', false);
    }

    @Override
    public Kind kind() {
        return Kind.H2;
    }

    @Override
    public int maxIdentifierLength() {
        return 256;
    }

    @Override
    protected String upsertSql(TargetTable table, List<TargetColumn> key, List<TargetColumn> nonKey) {
        StringBuilder sql = new StringBuilder("MERGE INTO ").append(qualify(table.schema(), table.name())).append(" (");
        appendColumnList(sql, table.columns());
        sql.append(") KEY (");
        appendColumnList(sql, key);
        sql.append(") VALUES (");
        appendPlaceholders(sql, table.columns().size());
        return sql.append(')').toString();
    }

    @Override
    protected String oneRowCondition(String target, String where) {
        return where + " FETCH FIRST ROW ONLY";
    }

    @Override
    public Map<String, String> recommendedConnectionProperties() {
        return Map.of();
    }

    /**
     * Also sets {@code WRITE_DELAY 0}: with H2's default delay a process killed after a commit can leave a file database
     * torn, some of one transaction's rows on disk and others not (seen with kill -9 on H2 2.3: a data row present, the
     * checkpoint row written in the same transaction absent), which breaks exactly-once. Writing at each commit keeps
     * every transaction whole. The setting needs admin rights; without them a warning says the file database is not
     * crash-safe. In-memory databases are unaffected.
     */
    @Override
    public void initSession(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement s = connection.createStatement()) {
            s.execute("SET TIME ZONE 'UTC'");
            try {
                s.execute("SET WRITE_DELAY 0");
            } catch (SQLException e) {
                if (WRITE_DELAY_WARNED.compareAndSet(false, true)) {
                    LOG.warn("H2: SET WRITE_DELAY 0 refused ({}); a file database may be torn by a process crash, so "
                            + "exactly-once is not guaranteed across crashes", e.getMessage());
                }
            }
        }
        connection.commit();
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(H2Dialect.class);
    private static final java.util.concurrent.atomic.AtomicBoolean WRITE_DELAY_WARNED =
            new java.util.concurrent.atomic.AtomicBoolean();

    @Override
    public String binaryType() {
        return "VARBINARY";
    }

    @Override
    public String textType() {
        // Not CLOB: H2 stores a CLOB value apart from its row, and writing one in every commit's checkpoint row cost
        // more than the row itself. A GTID state is far below this length.
        return "VARCHAR(1000000000)";
    }

    @Override
    public String timestampType() {
        return "TIMESTAMP(6)";
    }
}
