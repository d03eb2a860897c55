package io.lanes.applier.checkpoint;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.RowSql;
import io.lanes.applier.jdbc.TargetColumn;
import io.lanes.applier.jdbc.TargetTable;
import io.lanes.applier.jdbc.ValueBinder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code lanes_checkpoint} table in the target: one row per (pipeline, worker), written in the same JDBC transaction
 * as the data it covers, so that after a crash the target holds exactly the data its checkpoint rows describe.
 *
 * <p>Where: by default schema (MySQL: database) {@value #DEFAULT_SCHEMA}, table {@value #DEFAULT_TABLE}, both created by
 * {@link #createIfAbsent} (on MySQL/MariaDB as an InnoDB table: a non-transactional engine would break the promise).
 * A dedicated schema keeps it out of the replicated schemas; choose another when a source schema is named
 * {@code lanes}.
 *
 * <pre>
 * pipeline     VARCHAR(64)  } primary key
 * worker_id    INT          }
 * lwm_position VARCHAR(1024) NOT NULL   low-water mark, e.g. binlog.000042:1234
 * gtid_state   text                     GTID set / MariaDB domain positions at the low-water mark
 * bitmap       binary                   transactions after the low-water mark this worker applied
 * seqno        BIGINT NOT NULL          checkpoint group number
 * updated_at   timestamp(6) NOT NULL    UTC
 * </pre>
 *
 * <p>{@link #write} neither commits nor rolls back: the caller's commit makes data and checkpoint durable together, a
 * rollback or failed commit discards both. Immutable and thread-safe; each worker uses its own connection.
 */
public final class JdbcCheckpointTable {
    public static final String DEFAULT_SCHEMA = "lanes";
    public static final String DEFAULT_TABLE = "lanes_checkpoint";

    private final Dialect dialect;
    private final String schema;
    private final String table;
    private final TargetTable layout;
    private final RowSql upsert;
    private final ValueBinder binder;
    private final WriteGuard guard;

    /**
     * Runs in the transaction that is about to hold a checkpoint row, just before the row is written: an exception fails
     * the write, and so the commit of the data with it. It lets a deployment where two processes may believe they own
     * a pipeline (a Kafka Connect task that lost its partitions but still runs) make every checkpoint write conditional
     * on still owning it (the Kafka Connect sink's owner epoch). Called by the writing thread; must be thread-safe.
     */
    @FunctionalInterface
    public interface WriteGuard {
        /**
         * @param connection the connection whose open transaction holds the checkpoint row and the data it covers
         * @param row the row about to be written
         */
        void check(Connection connection, CheckpointRow row) throws SQLException;
    }

    public JdbcCheckpointTable(Dialect dialect) {
        this(dialect, DEFAULT_SCHEMA, DEFAULT_TABLE);
    }

    public JdbcCheckpointTable(Dialect dialect, String schema, String table) {
        this(dialect, schema, table, null);
    }

    private JdbcCheckpointTable(Dialect dialect, String schema, String table, WriteGuard guard) {
        this.guard = guard;
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.table = Objects.requireNonNull(table, "table");
        boolean pg = dialect.kind() == Dialect.Kind.POSTGRESQL;
        layout = new TargetTable(schema, table, List.of(
                new TargetColumn("pipeline", 1, Types.VARCHAR, "VARCHAR", 64, 0, false),
                new TargetColumn("worker_id", 2, Types.INTEGER, "INTEGER", 10, 0, false),
                new TargetColumn("lwm_position", 3, Types.VARCHAR, "VARCHAR", 1024, 0, false),
                new TargetColumn("gtid_state", 4, Types.LONGVARCHAR, "TEXT", 0, 0, true),
                new TargetColumn("bitmap", 5, Types.VARBINARY, "VARBINARY", 0, 0, true),
                new TargetColumn("seqno", 6, Types.BIGINT, "BIGINT", 19, 0, false),
                new TargetColumn("updated_at", 7, pg ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP,
                        pg ? "TIMESTAMPTZ" : "TIMESTAMP", 26, 6, false)),
                List.of("pipeline", "worker_id"), List.of());
        upsert = dialect.upsert(layout);
        binder = new ValueBinder(dialect);
    }

    /** The same table, with every write first passing {@code guard} in the writing transaction (see {@link WriteGuard}). */
    public JdbcCheckpointTable withWriteGuard(WriteGuard guard) {
        return new JdbcCheckpointTable(dialect, schema, table, Objects.requireNonNull(guard, "guard"));
    }

    public String schema() {
        return schema;
    }

    public String table() {
        return table;
    }

    /** The CREATE TABLE statement for this dialect (idempotent: IF NOT EXISTS). */
    public String createTableSql() {
        String q = dialect.qualify(schema, table);
        String cols = "(" + dialect.quoteIdentifier("pipeline") + " VARCHAR(64) NOT NULL, "
                + dialect.quoteIdentifier("worker_id") + " INT NOT NULL, "
                + dialect.quoteIdentifier("lwm_position") + " VARCHAR(1024) NOT NULL, "
                + dialect.quoteIdentifier("gtid_state") + " " + dialect.textType() + ", "
                + dialect.quoteIdentifier("bitmap") + " " + dialect.binaryType() + ", "
                + dialect.quoteIdentifier("seqno") + " BIGINT NOT NULL, "
                + dialect.quoteIdentifier("updated_at") + " " + dialect.timestampType() + " NOT NULL, "
                + "PRIMARY KEY (" + dialect.quoteIdentifier("pipeline") + ", " + dialect.quoteIdentifier("worker_id") + "))";
        return "CREATE TABLE IF NOT EXISTS " + q + " " + cols
                + (dialect.kind() == Dialect.Kind.MYSQL ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4" : "");
    }

    /** Creates the schema and the table when absent, and commits. Call once at start, on a connection of its own. */
    public void createIfAbsent(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(dialect.createSchemaIfAbsent(schema));
            s.execute(createTableSql());
        }
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }

    /** Inserts or replaces the worker's row in the connection's current transaction. Does not commit. */
    public void write(Connection connection, CheckpointRow row) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(upsert.sql())) {
            write(ps, row);
        }
    }

    /** The upsert {@link #write(PreparedStatement, CheckpointRow)} runs, to prepare once per connection. */
    public String upsertSql() {
        return upsert.sql();
    }

    /**
     * Writes {@code row} with a statement prepared from {@link #upsertSql()} on the connection whose transaction is to
     * hold it (an applier keeps one per connection: a commit then costs no parse).
     */
    public void write(PreparedStatement upsertStatement, CheckpointRow row) throws SQLException {
        if (guard != null) {
            guard.check(upsertStatement.getConnection(), row);
        }
        Object[] values = {row.pipeline(), row.workerId(), row.lwmPosition(), row.gtidState(), row.bitmap(), row.seqno(),
                row.updatedAt()};
        for (int i = 0; i < values.length; i++) {
            binder.bind(upsertStatement, i + 1, upsert.parameters().get(i), values[i]);
        }
        upsertStatement.executeUpdate();
    }

    /** Every worker's row of {@code pipeline}, by worker id; empty when the pipeline never checkpointed. */
    public List<CheckpointRow> read(Connection connection, String pipeline) throws SQLException {
        String sql = "SELECT " + dialect.quoteIdentifier("worker_id") + ", " + dialect.quoteIdentifier("lwm_position") + ", "
                + dialect.quoteIdentifier("gtid_state") + ", " + dialect.quoteIdentifier("bitmap") + ", "
                + dialect.quoteIdentifier("seqno") + ", " + dialect.quoteIdentifier("updated_at") + " FROM "
                + dialect.qualify(schema, table) + " WHERE " + dialect.quoteIdentifier("pipeline") + " = ? ORDER BY "
                + dialect.quoteIdentifier("worker_id");
        List<CheckpointRow> rows = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, pipeline);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = dialect.kind() == Dialect.Kind.POSTGRESQL
                            ? rs.getObject(6, OffsetDateTime.class).toInstant()
                            : rs.getObject(6, LocalDateTime.class).toInstant(ZoneOffset.UTC);
                    rows.add(new CheckpointRow(pipeline, rs.getInt(1), rs.getString(2), rs.getString(3), rs.getBytes(4),
                            rs.getLong(5), at));
                }
            }
        }
        return rows;
    }

    /** The names of the pipelines with rows in the table, sorted. */
    public List<String> pipelines(Connection connection) throws SQLException {
        String col = dialect.quoteIdentifier("pipeline");
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT DISTINCT " + col + " FROM "
                + dialect.qualify(schema, table) + " ORDER BY " + col);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    /** Deletes the pipeline's rows in the connection's current transaction (a reset). Does not commit. */
    public int delete(Connection connection, String pipeline) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("DELETE FROM " + dialect.qualify(schema, table) + " WHERE "
                + dialect.quoteIdentifier("pipeline") + " = ?")) {
            ps.setString(1, pipeline);
            return ps.executeUpdate();
        }
    }
}
