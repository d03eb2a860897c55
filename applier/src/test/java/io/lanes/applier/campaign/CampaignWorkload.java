package io.lanes.applier.campaign;

import static io.lanes.applier.campaign.ColumnTypes.pick;

import io.lanes.applier.campaign.ColumnTypes.ColumnType;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One seed's schemas and workload, generated from the seed alone and run on the source server.
 *
 * <p>Two schemas (so transactions cross schemas), 3 to 6 tables with random columns of every type
 * ({@link ColumnTypes}), keys of four kinds (a primary key, a composite one, none, a unique key with NULLs), optionally a
 * parent/child pair with cascading foreign keys, a trigger writing an audit table, generated and invisible columns.
 * Then phases: concurrent DML sessions (multi-row inserts, updates of random columns, primary key changes, unique key
 * swaps through NULL, deletes, savepoints rolled back, whole transactions rolled back, a big transaction, stretches of
 * statement-based logging when the settings ask), DDL (ADD/DROP/MODIFY/RENAME COLUMN, RENAME TABLE, TRUNCATE, CREATE ...
 * LIKE with a copy, DROP TABLE), and DML again on the changed tables.
 *
 * <p>The SQL each session runs is a function of the seed; the interleaving of the concurrent sessions is the server's,
 * so a replay runs the same statements, not necessarily in the same order. Statements the server refuses (duplicate
 * keys, deadlocks, a child row without its parent) roll their transaction back and are counted: the binlog holds only
 * what committed, which is what the targets must end with.
 *
 * <p>Not thread-safe: the generator's model is changed only between the phases, by the calling thread; during a DML phase
 * the sessions only read it (and draw ids from atomic counters).
 */
final class CampaignWorkload {
    enum KeyKind { PRIMARY, COMPOSITE, NONE, UNIQUE_NULLS }

    /** A column of the model: {@code fixed} columns (id, n, u, k2, pid, inv, gn) are never touched by DDL. */
    static final class Column {
        String name;
        ColumnType type;
        final boolean fixed;
        final boolean generated;

        Column(String name, ColumnType type, boolean fixed, boolean generated) {
            this.name = name;
            this.type = type;
            this.fixed = fixed;
            this.generated = generated;
        }
    }

    static final class Table {
        final String schema;
        String name;
        final KeyKind key;
        final List<Column> columns = new ArrayList<>();
        final AtomicLong nextId = new AtomicLong(1);
        boolean hasUnique;
        boolean hasInvisible;
        boolean protectedFromDdl; // FK parent/child, trigger source or audit table
        boolean hasTrigger;
        boolean hadBinary;
        String parentName; // FK child: the parent table

        /** Every name the table had (RENAME TABLE): a failure names the table as it was then. */
        final java.util.Set<String> names = new java.util.HashSet<>();

        Table(String schema, String name, KeyKind key) {
            this.schema = schema;
            this.name = name;
            this.key = key;
            names.add(name);
        }

        String qualified() {
            return "`" + schema + "`.`" + name + "`";
        }

        List<Column> insertable() {
            return columns.stream().filter(c -> !c.generated).toList();
        }

        List<Column> payload() {
            return columns.stream().filter(c -> !c.fixed).toList();
        }
    }

    private final long seed;
    private final CampaignSettings settings;
    private final String jdbcUrl;
    private final Random random;
    final String schemaA;
    final String schemaB;
    final List<Table> tables = new ArrayList<>();
    /** Tables the DDL dropped: a failure on one may come before its DROP. */
    private final List<Table> dropped = new ArrayList<>();
    private final int sessions;
    private final int transactionsPerSession;
    private final int bigRows;
    private int columnCounter;
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong rolledBack = new AtomicLong();
    private final List<String> ddlLog = new ArrayList<>();

    /**
     * @param prefix the schemas' name prefix, unique to this run and seed
     * @param scale 1 for the bounded CI run; larger for long runs (more transactions, a bigger big transaction)
     */
    CampaignWorkload(long seed, CampaignSettings settings, String jdbcUrl, String prefix, int scale, int bigRows) {
        this.seed = seed;
        this.settings = settings;
        this.jdbcUrl = jdbcUrl;
        this.random = new Random(seed);
        this.schemaA = prefix + "_a";
        this.schemaB = prefix + "_b";
        this.sessions = 2 + random.nextInt(3);
        this.transactionsPerSession = (4 + random.nextInt(10)) * scale;
        this.bigRows = bigRows;
    }

