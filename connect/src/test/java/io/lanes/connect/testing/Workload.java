package io.lanes.connect.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
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
 * A sysbench-like OLTP write workload on a real MariaDB/MySQL source, with the audit-table technique of
 * docs/reliability.md: each transaction bumps its schema's counter, inserts a uniquely keyed ledger row and an audit row
 * (whose target copy has no key, so a transaction applied twice leaves two rows and a lost one none), and does 0-4
 * random inserts, updates (of the indexed column too) and deletes of {@code items}. Several client threads commit at
 * once (MariaDB group-commits them). Random choices come from a seed, printed by the caller so a run can be replayed
 * (the interleaving of the client threads is the server's).
 */
public final class Workload {
    public static final String[] TABLES = {"counter", "ledger", "audit", "items"};

    private final String url;
    private final List<String> schemas;
    private final long seed;
    private final AtomicLong txn = new AtomicLong();

    public Workload(String url, List<String> schemas, long seed) {
        this.url = url;
        this.schemas = schemas;
        this.seed = seed;
    }

    /** The source's tables: audit keyed by txn as the log declares it. */
    public static List<String> sourceDdl(String schema) {
        return ddl(schema, true);
    }

    /** The target's tables: the same, but audit without any key. */
    public static List<String> targetDdl(String schema, boolean mysql) {
        List<String> out = new ArrayList<>();
        for (String s : ddl(schema, false)) {
            out.add(mysql ? s : s.replace('`', '"').replace("DATETIME(3)", "TIMESTAMP(3)").replace(" ENGINE=InnoDB", "")
                    .replaceAll(", KEY \"k\" \\(\"k\"\\)", ""));
        }
        if (!mysql) {
            out.add("CREATE INDEX ON \"" + schema + "\".\"items\" (\"k\")");
        }
        return out;
    }

    private static List<String> ddl(String s, boolean auditKey) {
        String q = "`" + s + "`.";
        return List.of(
                "CREATE TABLE " + q + "`counter` (`id` INT NOT NULL PRIMARY KEY, `n` BIGINT NOT NULL) ENGINE=InnoDB",
                "CREATE TABLE " + q + "`ledger` (`txn` BIGINT NOT NULL PRIMARY KEY, `amount` DECIMAL(12,2) NOT NULL,"
                        + " `note` VARCHAR(64), `at` DATETIME(3) NOT NULL) ENGINE=InnoDB",
                "CREATE TABLE " + q + "`audit` (`txn` BIGINT NOT NULL" + (auditKey ? " PRIMARY KEY" : "")
                        + ", `sch` VARCHAR(64) NOT NULL) ENGINE=InnoDB",
                "CREATE TABLE " + q + "`items` (`id` INT NOT NULL PRIMARY KEY, `k` INT NOT NULL, `c` VARCHAR(120),"
                        + " KEY `k` (`k`)) ENGINE=InnoDB");
    }

    /** Creates the schemas and tables on the source and seeds counters and {@code rows} items per schema. */
    public void createSource(int rows) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            Random r = new Random(seed ^ 0x5eed);
            for (String schema : schemas) {
                s.execute("CREATE DATABASE `" + schema + "`");
                for (String ddl : sourceDdl(schema)) {
                    s.execute(ddl);
                }
                s.execute("INSERT INTO `" + schema + "`.`counter` VALUES (1, 0)");
                for (int i = 1; i <= rows; i++) {
                    s.execute("INSERT INTO `" + schema + "`.`items` VALUES (" + i + ", " + r.nextInt(100) + ", 'seed-" + i + "')");
                }
            }
        }
    }

    /** Runs {@code transactions} transactions over {@code clients} connections; returns how many each schema got. */
    public long[] run(int transactions, int clients) throws Exception {
        long[] perSchema = new long[schemas.size()];
        AtomicLong left = new AtomicLong(transactions);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<long[]>> futures = new ArrayList<>();
            for (int t = 0; t < clients; t++) {
                long clientSeed = seed * 31 + t;
                futures.add(pool.submit(() -> client(new Random(clientSeed), left)));
            }
            for (Future<long[]> f : futures) {
                long[] got = f.get();
                for (int i = 0; i < got.length; i++) {
                    perSchema[i] += got[i];
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return perSchema;
    }

    private long[] client(Random r, AtomicLong left) throws SQLException {
        long[] done = new long[schemas.size()];
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            while (left.getAndDecrement() > 0) {
                int si = r.nextInt(schemas.size());
                String q = "`" + schemas.get(si) + "`.";
                long id = txn.incrementAndGet();
                for (int attempt = 1; ; attempt++) {
                    try {
                        transaction(c, r, q, si, id);
                        c.commit();
                        break;
                    } catch (java.sql.SQLTransactionRollbackException deadlock) {
                        // Clients touch random items in random order: InnoDB picks a victim, which runs again.
                        c.rollback();
                        if (attempt >= 20) {
                            throw deadlock;
                        }
                    }
                }
                done[si]++;
            }
        }
        return done;
    }

    private void transaction(Connection c, Random r, String q, int si, long id) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE " + q + "`counter` SET `n` = `n` + 1 WHERE `id` = 1");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + q + "`ledger` VALUES (?, ?, ?, ?)")) {
                ps.setLong(1, id);
                ps.setBigDecimal(2, java.math.BigDecimal.valueOf(r.nextInt(1_000_000), 2));
                ps.setString(3, r.nextBoolean() ? null : "note " + Long.toString(r.nextLong(), 36) + " é ✓");
                ps.setObject(4, java.time.LocalDateTime.of(2024, 1, 1, 0, 0).plusNanos(r.nextInt(1_000_000) * 1_000_000L));
                ps.executeUpdate();
            }
            s.executeUpdate("INSERT INTO " + q + "`audit` VALUES (" + id + ", '" + schemas.get(si) + "')");
            int ops = r.nextInt(5);
            for (int i = 0; i < ops; i++) {
                int item = 1 + r.nextInt(200);
                switch (r.nextInt(4)) {
                    case 0 -> s.executeUpdate("INSERT IGNORE INTO " + q + "`items` (`id`, `k`, `c`) VALUES (" + item + ", "
                            + r.nextInt(100) + ", 'ins-" + id + "')");
                    case 1 -> s.executeUpdate("UPDATE " + q + "`items` SET `c` = 'upd-" + id + "' WHERE `id` = " + item);
                    case 2 -> s.executeUpdate("UPDATE " + q + "`items` SET `k` = `k` + 1 WHERE `id` = " + item);
                    default -> s.executeUpdate("DELETE FROM " + q + "`items` WHERE `id` = " + item);
                }
            }
        }
    }
}
