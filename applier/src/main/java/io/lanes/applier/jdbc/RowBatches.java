package io.lanes.applier.jdbc;

import io.lanes.applier.RowChange;
import io.lanes.applier.SourceTransaction;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rows a {@link JdbcApplier} has bound and not yet sent: one JDBC batch per order group of target tables
 * ({@link OrderGroups}; docs/batching.md). Within a group rows run in source order, the group's batch being executed
 * whenever its next row needs another statement; {@link #flushAll} executes every group's batch, the one whose rows
 * began first first, and is called by the applier wherever order across groups could be observed. Each executed batch
 * is checked: an UPDATE or DELETE that matched no row is a {@link TargetMismatchException} naming its own transaction.
 *
 * <p>Use: {@link #statementFor} gives the statement to bind a row's values to, {@link #bound} records the row once they
 * are bound. Threads: owned by its applier's worker thread; only the DDL counter is shared.
 */
final class RowBatches {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcApplier.class);

    /** Where the applier's prepared statements come from: its statement cache on its connection. */
    interface StatementSource {
        PreparedStatement prepared(String sql) throws SQLException;
    }

    /** A row in the current JDBC batch: what it was (null for an INSERT), its transaction and its table. */
    private record PendingRow(RowChange row, RowSql sql, SourceTransaction source, boolean mustMatch) {
        /** What the row was, for messages: built only on failure (it formats key values). */
        String description() {
            return mustMatch ? describe(row, sql, source) : null;
        }

        String table() {
            return row.table().toString();
        }
    }

    /**
     * The rows bound to one order group's statement and not yet executed: the group's JDBC batch. Owned by the worker's
     * thread, like the applier.
     */
    private static final class PendingBatch {
        /** The group's current statement (the one its last row was bound to), or null. */
        PreparedStatement statement;
        String sql;
        /** For each row of the batch: what it was, for the error message when it matches no row. */
        final List<PendingRow> rows = new ArrayList<>();
        /** The applier-wide number of the batch's oldest row: every group is flushed in the order its rows began. */
        long firstRow;
    }

    /**
     * Whether rows are batched per order group (default) or in one batch for all tables, flushed on every change of
     * statement (the behaviour before order groups; {@code -Dlanes.jdbc.group-batches=false}, for measurement).
     */
    static final boolean GROUP_BATCHES = !"false".equalsIgnoreCase(System.getProperty("lanes.jdbc.group-batches"));

    /**
     * Counts the DDL statements run by any applier of this JVM: a foreign key or trigger a statement created (on any
     * worker, through any pipeline into the same target) changes the order groups, which each applier then reads again
     * before its next row. JVM-wide rather than per target: one statement costs every applier one catalog read.
     */
    private static final java.util.concurrent.atomic.AtomicLong DDL_RUN = new java.util.concurrent.atomic.AtomicLong();

    private final JdbcTarget target;
    private final int workerId;
    private final StatementSource statements;
    /** The order groups of the target, as read on this connection; null: one group (the catalog could not tell). */
    private OrderGroups orderGroups;
    /** {@link #DDL_RUN} when {@link #orderGroups} was read; -1: to be read (no connection read them yet). */
    private long orderGroupsRead = -1;
    /** Whether an uncertain table was met since the groups were read: every table then shares one batch. */
    private boolean oneGroup;
    /** The batch of each table met since the groups were read, and of each group; all of them in {@link #batches}. */
    private final Map<TargetTable, PendingBatch> batchOfTable = new HashMap<>();
    private final Map<Object, PendingBatch> batchOfGroup = new HashMap<>();
    private final List<PendingBatch> batches = new ArrayList<>();
    /** Numbers the rows bound, for {@link PendingBatch#firstRow}. */
    private long rowsBound;
    /** Whether reading the order groups failed once on this applier (logged once; one group is used then). */
    private boolean orderGroupsUnreadableLogged;
    /** The batch {@link #statementFor} chose last, which {@link #bound} records the row in. */
    private PendingBatch chosen;

    RowBatches(JdbcTarget target, int workerId, StatementSource statements) {
        this.target = target;
        this.workerId = workerId;
        this.statements = statements;
    }

    /** A DDL statement ran: every applier of this JVM reads the order groups again before its next row. */
    static void ddlRan() {
        DDL_RUN.incrementAndGet();
    }

    /**
     * The statement a row of {@code table} is to be bound to: its group's batch's, after that batch ran when its last
     * row needed another statement. Bind the row's values to it, then call {@link #bound}.
     */
    PreparedStatement statementFor(Connection c, TargetTable table, RowSql sql) throws SQLException {
        chosen = batchFor(c, table);
        return statementFor(sql, chosen);
    }

    /** Records the row whose values were just bound to the statement {@link #statementFor} returned. */
    void bound(RowSql sql, boolean mustMatch, SourceTransaction source, RowChange row) {
        recordBound(chosen, sql, mustMatch, source, row);
    }

    /** Forgets the rows batched but not sent; the rollback that follows decides what the target keeps. */
    void discard() {
        for (PendingBatch batch : batches) {
            batch.rows.clear();
            if (batch.statement != null) {
                // the connection may be gone: the caller's rollback (or the reopened connection) settles it
                SqlCleanup.quietly(batch.statement::clearBatch);
            }
        }
        forgetBatches();
    }

    /** The applier closed its statements: no batch holds one any more. */
    void statementsClosed() {
        for (PendingBatch batch : batches) {
            batch.statement = null;
            batch.sql = null;
        }
    }

    /** The applier's connection closed: a new session reads the groups again (the target may have changed meanwhile). */
    void connectionClosed() {
        orderGroupsRead = -1;
    }

    /**
     * The batch of the table's order group, reading the groups first when DDL ran since they were read (or the
     * connection is new). Rows pending under the old groups are flushed before the groups change.
     */
    private PendingBatch batchFor(Connection c, TargetTable table) throws SQLException {
        if (!GROUP_BATCHES) {
            return batchOfGroup(OrderGroups.SHARED);
        }
        long ddlRun = DDL_RUN.get();
        if (orderGroupsRead != ddlRun) {
            flushAll();
            forgetBatches();
            oneGroup = false;
            orderGroups = readOrderGroups(c);
            orderGroupsRead = ddlRun;
        }
        PendingBatch batch = batchOfTable.get(table);
        if (batch != null) {
            return batch;
        }
        Object group = oneGroup || orderGroups == null ? OrderGroups.SHARED
                : orderGroups.groupOf(table.schema(), table.name());
        if (group == OrderGroups.SHARED && !oneGroup) {
            // A table with a trigger (or a view...) may write any table: from here on, one batch in source order, as
            // without groups; what the tables met so far batched runs first (it all precedes this row).
            flushAll();
            forgetBatches();
            oneGroup = true;
        }
        batch = batchOfGroup(group);
        batchOfTable.put(table, batch);
        return batch;
    }

    private PendingBatch batchOfGroup(Object group) {
        PendingBatch batch = batchOfGroup.get(group);
        if (batch == null) {
            batch = new PendingBatch();
            batchOfGroup.put(group, batch);
            batches.add(batch);
        }
        return batch;
    }

    /**
     * The target's order groups, or null (one group for every table) when its catalog cannot say. On PostgreSQL a
     * failed query aborts the open transaction, so the read runs under a savepoint there.
     */
    private OrderGroups readOrderGroups(Connection c) throws SQLException {
        boolean postgres = target.dialect().kind() == Dialect.Kind.POSTGRESQL;
        Savepoint before = postgres ? c.setSavepoint() : null;
        try {
            OrderGroups read = OrderGroups.read(c, target.dialect().kind());
            if (before != null) {
                c.releaseSavepoint(before);
            }
            return read;
        } catch (SQLException e) {
            if (TargetErrorPolicy.classify(e).errorClass() == TargetErrorClass.CONNECTION) {
                throw e;
            }
            if (before != null) {
                c.rollback(before);
            }
            if (!orderGroupsUnreadableLogged) {
                LOG.warn("worker {}: could not read the target's foreign keys and triggers ({}); rows of all tables are "
                        + "batched as one group, in source order", workerId, e.toString());
                orderGroupsUnreadableLogged = true;
            }
            return null;
        }
    }

    /** Drops the batches of the groups met (none may hold rows: flushed or discarded before). */
    private void forgetBatches() {
        batchOfTable.clear();
        batchOfGroup.clear();
        batches.clear();
    }

    /** Whether a batch's statement is this one: the statement cache must not close it under the batch. */
    boolean holds(PreparedStatement ps) {
        for (PendingBatch batch : batches) {
            if (batch.statement == ps) {
                return true;
            }
        }
        return false;
    }

    private PreparedStatement statementFor(RowSql sql, PendingBatch batch) throws SQLException {
        if (sql.sql().equals(batch.sql)) {
            if (!batch.rows.isEmpty()) {
                batch.statement.addBatch(); // the previous row's parameters, before this row's are bound
            }
            return batch.statement;
        }
        flush(batch);
        PreparedStatement ps = statements.prepared(sql.sql());
        batch.statement = ps;
        batch.sql = sql.sql();
        return ps;
    }

    /**
     * Records the row just bound to its batch's statement. The row stays bound, not added to the JDBC batch, until the
     * next row for the same statement comes (see {@link #statementFor}) or the flush: a lone row then runs as a plain
     * execution, which a server-side prepared statement runs more cheaply than a bulk execution of one row.
     */
    private void recordBound(PendingBatch batch, RowSql sql, boolean mustMatch, SourceTransaction source, RowChange row) {
        if (batch.rows.isEmpty()) {
            batch.firstRow = ++rowsBound;
        }
        batch.rows.add(new PendingRow(row, sql, source, mustMatch));
    }

    /**
     * Executes every group's pending batch, the one whose rows began first first (a failure then most likely names the
     * earliest transaction that fails), and checks that every UPDATE and DELETE found its row.
     */
    void flushAll() throws SQLException {
        PendingBatch only = null;
        int pending = 0;
        for (PendingBatch batch : batches) {
            if (!batch.rows.isEmpty()) {
                only = batch;
                pending++;
            }
        }
        if (pending == 1) {
            flush(only);
        } else if (pending > 1) {
            List<PendingBatch> ordered = new ArrayList<>(pending);
            for (PendingBatch batch : batches) {
                if (!batch.rows.isEmpty()) {
                    ordered.add(batch);
                }
            }
            ordered.sort(java.util.Comparator.comparingLong(b -> b.firstRow));
            for (PendingBatch batch : ordered) {
                flush(batch);
            }
        }
    }

    /** Executes one group's pending JDBC batch and checks that every UPDATE and DELETE found its row. */
    private void flush(PendingBatch batch) throws SQLException {
        PreparedStatement current = batch.statement;
        if (current == null || batch.rows.isEmpty()) {
            return;
        }
        int[] counts;
        List<PendingRow> rows = new ArrayList<>(batch.rows);
        batch.rows.clear();
        try {
            if (rows.size() == 1) {
                counts = new int[] {current.executeUpdate()};
            } else {
                current.addBatch();
                counts = current.executeBatch();
            }
        } catch (SQLException e) {
            PendingRow failed = failedRow(e, rows);
            String position = failed != null ? JdbcApplier.positionOf(failed.source()) : positionRange(rows);
            throw new TargetRefusedException(position, rows.get(0).table(), TargetErrorPolicy.classify(e), e);
        } finally {
            current.clearBatch();
        }
        for (int i = 0; i < counts.length && i < rows.size(); i++) {
            PendingRow row = rows.get(i);
            if (row.mustMatch() && counts[i] == Statement.SUCCESS_NO_INFO) {
                // A driver batching UPDATE/DELETE without per-row counts (MariaDB's bulk protocol, useBulkStmts=true
                // in the URL) cannot tell a row that matched nothing: refuse rather than go on blind.
                TargetMismatchException blind = new TargetMismatchException(row.description() + ": the target's driver "
                        + "reported no row count for this UPDATE/DELETE (SUCCESS_NO_INFO), so a row that diverged would go "
                        + "unnoticed; do not set useBulkStmts=true in the target URL", false);
                throw new TargetRefusedException(JdbcApplier.positionOf(row.source()), row.table(),
                        TargetErrorPolicy.classify(blind), blind);
            }
            if (row.mustMatch() && counts[i] == 0) {
                TargetMismatchException diverged = new TargetMismatchException(row.description() + " matched no row on "
                        + "the target: the target diverged from the source", true);
                throw new TargetRefusedException(JdbcApplier.positionOf(row.source()), row.table(),
                        TargetErrorPolicy.classify(diverged), diverged);
            }
        }
    }

    /**
     * The row of a JDBC batch that failed, when the driver tells: the first one marked failed, or the one after the
     * counts it returned (drivers that stop at the first failure); else, when every row is of one transaction, any.
     */
    private static PendingRow failedRow(SQLException e, List<PendingRow> rows) {
        if (e instanceof BatchUpdateException b && b.getUpdateCounts() != null) {
            int[] counts = b.getUpdateCounts();
            for (int i = 0; i < counts.length && i < rows.size(); i++) {
                if (counts[i] == Statement.EXECUTE_FAILED) {
                    return rows.get(i);
                }
            }
            if (counts.length < rows.size()) {
                return rows.get(counts.length);
            }
        }
        SourceTransaction first = rows.get(0).source();
        for (PendingRow r : rows) {
            if (r.source() != first) {
                return null;
            }
        }
        return rows.get(0);
    }

    /** "one of the transactions from A to B", for a failure the driver does not pin to a row. */
    private static String positionRange(List<PendingRow> rows) {
        return "one of the transactions from " + JdbcApplier.positionOf(rows.get(0).source()) + " to "
                + JdbcApplier.positionOf(rows.get(rows.size() - 1).source());
    }

    static String describe(RowChange row, RowSql sql, SourceTransaction source) {
        StringBuilder key = new StringBuilder();
        for (TargetColumn c : sql.keyColumns()) {
            int at = row.before().indexOf(c.name());
            Object v = at < 0 ? "?" : row.before().values()[at];
            String shown = v instanceof byte[] b ? "byte[" + b.length + "]" : String.valueOf(v);
            key.append(key.isEmpty() ? "" : ", ").append(c.name()).append('=')
                    .append(shown.length() > 40 ? shown.substring(0, 37) + "..." : shown);
        }
        return row.kind() + " of " + row.table() + " (" + key + ") at " + source.position();
    }
}