    long committed() {
        return committed.get();
    }

    long refused() {
        return refused.get();
    }

    long rolledBack() {
        return rolledBack.get();
    }

    List<String> ddl() {
        return ddlLog;
    }

    /** Whether schema.table (as it is named at the end) has or had a BINARY(n) column (defect 3 strips its zeros). */
    boolean hadBinary(String schema, String table) {
        return java.util.stream.Stream.concat(tables.stream(), dropped.stream())
                .anyMatch(t -> t.schema.equals(schema) && t.names.contains(table) && t.hadBinary);
    }

    /** Whether schema.table (as it is named at the end) has no primary key: rows are found by all their values. */
    boolean keyless(String qualified) {
        return java.util.stream.Stream.concat(tables.stream(), dropped.stream())
                .anyMatch(t -> t.names.stream().anyMatch(n -> (t.schema + "." + n).equals(qualified))
                && (t.key == KeyKind.NONE || t.key == KeyKind.UNIQUE_NULLS));
    }

    /** Runs everything: schema, DML, DDL, DML, DDL, DML. */
    void run() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String sql : createSchema()) {
                ddl(s, sql);
            }
        }
        dmlPhase(true);
        ddlPhase();
        dmlPhase(false);
        ddlPhase();
        dmlPhase(false);
    }

    private Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(jdbcUrl);
        try (Statement s = c.createStatement()) {
            s.execute("SET time_zone = '+00:00'");
            if (settings.zeroDates()) {
                s.execute("SET sql_mode = ''");
            }
        }
        return c;
    }

    private void ddl(Statement s, String sql) throws SQLException {
        ddlLog.add(sql);
        s.execute(sql);
    }

    // ------------------------------------------------------------------------------------------------ schema

    private List<String> createSchema() {
        List<String> sql = new ArrayList<>();
        sql.add("CREATE DATABASE `" + schemaA + "`");
        sql.add("CREATE DATABASE `" + schemaB + "` CHARACTER SET " + pick(random, "utf8mb4", "latin1"));
        int inA = 2 + random.nextInt(3);
        int inB = 1 + random.nextInt(2);
        for (int i = 0; i < inA + inB; i++) {
            String schema = i < inA ? schemaA : schemaB;
            KeyKind key = pick(random, KeyKind.values());
            Table t = newTable(schema, "t" + i, key);
            tables.add(t);
            sql.add("USE `" + schema + "`");
            sql.add(createTable(t));
        }
        if (random.nextBoolean()) {
            Table parent = newTable(schemaA, "parent", KeyKind.PRIMARY);
            parent.protectedFromDdl = true;
            Table child = new Table(schemaA, "child", KeyKind.PRIMARY);
            child.columns.add(new Column("id", new ColumnType("BIGINT NOT NULL", g -> "0", null), true, false));
            child.columns.add(new Column("pid", new ColumnType("BIGINT NULL", g -> "0", null), true, false));
            child.columns.add(new Column("n", ColumnTypes.plainInt(), true, false));
            child.columns.add(new Column("c" + (++columnCounter), ColumnTypes.random(random, settings.zeroDates()), false, false));
            child.protectedFromDdl = true;
            child.parentName = "parent";
            child.hadBinary = child.columns.get(3).type.ddl().startsWith("BINARY(");
            tables.add(parent);
            tables.add(child);
            sql.add("USE `" + schemaA + "`");
            sql.add(createTable(parent));
            String onDelete = pick(random, "CASCADE", "SET NULL");
            sql.add("CREATE TABLE `child` (`id` BIGINT NOT NULL, `pid` BIGINT NULL, `n` INT, `" + child.columns.get(3).name
                    + "` " + child.columns.get(3).type.ddl() + ", PRIMARY KEY (`id`), KEY (`pid`), CONSTRAINT `fk_child` "
                    + "FOREIGN KEY (`pid`) REFERENCES `parent` (`id`) ON DELETE " + onDelete + " ON UPDATE CASCADE)"
                    + " ENGINE=InnoDB");
        }
        if (random.nextInt(3) == 0) {
            Table source = tables.stream().filter(t -> t.schema.equals(schemaA) && !t.protectedFromDdl).findFirst()
                    .orElse(null);
            if (source != null) {
                Table audit = new Table(schemaA, "audit", KeyKind.PRIMARY);
                audit.columns.add(new Column("id", new ColumnType("BIGINT NOT NULL AUTO_INCREMENT", g -> "0", null), true,
                        true)); // never written by the workload itself
                audit.columns.add(new Column("ref", new ColumnType("BIGINT", g -> "0", null), true, true));
                audit.columns.add(new Column("what", new ColumnType("VARCHAR(8)", g -> "''", null), true, true));
                audit.protectedFromDdl = true;
                source.protectedFromDdl = true;
                source.hasTrigger = true;
                tables.add(audit);
                sql.add("USE `" + schemaA + "`");
                sql.add("CREATE TABLE `audit` (`id` BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, `ref` BIGINT, "
                        + "`what` VARCHAR(8)) ENGINE=InnoDB");
                sql.add("CREATE TRIGGER `trg_ins` AFTER INSERT ON `" + source.name + "` FOR EACH ROW INSERT INTO `audit` "
                        + "(`ref`, `what`) VALUES (NEW.`id`, 'ins')");
                sql.add("CREATE TRIGGER `trg_del` AFTER DELETE ON `" + source.name + "` FOR EACH ROW INSERT INTO `audit` "
                        + "(`ref`, `what`) VALUES (OLD.`id`, 'del')");
            }
        }
        return sql;
    }

    private Table newTable(String schema, String name, KeyKind key) {
        Table t = new Table(schema, name, key);
        String idType = key == KeyKind.PRIMARY && random.nextInt(3) == 0 && !name.equals("parent") ? "INT UNSIGNED"
                : "BIGINT";
        boolean idNullable = key == KeyKind.NONE || key == KeyKind.UNIQUE_NULLS;
        t.columns.add(new Column("id", new ColumnType(idType + (idNullable ? " NULL" : " NOT NULL"), g -> "0", null), true,
                false));
        if (key == KeyKind.COMPOSITE) {
            t.columns.add(new Column("k2", new ColumnType("VARCHAR(16) CHARACTER SET utf8mb4 NOT NULL",
                    g -> ColumnTypes.lit(pick(g, "a", "b", "ä", "z z")), null), true, false));
        }
        t.columns.add(new Column("n", ColumnTypes.plainInt(), true, false));
        if (key == KeyKind.PRIMARY && random.nextInt(3) == 0) {
            t.hasUnique = true;
            t.columns.add(new Column("u", new ColumnType("INT NULL", g -> "0", null), true, false));
        }
        int payload = 2 + random.nextInt(7);
        for (int i = 0; i < payload; i++) {
            t.columns.add(new Column("c" + (++columnCounter), ColumnTypes.random(random, settings.zeroDates()), false,
                    false));
        }
        t.hadBinary = t.columns.stream().anyMatch(c -> c.type.ddl().startsWith("BINARY("));
        if (random.nextInt(4) == 0) {
            t.hasInvisible = true;
            t.columns.add(new Column("inv", new ColumnType("INT INVISIBLE DEFAULT 7", g -> "" + g.nextInt(100), null),
                    true, false));
        }
        if (settings.generated() && random.nextInt(2) == 0) {
            String kind = pick(random, "VIRTUAL", "STORED");
            t.columns.add(new Column("gn", new ColumnType("BIGINT AS (`n` * 2) " + kind, g -> "0", null), true, true));
        }
        return t;
    }

    private String createTable(Table t) {
        StringBuilder b = new StringBuilder("CREATE TABLE `").append(t.name).append("` (");
        for (Column c : t.columns) {
            b.append('`').append(c.name).append("` ").append(c.type.ddl()).append(", ");
        }
        switch (t.key) {
            case PRIMARY -> b.append("PRIMARY KEY (`id`)");
            case COMPOSITE -> b.append("PRIMARY KEY (`id`, `k2`)");
            case UNIQUE_NULLS -> b.append("UNIQUE KEY `uk_id` (`id`)");
            case NONE -> b.append("KEY `k_n` (`n`)");
        }
        if (t.hasUnique) {
            b.append(", UNIQUE KEY `uk_u` (`u`)");
        }
        return b.append(") ENGINE=InnoDB").toString();
    }

    // ------------------------------------------------------------------------------------------------ DML

    private void dmlPhase(boolean first) throws Exception {
        List<List<List<String>>> scripts = new ArrayList<>();
        for (int s = 0; s < sessions; s++) {
            Random g = new Random(random.nextLong());
            List<List<String>> txns = new ArrayList<>();
            if (first && s == 0) {
                txns.add(bigTransaction(g));
            }
            for (int i = 0; i < transactionsPerSession; i++) {
                txns.add(transaction(g, first && i < 3));
            }
            scripts.add(txns);
        }
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (List<List<String>> script : scripts) {
                futures.add(pool.submit(() -> {
                    runSession(script);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void runSession(List<List<String>> script) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (List<String> txn : script) {
                boolean statementBased = txn.get(0).startsWith("SET SESSION binlog_format");
                try {
                    for (String sql : txn) {
                        s.execute(sql);
                    }
                    if (txn.get(txn.size() - 1).equals("ROLLBACK")) {
                        rolledBack.incrementAndGet();
                    } else {
                        committed.incrementAndGet();
                    }
                } catch (SQLException e) {
                    refused.incrementAndGet();
                    try {
                        s.execute("ROLLBACK");
                    } catch (SQLException ignored) {
                        // the connection is still usable for the next transaction, or the next statement says so
                    }
                } finally {
                    if (statementBased) {
                        s.execute("SET SESSION binlog_format = 'ROW'");
                    }
                }
            }
        }
    }

    private List<String> bigTransaction(Random g) {
        List<Table> candidates = tables.stream().filter(t -> t.key != KeyKind.NONE && !t.name.equals("audit")
                && t.parentName == null).toList();
        List<String> txn = new ArrayList<>();
        txn.add("BEGIN");
        if (!candidates.isEmpty() && bigRows > 0) {
            Table t = pick(g, candidates);
            for (int done = 0; done < bigRows; done += 100) {
                txn.add(insert(g, t, Math.min(100, bigRows - done)));
            }
        }
        txn.add("COMMIT");
        return txn;
    }

    private List<String> transaction(Random g, boolean insertOnly) {
        List<String> txn = new ArrayList<>();
        boolean statementBased = settings.statementStretches() && g.nextInt(3) == 0;
        if (statementBased) {
            txn.add("SET SESSION binlog_format = 'STATEMENT'");
        }
        txn.add("BEGIN");
        int statements = 1 + g.nextInt(5);
        // A statement-based stretch leaves the trigger's table alone: a trigger writing an AUTO_INCREMENT table, logged
        // now as statements and now as rows by concurrent sessions, is a log MariaDB's own replay cannot apply either.
        List<Table> live = tables.stream().filter(t -> !t.name.equals("audit")
                && !(statementBased && t.hasTrigger)).toList();
        for (int i = 0; i < statements; i++) {
            Table t = pick(g, live);
            int what = insertOnly ? 0 : g.nextInt(12);
            switch (what) {
                case 0, 1, 2, 3 -> txn.add(insert(g, t, 1 + g.nextInt(g.nextInt(10) == 0 ? 60 : 8)));
                case 4, 5 -> txn.add(update(g, t));
                case 6 -> txn.add(delete(g, t));
                case 7 -> {
                    if (t.key == KeyKind.PRIMARY || t.key == KeyKind.COMPOSITE) {
                        long id = 1 + g.nextInt((int) Math.max(1, t.nextId.get()));
                        // A new primary key value: far above the ids the inserts draw, so it does not collide.
                        txn.add("UPDATE " + t.qualified() + " SET `id` = `id` + " + (1_000_000 + g.nextInt(1_000_000))
                                + " WHERE `id` = " + id);
                    } else {
                        txn.add(update(g, t));
                    }
                }
                case 8 -> {
                    if (t.hasUnique) {
                        txn.addAll(uniqueSwap(g, t));
                    } else {
                        txn.add(delete(g, t));
                    }
                }
                case 9 -> {
                    txn.add("SAVEPOINT sp");
                    txn.add(g.nextBoolean() ? insert(g, t, 1 + g.nextInt(4)) : update(g, t));
                    txn.add("ROLLBACK TO SAVEPOINT sp");
                }
                case 10 -> {
                    Table other = pick(g, live); // often in the other schema: one transaction across both
                    txn.add(update(g, other));
                    txn.add(insert(g, t, 1 + g.nextInt(3)));
                }
                default -> txn.add(update(g, t));
            }
        }
        txn.add(g.nextInt(10) == 0 ? "ROLLBACK" : "COMMIT");
        return txn;
    }

    private String insert(Random g, Table t, int rows) {
        List<Column> cols = t.insertable();
        StringBuilder b = new StringBuilder("INSERT INTO ").append(t.qualified()).append(" (");
        for (int i = 0; i < cols.size(); i++) {
            b.append(i > 0 ? ", " : "").append('`').append(cols.get(i).name).append('`');
        }
        b.append(") VALUES ");
        for (int r = 0; r < rows; r++) {
            b.append(r > 0 ? ", (" : "(");
            for (int i = 0; i < cols.size(); i++) {
                b.append(i > 0 ? ", " : "").append(value(g, t, cols.get(i)));
            }
            b.append(')');
        }
        return b.toString();
    }

    private String value(Random g, Table t, Column c) {
        return switch (c.name) {
            case "id" -> switch (t.key) {
                case PRIMARY, COMPOSITE -> Long.toString(t.nextId.getAndIncrement());
                case NONE -> Long.toString(1 + g.nextInt(20)); // duplicates: rows without any key
                case UNIQUE_NULLS -> g.nextInt(4) == 0 ? "NULL" : Long.toString(t.nextId.getAndIncrement());
            };
            case "pid" -> {
                Table parent = tables.stream().filter(p -> p.name.equals(t.parentName) && p.schema.equals(t.schema))
                        .findFirst().orElseThrow();
                yield g.nextInt(5) == 0 ? "NULL" : Long.toString(1 + g.nextInt((int) Math.max(1, parent.nextId.get())));
            }
            case "u" -> g.nextInt(3) == 0 ? "NULL" : Long.toString(g.nextInt(1_000_000));
            case "n" -> c.type.value().apply(g);
            default -> g.nextInt(8) == 0 ? "NULL" : c.type.value().apply(g);
        };
    }

    private String update(Random g, Table t) {
        List<Column> payload = new ArrayList<>(t.payload());
        payload.add(t.columns.stream().filter(c -> c.name.equals("n")).findFirst().orElseThrow());
        List<Column> set = ColumnTypes.sample(g, payload, 1 + g.nextInt(3));
        StringBuilder b = new StringBuilder("UPDATE ").append(t.qualified()).append(" SET ");
        for (int i = 0; i < set.size(); i++) {
            Column c = set.get(i);
            b.append(i > 0 ? ", " : "").append('`').append(c.name).append("` = ").append(value(g, t, c));
        }
        return b.append(where(g, t)).toString();
    }

    private String delete(Random g, Table t) {
        return "DELETE FROM " + t.qualified() + where(g, t);
    }

    private String where(Random g, Table t) {
        long max = Math.max(2, t.nextId.get());
        long id = 1 + (long) (g.nextDouble() * max);
        return switch (g.nextInt(4)) {
            case 0 -> " WHERE `id` BETWEEN " + id + " AND " + (id + g.nextInt(5));
            case 1 -> " WHERE `n` < " + (g.nextInt(2000) - 1000) + " AND `id` < " + id;
            default -> " WHERE `id` = " + id;
        };
    }

    private List<String> uniqueSwap(Random g, Table t) {
        long a = 1 + g.nextInt((int) Math.max(1, t.nextId.get()));
        long b = 1 + g.nextInt((int) Math.max(1, t.nextId.get()));
        String q = t.qualified();
        return List.of("SELECT `u` INTO @ua FROM " + q + " WHERE `id` = " + a,
                "SELECT `u` INTO @ub FROM " + q + " WHERE `id` = " + b,
                "UPDATE " + q + " SET `u` = NULL WHERE `id` = " + a,
                "UPDATE " + q + " SET `u` = @ua WHERE `id` = " + b,
                "UPDATE " + q + " SET `u` = @ub WHERE `id` = " + a);
    }

    // ------------------------------------------------------------------------------------------------ DDL

    private void ddlPhase() throws SQLException {
        int ops = 1 + random.nextInt(4);
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (int i = 0; i < ops; i++) {
                List<Table> free = tables.stream().filter(t -> !t.protectedFromDdl).toList();
                if (free.isEmpty()) {
                    return;
                }
                Table t = pick(random, free);
                s.execute("USE `" + t.schema + "`");
                int op = random.nextInt(8);
                List<Column> payload = t.payload();
                try {
                switch (op) {
                    case 0 -> {
                        Column added = new Column("c" + (++columnCounter), ColumnTypes.random(random, settings.zeroDates()),
                                false, false);
                        String position = random.nextInt(5) == 0 ? " AFTER `n`" : "";
                        ddl(s, "ALTER TABLE `" + t.name + "` ADD COLUMN `" + added.name + "` " + added.type.ddl()
                                + position);
                        int at = position.isEmpty() ? t.columns.size()
                                : t.columns.indexOf(t.columns.stream().filter(x -> x.name.equals("n")).findFirst()
                                        .orElseThrow()) + 1;
                        t.columns.add(at, added);
                        t.hadBinary |= added.type.ddl().startsWith("BINARY(");
                    }
                    case 1 -> {
                        if (payload.size() > 1) {
                            Column gone = pick(random, payload);
                            ddl(s, "ALTER TABLE `" + t.name + "` DROP COLUMN `" + gone.name + "`");
                            t.columns.remove(gone);
                        }
                    }
                    case 2 -> {
                        List<Column> widenable = payload.stream().filter(x -> x.type.widened() != null).toList();
                        if (!widenable.isEmpty()) {
                            Column m = pick(random, widenable);
                            ColumnType wider = m.type.widen();
                            ddl(s, "ALTER TABLE `" + t.name + "` MODIFY COLUMN `" + m.name + "` " + wider.ddl());
                            m.type = wider;
                        }
                    }
                    case 3 -> {
                        if (!payload.isEmpty()) {
                            Column m = pick(random, payload);
                            String renamed = m.name + "r";
                            ddl(s, "ALTER TABLE `" + t.name + "` RENAME COLUMN `" + m.name + "` TO `" + renamed + "`");
                            m.name = renamed;
                        }
                    }
                    case 4 -> {
                        String renamed = t.name + "r";
                        ddl(s, "RENAME TABLE `" + t.name + "` TO `" + renamed + "`");
                        t.name = renamed;
                        t.names.add(renamed);
                    }
                    case 5 -> ddl(s, "TRUNCATE TABLE `" + t.name + "`");
                    case 6 -> {
                        Table copy = new Table(t.schema, t.name + "l" + (++columnCounter), t.key);
                        for (Column x : t.columns) {
                            copy.columns.add(new Column(x.name, x.type, x.fixed, x.generated));
                        }
                        copy.hasUnique = t.hasUnique;
                        copy.hasInvisible = t.hasInvisible;
                        copy.hadBinary = t.hadBinary;
                        copy.nextId.set(t.nextId.get());
                        ddl(s, "CREATE TABLE `" + copy.name + "` LIKE `" + t.name + "`");
                        tables.add(copy);
                        String cols = String.join(", ", t.insertable().stream().map(x -> "`" + x.name + "`").toList());
                        s.execute("INSERT INTO `" + copy.name + "` (" + cols + ") SELECT " + cols + " FROM `" + t.name
                                + "`");
                    }
                    default -> {
                        if (tables.size() > 3) {
                            ddl(s, "DROP TABLE `" + t.name + "`");
                            tables.remove(t);
                            dropped.add(t);
                        }
                    }
                }
                } catch (SQLException e) {
                    // The server refused it (the model is changed only after success): counted, the seed goes on.
                    refused.incrementAndGet();
                    ddlLog.add("-- refused: " + e.getMessage());
                }
            }
        }
    }

    @Override
    public String toString() {
        return "seed " + seed + ": " + tables.size() + " tables, " + sessions + " sessions x " + transactionsPerSession
                + " transactions";
    }
}
