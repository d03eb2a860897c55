package io.lanes.applier.jdbc;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.internal.FailureMessages;
import io.lanes.applier.internal.HeapEstimate;
import io.lanes.applier.internal.StreamedChanges;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rows a {@link JdbcApplier} has taken and not yet sent: one JDBC batch per order group of target tables
 * ({@link OrderGroups}; docs/batching.md). Within a group rows run in source order, the group's pending run of rows
 * being executed whenever its next row needs another statement; {@link #flushAll} executes every group's run, the one
 * whose rows began first first, and is called by the applier wherever order across groups could be observed. Each
 * executed statement is checked: an UPDATE or DELETE that matched no row is a {@link TargetMismatchException} naming
 * its own transaction.
 *
 * <p>A run of UPDATEs (or DELETEs) of one table whose order among themselves cannot show in the result (see
 * {@link #reorderable}) is applied by its net change: an UPDATE of a row that a later UPDATE of the run overwrites is
 * dropped (a counter row updated by every transaction of a block costs one statement), and where the dialect has one
 * ({@link Dialect#updateRows}, MySQL and MariaDB) rows go by many per statement, which the target parses, plans and
 * locks once instead of once per row: a run of up to 128 rows is one statement, the smallest of the prepared sizes that
 * holds it, its spare places filled with its last row again (which matches the same row and sets the same values).
 * Such a statement counts the rows it matched; anything unexpected (fewer rows, an error that is not the connection's
 * or a lock's) runs the same rows again one statement each, in source order, so that a diverged row or a refused value
 * is named exactly as without it.
 *
 * <p>Use: {@link #add} each row with its statement; values are bound when the run is executed. Threads: owned by its
 * applier's worker thread; only the DDL counter is shared.
 */
final class RowBatches {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcApplier.class);

    /** Where the applier's prepared statements come from: its statement cache on its connection. */
    interface StatementSource {
        PreparedStatement prepared(String sql) throws SQLException;
    }

    /** Binds the values of {@code columns}, read from {@code image}, to parameters from {@code firstIndex} on. */
    interface RowBinder {
        void bind(PreparedStatement ps, int firstIndex, List<TargetColumn> columns, RowImage image, RowChange row,
                SourceTransaction source) throws SQLException;
    }

    /** A row of a pending run: the change, its statement, its transaction, whether it must match a row. */
    private record PendingRow(RowChange row, RowSql sql, SourceTransaction source, boolean mustMatch) {
        /** What the row was, for messages: built only on failure (it formats key values). */
        String description() {
            return describe(row, sql, source);
        }

        String table() {
            return row.table().toString();
        }
    }

    /**
     * The rows taken for one order group and not yet executed: a run of rows of one statement. Owned by the worker's
     * thread, like the applier.
     */
    private static final class PendingBatch {
        /** The statement of the run's rows, and their table; null before the first row. */
        RowSql sql;
        TargetTable table;
        /** Whether rows of the group may be applied in another order than the source's (no trigger, view...). */
        boolean reorderable;
        final List<PendingRow> rows = new ArrayList<>();
        /** About the heap of a large transaction's rows among them ({@link HeapEstimate}); 0 for other rows. */
        long streamedBytes;
        /** The applier-wide number of the batch's oldest row: every group is flushed in the order its rows began. */
        long firstRow;
    }

    /**
     * Whether rows are batched per order group (default) or in one batch for all tables, flushed on every change of
     * statement (the behaviour before order groups; {@code -Dlanes.jdbc.group-batches=false}, for measurement).
     */
    static final boolean GROUP_BATCHES = !"false".equalsIgnoreCase(System.getProperty("lanes.jdbc.group-batches"));

    /**
     * Whether runs of UPDATEs and DELETEs go as one statement per many rows where the dialect can
     * ({@code -Dlanes.jdbc.multi-row=false} switches it off, for measurement; net-change dropping stays).
     */
    static final boolean MULTI_ROW = !"false".equalsIgnoreCase(System.getProperty("lanes.jdbc.multi-row"));

    /**
     * Rows per multi-row statement, largest first, each half the one before: a run takes statements of the largest
     * size while it has that many rows left, then one statement of the smallest size that holds the rest, whose spare
     * places repeat the rest's last row (less than half the statement), so that any run of 2 to 128 rows is one
     * round trip and each table needs a few prepared statements, not one per run length (cut greedily into exact
     * sizes of 128, 32, 8 and 4 with the rest one row per statement, issue 19's workload 4 took about 11 UPDATE
     * statements per block commit of 90-100 single-row transactions over 10 tables, now about 3). 128 stays under
     * MySQL's {@code eq_range_index_dive_limit} (200), beyond which the IN list is planned by statistics.
     */
    private static final int[] ROWS_PER_STATEMENT = {128, 64, 32, 16, 8, 4, 2};

    /** Placeholders one statement may carry (MySQL's protocol counts them in 16 bits), with room to spare. */
    private static final int MAX_PARAMETERS = 60_000;

    /**
     * Counts the DDL statements run by any applier of this JVM: a foreign key or trigger a statement created (on any
     * worker, through any pipeline into the same target) changes the order groups, which each applier then reads again
     * before its next row. JVM-wide rather than per target: one statement costs every applier one catalog read.
     */
    private static final java.util.concurrent.atomic.AtomicLong DDL_RUN = new java.util.concurrent.atomic.AtomicLong();

    private final JdbcTarget target;
    private final int workerId;
    private final StatementSource statements;
    private final RowBinder binder;
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
    /** Per statement (the applier caches one object per statement), whether its runs may be reordered: see {@link #reorderable}. */
    private final Map<RowSql, Boolean> reorderableSql = new IdentityHashMap<>();
    /** Per statement, the text of its multi-row form for each size of {@link #ROWS_PER_STATEMENT}, built once. */
    private final Map<RowSql, String[]> multiRowSql = new IdentityHashMap<>();
    /** Numbers the rows taken, for {@link PendingBatch#firstRow}. */
    private long rowsBound;
    /** Whether reading the order groups failed once on this applier (logged once; one group is used then). */
    private boolean orderGroupsUnreadableLogged;
    /** Set when a multi-row statement failed where its rows one by one did not: this applier stops using them. */
    private boolean multiRowRefused;

    RowBatches(JdbcTarget target, int workerId, StatementSource statements, RowBinder binder) {
        this.target = target;
        this.workerId = workerId;
        this.statements = statements;
        this.binder = binder;
    }

    /** A DDL statement ran: every applier of this JVM reads the order groups again before its next row. */
    static void ddlRan() {
        DDL_RUN.incrementAndGet();
    }

    /**
     * Takes a row of {@code table} with its statement: the group's pending run is executed first when its rows have
     * another statement. Values are bound when the run is executed.
     *
     * @param mustMatch whether the statement must match a row (UPDATE, DELETE): one that matches none is refused
     */
    void add(Connection c, TargetTable table, RowSql sql, boolean mustMatch, SourceTransaction source, RowChange row)
            throws SQLException {
        PendingBatch batch = batchFor(c, table);
        if (!batch.rows.isEmpty() && !sql.sql().equals(batch.sql.sql())) {
            flush(batch);
        }
        if (batch.rows.isEmpty()) {
            batch.firstRow = ++rowsBound;
            batch.sql = sql;
            batch.table = table;
        }
        batch.rows.add(new PendingRow(row, sql, source, mustMatch));
        if (source.changes() instanceof StreamedChanges) {
            // Only a large transaction's rows are converted as they are taken; others are in memory whole anyway.
            batch.streamedBytes += HeapEstimate.of(row);
        }
        if (batch.rows.size() >= MAX_PENDING_ROWS || batch.streamedBytes >= MAX_PENDING_STREAMED_BYTES) {
            flush(batch); // a large transaction's rows go as they come, not all held until its end
        }
    }

    /**
     * Rows one group's run holds before it is executed without waiting for another statement or the end of the batch:
     * a large transaction ({@link io.lanes.applier.internal.StreamedChanges}) then holds a few MB of rows at a time,
     * not all of them (2 million rows of three columns held 250 MB). Executing the group alone keeps every order the
     * applier needs, as when its next row needs another statement; a run of UPDATEs loses only the net change across
     * the cut.
     */
    static final int MAX_PENDING_ROWS = 16_384;

    /**
     * The same for the bytes a large transaction's rows take once converted: wide rows (documents, images) reach a few
     * MB long before {@link #MAX_PENDING_ROWS} (16,384 rows of 100 KB would hold 1.6 GB).
     */
    static final long MAX_PENDING_STREAMED_BYTES = 8L << 20;

    /** Forgets the rows taken but not sent; the rollback that follows decides what the target keeps. */
    void discard() {
        for (PendingBatch batch : batches) {
            batch.rows.clear();
            batch.streamedBytes = 0;
        }
        forgetBatches();
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
            return batchOfGroup(OrderGroups.SHARED); // never reordered: the behaviour before order groups
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
        batch.reorderable = group != OrderGroups.SHARED;
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
        reorderableSql.clear(); // a foreign key or index may have come or gone with the groups
        multiRowSql.clear();
        batchOfTable.clear();
        batchOfGroup.clear();
        batches.clear();
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

    /** Executes one group's pending run of rows and checks that every UPDATE and DELETE found its row. */
    private void flush(PendingBatch batch) throws SQLException {
        if (batch.rows.isEmpty()) {
            return;
        }
        List<PendingRow> rows = new ArrayList<>(batch.rows);
        batch.rows.clear();
        batch.streamedBytes = 0;
        RowChange.Kind kind = rows.get(0).row().kind();
        if (rows.size() > 1 && batch.reorderable && kind != RowChange.Kind.INSERT
                && reorderable(batch.table, batch.sql, kind)) {
            executeReordered(batch.table, batch.sql, kind, rows);
        } else {
            executeInOrder(batch.sql, rows);
        }
    }

    /**
     * Executes rows of one statement in source order: one execution for one row, JDBC batches for more, each carrying
     * values of at most about {@link #BATCH_VALUE_BYTES} (a row larger than that goes alone).
     */
    private void executeInOrder(RowSql sql, List<PendingRow> rows) throws SQLException {
        int from = 0;
        while (from < rows.size()) {
            int to = batchEnd(rows, from);
            executeBatchInOrder(sql, from == 0 && to == rows.size() ? rows : rows.subList(from, to));
            from = to;
        }
    }

    /**
     * Values one JDBC batch execution carries at most, estimated by {@link #valueBytes}. MariaDB's driver grows its
     * packet buffer from 8 KiB to 128 KiB to 1 MiB and then to the server's whole max_allowed_packet (16 MiB by
     * default), allocating (and the JVM zeroing) each size in turn, and drops back to 8 KiB after any command that used
     * less than half the buffer: one batch of a large INSERT run (issue 19's workload 2 loads 10,000 rows per table in
     * one block) cost about 17 MiB of fresh memory per execution, 2-3% of the run's processor time in page faults and
     * zeroing on 2 cores, and more under whichever setting left the heap less settled. Batches of 512 KiB to 1 MiB keep
     * the driver on one 1 MiB buffer; other drivers lose one round trip per 768 KiB, which is nothing beside it.
     */
    static final int BATCH_VALUE_BYTES = 768 * 1024;

    /** The end (exclusive) of the batch starting at {@code from}: rows up to {@link #BATCH_VALUE_BYTES}, at least one. */
    private static int batchEnd(List<PendingRow> rows, int from) {
        int n = rows.size();
        if (n - from <= 1) {
            return n;
        }
        long bytes = 0;
        for (int i = from; i < n; i++) {
            bytes += valueBytes(rows.get(i).row());
            if (bytes > BATCH_VALUE_BYTES) {
                return Math.max(from + 1, i);
            }
        }
        return n;
    }

    /**
     * About how many bytes the row's bound values take in a driver's packet: its bound images' values (INSERT the after
     * image, DELETE the before image, UPDATE both), text as one byte per character (most text replicated is mostly
     * ASCII; more bytes per character make a larger batch, never a failure), binary as its length, anything else 8, and
     * a few bytes of length and type per value.
     */
    static long valueBytes(RowChange row) {
        return switch (row.kind()) {
            case INSERT -> valueBytes(row.after());
            case DELETE -> valueBytes(row.before());
            case UPDATE -> valueBytes(row.before()) + valueBytes(row.after());
        };
    }

    private static long valueBytes(RowImage image) {
        long bytes = 0;
        for (Object v : image.values()) {
            bytes += 4;
            if (v instanceof String s) {
                bytes += s.length();
            } else if (v instanceof byte[] b) {
                bytes += b.length;
            } else if (v != null) {
                bytes += 8;
            }
        }
        return bytes;
    }

    /** Executes rows of one statement in source order as one execution: one row alone, more as a JDBC batch. */
    private void executeBatchInOrder(RowSql sql, List<PendingRow> rows) throws SQLException {
        PreparedStatement ps = statements.prepared(sql.sql());
        int[] counts;
        try {
            for (int i = 0; i < rows.size(); i++) {
                PendingRow row = rows.get(i);
                try {
                    bindOne(ps, row);
                } catch (SQLException | RuntimeException e) {
                    throw located(e, row);
                }
                if (rows.size() > 1) {
                    ps.addBatch();
                }
            }
            counts = rows.size() == 1 ? new int[] {ps.executeUpdate()} : ps.executeBatch();
        } catch (TargetRefusedException e) {
            throw e;
        } catch (SQLException e) {
            PendingRow failed = failedRow(e, rows, rows.get(0).row().kind() != RowChange.Kind.INSERT);
            throw failed != null ? located(e, failed) : locatedIn(e, rows);
        } finally {
            SqlCleanup.quietly(ps::clearBatch); // the connection may be gone: the caller's rollback settles it
        }
        for (int i = 0; i < counts.length && i < rows.size(); i++) {
            checkCount(rows.get(i), counts[i]);
        }
    }

    /**
     * Executes rows of one statement in source order, one execution each: what a failed multi-row statement falls back
     * to, so that the row the target refuses is named even where a failed JDBC batch does not say which row failed
     * (MySQL and MariaDB, whose failed statement leaves the rest of the transaction as it was).
     */
    private void executeOneByOne(RowSql sql, List<PendingRow> rows) throws SQLException {
        PreparedStatement ps = statements.prepared(sql.sql());
        for (PendingRow row : rows) {
            int count;
            try {
                bindOne(ps, row);
                count = ps.executeUpdate();
            } catch (SQLException | RuntimeException e) {
                throw located(e, row);
            }
            checkCount(row, count);
        }
    }

    /** Refuses a row whose UPDATE or DELETE matched no row, or whose count the driver did not give. */
    private static void checkCount(PendingRow row, int count) throws TargetRefusedException {
        if (row.mustMatch() && count == Statement.SUCCESS_NO_INFO) {
            // A driver batching UPDATE/DELETE without per-row counts (MariaDB's bulk protocol, useBulkStmts=true in the
            // URL) cannot tell a row that matched nothing: refuse rather than go on blind.
            TargetMismatchException blind = new TargetMismatchException(row.description() + ": the target's driver "
                    + "reported no row count for this UPDATE/DELETE (SUCCESS_NO_INFO), so a row that diverged would go "
                    + "unnoticed; do not set useBulkStmts=true in the target URL", false);
            throw located(blind, row);
        }
        if (row.mustMatch() && count == 0) {
            TargetMismatchException diverged = new TargetMismatchException(row.description() + " matched no row on "
                    + "the target: the target diverged from the source", true);
            throw located(diverged, row);
        }
    }

    /** Binds one row to its own one-row statement: INSERT the after image; UPDATE SET after, WHERE before; DELETE before. */
    private void bindOne(PreparedStatement ps, PendingRow r) throws SQLException {
        List<TargetColumn> params = r.sql().parameters();
        switch (r.row().kind()) {
            case INSERT -> binder.bind(ps, 1, params, r.row().after(), r.row(), r.source());
            case UPDATE -> {
                int set = params.size() - r.sql().keyColumns().size();
                binder.bind(ps, 1, params.subList(0, set), r.row().after(), r.row(), r.source());
                binder.bind(ps, set + 1, params.subList(set, params.size()), r.row().before(), r.row(), r.source());
            }
            case DELETE -> binder.bind(ps, 1, params, r.row().before(), r.row(), r.source());
        }
    }

    /** A failure binding or executing {@code row}'s statement, as a refusal naming its own transaction. */
    private static TargetRefusedException located(Exception e, PendingRow row) {
        return e instanceof TargetRefusedException refused ? refused
                : new TargetRefusedException(JdbcApplier.positionOf(row.source()), row.table(),
                        TargetErrorPolicy.classify(e), e);
    }

    /** A failure of a statement of several rows, as a refusal naming their transaction, or the range of them. */
    private static TargetRefusedException locatedIn(Exception e, List<PendingRow> rows) {
        return new TargetRefusedException(positionOf(rows), rows.get(0).table(), TargetErrorPolicy.classify(e), e);
    }

    /**
     * Whether a run of {@code sql}'s rows gives the same result in any order, each row's changes staying in source
     * order: the rows are found by a real key (primary key or NOT NULL unique index: distinct keys are distinct rows);
     * an UPDATE sets no column of any key or unique index (no row can take a value another row of the run still holds
     * or gives up) and no unique index covers a computed column; a DELETE is of a table no foreign key of its own refers
     * back to (a parent and its child deleted by one statement would be checked in the target's order). Tables with a
     * trigger never get here (their group keeps every table in order). Key columns of a floating-point or large-object
     * type are excluded too: their equality is the target's, not Java's.
     */
    private boolean reorderable(TargetTable table, RowSql sql, RowChange.Kind kind) {
        Boolean known = reorderableSql.get(sql);
        if (known == null) {
            known = computeReorderable(table, sql, kind);
            reorderableSql.put(sql, known);
        }
        return known;
    }

    private boolean computeReorderable(TargetTable table, RowSql sql, RowChange.Kind kind) {
        TargetTable.RowKey key = table.rowKey();
        if (key.kind() == TargetTable.KeyKind.ALL_COLUMNS || !key.columns().equals(sql.keyColumns())) {
            return false;
        }
        for (TargetColumn c : key.columns()) {
            if (c.isLargeObject() || c.jdbcType() == java.sql.Types.FLOAT || c.jdbcType() == java.sql.Types.DOUBLE
                    || c.jdbcType() == java.sql.Types.REAL) {
                return false;
            }
        }
        if (kind == RowChange.Kind.DELETE) {
            return orderGroups != null && !orderGroups.refersToItself(table.schema(), table.name());
        }
        java.util.Set<String> keyed = new java.util.HashSet<>(table.primaryKey());
        for (TargetIndex index : table.uniqueIndexes()) {
            keyed.addAll(index.columns());
            for (String name : index.columns()) {
                TargetColumn c = table.column(name);
                if (c == null || c.generated()) {
                    return false;
                }
            }
        }
        List<TargetColumn> params = sql.parameters();
        for (TargetColumn set : params.subList(0, params.size() - key.columns().size())) {
            if (keyed.contains(set.name())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Executes a reorderable run: UPDATEs by their net change (the last UPDATE of each key; it sets the same columns as
     * the ones it overwrites, all of one statement), then as many rows per statement as the dialect allows, the rest
     * one statement each.
     */
    private void executeReordered(TargetTable table, RowSql sql, RowChange.Kind kind, List<PendingRow> rows)
            throws SQLException {
        List<PendingRow> todo = kind == RowChange.Kind.UPDATE ? lastOfEachKey(sql, rows) : rows;
        if (todo == null) {
            executeInOrder(sql, rows); // a row lacks a key column: the row's own statement names it
            return;
        }
        int done = 0;
        if (MULTI_ROW && !multiRowRefused && todo.size() >= ROWS_PER_STATEMENT[ROWS_PER_STATEMENT.length - 1]) {
            done = executeMultiRow(table, sql, kind, todo);
        }
        if (done < todo.size()) {
            executeInOrder(sql, done == 0 ? todo : todo.subList(done, todo.size()));
        }
    }

    /**
     * The rows of an UPDATE run, each key's last only, in source order; null when a row's before image lacks a key
     * column. Keys compare as Java values: two keys the target finds equal and Java not (another letter case under a
     * case-insensitive collation) both stay, and the multi-row statement's count then sends the run one by one.
     */
    private static List<PendingRow> lastOfEachKey(RowSql sql, List<PendingRow> rows) {
        java.util.Set<Object> seen = new java.util.HashSet<>(rows.size() * 2);
        List<PendingRow> kept = new ArrayList<>(rows.size());
        List<TargetColumn> keyColumns = sql.keyColumns();
        for (int i = rows.size() - 1; i >= 0; i--) {
            PendingRow r = rows.get(i);
            Object key = KeyValues.of(keyColumns, r.row().before());
            if (key == null) {
                return null;
            }
            if (seen.add(key)) {
                kept.add(r);
            }
        }
        java.util.Collections.reverse(kept);
        return kept;
    }

    /** A row's key values, compared by content (byte arrays included). */
    private record KeyValues(Object[] values) {
        /**
         * The row's key as a set element: a one-column key's value itself when it compares by content (not an array),
         * which spares an array and a record per row; else a KeyValues. Null when the image lacks a key column.
         */
        static Object of(List<TargetColumn> key, RowImage image) {
            if (key.size() == 1) {
                int at = image.indexOf(key.get(0).name());
                if (at < 0) {
                    return null;
                }
                Object value = image.values()[at];
                return value == null || value.getClass().isArray() ? new KeyValues(new Object[] {value}) : value;
            }
            Object[] values = new Object[key.size()];
            for (int i = 0; i < values.length; i++) {
                int at = image.indexOf(key.get(i).name());
                if (at < 0) {
                    return null;
                }
                values[i] = image.values()[at];
            }
            return new KeyValues(values);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof KeyValues k && java.util.Arrays.deepEquals(values, k.values);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.deepHashCode(values);
        }
    }

    /**
     * Applies a prefix of {@code rows} by statements of many rows each (sizes {@link #ROWS_PER_STATEMENT}, the last one
     * filled up with its last row again), each statement's count checked against the distinct rows it holds. UPDATE
     * keys are distinct here; a statement that counts fewer rows (keys the target finds equal) or fails for anything
     * but its connection or a lock sends the whole run one by one (an UPDATE sets the same values again; a failed
     * statement changed nothing). A DELETE that counts fewer rows is refused: deleting a row twice, or one the target
     * lacks, is what the rows one by one would refuse too.
     *
     * @return how many rows (from the first) were applied: the caller applies the rest one statement each
     */
    private int executeMultiRow(TargetTable table, RowSql sql, RowChange.Kind kind, List<PendingRow> rows)
            throws SQLException {
        List<TargetColumn> key = sql.keyColumns();
        List<TargetColumn> params = sql.parameters();
        List<TargetColumn> set = kind == RowChange.Kind.UPDATE ? params.subList(0, params.size() - key.size()) : List.of();
        int perRow = kind == RowChange.Kind.UPDATE ? set.size() * (key.size() + 1) + key.size() : key.size();
        int largest = 0;
        while (largest < ROWS_PER_STATEMENT.length && (long) ROWS_PER_STATEMENT[largest] * perRow > MAX_PARAMETERS) {
            largest++; // a table so wide that a statement of this many rows would carry too many placeholders
        }
        String[] texts = multiRowSql.computeIfAbsent(sql, k -> new String[ROWS_PER_STATEMENT.length]);
        int done = 0;
        while (largest < ROWS_PER_STATEMENT.length && rows.size() - done >= 2) {
            int left = rows.size() - done;
            int sizeIndex = largest;
            while (sizeIndex + 1 < ROWS_PER_STATEMENT.length && ROWS_PER_STATEMENT[sizeIndex + 1] >= left) {
                sizeIndex++; // the smallest size that holds what is left
            }
            int size = ROWS_PER_STATEMENT[sizeIndex];
            String text = texts[sizeIndex];
            if (text == null) {
                Dialect d = target.dialect();
                text = kind == RowChange.Kind.UPDATE ? d.updateRows(table, set, key, size) : d.deleteRows(table, key, size);
                if (text == null) {
                    return done;
                }
                texts[sizeIndex] = text;
            }
            List<PendingRow> chunk = rows.subList(done, done + Math.min(size, left));
            int count;
            PreparedStatement ps = statements.prepared(text);
            try {
                bindMany(ps, kind, set, key, chunk, size);
                count = ps.executeUpdate();
            } catch (TargetRefusedException e) {
                throw e;
            } catch (SQLException e) {
                TargetErrorClass errorClass = TargetErrorPolicy.classify(e).errorClass();
                if (errorClass == TargetErrorClass.CONNECTION || errorClass.retryable()) {
                    throw locatedIn(e, chunk);
                }
                // The statement changed nothing: its rows one by one name the row the target refuses, if any.
                LOG.debug("worker {}: a statement of {} rows of {} failed ({}); applying them one by one", workerId,
                        size, table, e.toString());
                executeOneByOne(sql, kind == RowChange.Kind.UPDATE ? rows : rows.subList(done, rows.size()));
                stopMultiRow(table, size, e);
                return rows.size();
            } catch (RuntimeException e) {
                throw locatedIn(e, chunk);
            }
            if (count != chunk.size()) {
                if (kind == RowChange.Kind.DELETE) {
                    TargetMismatchException diverged = new TargetMismatchException("DELETE of " + chunk.get(0).table()
                            + ": " + (chunk.size() - count) + " of the " + chunk.size() + " rows from "
                            + chunk.get(0).description() + " to " + chunk.get(chunk.size() - 1).description()
                            + " matched no row on the target: the target diverged from the source", true);
                    throw locatedIn(diverged, chunk);
                }
                executeOneByOne(sql, rows); // names a row that matches nothing, or applies keys the target merges
                return rows.size();
            }
            done += chunk.size();
        }
        return done;
    }

    /**
     * After a multi-row statement failed and its rows one by one did not: the statement form is what the target
     * refused (a limit, a type it could not unify), so this applier goes on one row per statement, said once.
     */
    private void stopMultiRow(TargetTable table, int size, SQLException e) {
        if (!multiRowRefused) {
            multiRowRefused = true;
            LOG.warn("worker {}: the target refused a statement of {} rows of {} that it took one row at a time ({}); "
                    + "this worker applies one row per statement from now on", workerId, size, table, e.toString());
        }
    }

    /**
     * Binds rows to a multi-row statement of {@code size} rows: for an UPDATE, per set column per row the key then the
     * value, then per row the key ({@link Dialect#updateRows}); for a DELETE per row the key. Places past the chunk's
     * rows take its last row again: its key matches the same row (IN lists and OR'ed conditions match a row once) and,
     * in a CASE, the same value follows it.
     */
    private void bindMany(PreparedStatement ps, RowChange.Kind kind, List<TargetColumn> set, List<TargetColumn> key,
            List<PendingRow> chunk, int size) throws SQLException {
        int index = 1;
        int k = key.size();
        int last = chunk.size() - 1;
        for (TargetColumn column : set) {
            List<TargetColumn> one = List.of(column);
            for (int i = 0; i < size; i++) {
                PendingRow r = chunk.get(Math.min(i, last));
                try {
                    binder.bind(ps, index, key, r.row().before(), r.row(), r.source());
                    binder.bind(ps, index + k, one, r.row().after(), r.row(), r.source());
                } catch (SQLException | RuntimeException e) {
                    throw located(e, r);
                }
                index += k + 1;
            }
        }
        for (int i = 0; i < size; i++) {
            PendingRow r = chunk.get(Math.min(i, last));
            try {
                binder.bind(ps, index, key, r.row().before(), r.row(), r.source());
            } catch (SQLException | RuntimeException e) {
                throw located(e, r);
            }
            index += k;
        }
    }

    /** The transaction of the rows when they are all of one, else the range from the first's to the last's. */
    private static String positionOf(List<PendingRow> rows) {
        SourceTransaction first = rows.get(0).source();
        for (PendingRow r : rows) {
            if (r.source() != first) {
                return positionRange(rows);
            }
        }
        return JdbcApplier.positionOf(first);
    }

    /**
     * The row of a JDBC batch that failed, when the driver tells: the one marked failed among rows that succeeded (H2),
     * the one after the counts it returned (drivers that stop at the first failure), the entry PostgreSQL's driver
     * names when its entries are the rows; else null. MySQL's and PostgreSQL's drivers mark every row failed, which
     * names none of them.
     *
     * @param entriesAreRows false for an INSERT: PostgreSQL's driver rewrites a batch of INSERTs into statements of
     *     many rows each (reWriteBatchedInserts, which Lanes sets), and its "Batch entry N" then counts those
     *     statements, not rows (entry 4 of 678 rows held rows 676 and 677): read as a row, it named the wrong
     *     transaction
     */
    private static PendingRow failedRow(SQLException e, List<PendingRow> rows, boolean entriesAreRows) {
        if (e instanceof BatchUpdateException b && b.getUpdateCounts() != null) {
            int[] counts = b.getUpdateCounts();
            int failed = -1;
            int failures = 0;
            for (int i = 0; i < counts.length && i < rows.size(); i++) {
                if (counts[i] == Statement.EXECUTE_FAILED) {
                    failures++;
                    failed = failed < 0 ? i : failed;
                }
            }
            if (failures == 1 || failures > 0 && failures < Math.min(counts.length, rows.size())) {
                return rows.get(failed);
            }
            if (failures == 0 && counts.length < rows.size()) {
                return rows.get(counts.length);
            }
            java.util.regex.Matcher entry = PGJDBC_BATCH_ENTRY.matcher(String.valueOf(e.getMessage()));
            if (entriesAreRows && entry.lookingAt()) {
                int index = Integer.parseInt(entry.group(1));
                if (index < rows.size()) {
                    return rows.get(index);
                }
            }
        }
        return null;
    }

    /** How PostgreSQL's driver names the entry of a batch that failed ("Batch entry 4 UPDATE ... was aborted"). */
    private static final java.util.regex.Pattern PGJDBC_BATCH_ENTRY = java.util.regex.Pattern.compile("Batch entry (\\d{1,9}) ");

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
                    .append(FailureMessages.abbreviate(shown, 40));
        }
        return row.kind() + " of " + row.table() + " (" + key + ") at " + source.position();
    }
}
