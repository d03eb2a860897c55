package io.lanes.applier.soak;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A sysbench-like write workload on a live MariaDB: several JDBC connections, each running a paced mix of transactions
 * over {@code schemas} schemas, plus one heartbeat connection that stamps the wall clock into a one-row table every
 * {@value #HEARTBEAT_MILLIS} ms (pt-heartbeat style) so the soak can measure lag in seconds on the target.
 *
 * <p>Each schema holds {@code sbtest1} (sysbench's table: id, k, c, pad; {@value #ROWS} rows) and {@code ring} (a
 * bounded table written by multi-row upserts). The mix, per transaction:
 * <ul>
 *   <li>40 %: one autocommit {@code UPDATE sbtest1 SET k = k + 1 WHERE id = ?} (sysbench's index update);</li>
 *   <li>30 %: oltp_write_only: update c by id, delete a row by id and insert it again, in one transaction;</li>
 *   <li>15 %: a multi-row transaction: a 10-row range update in one schema and a point update in another;</li>
 *   <li>10 %: a 5-row {@code INSERT ... ON DUPLICATE KEY UPDATE} into {@code ring} (inserts and updates in one event);</li>
 *   <li>5 %: a write_only transaction rolled back (must never reach the target).</li>
 * </ul>
 * Table sizes stay bounded (deletes are re-inserted, ring ids wrap), so a long run measures the replica, not growth of
 * the data. Deadlocks and lock wait timeouts between writers are rolled back and counted, as sysbench does.
 *
 * <p>Threads: {@link #start()} starts one thread per writer plus the heartbeat thread; {@link #stop()} (from any thread)
 * asks them to finish their current transaction and joins them. Counters are safe to read from any thread.
 */
final class SoakWorkload {
    static final int ROWS = 1_000;
    static final int RING = 500;
    static final long HEARTBEAT_MILLIS = 250;

    private final String jdbcUrl;
    private final List<String> schemas;
    private final String heartbeatTable;
    private final int writers;
    private final double ratePerSecond;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong rolledBack = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    /**
     * @param ratePerSecond total target rate of committed transactions over all writers; 0 runs unthrottled
     */
    SoakWorkload(String jdbcUrl, List<String> schemas, String heartbeatSchema, int writers, double ratePerSecond) {
        this.jdbcUrl = jdbcUrl;
        this.schemas = List.copyOf(schemas);
        this.heartbeatTable = quote(heartbeatSchema) + ".`heartbeat`";
        this.writers = writers;
        this.ratePerSecond = ratePerSecond;
    }

    /** Creates the schemas, tables, initial rows and the heartbeat row (all replicated, as the log starts before). */
    void createSchema() throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
            for (String schema : schemas) {
                String q = quote(schema);
                s.execute("CREATE DATABASE " + q);
                s.execute("CREATE TABLE " + q + ".`sbtest1` (id INT NOT NULL PRIMARY KEY, k INT NOT NULL DEFAULT 0,"
                        + " c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', KEY k_1 (k))"
                        + " ENGINE=InnoDB");
                s.execute("CREATE TABLE " + q + ".`ring` (id INT NOT NULL PRIMARY KEY, v BIGINT NOT NULL,"
                        + " note VARCHAR(64) NOT NULL) ENGINE=InnoDB");
                for (int from = 1; from <= ROWS; from += 250) {
                    StringBuilder insert = new StringBuilder("INSERT INTO " + q + ".`sbtest1` (id, k, c, pad) VALUES ");
                    for (int id = from; id < from + 250 && id <= ROWS; id++) {
                        insert.append(id > from ? "," : "").append('(').append(id).append(',').append(id * 7 % ROWS)
                                .append(",'").append(text(119)).append("','").append(text(59)).append("')");
                    }
                    s.execute(insert.toString());
                }
            }
            s.execute("CREATE DATABASE " + heartbeatTable.substring(0, heartbeatTable.indexOf('.')));
            s.execute("CREATE TABLE " + heartbeatTable + " (id INT NOT NULL PRIMARY KEY, ts BIGINT NOT NULL)");
            s.execute("INSERT INTO " + heartbeatTable + " VALUES (1, " + System.currentTimeMillis() + ")");
        }
    }

    void start() {
        running.set(true);
        for (int w = 0; w < writers; w++) {
            threads.add(start("soak-writer-" + w, this::write));
        }
        threads.add(start("soak-heartbeat", this::heartbeat));
    }

    /** Stops every writer after its current transaction and waits for them; a writer's failure is in {@link #failure()}. */
    void stop() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
        }
    }

    /** The first failure of a writer, or null. */
    Throwable failure() {
        return failure.get();
    }

    long committed() {
        return committed.get();
    }

    long rolledBack() {
        return rolledBack.get();
    }

    long conflicts() {
        return conflicts.get();
    }

    private Thread start(String name, SqlTask task) {
        Thread t = new Thread(() -> {
            try {
                task.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void heartbeat() throws SQLException, InterruptedException {
        try (Connection c = DriverManager.getConnection(jdbcUrl);
                PreparedStatement beat = c.prepareStatement("UPDATE " + heartbeatTable + " SET ts = ? WHERE id = 1")) {
            while (running.get()) {
                beat.setLong(1, System.currentTimeMillis());
                beat.executeUpdate();
                Thread.sleep(HEARTBEAT_MILLIS);
            }
        }
    }

    /**
     * One writer. Pacing: each writer owns {@code rate / writers} transactions per second and sleeps until the next is due;
     * a writer more than a second late does not burst to catch up (a soak wants a steady load, not a backlog of its own).
     */
    private void write() throws SQLException, InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long periodNanos = ratePerSecond <= 0 ? 0 : (long) (1e9 * writers / ratePerSecond);
        long due = System.nanoTime();
        try (Connection c = DriverManager.getConnection(jdbcUrl)) {
            c.setAutoCommit(false);
            while (running.get()) {
                if (periodNanos > 0) {
                    due += periodNanos;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    } else if (wait < -1_000_000_000L) {
                        due = System.nanoTime();
                    }
                }
                int pick = random.nextInt(100);
                try {
                    if (pick < 40) {
                        indexUpdate(c, random);
                    } else if (pick < 70) {
                        writeOnly(c, random);
                    } else if (pick < 85) {
                        rangeAndCrossSchema(c, random);
                    } else if (pick < 95) {
                        ringUpsert(c, random);
                    } else {
                        writeOnly(c, random);
                        c.rollback(); // an aborted transaction: must not reach the target
                        rolledBack.incrementAndGet();
                        continue;
                    }
                    c.commit();
                    committed.incrementAndGet();
                } catch (SQLException e) {
                    c.rollback();
                    if (e.getErrorCode() != 1213 && e.getErrorCode() != 1205) { // deadlock, lock wait timeout
                        throw e;
                    }
                    conflicts.incrementAndGet();
                }
            }
        }
    }

    private String table(ThreadLocalRandom random, String name) {
        return quote(schemas.get(random.nextInt(schemas.size()))) + ".`" + name + "`";
    }

    private void indexUpdate(Connection c, ThreadLocalRandom random) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("UPDATE " + table(random, "sbtest1") + " SET k = k + 1 WHERE id = ?")) {
            p.setInt(1, 1 + random.nextInt(ROWS));
            p.executeUpdate();
        }
    }

    private void writeOnly(Connection c, ThreadLocalRandom random) throws SQLException {
        String t = table(random, "sbtest1");
        try (PreparedStatement update = c.prepareStatement("UPDATE " + t + " SET c = ? WHERE id = ?");
                PreparedStatement delete = c.prepareStatement("DELETE FROM " + t + " WHERE id = ?");
                PreparedStatement insert = c.prepareStatement("INSERT INTO " + t + " (id, k, c, pad) VALUES (?, ?, ?, ?)")) {
            update.setString(1, text(119));
            update.setInt(2, 1 + random.nextInt(ROWS));
            update.executeUpdate();
            int moved = 1 + random.nextInt(ROWS);
            delete.setInt(1, moved);
            delete.executeUpdate();
            insert.setInt(1, moved);
            insert.setInt(2, random.nextInt(ROWS));
            insert.setString(3, text(119));
            insert.setString(4, random.nextInt(10) == 0 ? "" : text(59));
            insert.executeUpdate();
        }
    }

    private void rangeAndCrossSchema(Connection c, ThreadLocalRandom random) throws SQLException {
        int from = 1 + random.nextInt(ROWS - 10);
        try (PreparedStatement range = c.prepareStatement("UPDATE " + table(random, "sbtest1")
                + " SET k = k + 1, pad = ? WHERE id BETWEEN ? AND ?");
                PreparedStatement other = c.prepareStatement("UPDATE " + table(random, "sbtest1")
                        + " SET c = ? WHERE id = ?")) {
            range.setString(1, text(59));
            range.setInt(2, from);
            range.setInt(3, from + 9);
            range.executeUpdate();
            other.setString(1, text(119));
            other.setInt(2, 1 + random.nextInt(ROWS));
            other.executeUpdate();
        }
    }

    private void ringUpsert(Connection c, ThreadLocalRandom random) throws SQLException {
        StringBuilder sql = new StringBuilder("INSERT INTO " + table(random, "ring") + " (id, v, note) VALUES ");
        for (int i = 0; i < 5; i++) {
            sql.append(i > 0 ? "," : "").append("(?, ?, ?)");
        }
        sql.append(" ON DUPLICATE KEY UPDATE v = v + VALUES(v), note = VALUES(note)");
        try (PreparedStatement p = c.prepareStatement(sql.toString())) {
            int base = random.nextInt(RING);
            for (int i = 0; i < 5; i++) {
                p.setInt(3 * i + 1, (base + i * 97) % RING); // distinct ids within the statement
                p.setLong(3 * i + 2, random.nextLong(1_000_000));
                p.setString(3 * i + 3, text(1 + random.nextInt(63)));
            }
            p.executeUpdate();
        }
    }

    static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    static String text(int length) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(i % 12 == 11 ? '-' : (char) ('0' + random.nextInt(10)));
        }
        return b.toString();
    }

    @FunctionalInterface
    private interface SqlTask {
        void run() throws Exception;
    }
}
