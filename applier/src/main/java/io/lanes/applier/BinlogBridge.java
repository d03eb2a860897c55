package io.lanes.applier;

import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.applier.ddl.SessionVariables;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.internal.GtidState;
import io.lanes.applier.internal.StatementFilter;
import io.lanes.applier.internal.HeapEstimate;
import io.lanes.applier.internal.StreamedChanges;
import io.lanes.applier.internal.WriteKeyHasher;
import io.lanes.applier.internal.WriteKeySet;
import io.lanes.applier.schema.SchemaHistory;
import io.lanes.applier.schema.SourceColumn;
import io.lanes.applier.schema.SourceTable;
import io.lanes.applier.schema.UnexplainedRowsException;
import io.lanes.applier.value.EnumValue;
import io.lanes.applier.value.SetValue;
import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.ColumnDef;
import io.lanes.binlog.ColumnType;
import io.lanes.binlog.GtidEvent;
import io.lanes.binlog.IntVarEvent;
import io.lanes.binlog.MariaGtidEvent;
import io.lanes.binlog.MariaGtidListEvent;
import io.lanes.binlog.PartialJsonValue;
import io.lanes.binlog.PreviousGtidsEvent;
import io.lanes.binlog.QueryEvent;
import io.lanes.binlog.QueryStatusVars;
import io.lanes.binlog.RandEvent;
import io.lanes.binlog.Row;
import io.lanes.binlog.RowsEvent;
import io.lanes.binlog.TableMapEvent;
import io.lanes.binlog.UserVarEvent;
import io.lanes.binlog.value.MysqlCharsets;
import io.lanes.core.LogicalClock;
import io.lanes.core.Transaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Turns binlog transactions into core transactions carrying a {@link SourceTransaction}:
 *
 * <ul>
 *   <li>partition keys: the schemas the transaction touches (row events and statements' default databases);</li>
 *   <li>logical clock: MySQL's last_committed/sequence_number, or MariaDB's commit id (a MariaDB transaction outside any
 *       commit group gets id 0: it runs alone under the logical-clock scheduler);</li>
 *   <li>write keys: one per unique key (primary key first) of every changed row whose key has no NULL part, hashed over
 *       index name, target schema, table and the values normalised as a case-insensitive collation compares them; a
 *       foreign key adds the parent's key for the referenced values, so a child row and its parent row conflict without
 *       giving up parallelism on the parent table. A row none of whose unique keys is free of NULLs (a table without a
 *       primary or unique key: the target finds such rows by all their columns) adds its table's key instead, so the
 *       transactions touching that table run one after another but in parallel with the rest, rather than alone, each
 *       waiting for everything before it (on the mixed workload of issue 19, 352 of its 2,503 transactions). An
 *       unknown table leaves the transaction without write keys, so the writeset scheduler runs it alone;</li>
 *   <li>barrier: DDL and any other statement logged as text;</li>
 *   <li>position: {@link SourcePosition} text, file and offset past the transaction and the GTID state after it.</li>
 * </ul>
 *
 * <p>Statements pass the {@link StatementFilter} first: account management is skipped unless asked for, and the schema
 * filters apply to statements as to rows (a statement naming included and excluded schemas stops the pipeline). A row
 * event written with foreign key or unique checks off is preceded by a {@link ConstraintChecks} change.
 *
 * <p>Column names come from the TABLE_MAP when the source logs them (binlog_row_metadata=FULL), else from the
 * {@link SchemaHistory} (the source's definitions followed through the log's DDL, seeded from a schema file or the
 * source server), else from the target's catalog by position; a row event whose column count differs from the
 * definition used is an {@link IllegalStateException} naming the table, the position and both counts, and a row event
 * nothing explains is an {@link UnexplainedRowsException}. What the TABLE_MAP carries wins over the history for what
 * it carries (signedness, charsets, member names); the history fills in the rest: ENUM/SET member names, UNSIGNED
 * when the log has no SIGNEDNESS metadata, and the length of BINARY(n) columns, whose trailing 0x00 bytes the server
 * strips in the log and which are padded back here. Keys for the write sets come from the target's catalog (or the
 * sink's {@link TableMetadata}), else from the history. ENUM indexes and SET bitmasks whose member names nothing
 * knows become {@link EnumValue}/{@link SetValue} without names.
 *
 * <p>Not thread-safe: one dispatching thread converts transactions in source order (the GTID state follows them).
 */
public final class BinlogBridge {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(BinlogBridge.class);
    /** Tables whose row events were matched to the target's catalog by position (warned about once each). */
    private final Set<TableRef> matchedByPosition = new java.util.HashSet<>();
    private final SchemaMapping mapping;
    private final TableMetadata metadata;
    private final StatementFilter statementFilter;
    private final SchemaHistory history;
    private final GtidState gtidState = new GtidState();
    private final WriteKeyHasher hasher = new WriteKeyHasher();
    /** The write keys of the transaction being converted (reused: one converting thread). */
    private final WriteKeySet writeKeys = new WriteKeySet();
    private boolean foreignKeyChecksOffRunsAlone;
    private boolean followSkippedDefinitions = true;
    private boolean uniqueIndexKeys;
    private long largeTransactionBytes;
    /**
     * Parent tables (target schema and name) of child rows converted since the last barrier without their foreign key's
     * columns in the row image (binlog_row_image=MINIMAL: an UPDATE's or DELETE's before image holds the primary key
     * only), with the parent's columns those foreign keys reference. Such a row's parent key is unknown, so a later
     * change of the parent that the target cascades to it (a DELETE, an UPDATE of a referenced column) shares no key
     * with it: that change starts after every transaction before it ({@link Transaction#startsAfterAllBefore()}).
     * Without it, under commit order none, the parent's DELETE committed first, its cascade removed the child row on
     * the target, and the child's UPDATE found no row (campaign seed 14161, docs/reliability.md).
     */
    private final Map<TableRef, Set<String>> parentsOfKeylessChildRows = new HashMap<>();
    /**
     * Set while converting a transaction: about the bytes of heap its changes take (what it occupies while queued,
     * {@link Transaction#sizeBytes()}, counted against the queue budget). Its size in the log understates it up to
     * twelve times: values boxed, column lists, change records.
     */
    private long convertedBytes;
    /** Set while converting a transaction: one of its rows may cascade to child rows of unknown parent. */
    private boolean cascadesToUnknownChildRows;
    /** The last file name {@link #position} saw and its base name (every transaction of a file names the same). */
    private String positionFileOf;
    private String positionFile;

    /** A bridge whose statements pass {@link StatementFilter#defaults}: account management skipped. */
    public BinlogBridge(SchemaMapping mapping, TableMetadata metadata) {
        this(mapping, metadata, StatementFilter.defaults(mapping));
    }

    public BinlogBridge(SchemaMapping mapping, TableMetadata metadata, StatementFilter statementFilter) {
        this(mapping, metadata, statementFilter, new SchemaHistory());
    }

    /**
     * @param history the source's table definitions at the first transaction this bridge sees (a seeded history, or
     *     the one a checkpoint restored); the bridge follows the log's DDL in it
     */
    public BinlogBridge(SchemaMapping mapping, TableMetadata metadata, StatementFilter statementFilter,
            SchemaHistory history) {
        this.history = Objects.requireNonNull(history, "history");
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.statementFilter = Objects.requireNonNull(statementFilter, "statementFilter");
    }

    /**
     * Makes every transaction with row changes written under foreign key checks off a barrier (it runs alone: nothing
     * before it is uncommitted, nothing after it starts before it commits). For targets whose only way to turn the
     * checks off reaches every session (H2's SET REFERENTIAL_INTEGRITY). Call before the first transaction.
     */
    public void foreignKeyChecksOffRunsAlone(boolean alone) {
        this.foreignKeyChecksOffRunsAlone = alone;
    }

    /**
     * Adds, for each unique secondary index whose entries a row change adds or removes, a key for the index as a whole
     * (see {@code addUniqueIndexKeys}). For InnoDB targets (MySQL, MariaDB), whose next-key locks make transactions
     * changing different values of one unique index wait for each other; PostgreSQL and H2 lock only equal values, which
     * the per-value keys already order, so there it would only cost parallelism. Off by default. Call before the first
     * transaction.
     */
    public void uniqueIndexKeys(boolean on) {
        this.uniqueIndexKeys = on;
    }

    /**
     * Converts a transaction of row changes only whose size in the log is at least {@code bytes} while a worker applies
     * it, not whole before it is queued: its payload's changes are a list that converts each row event's rows as it is
     * iterated, on the iterating thread, and the transaction has no write keys (they are not computed: the writeset
     * scheduler runs it alone; the schema and logical-clock schedulers place it as any other). Memory then
     * follows the transaction's size in the log, not about twelve times it, and its worker starts applying at once.
     * For appliers that iterate the changes once per apply (the JDBC target's). 0 (the default): never. Call before the
     * first transaction.
     */
    public void largeTransactionBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("large transaction bytes < 0: " + bytes);
        }
        this.largeTransactionBytes = bytes;
    }

    public TableMetadata metadata() {
        return metadata;
    }

    /**
     * Whether the DDL of skipped transactions (already applied before a restart) still changes the schema history:
     * true (the default) when the history starts from its seed and the skipped prefix brings it up to the checkpoint;
     * false when it was restored as in force at the checkpoint, which already holds their changes. Call before the
     * first transaction.
     */
    public void followSkippedDefinitions(boolean follow) {
        this.followSkippedDefinitions = follow;
    }

    /** The schema history this bridge follows (read and changed on the dispatching thread only). */
    public SchemaHistory history() {
        return history;
    }

    /**
     * Seeds the GTID state with where a live stream starts (a GTID set or position): the server sends only the
     * transactions after it, so the positions of later transactions carry it plus what came since. Call before the
     * first transaction.
     */
    public void startingAt(io.lanes.binlog.replication.StartPosition start) {
        gtidState.seed(start);
    }

    /**
     * Takes note of a PREVIOUS_GTIDS event (at the start of each MySQL binlog file, between transactions): its set, the
     * server's transactions before that file, joins the GTID state, so that the positions of the transactions after it
     * carry the server's history and not only what this run saw. Call in source order with the transactions.
     */
    public void previousGtids(PreviousGtidsEvent event) {
        gtidState.addMySqlSet(event.gtidSet());
    }

    /**
     * Takes note of a MariaDB GTID_LIST event (after the FORMAT_DESCRIPTION at the start of each MariaDB binlog file,
     * between transactions): the last GTID of every domain before that file joins the GTID state, so that the positions
     * of the transactions after it carry the domains the files applied do not write in. A domain already in the state
     * keeps its GTID (see {@link GtidState#addMariaList}). Call in source order with the transactions.
     */
    public void mariaGtidList(MariaGtidListEvent event) {
        gtidState.addMariaList(event.gtids());
    }

    /**
     * Takes note of the MariaDB GTID position the server reports for the file position a live stream dumps from
     * ({@code BINLOG_GTID_POS}, {@link io.lanes.binlog.replication.ServerInfo#startGtidPosition()}): the last GTID of
     * every domain before it joins the GTID state, so that checkpoints carry the domains this run never sees, not
     * only the ones it does. Call once, before the first transaction.
     *
     * @throws IllegalArgumentException when the text does not parse
     */
    public void mariaDbPositionBefore(String gtidPosition) {
        gtidState.addMariaPosition(gtidPosition);
    }

    /** Converts the next transaction of the source. */
    public Transaction<SourceTransaction> convert(BinlogTransaction t) throws Exception {
        if (t.gtid() != null) {
            gtidState.add(t.gtid());
        }
        String position = position(t);
        if (largeTransactionBytes > 0 && t.sizeBytes() >= largeTransactionBytes && rowsOnly(t)) {
            return streamed(t, position);
        }
        List<Change> changes = new ArrayList<>();
        writeKeys.clear();
        cascadesToUnknownChildRows = false;
        convertedBytes = 0;
        boolean keysUsable = true;
        boolean statements = false;
        boolean foreignKeyChecksOff = false;
        ConstraintChecks checks = ConstraintChecks.ON;
        Instant commitTime = null;
        Long insertId = null;
        Long lastInsertId = null;
        RandEvent rand = null;
        Map<String, Object> userVariables = new LinkedHashMap<>();
        for (BinlogEvent e : t.events()) {
            if (e instanceof QueryEvent q) {
                if (isTransactionControl(q)) {
                    continue;
                }
                SessionVariables vars = insertId == null && lastInsertId == null && rand == null && userVariables.isEmpty()
                        ? SessionVariables.NONE
                        : new SessionVariables(insertId, lastInsertId, rand == null ? null : rand.seed1(),
                                rand == null ? null : rand.seed2(), userVariables);
                SourceStatement statement = statement(q, position, vars);
                history.apply(q.sql(), statement.defaultSchema(), statement.sqlMode(), position);
                if (statementFilter.applies(statement)) {
                    changes.add(statement);
                    convertedBytes += 200 + 2L * q.sql().length();
                    statements = true;
                }
                insertId = null;
                lastInsertId = null;
                rand = null;
                userVariables.clear();
            } else if (e instanceof IntVarEvent v) {
                if (v.variableType() == IntVarEvent.INSERT_ID) {
                    insertId = v.value();
                } else if (v.variableType() == IntVarEvent.LAST_INSERT_ID) {
                    lastInsertId = v.value();
                }
            } else if (e instanceof RandEvent r) {
                rand = r;
            } else if (e instanceof UserVarEvent u) {
                userVariables.put(u.name(), userVariable(u, position));
            } else if (e instanceof RowsEvent r) {
                if (r.tableMap() != null && mapping.includesTable(r.schema(), r.table())) {
                    ConstraintChecks c = ConstraintChecks.ofRowsEventFlags(r.flags());
                    if (!c.equals(checks)) {
                        changes.add(c);
                        checks = c;
                    }
                    foreignKeyChecksOff |= !c.foreignKeys();
                }
                keysUsable &= rows(r, position, changes, writeKeys);
            }
            if (commitTime == null && e.header().timestamp() > 0) {
                commitTime = Instant.ofEpochSecond(e.header().timestamp());
            }
        }
        SourceTransaction payload = new SourceTransaction(position, t.gtid() == null ? null : t.gtid().toString(),
                commitTime, changes);
        Transaction.Builder<SourceTransaction> b = Transaction.builder(payload).position(position)
                .sizeBytes(Math.max(1, Math.max(t.sizeBytes(), convertedBytes))).partitionKeys(t.schemas());
        LogicalClock clock = logicalClock(t);
        if (clock != null) {
            b.logicalClock(clock);
        }
        if (statements || t.isDdl() || foreignKeyChecksOff && foreignKeyChecksOffRunsAlone) {
            b.barrier(true);
            parentsOfKeylessChildRows.clear(); // everything before it commits first, everything after starts after it
        } else {
            if (keysUsable && !writeKeys.isEmpty()) {
                b.writeKeys(writeKeys.toArray());
            }
            b.startsAfterAllBefore(cascadesToUnknownChildRows);
        }
        return b.build();
    }

    /** BEGIN, COMMIT or an XA statement: the transaction's frame, not a change to apply. */
    private static boolean isTransactionControl(QueryEvent q) {
        return q.isBegin() || q.isCommit() || q.isXaPrepare() || q.sql().regionMatches(true, 0, "XA ", 0, 3);
    }

    /** Whether the transaction changes rows only: no DDL, no other statement logged as text. */
    private static boolean rowsOnly(BinlogTransaction t) {
        if (t.isDdl()) {
            return false;
        }
        for (BinlogEvent e : t.events()) {
            if (e instanceof QueryEvent q && !isTransactionControl(q)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A large transaction of row changes: each row event's column names and definition resolved now, in log order (so
     * later DDL cannot change them), its rows counted, and converted only when a worker applies them. Its write keys
     * are not computed, so the writeset scheduler runs it alone (MySQL's writeset tracking likewise makes a transaction
     * larger than its history wait for everything before it, and everything after it wait for it); the schema and
     * logical-clock schedulers need none and place it by its schemas and clock. Not a barrier: the keyless child rows
     * followed for cascades stay followed (its own rows are not looked at, which only a barrier would make moot).
     */
    private Transaction<SourceTransaction> streamed(BinlogTransaction t, String position) throws Exception {
        List<EventRows> segments = new ArrayList<>();
        ConstraintChecks checks = ConstraintChecks.ON;
        boolean foreignKeyChecksOff = false;
        Instant commitTime = null;
        for (BinlogEvent e : t.events()) {
            if (e instanceof RowsEvent r) {
                Change first = null;
                if (r.tableMap() != null && mapping.includesTable(r.schema(), r.table())) {
                    ConstraintChecks c = ConstraintChecks.ofRowsEventFlags(r.flags());
                    if (!c.equals(checks)) {
                        first = c;
                        checks = c;
                    }
                    foreignKeyChecksOff |= !c.foreignKeys();
                }
                EventRows rows = eventRows(r, position, first);
                if (rows != null) {
                    segments.add(rows.counted());
                }
            }
            if (commitTime == null && e.header().timestamp() > 0) {
                commitTime = Instant.ofEpochSecond(e.header().timestamp());
            }
        }
        SourceTransaction payload = new SourceTransaction(position, t.gtid() == null ? null : t.gtid().toString(),
                commitTime, new StreamedChanges(position, segments));
        Transaction.Builder<SourceTransaction> b = Transaction.builder(payload).position(position)
                .sizeBytes(Math.max(1, t.sizeBytes())).partitionKeys(t.schemas());
        LogicalClock clock = logicalClock(t);
        if (clock != null) {
            b.logicalClock(clock);
        }
        if (foreignKeyChecksOff && foreignKeyChecksOffRunsAlone) {
            b.barrier(true); // as converted whole: the target turns the checks off for every session
            parentsOfKeylessChildRows.clear();
        }
        return b.build();
    }

    /**
     * Takes note of a transaction that is not converted (already applied before a restart): the GTID state still
     * follows it. Returns its position text.
     */
    public String skip(BinlogTransaction t) {
        if (t.gtid() != null) {
            gtidState.add(t.gtid());
        }
        String position = position(t);
        if (followSkippedDefinitions) {
            followDefinitions(t, position);
        }
        return position;
    }

    /** The DDL of a transaction that is not converted still changes the definitions later row events use. */
    private void followDefinitions(BinlogTransaction t, String position) {
        for (BinlogEvent e : t.events()) {
            if (e instanceof QueryEvent q && !q.isBegin() && !q.isCommit() && !q.isXaPrepare()) {
                QueryStatusVars v = q.statusVars();
                history.apply(q.sql(), q.database(), v.sqlMode() == null ? 0 : v.sqlMode(), position);
            }
        }
    }

    private String position(BinlogTransaction t) {
        String file = t.endFile();
        if (file != positionFileOf) {
            // Binlog file names are unique per server; directories differ between a source and a copy of its files.
            positionFileOf = file;
            positionFile = FileSource.baseName(file);
        }
        return new SourcePosition(positionFile, t.endPosition(), gtidState.toString()).toString();
    }

    /**
     * The logical clock the bridge gives a transaction: MySQL's last_committed and sequence_number from its GTID event
     * (none when they are absent or inconsistent), MariaDB's commit id (0 outside any commit group), else none. Public
     * for tools that schedule transactions the bridge could not convert (their rows unexplained) as it would.
     */
    public static LogicalClock logicalClock(BinlogTransaction t) {
        BinlogEvent g = t.gtidEvent();
        if (g instanceof GtidEvent && t.lastCommitted() >= 0 && t.sequenceNumber() > t.lastCommitted()) {
            return LogicalClock.mysql(t.lastCommitted(), t.sequenceNumber());
        }
        if (g instanceof MariaGtidEvent) {
            return LogicalClock.groupCommit(Math.max(0, t.commitId()));
        }
        return null;
    }

    /** A USER_VAR event's value: String, Long (BigInteger when unsigned beyond 2^63-1), Double, or null. */
    private static Object userVariable(UserVarEvent u, String position) {
        if (u.isNull()) {
            return null;
        }
        byte[] b = u.value();
        switch (u.valueType()) {
            case 0 -> {
                java.nio.charset.Charset cs = MysqlCharsets.javaCharset(u.charsetId());
                return cs == null ? b : new String(b, cs);
            }
            case 1 -> {
                return Double.longBitsToDouble(littleEndian(b));
            }
            case 2 -> {
                long v = littleEndian(b);
                return (u.flags() & 1) != 0 && v < 0 ? new java.math.BigInteger(Long.toUnsignedString(v)) : (Object) v;
            }
            default -> throw new IllegalStateException("user variable @" + u.name() + " at " + position + " has value type "
                    + u.valueType() + " (DECIMAL), which Lanes does not apply yet");
        }
    }

    private static long littleEndian(byte[] b) {
        long v = 0;
        for (int i = Math.min(8, b.length) - 1; i >= 0; i--) {
            v = v << 8 | (b[i] & 0xff);
        }
        return v;
    }

    private static SourceStatement statement(QueryEvent q, String position, SessionVariables vars) {
        QueryStatusVars v = q.statusVars();
        Instant at = Instant.ofEpochSecond(q.header().timestamp(),
                v.microseconds() != null ? v.microseconds() * 1000L
                        : v.hrnowMicroseconds() != null ? v.hrnowMicroseconds() * 1000L : 0);
        return new SourceStatement(q.sql(), q.database() == null || q.database().isEmpty() ? null : q.database(),
                v.sqlMode() == null ? 0 : v.sqlMode(), v.collationConnection(), v.collationServer(), at, v.timeZone(),
                position, vars, v.flags2() == null ? 0 : v.flags2());
    }

    /** Adds the event's row changes and write keys; false when some row has no usable key. */
    private boolean rows(RowsEvent r, String position, List<Change> changes, WriteKeySet keys) throws Exception {
        EventRows event = eventRows(r, position, null);
        if (event == null) {
            return true;
        }
        TableMapEvent map = r.tableMap();
        String targetSchema = mapping.targetSchema(map.schema());
        TableShape shape = event.shape;
        if (shape == null && event.definition != null) {
            shape = shapeOf(event.definition);
        }
        boolean usable = shape != null;
        TableRef asParent = new TableRef(targetSchema, map.table()); // for mayCascade: once per event, not per row
        for (Row row : r.rows()) {
            RowChange change = event.convert(row);
            changes.add(change);
            RowImage before = change.before();
            RowImage after = change.after();
            convertedBytes += 24 + HeapEstimate.of(before) + HeapEstimate.of(after);
            if (!parentsOfKeylessChildRows.isEmpty() && !cascadesToUnknownChildRows) {
                cascadesToUnknownChildRows = mayCascade(asParent, r.kind(), after);
            }
            if (shape != null) {
                boolean b = before == null || addKeys(keys, shape, targetSchema, map.table(), before);
                boolean a = after == null || addKeys(keys, shape, targetSchema, map.table(), merged(before, after));
                usable &= b && a;
                if (uniqueIndexKeys) {
                    addUniqueIndexKeys(keys, shape, targetSchema, map.table(), before, after);
                }
            }
        }
        return usable;
    }

    /**
     * What converting a row event's rows needs, resolved once per event (column names, the definition, the checks that
     * refuse an event nothing explains); null when the mapping leaves the table out.
     */
    private EventRows eventRows(RowsEvent r, String position, Change first) throws Exception {
        TableMapEvent map = r.tableMap();
        if (map == null) {
            throw new IllegalStateException("row event at " + position + " without its TABLE_MAP (the input started "
                    + "inside a transaction)");
        }
        if (!mapping.includesTable(map.schema(), map.table())) {
            return null;
        }
        TableShape shape = metadata.shape(mapping.targetSchema(map.schema()), map.table());
        SourceTable definition = history.table(map.schema(), map.table());
        List<String> names = columnNames(map, shape, definition, position);
        return new EventRows(r, new TableRef(map.schema(), map.table()), names, shape, definition, position, first);
    }

    /**
     * One row event's rows as changes: immutable once built, so a worker may convert them while this bridge reads on
     * ({@link StreamedChanges}).
     */
    private static final class EventRows implements StreamedChanges.Segment {
        private final RowsEvent event;
        private final TableRef source;
        private final List<String> names;
        /** The target's (or sink's) shape of the table, null when it does not know it. */
        private final TableShape shape;
        private final SourceTable definition;
        private final List<SourceColumn> sourceColumns;
        private final String position;
        private final Change first;
        private final BitSet beforeColumns;
        private final BitSet afterColumns;
        private int rowCount = -1;

        EventRows(RowsEvent event, TableRef source, List<String> names, TableShape shape, SourceTable definition,
                String position, Change first) {
            this.event = event;
            this.source = source;
            this.names = names;
            this.shape = shape;
            this.definition = definition;
            this.sourceColumns = definition != null && definition.columns().size() == event.tableMap().columns().size()
                    ? definition.columns() : null;
            this.position = position;
            this.first = first;
            this.beforeColumns = event.includedColumns();
            this.afterColumns = event.includedColumnsAfter();
        }

        RowChange convert(Row row) {
            TableMapEvent map = event.tableMap();
            RowImage before = row.before() == null ? null
                    : image(names, beforeColumns, row.before(), map, sourceColumns, position);
            RowImage after = row.after() == null ? null
                    : image(names, afterColumns, row.after(), map, sourceColumns, position);
            if (after != null && before != null) {
                after = resolvePartialJson(before, after);
            }
            return switch (event.kind()) {
                case WRITE -> RowChange.insert(source, after);
                case UPDATE, PARTIAL_UPDATE -> RowChange.update(source, before, after);
                case DELETE -> RowChange.delete(source, before);
            };
        }

        /** Counts the rows (walking their bytes, which checks their framing) and refuses a column no name explains. */
        EventRows counted() {
            int columns = Math.max(beforeColumns.length(), afterColumns.length());
            if (columns > names.size()) {
                TableMapEvent map = event.tableMap();
                throw new IllegalStateException("row image of `" + map.schema() + "`.`" + map.table() + "` at "
                        + position + " has column " + (columns - 1) + " beyond the " + names.size()
                        + " known columns");
            }
            rowCount = event.rowCount();
            return this;
        }

        @Override
        public Change first() {
            return first;
        }

        @Override
        public int rowCount() {
            return rowCount;
        }

        @Override
        public String schema() {
            return source.schema();
        }

        @Override
        public java.util.Iterator<RowChange> rows() {
            java.util.Iterator<Row> rows = event.rows().iterator();
            return new java.util.Iterator<>() {
                @Override
                public boolean hasNext() {
                    return rows.hasNext();
                }

                @Override
                public RowChange next() {
                    return convert(rows.next());
                }
            };
        }
    }

    /**
     * A partial JSON update's after value computed from the before image's document when the image has it; otherwise
     * the {@link PartialJsonValue} stays for the applier, which reads the document from the target.
     */
    private static RowImage resolvePartialJson(RowImage before, RowImage after) {
        Object[] values = null;
        for (int i = 0; i < after.values().length; i++) {
            if (after.values()[i] instanceof PartialJsonValue partial) {
                int at = before.indexOf(after.columns().get(i));
                if (at >= 0 && before.values()[at] instanceof String document) {
                    if (values == null) {
                        values = after.values().clone();
                    }
                    values[i] = partial.applyTo(document);
                }
            }
        }
        return values == null ? after : new RowImage(after.columns(), values);
    }

    /** The after image completed with the before image's values for columns it lacks (MINIMAL updates). */
    private static RowImage merged(RowImage before, RowImage after) {
        if (before == null || after.columns().size() >= before.columns().size()) {
            return after;
        }
        List<String> cols = new ArrayList<>(before.columns());
        Object[] values = before.values().clone();
        for (int i = 0; i < after.columns().size(); i++) {
            int at = cols.indexOf(after.columns().get(i));
            if (at >= 0) {
                values[at] = after.values()[i];
            } else {
                cols.add(after.columns().get(i));
                values = java.util.Arrays.copyOf(values, values.length + 1);
                values[values.length - 1] = after.values()[i];
            }
        }
        return new RowImage(cols, values);
    }

    /**
     * Adds one hash per unique key without a NULL part, and the parent's key per foreign key; when no unique key is
     * usable for this row, the table's key instead (see the class comment). Always true: a known table always yields a
     * key.
     *
     * <p>Why the table key is enough: two transactions that change the same row of such a table both carry its key. Two
     * that change one row of a table with a nullable unique key, one while its key value is set and one while it is
     * NULL, meet through the transaction that set it to NULL (or from NULL), which carries both the value's key and the
     * table's: the writeset scheduler orders all three.
     */
    private boolean addKeys(WriteKeySet keys, TableShape shape, String schema, String table, RowImage image) {
        boolean any = false;
        for (TableShape.Key key : shape.uniqueKeys()) {
            if (hash(key, schema, table, key.columns(), image)) {
                keys.add(hasher.finish());
                any = true;
            }
        }
        for (TableShape.ForeignKey fk : shape.foreignKeys()) {
            if (hash(fk.parentKey(), fk.parent().schema(), fk.parent().table(), fk.columns(), image)) {
                keys.add(hasher.finish());
            } else if (!image.columns().containsAll(fk.columns())) {
                parentsOfKeylessChildRows.computeIfAbsent(fk.parent(), p -> new HashSet<>())
                        .addAll(fk.parentKey().columns());
            }
        }
        if (!any) {
            // No index name can clash with this one: identifiers never hold NUL.
            keys.add(hasher.start("\0table", schema, table).finish());
        }
        return true;
    }

    /**
     * Whether a row change of {@code table} may be cascaded by the target to child rows whose parent key was unknown (see
     * {@link #parentsOfKeylessChildRows}): a DELETE, or an UPDATE whose after image sets a column a child's foreign key
     * references.
     */
    private boolean mayCascade(TableRef table, RowsEvent.Kind kind, RowImage after) {
        Set<String> referenced = parentsOfKeylessChildRows.get(table);
        if (referenced == null) {
            return false;
        }
        return switch (kind) {
            case WRITE -> false;
            case DELETE -> true;
            case UPDATE, PARTIAL_UPDATE -> after == null || after.columns().stream().anyMatch(referenced::contains);
        };
    }

    /**
     * For each unique secondary index whose entries this row change adds or removes (an insert, a delete, an update of
     * one of its columns), one key for the index as a whole. The target locks more than the values: InnoDB's duplicate
     * check for a new entry takes shared next-key locks on the neighbouring entries, and a changed or deleted entry stays
     * (delete-marked) until its transaction commits; two transactions changing different values of one unique index
     * then wait for each other's neighbours. Seen on the mixed workload of issue 19 (docs/commit-order.md): every
     * commit-order deadlock was on a unique secondary index. Ordering the transactions that change such an index's
     * entries costs the parallelism among them and avoids those waits; primary keys are left out (InnoDB locks the
     * clustered record itself, which its row key already orders).
     */
    private void addUniqueIndexKeys(WriteKeySet keys, TableShape shape, String schema, String table, RowImage before,
            RowImage after) {
        for (TableShape.Key key : shape.uniqueKeys()) {
            if (key.name().equals(TableShape.PRIMARY)) {
                continue;
            }
            if (before == null || after == null || changes(key, before, after)) {
                keys.add(hasher.start(UNIQUE_INDEX_KEY, schema, table).value(key.name()).finish());
            }
        }
    }

    /** The index name under which a unique index's whole-index key is hashed: NUL, so no real index name equals it. */
    static final String UNIQUE_INDEX_KEY = "\0index";

    /** Whether an update changes a column of the key (a column the after image lacks is unchanged). */
    private static boolean changes(TableShape.Key key, RowImage before, RowImage after) {
        for (String c : key.columns()) {
            int a = after.indexOf(c);
            if (a < 0) {
                continue;
            }
            int b = before.indexOf(c);
            if (b < 0 || !java.util.Objects.deepEquals(before.values()[b], after.values()[a])) {
                return true;
            }
        }
        return false;
    }

    /** Feeds the key's values to the hasher: false when one is missing or NULL (the key is unusable for this row). */
    private boolean hash(TableShape.Key key, String schema, String table, List<String> columns, RowImage image) {
        hasher.start(key.name(), schema, table);
        for (int i = 0; i < columns.size(); i++) {
            int at = image.indexOf(columns.get(i));
            if (at < 0 || image.values()[at] == null) {
                return false;
            }
            hasher.value(image.values()[at]);
        }
        return true;
    }

    /** Column names: the TABLE_MAP's, else the schema history's, else the target catalog's by position. */
    private List<String> columnNames(TableMapEvent map, TableShape shape, SourceTable definition, String position) {
        if (map.hasColumnNames()) {
            return map.columnNames();
        }
        if (definition != null) {
            checkDefinition(map, definition, position);
            return definition.columnNames();
        }
        if (shape == null) {
            String why = history.whyUnknown(map.schema(), map.table());
            throw new UnexplainedRowsException(new TableRef(map.schema(), map.table()), position, "the binlog has no "
                    + "column names (binlog_row_metadata=MINIMAL), the schema history does not know the table ("
                    + (why != null ? why : "no CREATE TABLE for it in the log before this event, nor in a schema file")
                    + ") and the target has no such table; give the source's definitions with a schema file "
                    + "(lanes.source.schema-file, --schema-file: mariadb-dump/mysqldump --no-data output), or log with "
                    + "binlog_row_metadata=FULL");
        }
        if (shape.columns().size() != map.columns().size()) {
            throw new IllegalStateException("table `" + map.schema() + "`.`" + map.table() + "` at " + position
                    + ": the row event has " + map.columns().size() + " columns but the target table has "
                    + shape.columns().size() + " (without column names in the binlog they are matched by position)");
        }
        TableRef table = new TableRef(map.schema(), map.table());
        if (matchedByPosition.add(table)) {
            String why = history.whyUnknown(map.schema(), map.table());
            LOG.warn("table {} at {}: the binlog has no column names and the schema history does not know the table "
                    + "({}): its values are matched to the target table's columns by position, whose order must be the "
                    + "source's; give a schema file (lanes.source.schema-file) to have them matched by name", table,
                    position, why != null ? why : "no CREATE TABLE for it in the log, a schema file or the source");
        }
        return shape.columns();
    }

    /**
     * Refuses a definition that cannot be the one the row event was logged with: another column count, or a column
     * whose logged type is not the definition's (a statement the history missed, or a wrong schema file).
     */
    private static void checkDefinition(TableMapEvent map, SourceTable definition, String position) {
        TableRef table = new TableRef(map.schema(), map.table());
        if (definition.columns().size() != map.columns().size()) {
            throw new IllegalStateException("table " + table + " at " + position + ": the row event has "
                    + map.columns().size() + " columns but the source's definition (from " + definition.origin()
                    + ") has " + definition.columns().size() + " " + definition.columnNames()
                    + ": the definition is not the one the source logged this event with");
        }
        for (int i = 0; i < definition.columns().size(); i++) {
            SourceColumn c = definition.columns().get(i);
            ColumnType logged = realType(map.columns().get(i));
            if (!io.lanes.applier.schema.LoggedTypes.compatible(c.type(), logged)) {
                throw new IllegalStateException("table " + table + " at " + position + ": column " + (i + 1) + " `"
                        + c.name() + "` is " + c.typeText() + " in the source's definition (from " + definition.origin()
                        + ") but the row event logs a " + logged + " there: the definition is not the one the source "
                        + "logged this event with");
            }
        }
    }

    /** Write-set keys from a definition, for targets and sinks whose own metadata does not know the table. */
    private TableShape shapeOf(SourceTable t) {
        List<TableShape.Key> keys = new ArrayList<>();
        for (SourceTable.Key k : t.uniqueKeys()) {
            keys.add(new TableShape.Key(k.name(), k.columns()));
        }
        List<TableShape.ForeignKey> fks = new ArrayList<>();
        for (SourceTable.ForeignKey f : t.foreignKeys()) {
            SourceTable parent = history.table(f.parentSchema(), f.parentTable());
            if (parent == null) {
                continue;
            }
            Map<String, String> childByParent = new java.util.HashMap<>();
            for (int i = 0; i < f.columns().size() && i < f.parentColumns().size(); i++) {
                childByParent.put(f.parentColumns().get(i).toLowerCase(java.util.Locale.ROOT), f.columns().get(i));
            }
            for (SourceTable.Key k : parent.uniqueKeys()) {
                Set<String> keyColumns = new java.util.HashSet<>();
                k.columns().forEach(c -> keyColumns.add(c.toLowerCase(java.util.Locale.ROOT)));
                if (keyColumns.equals(childByParent.keySet())) {
                    List<String> childColumns = k.columns().stream()
                            .map(c -> childByParent.get(c.toLowerCase(java.util.Locale.ROOT))).toList();
                    fks.add(new TableShape.ForeignKey(childColumns,
                            new TableRef(mapping.targetSchema(f.parentSchema()), f.parentTable()),
                            new TableShape.Key(k.name(), k.columns())));
                    break;
                }
            }
        }
        return new TableShape(t.columnNames(), keys, fks);
    }

    private static RowImage image(List<String> names, BitSet present, List<Object> values, TableMapEvent map,
            List<SourceColumn> sourceColumns, String position) {
        List<String> cols = new ArrayList<>(present.cardinality());
        Object[] out = new Object[present.cardinality()];
        int n = 0;
        for (int i = present.nextSetBit(0); i >= 0; i = present.nextSetBit(i + 1)) {
            if (i >= names.size()) {
                throw new IllegalStateException("row image of `" + map.schema() + "`.`" + map.table() + "` at " + position
                        + " has column " + i + " beyond the " + names.size() + " known columns");
            }
            cols.add(names.get(i));
            out[n++] = value(values.get(i), map.columns().get(i), map, sourceColumns == null ? null
                    : sourceColumns.get(i), position);
        }
        return new RowImage(cols, out);
    }

    private static final java.math.BigInteger TWO_64 = java.math.BigInteger.ONE.shiftLeft(64);

    private static Object value(Object v, ColumnDef column, TableMapEvent map, SourceColumn source, String position) {
        if (v == null) {
            return null;
        }
        ColumnType type = realType(column);
        if (type == ColumnType.ENUM && v instanceof Integer i) {
            List<String> members = source == null ? null : source.enumMembers();
            if (members == null) {
                return new EnumValue(i, null);
            }
            if (i > members.size()) {
                throw new IllegalStateException("table `" + map.schema() + "`.`" + map.table() + "` at " + position
                        + ": ENUM index " + i + " of column `" + source.name() + "` is past its " + members.size()
                        + " members in the source's definition");
            }
            return new EnumValue(i, i == 0 ? "" : members.get(i - 1));
        }
        if (type == ColumnType.SET && v instanceof Long bits) {
            List<String> members = source == null ? null : source.setMembers();
            if (members != null && members.size() < 64 && bits >>> members.size() != 0) {
                throw new IllegalStateException("table `" + map.schema() + "`.`" + map.table() + "` at " + position
                        + ": SET bits 0x" + Long.toHexString(bits) + " of column `" + source.name() + "` are past its "
                        + members.size() + " members in the source's definition");
            }
            return new SetValue(bits, members);
        }
        if (source != null && source.unsigned() && !map.hasSignedness()) {
            // The log does not say (MariaDB's NO_LOG): the decoder read the bits as signed; the definition says UNSIGNED.
            if (v instanceof Integer i && i < 0) {
                return switch (type) {
                    case TINY -> i + 256;
                    case SHORT -> i + 65536;
                    case INT24 -> i + (1 << 24);
                    default -> (Object) (i + (1L << 32));
                };
            }
            if (v instanceof Long l && l < 0 && type == ColumnType.LONGLONG) {
                return java.math.BigInteger.valueOf(l).add(TWO_64);
            }
            if (v instanceof Long l && l < 0 && type == ColumnType.LONG) {
                return l + (1L << 32);
            }
        }
        if (type == ColumnType.STRING && v instanceof byte[] b) {
            int length = -1;
            if (column.charsetId() == ColumnDef.BINARY_CHARSET) {
                length = column.stringMaxLength();
            } else if (column.charsetId() < 0 && source != null && source.fixedBinary()) {
                length = source.length();
            }
            if (b.length < length) {
                // BINARY(n): the server strips trailing 0x00 bytes in the log; the column holds n bytes.
                return java.util.Arrays.copyOf(b, length);
            }
        }
        return v;
    }

    private static ColumnType realType(ColumnDef c) {
        if (c.type() == ColumnType.STRING) {
            ColumnType real = ColumnType.of(c.meta() >>> 8);
            if (real == ColumnType.ENUM || real == ColumnType.SET) {
                return real;
            }
        }
        return c.type();
    }
}
