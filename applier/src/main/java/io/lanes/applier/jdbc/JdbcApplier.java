package io.lanes.applier.jdbc;

import io.lanes.applier.Change;
import io.lanes.applier.internal.StreamedChanges;
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
 * batch is flushed and naming its own transaction. Within a group, a run of UPDATEs (or DELETEs) of one table whose
 * order cannot show (a real key, no key or unique column set, no foreign key of the table to itself for DELETE) is
 * applied by its net change and, on MySQL/MariaDB, many rows per statement ({@link RowBatches};
 * {@code -Dlanes.jdbc.multi-row=false} keeps one row per statement).
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

    private static final Logger LOG = LoggerFactory.getLogger(JdbcApplier.class);

    private final JdbcTarget target;
    private final int workerId;
    private final ValueBinder binder;
    private final Map<SqlKey, RowSql> sqlCache = new HashMap<>();
    private final LinkedHashMap<String, PreparedStatement> statements;
    /** The rows bound and not yet sent, one JDBC batch per order group of tables. */
    private final RowBatches rows;
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
                if (size() > cacheSize) {
                    SqlCleanup.quietly(eldest.getValue()::close);
                    return true;
                }
                return false;
            }
        };
        this.rows = new RowBatches(target, workerId, this::preparedStatement,
                (ps, first, columns, image, row, source) -> bindImage(ps, first, columns, 0, columns.size(), image, row,
                        source));
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
                rows.flushAll();
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
                    rows.flushAll();
                }
            } finally {
                appliedSinceCommit++;
            }
            endSourceTransaction(c);
        } catch (StreamedChanges.ConversionFailedException e) {
            throw e; // the log's rows, not the target: no error policy skips it, and a retry converts them alike
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
                    rows.flushAll();
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
                    rows.flushAll();
                    checks.apply(c, appliedSinceCommit == 0 && !opened);
                }
                applyRow(c, row, source);
                opened = true;
            } else if (change instanceof io.lanes.applier.ConstraintChecks marker) {
                checks.want(marker);
            } else if (change instanceof SourceStatement statement) {
                currentChange = statement;
                rows.flushAll();
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
                        RowBatches.ddlRan();
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
            rows.flushAll();
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


    /** Rolls the transaction back to its savepoint and carries on without it; rethrows when that fails. */
    private void skip(Connection c, Savepoint savepoint, TargetRefusedException refused, ApplyContext context)
            throws TargetRefusedException {
        rows.discard();
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
        if (failure instanceof StreamedChanges.ConversionFailedException) {
            return false;
        }
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
                rows.add(c, table, sql, false, source, row);
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
                rows.add(c, table, sql(table, RowChange.Kind.UPDATE, set), true, source, row);
            }
            case DELETE -> {
                rows.add(c, table, sql(table, RowChange.Kind.DELETE, List.of()), true, source, row);
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
            rows.flushAll(); // the row may have been changed by a batched statement of this transaction
            String column = after.columns().get(i);
            RowSql select = target.dialect().select(table, List.of(column));
            String document;
            try (PreparedStatement ps = c.prepareStatement(select.sql())) {
                bindImage(ps, 1, select.parameters(), 0, select.parameters().size(), row.before(), row, source);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new TargetMismatchException(RowBatches.describe(row, select, source) + ": the row holding the JSON "
                                + "document for a partial update is not on the target");
                    }
                    document = rs.getString(1);
                }
            }
            if (document == null) {
                throw new TargetMismatchException(RowBatches.describe(row, select, source) + ": column " + column
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
     * The columns of an image that the target takes a value for: all but the target's generated columns (MySQL and
     * MariaDB refuse a value for one, error 1906, and compute it themselves from the columns that are written).
     */
    private static List<String> writable(TargetTable table, List<String> columns) {
        if (!hasGeneratedColumn(table)) {
            return columns; // the common case, without a lookup by name per column and row
        }
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

    private static boolean hasGeneratedColumn(TargetTable table) {
        for (TargetColumn c : table.columns()) {
            if (c.generated()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The columns an UPDATE sets: those of the after image whose value differs from the before image's (or that the
     * before image lacks, as MINIMAL and NOBLOB images do). A full-image update of one column then costs the target
     * the parse and write of that column only, as a source's own statement did. When nothing differs, every column of
     * the after image, so the statement still matches (and counts) the row.
     */
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

    /** The statement for {@code sql} on the open connection, from the statement cache (prepared on first use). */
    private PreparedStatement preparedStatement(String sql) throws SQLException {
        PreparedStatement ps = statements.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            statements.put(sql, ps);
        }
        return ps;
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


    @Override
    public void commit(Batch<SourceTransaction> batch, Checkpoint checkpoint) throws Exception {
        try {
            Connection c = connection();
            rows.flushAll();
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
        rows.discard();
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
    }

    private void closeConnection() {
        closeStatements();
        sqlCache.clear();
        rows.connectionClosed();
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
