package io.lanes.examples.cli;

import io.lanes.applier.BinlogBridge;
import io.lanes.applier.LanesConfig;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.schema.LogTableShapes;
import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogFormatException;
import io.lanes.binlog.BinlogReader;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.TableMapEvent;
import io.lanes.binlog.TransactionAssembler;
import io.lanes.core.LogicalClock;
import io.lanes.core.LogicalClockScheduler;
import io.lanes.core.PartitionScheduler;
import io.lanes.core.ScheduleSimulation;
import io.lanes.core.SequentialScheduler;
import io.lanes.core.Transaction;
import io.lanes.core.WritesetScheduler;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * {@code lanes stat}: what binlog files hold, and the parallelism each scheduler could reach on them. The transactions go
 * through the real schedulers in a {@link ScheduleSimulation} (core), the log's own table definitions come from
 * {@link LogTableShapes} (applier), and the logical clock from the {@link BinlogBridge}; this command reads, drives and
 * prints.
 */
@Command(name = "stat", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
        description = {"What binlog files hold, and how much parallelism each scheduler could reach on them.",
            "",
            "Summarises MySQL/MariaDB binlog files (plain or .gz): events per type, transactions, schemas and",
            "tables touched, transaction sizes (bytes and rows: min/avg/p50/p99/max), and how much faster a parallel",
            "replica could be: the transactions go through each real scheduler, with its shipped defaults, and the",
            "critical path of the waits it imposes is measured, with unit cost per transaction and unlimited workers;",
            "parallelism = transactions / critical path length. Nothing in flight is taken to commit early, so every",
            "wait the scheduler states counts (what it imposes when the source runs ahead of the target).",
            "",
            "  sequential     every transaction after the one before it (parallelism 1)",
            "  schema         after the previous transaction of each schema it touches",
            "  logical-clock  after what the source's group commit says (MySQL last_committed, MariaDB commit id)",
            "  writeset       after the previous writer of each row key (primary and unique keys) it writes, as far as",
            "                 its history of " + WritesetScheduler.DEFAULT_HISTORY_SIZE + " keys remembers (MySQL's "
                    + "binlog_transaction_dependency_history_size):",
            "                 when it fills up it is cleared and later transactions wait for everything before that",
            "                 point, so a bulk transaction costs parallelism. writeset is also reported with an unbounded",
            "                 history, labelled as such: not a shipped setting, it shows what the history size costs.",
            "",
            "DDL and other statements are barriers under every policy, as the engine runs them. Transactions of rows of",
            "at least 4 MiB (lanes.large-transaction-bytes) get no row keys, as a JDBC target runs them: writeset runs them",
            "alone, the other policies place them as any other transaction. Row keys are extracted",
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
        /** What the unbounded writeset history is called in the report. */
        static final String UNBOUNDED_HISTORY = "unbounded history";
        final List<Path> files;
        final Map<String, Long> eventsByType = new TreeMap<>();
        long events;
        long transactions;
        final TreeSet<String> schemas = new TreeSet<>();
        final TreeSet<String> tables = new TreeSet<>();
        final List<Long> bytes = new ArrayList<>();
        final List<Long> rows = new ArrayList<>();
        /** Each scheduler as stat names it, with its shipped defaults, in the order printed. */
        final Map<String, ScheduleSimulation> simulations = new LinkedHashMap<>();
        /** The writeset scheduler with a history never cleared: not shipped, it shows what the history size costs. */
        final ScheduleSimulation writesetUnboundedHistory = new ScheduleSimulation(new WritesetScheduler(1 << 30));
        final TreeSet<String> tablesWithoutKeys = new TreeSet<>();
        final SchemaGroupFinder schemaGroups = new SchemaGroupFinder();
        long barriers;
        /** Transactions of rows of at least lanes.large-transaction-bytes: no row keys (writeset runs them alone). */
        long largeTransactions;

        Stats(List<Path> files) {
            this.files = files;
            simulations.put("sequential", new ScheduleSimulation(new SequentialScheduler()));
            simulations.put("schema", new ScheduleSimulation(new PartitionScheduler()));
            simulations.put("logical-clock", new ScheduleSimulation(new LogicalClockScheduler()));
            simulations.put("writeset", new ScheduleSimulation(new WritesetScheduler()));
        }

        void add(Transaction<?> txn) {
            for (ScheduleSimulation sim : simulations.values()) {
                sim.add(txn);
            }
            writesetUnboundedHistory.add(txn);
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
            m.put("large_transactions", largeTransactions);
            m.put("schemas", new ArrayList<>(schemas));
            m.put("tables", new ArrayList<>(tables));
            m.put("schema_groups", schemaGroups.groups());
            m.put("transaction_bytes", distribution(bytes));
            m.put("transaction_rows", distribution(rows));
            Map<String, Object> par = new LinkedHashMap<>();
            for (Map.Entry<String, ScheduleSimulation> e : simulations.entrySet()) {
                Map<String, Object> p = new LinkedHashMap<>();
                boolean writeset = e.getKey().equals("writeset");
                if (writeset && !writesetKnown()) {
                    p.put("critical_path", null);
                    p.put("parallelism", null);
                    p.put("unknown", "no key metadata for " + tablesWithoutKeys);
                } else {
                    p.put("critical_path", e.getValue().criticalPath());
                    p.put("parallelism", e.getValue().parallelism());
                    if (writeset) {
                        p.put("history_size", WritesetScheduler.DEFAULT_HISTORY_SIZE);
                        Map<String, Object> unbounded = new LinkedHashMap<>();
                        unbounded.put("critical_path", writesetUnboundedHistory.criticalPath());
                        unbounded.put("parallelism", writesetUnboundedHistory.parallelism());
                        p.put(UNBOUNDED_HISTORY.replace(' ', '_'), unbounded);
                    }
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
            out.printf(Locale.ROOT, "transactions: %,d (%,d barriers: DDL and other statements; %,d large transactions of"
                    + " rows, alone under writeset)%n", transactions, barriers, largeTransactions);
            out.printf(Locale.ROOT, "schemas: %d %s%n", schemas.size(), schemas);
            out.printf(Locale.ROOT, "tables: %d %s%n", tables.size(), tables);
            out.printf(Locale.ROOT, "schema groups (written by the same transactions): %s%s%n", schemaGroups.groups(),
                    schemaGroups.asOption().isEmpty() ? "" : "; Kafka Connect groups option: " + schemaGroups.asOption());
            printDistribution(out, "transaction bytes", bytes);
            printDistribution(out, "transaction rows", rows);
            out.println("parallelism each scheduler could reach (its shipped defaults, unit cost, unlimited workers):");
            for (Map.Entry<String, ScheduleSimulation> e : simulations.entrySet()) {
                boolean writeset = e.getKey().equals("writeset");
                if (writeset && !writesetKnown()) {
                    out.printf(Locale.ROOT, "  %-14s unknown: no key metadata (no CREATE TABLE in the log, "
                            + "binlog_row_metadata not FULL) for %s%n", e.getKey(), tablesWithoutKeys);
                } else if (writeset) {
                    printPath(out, e.getKey(), e.getValue(), String.format(Locale.ROOT, "  (history of %,d keys)",
                            WritesetScheduler.DEFAULT_HISTORY_SIZE));
                    printPath(out, "  " + UNBOUNDED_HISTORY, writesetUnboundedHistory,
                            "  (not shipped: what the history size costs)");
                } else {
                    printPath(out, e.getKey(), e.getValue(), "");
                }
            }
        }

        private static void printPath(PrintStream out, String name, ScheduleSimulation sim, String note) {
            out.printf(Locale.ROOT, "  %-19s critical path %,10d  parallelism %8.2f%s%n", name, sim.criticalPath(),
                    sim.parallelism(), note);
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

    static Stats analyse(List<Path> files, boolean verifyChecksums) {
        Stats st = new Stats(files);
        LogTableShapes shapes = new LogTableShapes();
        BinlogBridge bridge = new BinlogBridge(SchemaMapping.identity(), shapes);
        // as a JDBC target runs them with the shipped settings: large transactions without row keys
        bridge.largeTransactionBytes(LanesConfig.DEFAULT_LARGE_TRANSACTION_BYTES);
        BinlogReaderOptions options = BinlogReaderOptions.builder().verifyChecksums(verifyChecksums)
                .spillThresholdBytes(LanesConfig.DEFAULT_LARGE_TRANSACTION_BYTES).build();
        TransactionAssembler assembler = new TransactionAssembler(options);
        try (BinlogReader reader = BinlogReader.open(files, options)) {
            for (BinlogEvent e; (e = reader.next()) != null; ) {
                st.events++;
                String type = e.header().type() == null ? "type " + e.header().typeCode() : e.header().type().name();
                st.eventsByType.merge(type, 1L, Long::sum);
                assembler.accept(e, reader.currentSource());
                for (BinlogTransaction t; (t = assembler.poll()) != null; ) {
                    transaction(st, t, bridge, shapes);
                }
            }
        }
        st.tablesWithoutKeys.addAll(shapes.unknownTables());
        return st;
    }

    private static void transaction(Stats st, BinlogTransaction t, BinlogBridge bridge, LogTableShapes shapes) {
        st.transactions++;
        st.schemas.addAll(t.schemas());
        st.schemaGroups.add(t.schemas());
        for (TableMapEvent m : t.tableMaps()) {
            st.tables.add(m.schema() + "." + m.table());
            shapes.learn(m);
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
                    List.of())).position(position).sizeBytes(t.sizeBytes()).partitionKeys(t.schemas())
                    .barrier(t.isDdl() || hasStatement(t));
            LogicalClock clock = BinlogBridge.logicalClock(t);
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
        if (txn.isBarrier()) {
            st.barriers++;
        } else if (!hasStatement(t) && t.sizeBytes() >= LanesConfig.DEFAULT_LARGE_TRANSACTION_BYTES) {
            st.largeTransactions++;
        }
        st.add(txn);
        if (t.isDdl() || hasStatement(t)) {
            // only statements change definitions; following a large transaction's rows would convert them again
            shapes.follow(txn.payload());
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
}
