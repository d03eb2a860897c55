package io.lanes.examples.cli;

import io.lanes.applier.BinlogBridge;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableMetadata;
import io.lanes.applier.TableRef;
import io.lanes.applier.TableShape;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.schema.SchemaHistory;
import io.lanes.applier.schema.SourceTable;
import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogFormatException;
import io.lanes.binlog.BinlogReader;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.GtidEvent;
import io.lanes.binlog.MariaGtidEvent;
import io.lanes.binlog.TableMapEvent;
import io.lanes.binlog.TransactionAssembler;
import io.lanes.core.LogicalClock;
import io.lanes.core.Transaction;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lanes stat}: what binlog files hold, and the parallelism each scheduler could reach on them: the critical path
 * of the dependency graph each policy builds, with unit cost per transaction and unlimited workers.
 */
@Command(name = "stat", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
        description = {"What binlog files hold, and how much parallelism each scheduler could reach on them.",
            "",
            "Summarises MySQL/MariaDB binlog files (plain or .gz): events per type, transactions, schemas and",
            "tables touched, transaction sizes (bytes and rows: min/avg/p50/p99/max), and how much faster a parallel",
            "replica could be: for each scheduler the critical path of the dependencies it would impose, with unit cost",
            "per transaction and unlimited workers; parallelism = transactions / critical path length.",
            "",
            "  sequential     every transaction after the one before it (parallelism 1)",
            "  schema         after the previous transaction of each schema it touches",
            "  logical-clock  after what the source's group commit says (MySQL last_committed, MariaDB commit id)",
            "  writeset       after the previous writer of each row key (primary and unique keys) it writes",
            "",
            "DDL and other statements are barriers under every policy, as the engine runs them. Row keys are extracted",
            "by the same bridge the engine uses; table keys come from CREATE/ALTER TABLE statements in the log itself or",
            "from binlog_row_metadata=FULL primary keys; when neither describes a table, writeset is reported unknown.",
            "",
            "With --json the output is one JSON object.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:all files read", "1:bad input (stderr names file and byte offset)", "2:bad usage"})
