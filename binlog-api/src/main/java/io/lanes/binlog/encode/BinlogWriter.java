package io.lanes.binlog.encode;

import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.ChecksumAlgorithm;
import io.lanes.binlog.ColumnDef;
import io.lanes.binlog.EventHeader;
import io.lanes.binlog.EventType;
import io.lanes.binlog.FormatDescriptionEvent;
import io.lanes.binlog.gtid.Gtid;
import io.lanes.binlog.GtidEvent;
import io.lanes.binlog.gtid.MariaDbGtid;
import io.lanes.binlog.MariaGtidEvent;
import io.lanes.binlog.gtid.MySqlGtid;
import io.lanes.binlog.QueryStatusVars;
import io.lanes.binlog.RowsEvent;
import io.lanes.binlog.TableMapEvent;
import io.lanes.binlog.encode.BinlogEventEncoder.RowMetadata;
import io.lanes.binlog.internal.ColumnValueEncoder.Sink;
import io.lanes.binlog.internal.ServerVersion;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Writes a valid binlog v4 file: the magic bytes, a FORMAT_DESCRIPTION event, then transactions and other events with
 * correct headers ({@code event_length}, {@code log_pos}), and CRC32 checksums unless turned off. It synthesizes
 * workloads for tests and benchmarks the way a MySQL 8 or MariaDB 10.11 server would log them in ROW format:
 *
 * <pre>{@code
 * Table t = Table.builder("db1", "sbtest1").integer("id").notNull().primaryKey().integer("k").notNull().build();
 * try (BinlogWriter w = BinlogWriter.mariadb(Files.newOutputStream(path))) {
 *     w.ddl("db1", "CREATE TABLE sbtest1 (id INT PRIMARY KEY, k INT NOT NULL)");
 *     w.beginTransaction();
 *     w.insert(t, new Object[] {1, 10}, new Object[] {2, 20});
 *     w.update(t, new Object[] {1, 10}, new Object[] {1, 11});
 *     w.delete(t, new Object[] {2, 20});
 *     w.commit();
 * }
 * }</pre>
 *
 * <p>A MySQL-flavour transaction is GTID (or ANONYMOUS_GTID) with logical clock, commit timestamps and transaction
 * length; QUERY {@code BEGIN}; per statement a TABLE_MAP and WRITE/UPDATE/DELETE_ROWS v2 events (split at
 * {@link Options#maxRowsEventBytes()}, the last flagged STMT_END_F); XID. A MariaDB-flavour transaction is a MariaDB GTID
 * (transactional, allow-parallel, with the group commit id when given) in place of BEGIN, then the same with ROWS v1
 * events. DDL is a GTID followed by its QUERY (MariaDB: a standalone GTID). Row values are the Java values
 * {@code ColumnValueDecoder} returns (see {@link io.lanes.binlog.value}), so reading the file gives back what was written.
 *
 * <p>Output is a pure function of the options and the calls: no wall clock, no randomness. Timestamps come from a
 * logical clock that starts at {@link Options#startMicros()} and advances {@link Options#tickMicros()} per transaction
 * (or by {@link #advanceClock(long)}); GTIDs, table ids, xids and sequence numbers count up from fixed starts.
 *
 * <p>A transaction's events are buffered until {@link #commit()} (MySQL's GTID event needs the transaction's length) and
 * written then; other calls write at once. The writer closes its stream on {@link #close()}. Not thread-safe: one writer
 * belongs to one thread.
 */
public final class BinlogWriter implements Closeable, Flushable {
    private static final byte[] MAGIC = {(byte) 0xfe, 0x62, 0x69, 0x6e};
    /** OPTION_AUTO_IS_NULL etc. as both servers log by default; the modes their defaults give. */
    private static final long MYSQL_SQL_MODE = 1168113696L;
    private static final long MARIADB_SQL_MODE = 1411383296L;

    private final OutputStream out;
    private final Options options;
    private final BinlogEventEncoder encoder;
    private final Map<Table, Long> tableIds = new HashMap<>();
    private final List<Pending> pending = new ArrayList<>();
    private final long serverVersionNumber;
    private long position;
    private long clockMicros;
    private long nextGno;
    private long nextSequenceNumber = 1;
    private long nextTableId;
    private long nextXid;
    private boolean ended;
    private boolean closed;
    // the open transaction
    private TransactionSpec trx;
    private long trxServerId;
    private Gtid trxGtid;

    private record Pending(int type, int headerFlags, Sink body) {
    }

    private BinlogWriter(OutputStream out, Options options) {
        this.out = out;
        this.options = options;
        FormatDescriptionEvent fde = BinlogEventEncoder.formatDescription(options.flavor, options.checksum,
                options.startMicros / 1_000_000, options.serverId, options.startMicros / 1_000_000);
        this.encoder = new BinlogEventEncoder(fde, options.rowMetadata);
        int[] v = ServerVersion.split(options.flavor.serverVersion());
        this.serverVersionNumber = v[0] * 10_000L + v[1] * 100L + v[2];
        this.clockMicros = options.startMicros;
        this.nextGno = options.firstGtidNumber;
        this.nextTableId = options.firstTableId;
        this.nextXid = options.firstXid;
        writeBytes(MAGIC);
        position = 4;
        emit(encoder.encode(fde, position));
    }

    /** A MySQL 8 writer with default {@link Options}. */
    public static BinlogWriter mysql8(OutputStream out) {
        return open(out, Options.builder(BinlogFlavor.MYSQL8).build());
    }

    /** A MariaDB 10.11 writer with default {@link Options}. */
    public static BinlogWriter mariadb(OutputStream out) {
        return open(out, Options.builder(BinlogFlavor.MARIADB).build());
    }

    /** Writes the magic and the FORMAT_DESCRIPTION event to {@code out} at once. */
    public static BinlogWriter open(OutputStream out, Options options) {
        return new BinlogWriter(Objects.requireNonNull(out, "out"), Objects.requireNonNull(options, "options"));
    }

    /** Creates (or truncates) a file and writes to it. */
    public static BinlogWriter open(Path file, Options options) {
        try {
            return open(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), options);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    public Options options() {
        return options;
    }

    /** The encoder this writer uses (its FORMAT_DESCRIPTION, checksum and row metadata). */
    public BinlogEventEncoder encoder() {
        return encoder;
    }

    /** The file offset at which the next event will be written. */
    public long position() {
        return position;
    }

    /** The logical clock in microseconds since the epoch. */
    public long clockMicros() {
        return clockMicros;
    }

    /** Moves the logical clock forward. */
    public BinlogWriter advanceClock(long micros) {
        if (micros < 0) {
            throw new IllegalArgumentException("the clock only goes forward");
        }
        clockMicros += micros;
        return this;
    }

    /**
     * MySQL flavour: the logical-clock sequence number of the last transaction written (0 before the first), the value
     * to give {@link TransactionSpec#withLastCommitted} for transactions that may run in parallel after it.
     */
    public long lastSequenceNumber() {
        return nextSequenceNumber - 1;
    }

    public boolean inTransaction() {
        return trx != null;
    }

    /** The table id this writer uses for a table (assigned on first use). */
    public long tableId(Table t) {
        return tableIds.computeIfAbsent(t, k -> nextTableId++);
    }

    // -------------------------------------------------------------------------------------------------- low level

    /**
     * Writes one event as it is (outside a transaction): its header's timestamp, server id and flags are kept, its
     * length and {@code log_pos} are this writer's. See {@link BinlogEventEncoder#encode} for the supported types.
     */
    public BinlogWriter write(BinlogEvent event) {
        checkWritable();
        if (trx != null) {
            throw new IllegalStateException("write() is for events outside transactions");
        }
        emit(encoder.encode(event, position));
        return this;
    }

    /** Writes a ROTATE to {@code nextFile} at offset 4; the log ends here. */
    public BinlogWriter rotate(String nextFile) {
        checkWritable();
        checkNoTransaction();
        Sink b = new Sink();
        encoder.rotate(b, 4, nextFile);
        emit(frame(EventType.ROTATE.code(), 0, options.serverId, b));
        ended = true;
        return this;
    }

    /** Writes a STOP event (a clean server shutdown); the log ends here. */
    public BinlogWriter stop() {
        checkWritable();
        checkNoTransaction();
        emit(frame(EventType.STOP.code(), 0, options.serverId, new Sink(0)));
        ended = true;
        return this;
    }

    // ------------------------------------------------------------------------------------------------ transactions

    /** Opens a transaction with the next GTID and a serial logical clock. */
    public BinlogWriter beginTransaction() {
        return beginTransaction(TransactionSpec.auto());
    }

    /** Opens a transaction with this GTID ({@link MySqlGtid} for MySQL flavour, {@link MariaDbGtid} for MariaDB). */
    public BinlogWriter beginTransaction(Gtid gtid) {
        return beginTransaction(TransactionSpec.auto().withGtid(gtid));
    }

    public BinlogWriter beginTransaction(TransactionSpec spec) {
        checkWritable();
        checkNoTransaction();
        trx = Objects.requireNonNull(spec, "spec");
        resolveGtid(spec);
        if (!options.flavor.isMariaDb()) {
            Sink b = new Sink();
            encoder.query(b, spec.session(), 0, 0, "", "BEGIN", statusVars(null));
            pending.add(new Pending(EventType.QUERY.code(), EventHeader.FLAG_SUPPRESS_USE, b));
        }
        return this;
    }

    private void resolveGtid(TransactionSpec spec) {
        Gtid g = spec.gtid();
        trxServerId = options.serverId;
        if (options.flavor.isMariaDb()) {
            if (g == null) {
                g = new MariaDbGtid(options.domainId, options.serverId, nextGno++);
            } else if (!(g instanceof MariaDbGtid)) {
                throw new IllegalArgumentException("a MariaDB log takes MariaDB GTIDs, not " + g);
            }
            trxServerId = ((MariaDbGtid) g).serverId();
        } else if (g == null) {
            g = options.anonymous ? null : new MySqlGtid(options.sourceId, null, nextGno++);
        } else if (!(g instanceof MySqlGtid)) {
            throw new IllegalArgumentException("a MySQL log takes MySQL GTIDs, not " + g);
        }
        trxGtid = g;
    }

    /** Logs an INSERT of these rows (full after images, values in column order). */
    public BinlogWriter insert(Table table, Object[]... rows) {
        return insert(table, List.of(rows));
    }

    public BinlogWriter insert(Table table, List<Object[]> rows) {
        statement(table, RowsEvent.Kind.WRITE, null, rows);
        return this;
    }

    /** Logs an UPDATE of one row (full before and after images). */
    public BinlogWriter update(Table table, Object[] before, Object[] after) {
        return update(table, List.<Object[]>of(before), List.<Object[]>of(after));
    }

    /** Logs an UPDATE of several rows: {@code before.get(i)} became {@code after.get(i)}. */
    public BinlogWriter update(Table table, List<Object[]> before, List<Object[]> after) {
        if (before.size() != after.size()) {
            throw new IllegalArgumentException(before.size() + " before images but " + after.size() + " after images");
        }
        statement(table, RowsEvent.Kind.UPDATE, before, after);
        return this;
    }

    /** Logs a DELETE of these rows (full before images). */
    public BinlogWriter delete(Table table, Object[]... rows) {
        return delete(table, List.of(rows));
    }

    public BinlogWriter delete(Table table, List<Object[]> rows) {
        statement(table, RowsEvent.Kind.DELETE, rows, null);
        return this;
    }

    /**
     * Ends the transaction with an XID event and writes it whole.
     *
     * @return the transaction's GTID ({@code null} for an anonymous MySQL transaction)
     */
    public Gtid commit() {
        checkWritable();
        if (trx == null) {
            throw new IllegalStateException("no transaction to commit");
        }
        Sink xid = new Sink(8);
        xid.i64(nextXid++);
        pending.add(new Pending(EventType.XID.code(), 0, xid));
        return flushTransaction(false);
    }

    /**
     * Logs a DDL statement (or any statement that is its own transaction): GTID then QUERY, as the servers log DDL.
     *
     * @param schema the default database ("" for none)
     * @return the statement's GTID ({@code null} when anonymous)
     */
    public Gtid ddl(String schema, String sql) {
        return ddl(TransactionSpec.auto(), schema, sql);
    }

    public Gtid ddl(TransactionSpec spec, String schema, String sql) {
        checkWritable();
        checkNoTransaction();
        trx = spec;
        resolveGtid(spec);
        Sink b = new Sink();
        encoder.query(b, spec.session(), 0, 0, schema, sql, statusVars(schema));
        pending.add(new Pending(EventType.QUERY.code(), 0, b));
        return flushTransaction(true);
    }

    private QueryStatusVars statusVars(String ddlSchema) {
        boolean maria = options.flavor.isMariaDb();
        int cs = maria ? Table.UTF8MB4 : Table.UTF8MB4_0900;
        List<String> dbs = ddlSchema == null || ddlSchema.isEmpty() || maria ? null : List.of(ddlSchema);
        return new QueryStatusVars(0L, maria ? MARIADB_SQL_MODE : MYSQL_SQL_MODE, "std", null, null, cs, cs, cs, null,
                null, null, null, null, null, null, dbs, null, null, null, maria ? null : (Integer) Table.UTF8MB4_0900,
                null, null, null, null, null, null, -1);
    }

    private void statement(Table table, RowsEvent.Kind kind, List<Object[]> before, List<Object[]> after) {
        checkWritable();
        if (trx == null) {
            throw new IllegalStateException("beginTransaction() first");
        }
        List<Object[]> main = before != null ? before : after;
        if (main.isEmpty()) {
            return;
        }
        int mark = pending.size();
        try {
            statementEvents(table, kind, before, after, main);
        } catch (RuntimeException e) {
            pending.subList(mark, pending.size()).clear(); // a bad value leaves the transaction as it was
            throw e;
        }
    }

    private void statementEvents(Table table, RowsEvent.Kind kind, List<Object[]> before, List<Object[]> after,
            List<Object[]> main) {
        TableMapEvent map = tableMap(table);
        Sink tm = new Sink();
        encoder.tableMap(tm, map);
        pending.add(new Pending(EventType.TABLE_MAP.code(), 0, tm));

        int version = options.rowsVersion;
        int type = BinlogEventEncoder.rowsType(kind, version);
        ColumnDef[] cols = table.columns().toArray(new ColumnDef[0]);
        BitSet all = new BitSet();
        all.set(0, cols.length);
        RowImages header = new RowImages(kind, version, map, 0, new byte[0], all, all,
                kind == RowsEvent.Kind.WRITE ? null : List.of(), kind == RowsEvent.Kind.DELETE ? null : List.of());
        Sink body = null;
        int rowsStart = 0;
        for (int i = 0; i < main.size(); i++) {
            if (body == null || body.size() - rowsStart >= options.maxRowsEventBytes) {
                body = new Sink(Math.min(options.maxRowsEventBytes + 1024, 1 << 20));
                encoder.rows(body, header); // the event header part: table id, flags, width, bitmaps; no rows
                rowsStart = body.size();
                pending.add(new Pending(type, 0, body));
            }
            if (before != null) {
                BinlogEventEncoder.image(body, cols, all, before.get(i));
            }
            if (after != null) {
                BinlogEventEncoder.image(body, cols, all, after.get(i));
            }
        }
        // STMT_END_F on the statement's last event (flags follow the table id)
        int flagsAt = encoder.format().postHeaderLength(type) == 6 ? 4 : 6;
        body.putLe(flagsAt, RowsEvent.FLAG_STMT_END, 2);
    }

    private TableMapEvent tableMap(Table t) {
        List<Integer> prefixes = new ArrayList<>();
        for (int i = 0; i < t.primaryKey().size(); i++) {
            prefixes.add(0);
        }
        EventHeader h = new EventHeader(0, 0, EventType.TABLE_MAP.code(), options.serverId, 0, 0, 0);
        return new TableMapEvent(h, tableId(t), 1, t.schema(), t.name(), t.columns(), t.primaryKey(), prefixes);
    }

    private Gtid flushTransaction(boolean standalone) {
        TransactionSpec spec = trx;
        Gtid gtid = trxGtid;
        long ts = clockMicros;
        long seconds = ts / 1_000_000;
        int trailer = encoder.checksum().trailerLength();
        long rest = 0;
        for (Pending p : pending) {
            rest += EventHeader.LENGTH_V4 + p.body.size() + trailer;
        }
        Sink gtidBody = new Sink(64);
        int gtidType;
        int gtidFlags;
        if (options.flavor.isMariaDb()) {
            MariaDbGtid mg = (MariaDbGtid) gtid;
            int flags = standalone ? MariaGtidEvent.FL_STANDALONE | MariaGtidEvent.FL_ALLOW_PARALLEL
                    | MariaGtidEvent.FL_DDL : MariaGtidEvent.FL_TRANSACTIONAL | MariaGtidEvent.FL_ALLOW_PARALLEL;
            if (spec.commitId() >= 0) {
                flags |= MariaGtidEvent.FL_GROUP_COMMIT_ID;
            }
            EventHeader h = new EventHeader(0, seconds, EventType.MARIA_GTID.code(), mg.serverId(), 0, 0, 0);
            encoder.mariaGtid(gtidBody, new MariaGtidEvent(h, mg.sequence(), mg.domainId(), flags, spec.commitId(), -1,
                    null, null, 0, 0, -1, -1));
            gtidType = EventType.MARIA_GTID.code();
            gtidFlags = EventHeader.FLAG_SUPPRESS_USE;
        } else {
            long seq = nextSequenceNumber++;
            long lastCommitted = spec.lastCommitted() >= 0 ? spec.lastCommitted() : seq - 1;
            if (lastCommitted >= seq) {
                throw new IllegalArgumentException("last_committed " + lastCommitted + " is not below the sequence number "
                        + seq);
            }
            MySqlGtid mg = (MySqlGtid) gtid;
            boolean anonymous = mg == null;
            // the transaction length includes the GTID event, whose size depends on the length's packed size
            long total = rest;
            for (int i = 0; i < 3; i++) {
                gtidBody.reset();
                encoder.mysqlGtid(gtidBody, gtidEvent(anonymous, mg, seconds, lastCommitted, seq, ts, total));
                total = rest + EventHeader.LENGTH_V4 + gtidBody.size() + trailer;
            }
            gtidType = anonymous ? EventType.ANONYMOUS_GTID.code() : EventType.GTID.code();
            gtidFlags = 0;
        }
        List<byte[]> events = new ArrayList<>(pending.size() + 1);
        long pos = position;
        byte[] g = encoder.frame(seconds, gtidType, trxServerId, gtidFlags, gtidBody, pos, true);
        events.add(g);
        pos += g.length;
        for (Pending p : pending) {
            byte[] e = encoder.frame(seconds, p.type, trxServerId, p.headerFlags, p.body, pos, true);
            events.add(e);
            pos += e.length;
        }
        pending.clear();
        trx = null;
        trxGtid = null;
        for (byte[] e : events) {
            emit(e);
        }
        clockMicros += options.tickMicros;
        return gtid;
    }

    private GtidEvent gtidEvent(boolean anonymous, MySqlGtid mg, long seconds, long lastCommitted, long seq, long ts,
            long length) {
        EventHeader h = new EventHeader(0, seconds, EventType.GTID.code(), trxServerId, 0, 0, 0);
        UUID sid = anonymous ? new UUID(0, 0) : mg.sourceId();
        long gno = anonymous ? 0 : mg.gno();
        return new GtidEvent(h, anonymous, 1, sid, null, gno, lastCommitted, seq, ts, ts, length, serverVersionNumber,
                serverVersionNumber, -1);
    }

    // ----------------------------------------------------------------------------------------------------- output

    private byte[] frame(int type, int flags, long serverId, Sink body) {
        return encoder.frame(clockMicros / 1_000_000, type, serverId, flags, body, position, true);
    }

    private void emit(byte[] event) {
        writeBytes(event);
        position += event.length;
    }

    private void writeBytes(byte[] b) {
        try {
            out.write(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void checkWritable() {
        if (closed) {
            throw new IllegalStateException("writer closed");
        }
        if (ended) {
            throw new IllegalStateException("the log ended with ROTATE or STOP");
        }
    }

    private void checkNoTransaction() {
        if (trx != null) {
            throw new IllegalStateException("a transaction is open: commit() first");
        }
    }

    @Override
    public void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Closes the stream. An open transaction is discarded (nothing of it was written) and reported with an
     * {@link IllegalStateException} after closing.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean open = trx != null;
        pending.clear();
        trx = null;
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (open) {
            throw new IllegalStateException("closed with an open transaction; it was not written");
        }
    }

    /**
     * What a {@link BinlogWriter} writes: server flavour, checksum, ids and clock starts, row event version, row metadata
     * and event size. Immutable; build with {@link #builder(BinlogFlavor)}.
     */
    public static final class Options {
        private final BinlogFlavor flavor;
        private final ChecksumAlgorithm checksum;
        private final long serverId;
        private final long startMicros;
        private final long tickMicros;
        private final RowMetadata rowMetadata;
        private final int rowsVersion;
        private final int maxRowsEventBytes;
        private final UUID sourceId;
        private final boolean anonymous;
        private final long domainId;
        private final long firstGtidNumber;
        private final long firstTableId;
        private final long firstXid;

        private Options(Builder b) {
            flavor = b.flavor;
            checksum = b.checksum;
            serverId = b.serverId;
            startMicros = b.startMicros;
            tickMicros = b.tickMicros;
            rowMetadata = b.rowMetadata;
            rowsVersion = b.rowsVersion < 0 ? b.flavor.rowsVersion() : b.rowsVersion;
            maxRowsEventBytes = b.maxRowsEventBytes;
            sourceId = b.sourceId;
            anonymous = b.anonymous;
            domainId = b.domainId;
            firstGtidNumber = b.firstGtidNumber;
            firstTableId = b.firstTableId;
            firstXid = b.firstXid;
        }

        public static Builder builder(BinlogFlavor flavor) {
            return new Builder(flavor);
        }

        public BinlogFlavor flavor() {
            return flavor;
        }

        public ChecksumAlgorithm checksum() {
            return checksum;
        }

        public long serverId() {
            return serverId;
        }

        public long startMicros() {
            return startMicros;
        }

        public long tickMicros() {
            return tickMicros;
        }

        public RowMetadata rowMetadata() {
            return rowMetadata;
        }

        public int rowsVersion() {
            return rowsVersion;
        }

        public int maxRowsEventBytes() {
            return maxRowsEventBytes;
        }

        public UUID sourceId() {
            return sourceId;
        }

        public boolean anonymous() {
            return anonymous;
        }

        public long domainId() {
            return domainId;
        }

        public long firstGtidNumber() {
            return firstGtidNumber;
        }

        /** Builder for {@link Options}; every setting has a default. Not thread-safe. */
        public static final class Builder {
            private final BinlogFlavor flavor;
            private ChecksumAlgorithm checksum = ChecksumAlgorithm.CRC32;
            private long serverId = 1;
            private long startMicros = 1_700_000_000_000_000L;
            private long tickMicros = 1_000;
            private RowMetadata rowMetadata = RowMetadata.FULL;
            private int rowsVersion = -1;
            private int maxRowsEventBytes = 8192;
            private UUID sourceId = UUID.fromString("3e11fa47-71ca-11e1-9e33-c80aa9429562");
            private boolean anonymous;
            private long domainId;
            private long firstGtidNumber = 1;
            private long firstTableId = 100;
            private long firstXid = 1000;

            private Builder(BinlogFlavor flavor) {
                this.flavor = Objects.requireNonNull(flavor, "flavor");
            }

            /** CRC32 (default) or OFF. */
            public Builder checksum(ChecksumAlgorithm alg) {
                if (alg == ChecksumAlgorithm.UNDEFINED) {
                    throw new IllegalArgumentException("OFF or CRC32");
                }
                this.checksum = alg;
                return this;
            }

            /** The server id in every event header (default 1); MariaDB GTIDs carry it as their server part. */
            public Builder serverId(long id) {
                this.serverId = id;
                return this;
            }

            /** The logical clock's start, microseconds since the epoch (default 2023-11-14T22:13:20Z). */
            public Builder startMicros(long micros) {
                this.startMicros = micros;
                return this;
            }

            /** How far the clock moves per transaction (default 1000 microseconds). */
            public Builder tickMicros(long micros) {
                this.tickMicros = micros;
                return this;
            }

            /** TABLE_MAP optional metadata (default FULL). */
            public Builder rowMetadata(RowMetadata m) {
                this.rowMetadata = Objects.requireNonNull(m);
                return this;
            }

            /** Row event version 1 or 2 (default: the flavour's, MySQL 2, MariaDB 1). */
            public Builder rowsVersion(int version) {
                if (version != 1 && version != 2) {
                    throw new IllegalArgumentException("1 or 2");
                }
                this.rowsVersion = version;
                return this;
            }

            /** A statement's rows are split into events of about this many row bytes (default 8192, the servers'). */
            public Builder maxRowsEventBytes(int bytes) {
                if (bytes < 256) {
                    throw new IllegalArgumentException("at least 256");
                }
                this.maxRowsEventBytes = bytes;
                return this;
            }

            /** MySQL: the source UUID of generated GTIDs. */
            public Builder sourceId(UUID id) {
                this.sourceId = Objects.requireNonNull(id);
                return this;
            }

            /** MySQL: write ANONYMOUS_GTID events (gtid_mode=OFF) instead of GTIDs. */
            public Builder anonymous(boolean anon) {
                this.anonymous = anon;
                return this;
            }

            /** MariaDB: the replication domain of generated GTIDs (default 0). */
            public Builder domainId(long domain) {
                this.domainId = domain;
                return this;
            }

            /** The first generated GTID's number (MySQL gno, MariaDB sequence; default 1). */
            public Builder firstGtidNumber(long n) {
                this.firstGtidNumber = n;
                return this;
            }

            public Builder firstTableId(long id) {
                this.firstTableId = id;
                return this;
            }

            public Builder firstXid(long xid) {
                this.firstXid = xid;
                return this;
            }

            public Options build() {
                return new Options(this);
            }
        }
    }
}
