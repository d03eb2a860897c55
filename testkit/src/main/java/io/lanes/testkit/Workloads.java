package io.lanes.testkit;

import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.binlog.encode.Table;
import io.lanes.binlog.encode.TransactionSpec;
import io.lanes.core.LogicalClock;
import io.lanes.core.LogicalClockScheduler;
import io.lanes.core.PartitionScheduler;
import io.lanes.core.Scheduler;
import io.lanes.core.SequentialScheduler;
import io.lanes.core.Transaction;
import io.lanes.core.WritesetScheduler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded synthetic workloads, the one place benchmarks and tests take them from, at two levels: binlogs written through a
 * {@link BinlogWriter} (below), and engine transaction streams for the core alone ({@link #engineTransactions}).
 *
 * <p>Binlogs, the shapes the benchmarks and tests need: many
 * schemas with uniform or skewed load (sysbench's {@code sbtest} and its {@code UPDATE sbtest1 SET k=k+1 WHERE id=?}),
 * one schema written by several source sessions with group-committed logical clocks, and a foreign-key-heavy schema.
 * Each writes its DDL first (CREATE DATABASE, CREATE TABLE), then the rows; the same arguments always give the same
 * bytes. Each returns what applying the log to an empty target must end in.
 *
 * <pre>{@code
 * try (BinlogWriter w = BinlogWriter.mariadb(out)) {
 *     Workloads.Summary s = Workloads.uniformSchemas(w, 10, 1000, 10_000, 42);
 *     // s.rowCounts().get("db1.sbtest1") == 1000, s.sums().get("db1.sbtest1") == SUM(k) after the updates
 * }
 * }</pre>
 *
 * <p>Stateless; the writer is used by the calling thread only.
 */
public final class Workloads {
    private Workloads() {
    }

    /** The engine scheduling models {@link #engineScheduler} and {@link #engineTransactions} know. */
    public static final List<String> ENGINE_MODELS = List.of("sequential", "partition", "logical-clock", "writeset");

    /**
     * A new scheduler of one model: {@code sequential}, {@code partition}, {@code logical-clock} or {@code writeset}.
     *
     * @throws IllegalArgumentException for another name
     */
    public static Scheduler engineScheduler(String model) {
        return switch (model) {
            case "sequential" -> new SequentialScheduler();
            case "partition" -> new PartitionScheduler();
            case "logical-clock" -> new LogicalClockScheduler();
            case "writeset" -> new WritesetScheduler();
            default -> throw new IllegalArgumentException("unknown scheduling model '" + model + "' (one of "
                    + ENGINE_MODELS + ")");
        };
    }

    /**
     * Pre-built engine transactions (null payload, 200 bytes each) with {@code streams} independent lanes of work, as
     * each scheduling model sees them: {@code streams} schemas (partition), {@code streams} rows updated over and over
     * (writeset: every transaction conflicts with the previous one of its lane, as in sysbench's updates), or groups of
     * {@code streams} transactions committed together on the source (logical clock: each group waits for the previous
     * one). Every transaction carries all three, so any model can schedule any stream; {@code model} is accepted for
     * symmetry with {@link #engineScheduler} and checked.
     */
    public static Transaction<Object>[] engineTransactions(String model, int count, int streams) {
        engineScheduler(model); // checks the name
        @SuppressWarnings("unchecked")
        Transaction<Object>[] txns = new Transaction[count];
        String[] schemas = new String[streams];
        for (int i = 0; i < streams; i++) {
            schemas[i] = "sbtest" + i;
        }
        for (int i = 0; i < count; i++) {
            int lane = i % streams;
            Transaction.Builder<Object> b = Transaction.builder(null).position(Integer.toString(i)).sizeBytes(200)
                    .partitionKey(schemas[lane]).writeKeys(lane * 0x9E3779B97F4A7C15L + 1);
            long seqNo = i + 1;
            long groupStart = (long) (i / streams) * streams;
            b.logicalClock(LogicalClock.mysql(groupStart, seqNo));
            txns[i] = b.build();
        }
        return txns;
    }

    /**
     * What a workload leaves behind: for each table ({@code schema.table}) its row count and the sum of its
     * {@code k} column (sbtest) or {@code qty} column (order lines); {@code transactions} counts the transactions written
     * after the DDL and initial load.
     */
    public record Summary(int transactions, Map<String, Long> rowCounts, Map<String, Long> sums) {
        public Summary {
            rowCounts = Collections.unmodifiableMap(new LinkedHashMap<>(rowCounts));
            sums = Collections.unmodifiableMap(new LinkedHashMap<>(sums));
        }
    }

    /** sysbench's table: {@code id INT PRIMARY KEY, k INT, c CHAR(120), pad CHAR(60)}, utf8mb4, full metadata. */
    public static Table sbtest(String schema, String table) {
        return Table.builder(schema, table).integer("id").notNull().primaryKey().integer("k").notNull()
                .character("c", 480, Table.UTF8MB4).notNull().character("pad", 240, Table.UTF8MB4).notNull().build();
    }

    /** The CREATE TABLE statement of {@link #sbtest}. */
    public static String sbtestDdl(String table) {
        return "CREATE TABLE " + quote(table) + " (`id` INT NOT NULL, `k` INT NOT NULL DEFAULT '0', `c` CHAR(120) NOT NULL"
                + " DEFAULT '', `pad` CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (`id`), KEY `k_1` (`k`))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    }

    /** A backtick-quoted identifier. */
    public static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    /** One sbtest table's rows, kept to log full before images. */
    private static final class SbTable {
        final Table table;
        final int[] k;
        final String[] c;
        final String[] pad;

        SbTable(Table table, int rows, Random r) {
            this.table = table;
            this.k = new int[rows];
            this.c = new String[rows];
            this.pad = new String[rows];
            for (int i = 0; i < rows; i++) {
                k[i] = r.nextInt(rows) + 1;
                c[i] = digits(r, 11, 10);
                pad[i] = digits(r, 11, 5);
            }
        }

        Object[] row(int i) {
            return new Object[] {i + 1, k[i], c[i], pad[i]};
        }

        long sum() {
            long s = 0;
            for (int v : k) {
                s += v;
            }
            return s;
        }
    }

    /** sysbench's c/pad strings: groups of digits joined by '-'. */
    private static String digits(Random r, int group, int groups) {
        StringBuilder sb = new StringBuilder(group * groups + groups);
        for (int g = 0; g < groups; g++) {
            if (g > 0) {
                sb.append('-');
            }
            for (int i = 0; i < group; i++) {
                sb.append((char) ('0' + r.nextInt(10)));
            }
        }
        return sb.toString();
    }

    private static List<SbTable> prepare(BinlogWriter w, int schemas, int rows, Random r) {
        List<SbTable> tables = new ArrayList<>();
        for (int s = 1; s <= schemas; s++) {
            String db = "db" + s;
            w.ddl("", "CREATE DATABASE " + quote(db));
            w.ddl(db, sbtestDdl("sbtest1"));
            SbTable t = new SbTable(sbtest(db, "sbtest1"), rows, r);
            for (int from = 0; from < rows; from += 100) {
                w.beginTransaction();
                List<Object[]> batch = new ArrayList<>();
                for (int i = from; i < Math.min(rows, from + 100); i++) {
                    batch.add(t.row(i));
                }
                w.insert(t.table, batch);
                w.commit();
            }
            tables.add(t);
        }
        return tables;
    }

    private static void updateK(BinlogWriter w, SbTable t, int id, TransactionSpec spec) {
        w.beginTransaction(spec);
        Object[] before = t.row(id);
        t.k[id]++;
        w.update(t.table, before, t.row(id));
        w.commit();
    }

    private static Summary summary(int transactions, List<SbTable> tables) {
        Map<String, Long> counts = new LinkedHashMap<>();
        Map<String, Long> sums = new LinkedHashMap<>();
        for (SbTable t : tables) {
            counts.put(t.table.qualifiedName(), (long) t.k.length);
            sums.put(t.table.qualifiedName(), t.sum());
        }
        return new Summary(transactions, counts, sums);
    }

    /**
     * {@code schemas} schemas {@code db1..dbN}, each with {@code sbtest1} of {@code rows} rows, then {@code transactions}
     * single-row {@code k=k+1} updates, each in a uniformly chosen schema and row.
     */
    public static Summary uniformSchemas(BinlogWriter w, int schemas, int rows, int transactions, long seed) {
        Random r = new Random(seed);
        List<SbTable> tables = prepare(w, schemas, rows, r);
        for (int i = 0; i < transactions; i++) {
            SbTable t = tables.get(r.nextInt(schemas));
            updateK(w, t, r.nextInt(rows), TransactionSpec.auto());
        }
        return summary(transactions, tables);
    }

    /**
     * As {@link #uniformSchemas} but the schema of each update follows a Zipf distribution of exponent {@code skew}
     * (1.0: {@code db1} gets about a third of the updates of 10 schemas; 0: uniform).
     */
    public static Summary skewedSchemas(BinlogWriter w, int schemas, int rows, int transactions, double skew,
            long seed) {
        Random r = new Random(seed);
        List<SbTable> tables = prepare(w, schemas, rows, r);
        double[] cumulative = new double[schemas];
        double total = 0;
        for (int i = 0; i < schemas; i++) {
            total += 1 / Math.pow(i + 1, skew);
            cumulative[i] = total;
        }
        for (int i = 0; i < transactions; i++) {
            double x = r.nextDouble() * total;
            int s = 0;
            while (s < schemas - 1 && cumulative[s] < x) {
                s++;
            }
            updateK(w, tables.get(s), r.nextInt(rows), TransactionSpec.auto());
        }
        return summary(transactions, tables);
    }

    /**
     * One schema ({@code db1.sbtest1}) updated by {@code sessions} (1..64) concurrent source sessions: transactions are
     * logged in commit groups of 1..{@code sessions} transactions touching distinct rows, as a source's group commit
     * writes them. MySQL flavour: every transaction of a group has {@code last_committed} = the sequence number of the
     * previous group's last transaction (so a group may be applied in parallel); MariaDB: a group shares a commit id.
     */
    public static Summary logicalClock(BinlogWriter w, int sessions, int rows, int transactions, long seed) {
        if (sessions < 1 || sessions > 64 || sessions > rows) {
            throw new IllegalArgumentException("1..64 sessions, at most one per row");
        }
        Random r = new Random(seed);
        List<SbTable> tables = prepare(w, 1, rows, r);
        SbTable t = tables.get(0);
        boolean maria = w.options().flavor().isMariaDb();
        int written = 0;
        long group = 0;
        while (written < transactions) {
            int size = Math.min(transactions - written, 1 + r.nextInt(sessions));
            long lastCommitted = w.lastSequenceNumber();
            group++;
            List<Integer> ids = new ArrayList<>();
            while (ids.size() < size) {
                int id = r.nextInt(rows);
                if (!ids.contains(id)) {
                    ids.add(id);
                }
            }
            for (int k = 0; k < size; k++) {
                TransactionSpec spec = TransactionSpec.auto().withSession(1 + k);
                spec = maria ? (size > 1 ? spec.withCommitId(group) : spec) : spec.withLastCommitted(lastCommitted);
                updateK(w, t, ids.get(k), spec);
            }
            written += size;
        }
        return summary(transactions, tables);
    }

    /**
     * A foreign-key-heavy schema {@code shop}: {@code customers}, {@code orders} referencing customers,
     * {@code order_lines} referencing orders. Transactions: a new customer, or a new order of 1..5 lines for an existing
     * customer, or a changed line quantity, or a cancelled order (its lines deleted, then the order), in parent-before-
     * child order for inserts and child-before-parent for deletes, as InnoDB logs them.
     */
    public static Summary foreignKeys(BinlogWriter w, int transactions, long seed) {
        Random r = new Random(seed);
        Table customers = Table.builder("shop", "customers").integer("id").notNull().primaryKey()
                .varchar("name", 400, Table.UTF8MB4).notNull().build();
        Table orders = Table.builder("shop", "orders").integer("id").notNull().primaryKey().integer("customer_id")
                .notNull().datetime("created", 0).notNull().build();
        Table lines = Table.builder("shop", "order_lines").integer("id").notNull().primaryKey().integer("order_id")
                .notNull().integer("qty").notNull().decimal("price", 10, 2).notNull().build();
        w.ddl("", "CREATE DATABASE `shop`");
        w.ddl("shop", "CREATE TABLE `customers` (`id` INT NOT NULL, `name` VARCHAR(100) NOT NULL, PRIMARY KEY (`id`))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
        w.ddl("shop", "CREATE TABLE `orders` (`id` INT NOT NULL, `customer_id` INT NOT NULL, `created` DATETIME NOT NULL,"
                + " PRIMARY KEY (`id`), KEY `fk_customer` (`customer_id`), CONSTRAINT `fk_customer` FOREIGN KEY"
                + " (`customer_id`) REFERENCES `customers` (`id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
        w.ddl("shop", "CREATE TABLE `order_lines` (`id` INT NOT NULL, `order_id` INT NOT NULL, `qty` INT NOT NULL,"
                + " `price` DECIMAL(10,2) NOT NULL, PRIMARY KEY (`id`), KEY `fk_order` (`order_id`), CONSTRAINT"
                + " `fk_order` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`) ON DELETE CASCADE) ENGINE=InnoDB"
                + " DEFAULT CHARSET=utf8mb4");
        List<Integer> customerIds = new ArrayList<>();
        Map<Integer, Object[]> orderRows = new LinkedHashMap<>();
        Map<Integer, List<Object[]>> linesByOrder = new LinkedHashMap<>();
        int nextCustomer = 1;
        int nextOrder = 1;
        int nextLine = 1;
        java.time.LocalDateTime clock = java.time.LocalDateTime.of(2024, 1, 1, 0, 0);
        for (int i = 0; i < transactions; i++) {
            int what = customerIds.isEmpty() ? 0 : r.nextInt(10);
            w.beginTransaction();
            if (what == 0) {
                int id = nextCustomer++;
                w.insert(customers, new Object[] {id, "customer " + id + " " + digits(r, 4, 2)});
                customerIds.add(id);
            } else if (what <= 5 || orderRows.isEmpty()) {
                int id = nextOrder++;
                clock = clock.plusSeconds(1 + r.nextInt(60));
                Object[] order = {id, customerIds.get(r.nextInt(customerIds.size())), clock};
                w.insert(orders, order);
                List<Object[]> ls = new ArrayList<>();
                for (int k = 0, n = 1 + r.nextInt(5); k < n; k++) {
                    ls.add(new Object[] {nextLine++, id, 1 + r.nextInt(9),
                        java.math.BigDecimal.valueOf(100 + r.nextInt(99_900), 2)});
                }
                w.insert(lines, ls);
                orderRows.put(id, order);
                linesByOrder.put(id, ls);
            } else if (what <= 8) {
                List<Object[]> ls = linesByOrder.get(pick(orderRows, r));
                int k = r.nextInt(ls.size());
                Object[] before = ls.get(k);
                Object[] after = before.clone();
                after[2] = (Integer) before[2] + 1 + r.nextInt(3);
                w.update(lines, before, after);
                ls.set(k, after);
            } else {
                int id = pick(orderRows, r);
                w.delete(lines, linesByOrder.remove(id));
                w.delete(orders, orderRows.remove(id));
            }
            w.commit();
        }
        long lineCount = 0;
        long qty = 0;
        for (List<Object[]> ls : linesByOrder.values()) {
            for (Object[] l : ls) {
                lineCount++;
                qty += (Integer) l[2];
            }
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("shop.customers", (long) customerIds.size());
        counts.put("shop.orders", (long) orderRows.size());
        counts.put("shop.order_lines", lineCount);
        return new Summary(transactions, counts, Map.of("shop.order_lines", qty));
    }

    private static int pick(Map<Integer, Object[]> orders, Random r) {
        int n = r.nextInt(orders.size());
        for (int id : orders.keySet()) {
            if (n-- == 0) {
                return id;
            }
        }
        throw new IllegalStateException();
    }
}