public final class StatCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Binlog files, read in order.")
    List<Path> files;

    @Option(names = "--json", description = "Print one JSON object instead of the report.")
    boolean json;

    @Option(names = "--no-verify-checksum", description = "Do not verify event CRC32 checksums.")
    boolean noVerifyChecksum;

    @Override
    public Integer call() {
        String unusable = SourceFileCheck.firstUnusable(files);
        if (unusable != null) {
            System.err.println("lanes stat: " + unusable);
            return 1;
        }
        Stats stats;
        try {
            stats = analyse(files, !noVerifyChecksum);
        } catch (BinlogFormatException e) {
            System.err.println("lanes stat: " + e.getMessage());
            return 1;
        } catch (UncheckedIOException e) {
            System.err.println("lanes stat: " + e.getMessage());
            return 1;
        }
        PrintStream out = System.out;
        if (json) {
            out.println(Json.write(stats.toJson()));
        } else {
            stats.print(out);
        }
        out.flush();
        return 0;
    }

    /** The result of reading the files. */
    static final class Stats {
        final List<Path> files;
        final Map<String, Long> eventsByType = new TreeMap<>();
        long events;
        long transactions;
        final TreeSet<String> schemas = new TreeSet<>();
        final TreeSet<String> tables = new TreeSet<>();
        final List<Long> bytes = new ArrayList<>();
        final List<Long> rows = new ArrayList<>();
        final Map<String, CriticalPath> paths = new LinkedHashMap<>();
        final TreeSet<String> tablesWithoutKeys = new TreeSet<>();
        final SchemaGroupFinder schemaGroups = new SchemaGroupFinder();
        long barriers;

        Stats(List<Path> files) {
            this.files = files;
            for (String s : List.of("sequential", "schema", "logical-clock", "writeset")) {
                paths.put(s, new CriticalPath());
            }
        }

        boolean writesetKnown() {
            return tablesWithoutKeys.isEmpty();
        }

        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("files", files.stream().map(Path::toString).toList());
            m.put("events", events);
            m.put("events_by_type", new LinkedHashMap<>(eventsByType));
            m.put("transactions", transactions);
            m.put("barriers", barriers);
            m.put("schemas", new ArrayList<>(schemas));
            m.put("tables", new ArrayList<>(tables));
            m.put("schema_groups", schemaGroups.groups());
            m.put("transaction_bytes", distribution(bytes));
            m.put("transaction_rows", distribution(rows));
            Map<String, Object> par = new LinkedHashMap<>();
            for (Map.Entry<String, CriticalPath> e : paths.entrySet()) {
                Map<String, Object> p = new LinkedHashMap<>();
                if (e.getKey().equals("writeset") && !writesetKnown()) {
                    p.put("critical_path", null);
                    p.put("parallelism", null);
                    p.put("unknown", "no key metadata for " + tablesWithoutKeys);
                } else {
                    p.put("critical_path", e.getValue().length());
                    p.put("parallelism", e.getValue().parallelism());
                }
                par.put(e.getKey(), p);
            }
            m.put("parallelism", par);
            return m;
        }

        void print(PrintStream out) {
            out.printf(Locale.ROOT, "%s%n", files.size() == 1 ? files.get(0) : files.size() + " files: " + files);
            out.printf(Locale.ROOT, "events: %,d%n", events);
            for (Map.Entry<String, Long> e : eventsByType.entrySet()) {
                out.printf(Locale.ROOT, "  %-28s %,12d%n", e.getKey(), e.getValue());
            }
            out.printf(Locale.ROOT, "transactions: %,d (%,d barriers: DDL and other statements)%n", transactions, barriers);
            out.printf(Locale.ROOT, "schemas: %d %s%n", schemas.size(), schemas);
            out.printf(Locale.ROOT, "tables: %d %s%n", tables.size(), tables);
            out.printf(Locale.ROOT, "schema groups (written by the same transactions): %s%s%n", schemaGroups.groups(),
                    schemaGroups.asOption().isEmpty() ? "" : "; Kafka Connect groups option: " + schemaGroups.asOption());
            printDistribution(out, "transaction bytes", bytes);
            printDistribution(out, "transaction rows", rows);
            out.println("parallelism each scheduler could reach (unit cost, unlimited workers):");
            for (Map.Entry<String, CriticalPath> e : paths.entrySet()) {
                if (e.getKey().equals("writeset") && !writesetKnown()) {
                    out.printf(Locale.ROOT, "  %-14s unknown: no key metadata (no CREATE TABLE in the log, "
                            + "binlog_row_metadata not FULL) for %s%n", e.getKey(), tablesWithoutKeys);
                } else {
                    out.printf(Locale.ROOT, "  %-14s critical path %,10d  parallelism %8.2f%n", e.getKey(),
                            e.getValue().length(), e.getValue().parallelism());
                }
            }
        }

        private static Map<String, Object> distribution(List<Long> values) {
            Map<String, Object> m = new LinkedHashMap<>();
            long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
            m.put("min", v.length == 0 ? 0 : v[0]);
            m.put("avg", v.length == 0 ? 0.0 : Arrays.stream(v).average().orElse(0));
            m.put("p50", percentile(v, 50));
            m.put("p99", percentile(v, 99));
            m.put("max", v.length == 0 ? 0 : v[v.length - 1]);
            return m;
        }

        private static void printDistribution(PrintStream out, String name, List<Long> values) {
            Map<String, Object> d = distribution(values);
            out.printf(Locale.ROOT, "%s: min %,d avg %,.1f p50 %,d p99 %,d max %,d%n", name, d.get("min"), d.get("avg"),
                    d.get("p50"), d.get("p99"), d.get("max"));
        }

        /** Nearest-rank percentile. */
        private static long percentile(long[] sorted, int p) {
            if (sorted.length == 0) {
                return 0;
            }
            int rank = (int) Math.ceil(p / 100.0 * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
        }
    }

    /**
     * The longest chain of dependencies with unit cost: each transaction's depth is one more than the deepest
     * transaction it must wait for; a barrier waits for everything before it and everything after waits for it.
     */
    static final class CriticalPath {
        private long maxDepth;
        private long floor;
        private long count;

        /** Places a transaction whose dependencies' deepest depth is {@code dependencyDepth}; returns its depth. */
        long place(long dependencyDepth, boolean barrier) {
            long d = barrier ? maxDepth + 1 : Math.max(dependencyDepth, floor) + 1;
            if (barrier) {
                floor = d;
            }
            maxDepth = Math.max(maxDepth, d);
            count++;
            return d;
        }

        long maxDepth() {
            return maxDepth;
        }

        long length() {
            return maxDepth;
        }

        double parallelism() {
            return maxDepth == 0 ? 0 : (double) count / maxDepth;
        }
    }

    static Stats analyse(List<Path> files, boolean verifyChecksums) {
        Stats st = new Stats(files);
        LogTableShapes shapes = new LogTableShapes(st.tablesWithoutKeys);
        BinlogBridge bridge = new BinlogBridge(SchemaMapping.identity(), shapes);
        Map<String, Long> lastBySchema = new HashMap<>();
        Map<Long, Long> lastByKey = new HashMap<>();
        LogicalClocks clocks = new LogicalClocks();
        BinlogReaderOptions options = BinlogReaderOptions.builder().verifyChecksums(verifyChecksums).build();
        TransactionAssembler assembler = new TransactionAssembler();
        try (BinlogReader reader = BinlogReader.open(files, options)) {
            for (BinlogEvent e; (e = reader.next()) != null; ) {
                st.events++;
                String type = e.header().type() == null ? "type " + e.header().typeCode() : e.header().type().name();
                st.eventsByType.merge(type, 1L, Long::sum);
                assembler.accept(e, reader.currentSource());
                for (BinlogTransaction t; (t = assembler.poll()) != null; ) {
                    transaction(st, t, bridge, shapes, lastBySchema, lastByKey, clocks);
                }
            }
        }
        return st;
    }

    private static void transaction(Stats st, BinlogTransaction t, BinlogBridge bridge, LogTableShapes shapes,
            Map<String, Long> lastBySchema, Map<Long, Long> lastByKey, LogicalClocks clocks) {
        st.transactions++;
        st.schemas.addAll(t.schemas());
        st.schemaGroups.add(t.schemas());
        for (TableMapEvent m : t.tableMaps()) {
            st.tables.add(m.schema() + "." + m.table());
            shapes.learnFromTableMap(m);
        }
        Transaction<SourceTransaction> txn;
        long rowCount = 0;
        try {
            txn = bridge.convert(t);
            rowCount = txn.payload().changes().stream().filter(c -> c instanceof io.lanes.applier.RowChange).count();
        } catch (Exception notConvertible) {
            // Without column names and without a known shape the bridge cannot name the columns: schedule it as the
            // engine would see it without keys (schemas, clock), and count its rows from the events.
            for (io.lanes.binlog.RowsEvent r : t.rowsEvents()) {
                rowCount += r.rows().size();
            }
            String position = t.endFile() + ":" + t.endPosition();
            Transaction.Builder<SourceTransaction> b = Transaction.builder(new SourceTransaction(position, null, null,
                    List.of())).position(position).partitionKeys(t.schemas()).barrier(t.isDdl() || hasStatement(t));
            LogicalClock clock = clock(t);
            if (clock != null) {
                b.logicalClock(clock);
            }
            txn = b.build();
            for (TableMapEvent m : t.tableMaps()) {
                st.tablesWithoutKeys.add(m.schema() + "." + m.table());
            }
        }
        st.bytes.add(t.sizeBytes());
        st.rows.add(rowCount);
        boolean barrier = txn.isBarrier();
        if (barrier) {
            st.barriers++;
        }
        st.paths.get("sequential").place(st.paths.get("sequential").maxDepth(), false);

        // schema
        CriticalPath schema = st.paths.get("schema");
        long dep = 0;
        for (String k : txn.partitionKeys()) {
            dep = Math.max(dep, lastBySchema.getOrDefault(k, 0L));
        }
        long d = schema.place(dep, barrier || txn.partitionKeyCount() == 0);
        for (String k : txn.partitionKeys()) {
            lastBySchema.put(k, d);
        }

        // logical clock
        clocks.place(st.paths.get("logical-clock"), txn.logicalClock(), barrier);

        // writeset
        CriticalPath ws = st.paths.get("writeset");
        dep = 0;
        long[] keys = txn.writeKeys();
        for (long k : keys) {
            dep = Math.max(dep, lastByKey.getOrDefault(k, 0L));
        }
        d = ws.place(dep, barrier || keys.length == 0);
        for (long k : keys) {
            lastByKey.put(k, d);
        }

        if (txn.payload() != null) {
            for (io.lanes.applier.Change c : txn.payload().changes()) {
                if (c instanceof SourceStatement s) {
                    shapes.apply(s, txn.position());
                }
            }
        }
    }

    private static boolean hasStatement(BinlogTransaction t) {
        for (BinlogEvent e : t.events()) {
            if (e instanceof io.lanes.binlog.QueryEvent q && !q.isBegin() && !q.isCommit()) {
                return true;
            }
        }
        return false;
    }

    private static LogicalClock clock(BinlogTransaction t) {
        BinlogEvent g = t.gtidEvent();
        if (g instanceof GtidEvent && t.lastCommitted() >= 0 && t.sequenceNumber() > t.lastCommitted()) {
            return LogicalClock.mysql(t.lastCommitted(), t.sequenceNumber());
        }
        if (g instanceof MariaGtidEvent) {
            return LogicalClock.groupCommit(Math.max(0, t.commitId()));
        }
        return null;
    }

    /** The logical-clock policy's dependencies, as {@link io.lanes.core.LogicalClockScheduler} describes them. */
    static final class LogicalClocks {
        private final List<long[]> mysql = new ArrayList<>(); // {sequence_number, prefix max depth}
        private long lastSequence = -1;
        private long groupId = -1;
        private long groupBase;

        void place(CriticalPath path, LogicalClock clock, boolean barrier) {
            if (barrier || clock == null) {
                path.place(0, true);
                groupId = -1;
                return;
            }
            if (clock.kind() == LogicalClock.Kind.MYSQL) {
                groupId = -1;
                if (clock.sequenceNumber() <= lastSequence) {
                    mysql.clear(); // a new file or a restart of the counter: wait for everything before
                    lastSequence = -1;
                    long d = path.place(0, true);
                    record(clock.sequenceNumber(), d);
                    return;
                }
                long dep = prefixMax(clock.lastCommitted());
                record(clock.sequenceNumber(), path.place(dep, false));
            } else {
                long id = clock.commitId();
                if (id == 0) {
                    path.place(0, true);
                    groupId = -1;
                    return;
                }
                if (id != groupId) {
                    groupId = id;
                    groupBase = path.maxDepth();
                }
                path.place(groupBase, false);
            }
        }

        private void record(long sequence, long depth) {
            long prev = mysql.isEmpty() ? 0 : mysql.get(mysql.size() - 1)[1];
            mysql.add(new long[] {sequence, Math.max(prev, depth)});
            lastSequence = sequence;
        }

        private long prefixMax(long upTo) {
            int lo = 0;
            int hi = mysql.size() - 1;
            long best = 0;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (mysql.get(mid)[0] <= upTo) {
                    best = mysql.get(mid)[1];
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return best;
        }
    }

    /**
     * Table shapes learned from the log itself: its CREATE/ALTER/DROP/RENAME TABLE and CREATE/DROP INDEX statements,
     * followed by the applier's public {@link SchemaHistory} (the same definitions a pipeline follows), else
     * binlog_row_metadata=FULL column names and primary keys. A table neither describes is unknown (and noted); so is
     * one whose definition the history lost (a statement it could not read).
     */
    static final class LogTableShapes implements TableMetadata {
        private final SchemaHistory fromDdl = new SchemaHistory();
        private final Map<TableRef, TableShape> fromTableMaps = new HashMap<>();
        private final TreeSet<String> unknown;

        LogTableShapes(TreeSet<String> unknown) {
            this.unknown = unknown;
        }

        @Override
        public TableShape shape(String targetSchema, String table) {
            SourceTable defined = fromDdl.table(targetSchema, table);
            if (defined != null) {
                List<TableShape.Key> keys = defined.uniqueKeys().stream()
                        .map(k -> new TableShape.Key(k.name(), k.columns())).toList();
                return new TableShape(defined.columnNames(), keys, List.of());
            }
            TableShape fromMap = fromTableMaps.get(new TableRef(targetSchema, table));
            if (fromMap == null) {
                unknown.add(targetSchema + "." + table);
            }
            return fromMap;
        }

        @Override
        public void invalidate() {
        }

        void learnFromTableMap(TableMapEvent m) {
            if (!m.hasColumnNames() || m.primaryKey().isEmpty()) {
                return;
            }
            List<String> names = m.columnNames();
            List<String> pk = m.primaryKey().stream().map(names::get).toList();
            fromTableMaps.put(new TableRef(m.schema(), m.table()), new TableShape(names,
                    List.of(new TableShape.Key(TableShape.PRIMARY, pk)), List.of()));
        }

        void apply(SourceStatement s, String position) {
            fromDdl.apply(s.sql(), s.defaultSchema(), s.sqlMode(), position);
        }
    }
}
