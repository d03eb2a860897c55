package io.lanes.applier.jdbc;

import io.lanes.applier.Change;
import io.lanes.applier.RowChange;
import io.lanes.applier.checkpoint.CheckpointRows;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.binlog.PartialJsonValue;
import io.lanes.core.Applier;
import io.lanes.core.ApplyContext;
import io.lanes.core.Batch;
import io.lanes.core.Checkpoint;
import io.lanes.core.Transaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker's applier into a JDBC target: row changes become prepared INSERT/UPDATE/DELETE statements keyed by the
 * target's row key, consecutive rows with the same statement go in one JDBC batch, statements (DDL) go to the target's
 * {@link io.lanes.applier.ddl.DdlHandler}, and {@link #commit} writes the worker's checkpoint row in the same target
 * transaction as the data.
 *
 * <p>Threading: as {@link Applier} says, only the worker's thread calls it; it owns one connection (opened on first use,
 * reopened after a failed rollback) and its prepared statements.
 *
 * <p>Batching never reorders changes that can affect each other. Rows are batched per <em>order group</em> of target
 * tables ({@link OrderGroups}: tables related by a foreign key, transitively; everything in one group once a table with a
 * trigger or a view is written, or when the target's catalog cannot tell): within a group, rows run in source order, the
 * group's batch being flushed whenever its next row needs a different statement; rows of different groups cannot affect
 * each other and are batched independently across the transactions of a block, so that a block alternating unrelated
 * tables costs a round trip per table and statement rather than per row. Every group is flushed, oldest first, wherever
 * order across groups could show: at the end of the block, before every statement (DDL), a change of constraint checks,
 * a partial JSON read, the commit, and after every transaction when a skip list is set. {@code
 * -Dlanes.jdbc.group-batches=false} keeps one group for all tables (one batch, flushed on every statement change). An
 * UPDATE or DELETE that matches no row is a {@link TargetMismatchException} (the target diverged), checked when its
 * batch is flushed and naming its own transaction.
 *
 * <p>Errors: every failure of a transaction is thrown as a {@link TargetRefusedException} naming the transaction's
 * position, the table, the SQLState, the vendor code and the {@link TargetErrorClass} the target's
 * {@link TargetErrorPolicy} gives it; {@link #isRetryable} tells the engine whether a retry can help. With a skip list,
 * each transaction runs under a savepoint and its rows are flushed before the next one starts, so that a transaction the
 * skip list matches is rolled back alone, logged with its position, and counted once its batch commits.
 */
public final class JdbcApplier implements Applier<SourceTransaction> {
    private record SqlKey(TargetTable table, RowChange.Kind kind, List<String> columns) {
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

    private static final Logger LOG = LoggerFactory.getLogger(JdbcApplier.class);

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
    private final ValueBinder binder;
    private final Map<SqlKey, RowSql> sqlCache = new HashMap<>();
    private final LinkedHashMap<String, PreparedStatement> statements;
    private Connection connection;
    /** The open connection's session id in the target (-1: none, or unknown); read by other workers' threads. */
    private volatile long sessionId = -1;
    /**
     * Whether the connection has been handed out since the last commit or rollback: its session may hold writes of the
     * open batch, so losing it must fail the batch rather than open a new session under it. Worker thread only.
     */
    private boolean transactionOpen;
    /** How to ask the target who waits for this session's locks; null until a connection is open, or when unusable. */
    private io.lanes.applier.internal.LockViews lockViews;

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
    /**
     * The checkpoint of a commit whose outcome is unknown (the connection broke while committing: the server may have
     * committed), and the sequence numbers of its batch; checked on the next apply before anything is applied again.
     */
    private Checkpoint unknownOutcome;
    private final List<Long> unknownOutcomeSequences = new ArrayList<>();
    /** Transactions of the batch being retried that turned out committed after all: applying them again is skipped. */
    private final Set<Long> committedAfterAll = new HashSet<>();
    /**
     * Statements ({@code position#index}) run in the batch being retried on a target that commits DDL implicitly (MySQL,
     * H2): they took effect even though the batch's commit failed, so the retry must not run them again.
     */
    private final Set<String> implicitlyCommittedDdl = new HashSet<>();
    /** Statements whose attempt failed on such a target: the server may or may not have run them. */
    private final Set<String> ddlOutcomeUnknown = new HashSet<>();
    /** SQLStates of "already exists" and "does not exist" (table, column, index): what re-running a DDL that ran gives. */
    private static final Set<String> ALREADY_IN_EFFECT_STATES = Set.of("42S01", "42S02", "42S11", "42S12", "42S21", "42S22");
    /** MySQL/MariaDB codes of the same under other states: database exists/missing, duplicate key name, can't drop. */
    private static final Set<Integer> ALREADY_IN_EFFECT_MYSQL_CODES = Set.of(1007, 1008, 1061, 1091);
    /** The table (or statement) the change being applied concerns, for error messages. */
    /** The change being applied (a RowChange or a SourceStatement), described only when it fails. */
    private Change currentChange;
    /** Positions of the transactions of the open target transaction that the skip list skipped. */
    private final List<String> skippedInBatch = new ArrayList<>();
    /** The connection's foreign key and unique checks, following the source's. */
    private final ConstraintCheckSession checks;
    /** Source transactions applied into the open target transaction (none: a setting that commits is safe). */
    private int appliedSinceCommit;
    /** Trigger statements and untranslatable definitions the DDL handler passed over in the open batch. */
    private int triggersNotCreatedInBatch;
    private int definitionsNotTranslatedInBatch;
    private int accountStatementsNotRunInBatch;

    JdbcApplier(JdbcTarget target, int workerId) {
        this.target = target;
        this.workerId = workerId;
        this.binder = new ValueBinder(target.dialect(), target.conversions());
        this.checks = new ConstraintCheckSession(target.dialect());
        int cacheSize = target.statementCacheSize();
        this.statements = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
                if (size() > cacheSize && !isBatchStatement(eldest.getValue())) {
                    SqlCleanup.quietly(eldest.getValue()::close);
                    return true;
                }
                return false;
            }
        };
    }

    @Override
    public void apply(Transaction<SourceTransaction> txn, ApplyContext context) throws Exception {
        Connection c = connection();
        if (unknownOutcome != null) {
            resolveUnknownOutcome(c);
        }
        SourceTransaction source = txn.payload();
        if (committedAfterAll.contains(context.sequence())) {
            if (context.endOfBatch()) {
                flushAll();
            }
            return;
        }
        boolean skipping = target.errorPolicy().skipsAny();
        Savepoint savepoint = null;
        try {
            if (skipping) {
                savepoint = c.setSavepoint();
            }
            try {
                applyChanges(c, source);
                if (skipping || context.endOfBatch()) {
                    flushAll();
                }
            } finally {
                appliedSinceCommit++;
            }
            endSourceTransaction(c);
        } catch (SQLException | RuntimeException e) {
            TargetRefusedException refused = refusal(e, source);
            if (savepoint != null && target.errorPolicy().skips(refused.error())) {
                skip(c, savepoint, refused, context);
                try {
                    checks.endOfSourceTransaction(c);
                } catch (SQLException checksFailed) {
                    refused.addSuppressed(checksFailed);
                    throw refused;
                }
                if (context.endOfBatch()) {
                    flushAll();
                }
                return;
            }
            throw refused;
        }
    }

    private void applyChanges(Connection c, SourceTransaction source) throws SQLException {
        int index = 0;
        boolean opened = false; // something of this source transaction is in the target transaction
        for (Change change : source.changes()) {
            index++;
            if (change instanceof RowChange row) {
                currentChange = row;
                if (checks.changePending()) {
                    flushAll();
                    checks.apply(c, appliedSinceCommit == 0 && !opened);
                }
                applyRow(c, row, source);
                opened = true;
            } else if (change instanceof io.lanes.applier.ConstraintChecks marker) {
                checks.want(marker);
            } else if (change instanceof SourceStatement statement) {
                currentChange = statement;
                flushAll();
                opened = true;
                String key = source.position() + "#" + index;
                if (implicitlyCommittedDdl.contains(key)) {
                    continue;
                }
                boolean implicitCommit = target.dialect().kind() != Dialect.Kind.POSTGRESQL;
                try {
                    io.lanes.applier.ddl.DdlResult result;
                    try {
                        result = target.ddlHandler().apply(c, statement);
                    } finally {
                        // It may have created or dropped a foreign key or a trigger, even when it failed part-way: every
                        // applier reads the order groups again before its next row (a statement is a barrier: later
                        // transactions start after its commit).
                        DDL_RUN.incrementAndGet();
                    }
                    checks.statementRan();
                    if (result != null && result.skipped()) {
                        countNotApplied(statement);
                    }
                } catch (SQLException e) {
                    checks.statementRan();
                    if (implicitCommit && ddlOutcomeUnknown.contains(key) && alreadyInEffect(e)) {
                        // An earlier attempt ran it before its connection broke; the target already has it.
                        implicitlyCommittedDdl.add(key);
                        sqlCache.clear();
                        closeStatements();
                        continue;
                    }
                    if (implicitCommit) {
                        // The server may have run (and committed) it before the failure reached us.
                        ddlOutcomeUnknown.add(key);
                    }
                    throw e;
                }
                if (implicitCommit) {
                    implicitlyCommittedDdl.add(key);
                }
                // DDL may have changed any table this worker prepared statements for.
                sqlCache.clear();
                closeStatements();
            } else {
                throw new IllegalArgumentException("unknown change type " + change.getClass().getName() + " at "
                        + source.position());
            }
        }
    }

    /** The source transaction's rows are all applied: the next one starts with the checks the target has by default. */
    private void endSourceTransaction(Connection c) throws SQLException {
        if (checks.resetAtEndPending()) {
            flushAll();
        }
        checks.endOfSourceTransaction(c);
    }

    /** Counts a trigger or definition statement the DDL handler passed over (at commit, once). */
    private void countNotApplied(SourceStatement statement) {
        io.lanes.applier.internal.StatementScope.Kind kind;
        try {
            kind = io.lanes.applier.internal.StatementScope.of(statement.sql(), statement.sqlMode()).kind();
        } catch (RuntimeException unreadable) {
            return;
        }
        switch (kind) {
            case CREATE_TRIGGER, DROP_TRIGGER -> triggersNotCreatedInBatch++;
            case PROGRAM -> definitionsNotTranslatedInBatch++;
            case ACCOUNT_MANAGEMENT -> accountStatementsNotRunInBatch++;
            default -> {
                // excluded by the mapping's table filters: a table's rows are not counted either
            }
        }
    }

    /** A failure while applying {@code source}, as a located, classified refusal (unchanged when it already is one). */
    private TargetRefusedException refusal(Exception e, SourceTransaction source) {
        if (e instanceof TargetRefusedException r) {
            return r;
        }
        String object = currentChange instanceof RowChange row ? row.table().toString()
                : currentChange instanceof SourceStatement st ? "statement " + st.abbreviated() : null;
        return new TargetRefusedException(positionOf(source), object, TargetErrorPolicy.classify(e), e);
    }

    /** Forgets the rows batched but not sent; the rollback that follows decides what the target keeps. */
    private void discardPendingBatch() {
        for (PendingBatch batch : batches) {
            batch.rows.clear();
            if (batch.statement != null) {
                // the connection may be gone: the caller's rollback (or the reopened connection) settles it
                SqlCleanup.quietly(batch.statement::clearBatch);
            }
        }
        forgetBatches();
    }

    /** Rolls the transaction back to its savepoint and carries on without it; rethrows when that fails. */
    private void skip(Connection c, Savepoint savepoint, TargetRefusedException refused, ApplyContext context)
            throws TargetRefusedException {
        discardPendingBatch();
        try {
            c.rollback(savepoint);
        } catch (SQLException rollbackFailed) {
            refused.addSuppressed(rollbackFailed);
            throw refused;
        }
        skippedInBatch.add(refused.position());
        LOG.warn("worker {}: skipping the transaction at {} (sequence {}) as lanes.skip-errors says: {}", workerId,
                refused.position(), context.sequence(), refused.getMessage());
    }

    /** The position of a transaction as messages show it: file:offset, and its GTID when it has one. */
    static String positionOf(SourceTransaction source) {
        String p = source.position();
        return source.gtid() == null || p.contains(source.gtid()) ? p : p + " (GTID " + source.gtid() + ")";
    }

    /**
     * Whether retrying can help with this failure: false for a {@link TargetRefusedException} (or a cause) whose class
     * is not retryable. The engine stops at once, without retries, on a failure this says false for.
     */
    @Override
    public boolean isRetryable(Throwable failure) {
        TargetErrorClass errorClass = TargetErrorPolicy.classify(failure).errorClass();
        if (errorClass != TargetErrorClass.UNKNOWN) {
            return errorClass.retryable();
        }
        // Unclassified: a verdict of a healthy target stops, but a failure that is no SQL error at all (the driver
        // tripping over a connection killed under it) or that left the connection dead is worth the bounded retries.
        return !hasSqlException(failure) || !connectionAlive();
    }

    private static boolean hasSqlException(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    private boolean connectionAlive() {
        try {
            return connection != null && connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private void applyRow(Connection c, RowChange row, SourceTransaction source) throws SQLException {
        String sourceSchema = row.table().schema();
        if (!target.mapping().includesTable(sourceSchema, row.table().table())) {
            return;
        }
        TargetTable table = target.catalog().table(c, target.mapping().targetSchema(sourceSchema), row.table().table());
        switch (row.kind()) {
            case INSERT -> {
                RowSql sql = sql(table, RowChange.Kind.INSERT, writable(table, row.after().columns()));
                PendingBatch batch = batchFor(c, table);
                PreparedStatement ps = statementFor(sql, batch);
                bindImage(ps, 1, sql.parameters(), 0, sql.parameters().size(), row.after(), row, source);
                recordBound(batch, sql, false, source, row);
            }
            case UPDATE -> {
                RowImage afterImage = resolvePartialJson(c, table, row, source);
                if (afterImage != row.after()) {
                    row = RowChange.update(row.table(), row.before(), afterImage);
                }
                List<String> set = writable(table, changedColumns(row));
                if (set.isEmpty()) {
                    return; // only generated columns changed: the target recomputes them from the other columns
                }
                RowSql sql = sql(table, RowChange.Kind.UPDATE, set);
                PendingBatch batch = batchFor(c, table);
                PreparedStatement ps = statementFor(sql, batch);
                bindImage(ps, 1, sql.parameters(), 0, set.size(), row.after(), row, source);
                bindImage(ps, set.size() + 1, sql.parameters(), set.size(), sql.parameters().size(), row.before(), row,
                        source);
                recordBound(batch, sql, true, source, row);
            }
            case DELETE -> {
                RowSql sql = sql(table, RowChange.Kind.DELETE, List.of());
                PendingBatch batch = batchFor(c, table);
                PreparedStatement ps = statementFor(sql, batch);
                bindImage(ps, 1, sql.parameters(), 0, sql.parameters().size(), row.before(), row, source);
                recordBound(batch, sql, true, source, row);
            }
        }
    }

    /**
     * The after image with every partial JSON value (MySQL PARTIAL_UPDATE_ROWS whose before image lacked the document)
     * applied to the document as the target holds it, read by the row's key in the open transaction.
     */
    private RowImage resolvePartialJson(Connection c, TargetTable table, RowChange row, SourceTransaction source)
            throws SQLException {
        RowImage after = row.after();
        Object[] values = null;
        for (int i = 0; i < after.values().length; i++) {
            if (!(after.values()[i] instanceof PartialJsonValue partial)) {
                continue;
            }
            flushAll(); // the row may have been changed by a batched statement of this transaction
            String column = after.columns().get(i);
            RowSql select = target.dialect().select(table, List.of(column));
            String document;
            try (PreparedStatement ps = c.prepareStatement(select.sql())) {
                bindImage(ps, 1, select.parameters(), 0, select.parameters().size(), row.before(), row, source);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new TargetMismatchException(describe(row, select, source) + ": the row holding the JSON "
                                + "document for a partial update is not on the target");
                    }
                    document = rs.getString(1);
                }
            }
            if (document == null) {
                throw new TargetMismatchException(describe(row, select, source) + ": column " + column
                        + " is NULL on the target, so the partial JSON update has no document to change");
            }
            if (values == null) {
                values = after.values().clone();
            }
            values[i] = partial.applyTo(document);
        }
        return values == null ? after : new RowImage(after.columns(), values);
    }

    /**
     * The columns an UPDATE sets: those of the after image whose value differs from the before image's (or that the
     * before image lacks, as MINIMAL and NOBLOB images do). A full-image update of one column then costs the target
     * the parse and write of that column only, as a source's own statement did. When nothing differs, every column of
     * the after image, so the statement still matches (and counts) the row.
     */
    /**
     * The columns of an image that the target takes a value for: all but the target's generated columns (MySQL and
     * MariaDB refuse a value for one, error 1906, and compute it themselves from the columns that are written).
     */
    private static List<String> writable(TargetTable table, List<String> columns) {
        List<String> out = null;
        for (int i = 0; i < columns.size(); i++) {
            TargetColumn c = table.column(columns.get(i));
            if (c != null && c.generated()) {
                if (out == null) {
                    out = new ArrayList<>(columns.subList(0, i));
                }
            } else if (out != null) {
                out.add(columns.get(i));
            }
        }
        return out == null ? columns : out;
    }

    private static List<String> changedColumns(RowChange row) {
        RowImage before = row.before();
        RowImage after = row.after();
        List<String> columns = after.columns();
        List<String> changed = null;
        boolean aligned = before.columns().equals(columns); // FULL images: the same columns in the same order
        for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            int b = aligned ? i : before.indexOf(column);
            boolean same = b >= 0 && java.util.Objects.deepEquals(before.values()[b], after.values()[i]);
            if (!same) {
                if (changed == null) {
                    changed = new ArrayList<>(columns.size());
                }
                changed.add(column);
            }
        }
        return changed == null ? columns : changed.size() == columns.size() ? columns : changed;
    }

    private RowSql sql(TargetTable table, RowChange.Kind kind, List<String> columns) {
        SqlKey key = new SqlKey(table, kind, columns);
        RowSql sql = sqlCache.get(key);
        if (sql == null) {
            Dialect d = target.dialect();
            sql = switch (kind) {
                case INSERT -> d.insert(table, columns);
                case UPDATE -> d.update(table, columns);
                case DELETE -> d.delete(table);
            };
            sqlCache.put(key, sql);
        }
        return sql;
    }

    private void bindImage(PreparedStatement ps, int firstIndex, List<TargetColumn> params, int from, int to, RowImage image,
            RowChange row, SourceTransaction source) throws SQLException {
        for (int i = from; i < to; i++) {
            TargetColumn column = params.get(i);
            int at = image.indexOf(column.name());
            if (at < 0) {
                throw new TargetMismatchException(row.kind() + " of " + row.table() + " at " + source.position()
                        + ": the row image lacks column " + column.name() + ", which the target's row key needs"
                        + " (log with binlog_row_image=FULL, or give the target table the source's primary key)");
            }
            binder.bind(ps, firstIndex + i - from, column, image.values()[at]);
        }
    }

    /** The checkpoint upsert, prepared once per connection and kept with the row statements (closed with them). */
    private PreparedStatement checkpointStatement(Connection c) throws SQLException {
        String sql = target.checkpointTable().upsertSql();
        PreparedStatement ps = statements.get(sql);
        if (ps == null) {
            ps = c.prepareStatement(sql);
            statements.put(sql, ps);
        }
        return ps;
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
    private boolean isBatchStatement(PreparedStatement ps) {
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
        PreparedStatement ps = statements.get(sql.sql());
        if (ps == null) {
            ps = connection.prepareStatement(sql.sql());
            statements.put(sql.sql(), ps);
        }
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
    private void flushAll() throws SQLException {
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
            String position = failed != null ? positionOf(failed.source()) : positionRange(rows);
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
                throw new TargetRefusedException(positionOf(row.source()), row.table(),
                        TargetErrorPolicy.classify(blind), blind);
            }
            if (row.mustMatch() && counts[i] == 0) {
                TargetMismatchException diverged = new TargetMismatchException(row.description() + " matched no row on "
                        + "the target: the target diverged from the source", true);
                throw new TargetRefusedException(positionOf(row.source()), row.table(),
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
        return "one of the transactions from " + positionOf(rows.get(0).source()) + " to "
                + positionOf(rows.get(rows.size() - 1).source());
    }

    private static String describe(RowChange row, RowSql sql, SourceTransaction source) {
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

    @Override
    public void commit(Batch<SourceTransaction> batch, Checkpoint checkpoint) throws Exception {
        try {
            Connection c = connection();
            flushAll();
            target.checkpointTable().write(checkpointStatement(c),
                    CheckpointRows.toRow(target.pipeline(), checkpoint, Instant.now()));
            try {
                c.commit();
            } catch (SQLException e) {
                unknownOutcome = checkpoint;
                unknownOutcomeSequences.clear();
                for (int i = 0; i < batch.size(); i++) {
                    unknownOutcomeSequences.add(batch.sequence(i));
                }
                throw e;
            }
        } catch (TargetRefusedException e) {
            throw e;
        } catch (SQLException | RuntimeException e) {
            String first = positionOf(batch.transaction(0).payload());
            String position = batch.size() == 1 ? first : "the commit of the transactions from " + first + " to "
                    + positionOf(batch.transaction(batch.size() - 1).payload());
            throw new TargetRefusedException(position, null, TargetErrorPolicy.classify(e), e);
        }
        appliedSinceCommit = 0;
        transactionOpen = false;
        restoreChecks();
        if (triggersNotCreatedInBatch + definitionsNotTranslatedInBatch + accountStatementsNotRunInBatch > 0) {
            target.countStatementsNotApplied(triggersNotCreatedInBatch, definitionsNotTranslatedInBatch,
                    accountStatementsNotRunInBatch);
            triggersNotCreatedInBatch = 0;
            definitionsNotTranslatedInBatch = 0;
            accountStatementsNotRunInBatch = 0;
        }
        if (!skippedInBatch.isEmpty()) {
            target.countSkipped(skippedInBatch.size());
            LOG.warn("worker {}: committed past {} transaction(s) skipped by lanes.skip-errors: {}", workerId,
                    skippedInBatch.size(), skippedInBatch);
            skippedInBatch.clear();
        }
        unknownOutcome = null;
        committedAfterAll.clear();
        implicitlyCommittedDdl.clear();
        ddlOutcomeUnknown.clear();
    }

    private boolean alreadyInEffect(SQLException e) {
        return ALREADY_IN_EFFECT_STATES.contains(e.getSQLState())
                || (target.dialect().kind() == Dialect.Kind.MYSQL && ALREADY_IN_EFFECT_MYSQL_CODES.contains(e.getErrorCode()));
    }

    /**
     * After a commit that failed with the connection: this worker's checkpoint row tells whether the server committed
     * it (the row is written in the same transaction). If it did, the batch's transactions are not applied again.
     */
    private void resolveUnknownOutcome(Connection c) throws SQLException {
        Checkpoint saved = null;
        for (io.lanes.applier.checkpoint.CheckpointRow row : target.checkpointTable().read(c, target.pipeline())) {
            if (row.workerId() == workerId) {
                saved = CheckpointRows.fromRow(row);
            }
        }
        c.commit();
        if (unknownOutcome.equals(saved)) {
            committedAfterAll.addAll(unknownOutcomeSequences);
        }
        unknownOutcome = null;
    }

    /** After a commit or rollback: the connection's checks back on (H2's database-wide setting restored). */
    private void restoreChecks() {
        try {
            checks.afterTransaction(connection);
        } catch (SQLException e) {
            LOG.warn("worker {}: could not turn the target's constraint checks back on ({}); the connection is "
                    + "reopened", workerId, e.getMessage());
            closeConnection();
        }
    }

    @Override
    public void rollback(Batch<SourceTransaction> batch) throws Exception {
        skippedInBatch.clear();
        discardPendingBatch();
        appliedSinceCommit = 0;
        triggersNotCreatedInBatch = 0;
        definitionsNotTranslatedInBatch = 0;
        accountStatementsNotRunInBatch = 0;
        transactionOpen = false;
        if (connection == null) {
            return;
        }
        try {
            connection.rollback();
        } catch (SQLException e) {
            // A broken connection: start afresh on the next apply (the target rolls the transaction back itself).
            closeConnection();
        }
        restoreChecks();
    }

    private Connection connection() throws SQLException {
        if (transactionOpen && connection == null) {
            // Closed by sessionsWaitingForThis on a connection error, with this transaction's writes on it.
            throw lostOpenTransaction();
        }
        if (connection != null && connection.isClosed()) {
            // The server ended the session (killed, restarted): some drivers ignore the rollback on such a connection
            // instead of failing it, so check here, before every use. Starting afresh is only safe between
            // transactions: a session lost with a transaction open lost that transaction's writes, and a new session
            // would commit the rest of the batch (and its checkpoint) without them. The caller then rolls back and
            // re-applies the batch from its start.
            boolean lostOpenTransaction = transactionOpen;
            closeConnection();
            if (lostOpenTransaction) {
                throw lostOpenTransaction();
            }
        }
        if (connection == null) {
            Connection c = target.connections().open();
            try {
                target.dialect().initSession(c);
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            connection = c;
            identifySession(c);
        }
        transactionOpen = true;
        return connection;
    }

    private SQLNonTransientConnectionException lostOpenTransaction() {
        return new SQLNonTransientConnectionException("the target session of worker " + workerId
                + " ended with its transaction open (killed or lost): its writes are gone; the batch is rolled back and"
                + " applied again from its start", "08003");
    }

    /**
     * Reads the new session's id for commit-order deadlock detection. A target that cannot say leaves the id unknown:
     * the engine then breaks such deadlocks by its commit-order timeout only (logged once here).
     */
    private void identifySession(Connection c) {
        try {
            io.lanes.applier.internal.LockViews views = io.lanes.applier.internal.LockViews.of(target.dialect().kind(), c);
            long id;
            try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(views.sessionSql())) {
                rs.next();
                id = rs.getLong(1);
            }
            if (!c.getAutoCommit()) {
                c.commit(); // nothing written: ends the snapshot the query may have opened (PostgreSQL, MySQL)
            }
            lockViews = views;
            sessionId = id;
        } catch (SQLException | RuntimeException e) {
            if (!sessionUnknownLogged) {
                LOG.warn("worker {}: the target did not tell its session id ({}); commit-order deadlocks on this worker"
                        + " are broken by the commit-order timeout only", workerId, e.toString());
                sessionUnknownLogged = true;
            }
            lockViews = null;
            sessionId = -1;
        }
    }

    private boolean sessionUnknownLogged;

    /**
     * The sessions that wait for {@code me}, directly or through other waiting sessions, from (waiting, blocking) pairs:
     * an earlier transaction may wait for a lock of a later one that itself waits for this session's lock.
     */
    static long[] waitingTransitively(long[] pairs, long me) {
        java.util.Set<Long> reached = new java.util.LinkedHashSet<>();
        reached.add(me);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (int i = 0; i < pairs.length; i += 2) {
                if (reached.contains(pairs[i + 1]) && reached.add(pairs[i])) {
                    grew = true;
                }
            }
        }
        reached.remove(me);
        return reached.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public long targetSession() {
        return sessionId;
    }

    /**
     * The sessions waiting for a lock this applier's open transaction holds, directly or through other waiting sessions,
     * from the target's lock views (see {@link io.lanes.applier.internal.LockViews}), sampled for all the target's
     * workers; the query reads views only and leaves the open transaction as it is.
     * Empty with no connection open; null when the session's id is unknown.
     */
    @Override
    public long[] sessionsWaitingForThis() throws SQLException {
        if (connection == null) {
            return new long[0];
        }
        if (lockViews == null) {
            return null;
        }
        try {
            return waitingTransitively(target.lockWaitSample(connection, lockViews), sessionId);
        } catch (SQLException e) {
            if (TargetErrorPolicy.classify(e).errorClass() == TargetErrorClass.CONNECTION) {
                // The session is gone with this batch's writes (killed while the probe ran): the next use of this
                // applier fails (connection()) so the batch is applied again on a new session, never committed
                // without them.
                closeConnection();
            }
            throw e;
        }
    }

    private void closeStatements() {
        for (PreparedStatement ps : statements.values()) {
            SqlCleanup.quietly(ps::close);
        }

        statements.clear();
        for (PendingBatch batch : batches) {
            batch.statement = null;
            batch.sql = null;
        }
    }

    private void closeConnection() {
        closeStatements();
        sqlCache.clear();
        orderGroupsRead = -1; // a new session reads them again (the target may have changed meanwhile)
        checks.connectionClosed();
        if (connection != null) {
            SqlCleanup.quietly(connection::close); // it may be broken
            connection = null;
        }
        sessionId = -1;
    }

    @Override
    public void close() {
        if (connection != null) {
            SqlCleanup.quietly(connection::rollback); // closing anyway
        }
        closeConnection();
    }

    @Override
    public String toString() {
        return "JdbcApplier[worker " + workerId + ", " + target + "]";
    }
}
