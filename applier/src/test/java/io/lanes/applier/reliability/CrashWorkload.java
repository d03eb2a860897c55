package io.lanes.applier.reliability;

import io.lanes.binlog.encode.BinlogFlavor;
import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.binlog.encode.Table;
import io.lanes.binlog.encode.TransactionSpec;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A long, deterministic (seeded) MariaDB-flavour ROW binlog for the crash harness, written with the encoder.
 *
 * <p>Per source schema {@code s0..s<n-1>}:
 * <ul>
 *   <li>{@code counter(id INT PK, n BIGINT, last_txn BIGINT)}: 4 rows; every DML transaction of the schema bumps row
 *       {@code txn % 4} by one, so the sum of {@code n} over a schema equals the number of its DML transactions;</li>
 *   <li>{@code ledger(txn BIGINT PK, amount DECIMAL(12,2), note VARCHAR(100))}: one uniquely keyed row appended per
 *       transaction, notes with quotes and non-ASCII text;</li>
 *   <li>{@code audit(txn BIGINT, sch VARCHAR(32))}: one row per transaction. The log declares a primary key on
 *       {@code txn} (so the writeset scheduler keeps its parallelism), but the harness creates the target's table
 *       <em>without any key</em> and the log never creates it: a transaction applied twice leaves two rows, which the
 *       audit query {@code GROUP BY txn HAVING COUNT(*) > 1} finds;</li>
 *   <li>{@code items(id INT PK, qty INT, name VARCHAR(60))}: multi-row inserts, updates and deletes; a third of the way in
 *       {@code ALTER TABLE items ADD COLUMN tag VARCHAR(20)} changes its shape;</li>
 *   <li>in {@code s0} only, half-way: {@code CREATE TABLE extra(id INT PK, v VARCHAR(20))} and rows into it; two thirds
 *       in, {@code CREATE TABLE scratch} then {@code DROP TABLE scratch}.</li>
 * </ul>
 * Transactions come in MariaDB group-commit groups of up to {@code schemas} transactions on distinct schemas (so they
 * are truly independent, as a server's group would be), giving the logical-clock scheduler parallelism too.
 */
public final class CrashWorkload {
    public static final List<String> TABLES = List.of("counter", "ledger", "audit", "items", "extra");

    private final int schemas;
    private final int transactions;
    private final long seed;
    /** DML transactions per schema (what each schema's counter sum must reach). */
    private final Map<String, Integer> dmlPerSchema = new TreeMap<>();
    private int dmlTransactions;
    private int ddlStatements;

    public CrashWorkload(int schemas, int transactions, long seed) {
        if (schemas < 1 || schemas > 9 || transactions < 10) {
            throw new IllegalArgumentException("schemas 1..9, transactions >= 10");
        }
        this.schemas = schemas;
        this.transactions = transactions;
        this.seed = seed;
    }

    public List<String> sourceSchemas() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < schemas; i++) {
            out.add("s" + i);
        }
        return out;
    }

    /** The DDL that creates the audit table with no key on a target (the log never creates it). */
    public static String auditTableDdl(String qualifiedName) {
        return "CREATE TABLE " + qualifiedName + " (txn BIGINT NOT NULL, sch VARCHAR(32) NOT NULL)";
    }

    public Map<String, Integer> dmlPerSchema() {
        return dmlPerSchema;
    }

    public int dmlTransactions() {
        return dmlTransactions;
    }

    public int ddlStatements() {
        return ddlStatements;
    }

    /** Writes the log; returns the number of binlog transactions (DDL included). */
    public int write(Path file) {
        Random random = new Random(seed);
        List<String> names = sourceSchemas();
        Map<String, Table> counter = new TreeMap<>();
        Map<String, Table> ledger = new TreeMap<>();
        Map<String, Table> audit = new TreeMap<>();
        Map<String, Table> items = new TreeMap<>();
        Map<String, long[]> counters = new TreeMap<>();
        Map<String, long[]> lastTxns = new TreeMap<>();
        Map<String, TreeMap<Integer, Object[]>> itemRows = new TreeMap<>();
        Map<String, Integer> nextItem = new TreeMap<>();
        TreeMap<Integer, Object[]> extraRows = new TreeMap<>();
        boolean[] itemsHaveTag = {false};
        boolean scratchDone = false;
        Table extra = Table.builder("s0", "extra").integer("id").notNull().primaryKey()
                .varchar("v", 80, Table.UTF8MB4).build();
        Table scratch = Table.builder("s0", "scratch").integer("id").notNull().primaryKey().build();
        int written = 0;
        try (BinlogWriter w = BinlogWriter.open(file, BinlogWriter.Options.builder(BinlogFlavor.MARIADB)
                .maxRowsEventBytes(2048).build())) {
            for (String s : names) {
                counter.put(s, Table.builder(s, "counter").integer("id").notNull().primaryKey()
                        .bigint("n").notNull().bigint("last_txn").notNull().build());
                ledger.put(s, Table.builder(s, "ledger").bigint("txn").notNull().primaryKey()
                        .decimal("amount", 12, 2).notNull().varchar("note", 400, Table.UTF8MB4).build());
                audit.put(s, Table.builder(s, "audit").bigint("txn").notNull().primaryKey()
                        .varchar("sch", 128, Table.UTF8MB4).notNull().build());
                items.put(s, itemsTable(s, false));
                w.ddl(s, "CREATE TABLE counter (id INT NOT NULL PRIMARY KEY, n BIGINT NOT NULL, last_txn BIGINT NOT NULL)");
                w.ddl(s, "CREATE TABLE ledger (txn BIGINT NOT NULL PRIMARY KEY, amount DECIMAL(12,2) NOT NULL, "
                        + "note VARCHAR(100))");
                w.ddl(s, "CREATE TABLE items (id INT NOT NULL PRIMARY KEY, qty INT NOT NULL, name VARCHAR(60))");
                ddlStatements += 3;
                written += 3;
                w.beginTransaction();
                List<Object[]> rows = new ArrayList<>();
                for (int id = 0; id < 4; id++) {
                    rows.add(new Object[] {id, 0L, 0L});
                }
                w.insert(counter.get(s), rows);
                w.commit();
                written++;
                counters.put(s, new long[4]);
                lastTxns.put(s, new long[4]);
                itemRows.put(s, new TreeMap<>());
                nextItem.put(s, 1);
            }
            long commitId = 1000;
            int txn = 0;
            while (txn < transactions) {
                if (txn >= transactions / 3 && !itemsHaveTag[0]) {
                    for (String s : names) {
                        w.ddl(s, "ALTER TABLE items ADD COLUMN tag VARCHAR(20)");
                        items.put(s, itemsTable(s, true));
                        ddlStatements++;
                        written++;
                        // existing rows gain a NULL tag
                        for (Map.Entry<Integer, Object[]> e : itemRows.get(s).entrySet()) {
                            Object[] r = e.getValue();
                            e.setValue(new Object[] {r[0], r[1], r[2], null});
                        }
                    }
                    itemsHaveTag[0] = true;
                }
                if (txn >= transactions / 2 && extraRows.isEmpty()) {
                    w.ddl("s0", "CREATE TABLE extra (id INT NOT NULL PRIMARY KEY, v VARCHAR(20))");
                    ddlStatements++;
                    written++;
                    extraRows.put(0, new Object[] {0, "start"});
                    w.beginTransaction();
                    w.insert(extra, new Object[] {0, "start"});
                    w.commit();
                    written++;
                }
                if (txn >= 2 * transactions / 3 && !scratchDone) {
                    scratchDone = true;
                    w.ddl("s0", "CREATE TABLE scratch (id INT NOT NULL PRIMARY KEY)");
                    w.beginTransaction();
                    w.insert(scratch, new Object[] {1}, new Object[] {2});
                    w.commit();
                    w.ddl("s0", "DROP TABLE scratch");
                    ddlStatements += 2;
                    written += 3;
                }
                // a group commit of transactions on distinct schemas
                int group = 1 + random.nextInt(names.size());
                List<String> order = new ArrayList<>(names);
                java.util.Collections.shuffle(order, random);
                commitId++;
                for (int g = 0; g < group && txn < transactions; g++) {
                    String s = order.get(g);
                    txn++;
                    long id = txn;
                    w.beginTransaction(TransactionSpec.auto().withCommitId(commitId));
                    // counter bump
                    int cid = txn % 4;
                    long[] c = counters.get(s);
                    long[] last = lastTxns.get(s);
                    w.update(counter.get(s), new Object[] {cid, c[cid], last[cid]}, new Object[] {cid, c[cid] + 1, id});
                    c[cid]++;
                    last[cid] = id;
                    // ledger append
                    w.insert(ledger.get(s), new Object[] {id, new BigDecimal(random.nextInt(2_000_000) - 1_000_000)
                            .movePointLeft(2), note(random, id)});
                    // the audit row
                    w.insert(audit.get(s), new Object[] {id, s});
                    // items: multi-row changes
                    TreeMap<Integer, Object[]> rows = itemRows.get(s);
                    Table it = items.get(s);
                    int inserts = random.nextInt(4);
                    List<Object[]> ins = new ArrayList<>();
                    for (int k = 0; k < inserts; k++) {
                        int iid = nextItem.merge(s, 1, Integer::sum) - 1;
                        Object[] r = itemsHaveTag[0] ? new Object[] {iid, random.nextInt(1000), "item " + iid, "t" + (iid % 7)}
                                : new Object[] {iid, random.nextInt(1000), "item " + iid};
                        rows.put(iid, r);
                        ins.add(r);
                    }
                    w.insert(it, ins);
                    if (!rows.isEmpty()) {
                        List<Object[]> before = new ArrayList<>();
                        List<Object[]> after = new ArrayList<>();
                        int updates = random.nextInt(3);
                        java.util.Set<Integer> touched = new java.util.HashSet<>();
                        for (int k = 0; k < updates; k++) {
                            Integer key = pick(rows, random);
                            if (!touched.add(key)) {
                                continue;
                            }
                            Object[] b = rows.get(key);
                            Object[] a = b.clone();
                            a[1] = (Integer) b[1] + 1 + random.nextInt(5);
                            rows.put(key, a);
                            before.add(b);
                            after.add(a);
                        }
                        w.update(it, before, after);
                        if (random.nextInt(3) == 0) {
                            Integer key = pick(rows, random);
                            if (!touched.contains(key)) {
                                w.delete(it, rows.remove(key));
                            }
                        }
                    }
                    if (s.equals("s0") && !extraRows.isEmpty()) {
                        int eid = extraRows.lastKey() + 1;
                        Object[] r = {eid, "v" + (eid % 13)};
                        extraRows.put(eid, r);
                        w.insert(extra, new Object[][] {r});
                    }
                    w.commit();
                    written++;
                    dmlTransactions++;
                    dmlPerSchema.merge(s, 1, Integer::sum);
                }
            }
            w.stop();
        }
        return written;
    }

    private static Table itemsTable(String schema, boolean withTag) {
        Table.Builder b = Table.builder(schema, "items").integer("id").notNull().primaryKey().integer("qty").notNull()
                .varchar("name", 240, Table.UTF8MB4);
        if (withTag) {
            b.varchar("tag", 80, Table.UTF8MB4);
        }
        return b.build();
    }

    private static Integer pick(TreeMap<Integer, Object[]> rows, Random random) {
        Integer k = rows.ceilingKey(rows.firstKey() + random.nextInt(rows.lastKey() - rows.firstKey() + 1));
        return k != null ? k : rows.lastKey();
    }

    private static String note(Random random, long txn) {
        return switch (random.nextInt(4)) {
            case 0 -> "txn " + txn;
            case 1 -> "it's \"" + txn + "\"";
            case 2 -> "Zürich ✓ " + txn;
            default -> null;
        };
    }
}
