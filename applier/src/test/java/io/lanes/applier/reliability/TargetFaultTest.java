package io.lanes.applier.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.SourceTransaction;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.core.ApplierFailedException;
import io.lanes.core.Engine;
import io.lanes.core.EngineStats;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.WritesetScheduler;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Faults of the target while the {@link CrashWorkload} log is applied in-process (writeset scheduler, 4 workers, block
 * commit): sessions killed from another connection, the target server killed and restarted, lock-wait timeouts and
 * deadlocks against a second session holding row locks, and a diverged target (a conflicting row inserted ahead of the
 * applier). Faults that retrying can fix must end in exactly the sequential apply's state with every transaction
 * applied once (the audit); a constraint violation must stop the engine with the failing position and a clear message
 * after the configured retries, lose nothing that was checkpointed, and, once the target is repaired, resume to the
 * exact state. Every test prints a {@code TARGET-FAULT} line with what it tried.
 */
class TargetFaultTest {
    static final int TRANSACTIONS = Boolean.getBoolean("lanes.long") ? 8_000 : 1_000;
    static final String APPLIER_USER = "lanes_applier";
    static final String APPLIER_PASSWORD = "fault-test-Pw-7c1e";

    private static MariaDbServer server;

    /** A MariaDB of this class: 1 s lock-wait timeout, a password-protected applier user; killed and restarted here. */
    static synchronized MariaDbServer server() {
        if (server == null) {
            server = MariaDbServer.start(List.of("--innodb-lock-wait-timeout=1"));
            server.sql("CREATE USER '" + APPLIER_USER + "'@'%' IDENTIFIED BY '" + APPLIER_PASSWORD + "'; GRANT ALL ON *.* TO '"
                    + APPLIER_USER + "'@'%'");
        }
        return server;
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** One target: where it is, how the applier connects, how the test connects (as an administrator). */
    record Target(String kind, Dialect dialect, String url, Properties applierProps, Properties adminProps,
            Map<String, String> mapping, String ckpt, String tag) {

        Connection admin() throws SQLException {
            Connection c = DriverManager.getConnection(url, adminProps);
            dialect.initSession(c);
            return c;
        }

        JdbcTarget jdbc() {
            Properties p = new Properties();
            p.putAll(applierProps);
            dialect.recommendedConnectionProperties().forEach(p::setProperty);
            return JdbcTarget.builder(ConnectionFactory.of(url, p), dialect).mapping(Fixtures.schemaMapping(mapping))
                    .checkpointTable(new JdbcCheckpointTable(dialect, ckpt, "lanes_checkpoint")).pipeline("faults").build();
        }
    }

    static Target target(String kind, Fixtures.Workload w, String h2Options) throws SQLException {
        String tag = "fault" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime() & 0xffffff);
        Map<String, String> mapping = Fixtures.mapping(w.workload(), tag + "_");
        Properties admin = new Properties();
        Properties applier = new Properties();
        Target t = switch (kind) {
            case "H2" -> new Target(kind, Dialect.h2(), "jdbc:h2:mem:" + tag + ";DB_CLOSE_DELAY=-1"
                    + Dialect.h2RecommendedUrlOptions() + h2Options, applier, admin, mapping, tag + "_ckpt", tag);
            case "POSTGRESQL" -> {
                admin.setProperty("user", "postgres");
                applier.setProperty("user", "postgres");
                // tags the applier's sessions so that the test can find and kill exactly those
                applier.setProperty("ApplicationName", tag);
                applier.setProperty("options", "-c lock_timeout=800");
                yield new Target(kind, Dialect.postgresql(), "jdbc:postgresql://127.0.0.1:5432/test", applier, admin, mapping,
                        tag + "_ckpt", tag);
            }
            case "MYSQL" -> {
                admin.setProperty("user", "root");
                applier.setProperty("user", APPLIER_USER);
                applier.setProperty("password", APPLIER_PASSWORD);
                yield new Target(kind, Dialect.mysql(), "jdbc:mariadb://127.0.0.1:" + server().port() + "/", applier, admin,
                        mapping, tag + "_ckpt", tag);
            }
            default -> throw new IllegalArgumentException(kind);
        };
        try (Connection c = t.admin()) {
            Fixtures.prepareTarget(c, t.dialect(), mapping, t.ckpt());
        }
        return t;
    }

    static Engine<SourceTransaction> engine(JdbcTarget jdbc, int retries, Duration backoff, Duration maxBackoff) {
        return Engine.builder(jdbc.applierFactory()).checkpointStore(jdbc.checkpointStore())
                .scheduler(new WritesetScheduler()).workers(4).blockCommit(16)
                .checkpointPeriod(Duration.ofMillis(20)).retries(retries).retryBackoff(backoff, maxBackoff).build();
    }

    /** Checksums against the sequential reference and the audit; returns the audit's {lost, doubled}. */
    static int[] verifyExact(Target t, Fixtures.Workload w) throws SQLException {
        try (Connection c = t.admin()) {
            assertEquals(w.reference(), TableChecksums.all(c, t.dialect(), t.mapping(), CrashWorkload.TABLES),
                    "every table equals the sequential apply");
            return Fixtures.verifyAudit(c, t.dialect(), t.mapping(), w.workload());
        }
    }

    static void cleanUp(Target t) throws SQLException {
        try (Connection c = t.admin()) {
            if (t.dialect().kind() == Dialect.Kind.H2) {
                try (Statement s = c.createStatement()) {
                    s.execute("SHUTDOWN");
                }
            } else {
                Fixtures.dropSchemas(c, t.dialect(), t.mapping(), t.ckpt());
            }
        }
    }

    // --------------------------------------------------------------------------------------------- dropped sessions

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"POSTGRESQL", "MYSQL"})
    void sessionsKilledFromAnotherConnectionAreRetriedAndTheResultIsExact(String kind) throws Exception {
        Fixtures.Workload w = Fixtures.workload(TRANSACTIONS);
        Target t = target(kind, w, "");
        int rounds = Boolean.getBoolean("lanes.long") ? 60 : 10;
        AtomicBoolean applying = new AtomicBoolean(true);
        AtomicInteger killedSessions = new AtomicInteger();
        AtomicInteger killRounds = new AtomicInteger();
        List<Throwable> killerErrors = new ArrayList<>();
        Thread killer = new Thread(() -> {
            Random random = new Random();
            try (Connection admin = t.admin()) {
                admin.setAutoCommit(true);
                while (applying.get() && killRounds.get() < rounds) {
                    Thread.sleep(20 + random.nextInt(150));
                    killedSessions.addAndGet(killApplierSessions(t, admin));
                    killRounds.incrementAndGet();
                }
            } catch (Exception e) {
                synchronized (killerErrors) {
                    killerErrors.add(e);
                }
            }
        }, "session-killer");
        try {
            JdbcTarget jdbc = t.jdbc();
            // Generous retries: a batch may meet several kills in a row.
            Engine<SourceTransaction> engine = engine(jdbc, 30, Duration.ofMillis(10), Duration.ofMillis(200));
            RecoveryPoint from = engine.start();
            killer.start();
            Fixtures.dispatch(jdbc, engine, w.binlog(), from);
            engine.stop();
            applying.set(false);
            killer.join();
            assertTrue(killerErrors.isEmpty(), () -> "the killer failed: " + killerErrors);
            EngineStats stats = engine.stats();
            int[] audit = verifyExact(t, w);
            System.out.printf("TARGET-FAULT fault=session-killed target=%s rounds=%d sessions-killed=%d retries=%d exact=true "
                    + "lost=%d doubled=%d%n", kind, killRounds.get(), killedSessions.get(), stats.retries(), audit[0], audit[1]);
            assertTrue(killedSessions.get() > 0, "no session was killed: the test proved nothing");
            assertTrue(stats.retries() > 0, "killed sessions must have made batches retry");
        } finally {
            applying.set(false);
            killer.join();
            cleanUp(t);
        }
    }

    /** Kills every session of the applier (the checkpoint store's and the catalog's included); returns how many. */
    static int killApplierSessions(Target t, Connection admin) throws SQLException {
        int n = 0;
        if (t.dialect().kind() == Dialect.Kind.POSTGRESQL) {
            try (PreparedStatement ps = admin.prepareStatement(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ? AND pid <> pg_backend_pid()")) {
                ps.setString(1, t.tag());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        n += rs.getBoolean(1) ? 1 : 0;
                    }
                }
            }
        } else {
            List<Long> ids = new ArrayList<>();
            try (PreparedStatement ps = admin.prepareStatement(
                    "SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ? AND ID <> CONNECTION_ID()")) {
                ps.setString(1, APPLIER_USER);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
            }
            try (Statement s = admin.createStatement()) {
                for (long id : ids) {
                    try {
                        s.execute("KILL " + id);
                        n++;
                    } catch (SQLException gone) {
                        // ended between the query and the kill
                    }
                }
            }
        }
        return n;
    }

    // ------------------------------------------------------------------------------------------- restarted server

    @Test
    void mariadbTargetKilledAndRestartedMidApplyIsRetriedAndTheResultIsExact() throws Exception {
        Fixtures.Workload w = Fixtures.workload(TRANSACTIONS);
        Target t = target("MYSQL", w, "");
        int restarts = Boolean.getBoolean("lanes.long") ? 5 : 1;
        try {
            JdbcTarget jdbc = t.jdbc();
            // The retry budget must outlast a restart: 60 retries, back-off up to 1 s.
            Engine<SourceTransaction> engine = engine(jdbc, 60, Duration.ofMillis(50), Duration.ofSeconds(1));
            RecoveryPoint from = engine.start();
            AtomicInteger done = new AtomicInteger();
            List<Throwable> restartErrors = new ArrayList<>();
            Thread restarter = new Thread(() -> {
                try {
                    for (int i = 1; i <= restarts; i++) {
                        long at = (long) w.binlogTransactions() * i / (restarts + 1);
                        while (engine.lowWaterMark() < at) {
                            Thread.sleep(1);
                        }
                        server().kill(); // SIGKILL: InnoDB crash recovery on restart
                        Thread.sleep(300);
                        server().restart();
                        done.incrementAndGet();
                    }
                } catch (Throwable e) {
                    synchronized (restartErrors) {
                        restartErrors.add(e);
                    }
                }
            }, "server-restarter");
            restarter.start();
            Fixtures.dispatch(jdbc, engine, w.binlog(), from);
            engine.stop();
            restarter.join();
            assertTrue(restartErrors.isEmpty(), () -> "restarting failed: " + restartErrors);
            EngineStats stats = engine.stats();
            int[] audit = verifyExact(t, w);
            System.out.printf("TARGET-FAULT fault=server-killed-restarted target=MYSQL restarts=%d retries=%d exact=true "
                    + "lost=%d doubled=%d%n", done.get(), stats.retries(), audit[0], audit[1]);
            assertEquals(restarts, done.get(), "every planned restart happened while applying");
            assertTrue(stats.retries() > 0, "a restart must have made batches retry");
        } finally {
            if (!server().isRunning()) {
                server().restart();
            }
            cleanUp(t);
        }
    }

    // ---------------------------------------------------------------------------------------- lock waits, deadlocks

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "POSTGRESQL", "MYSQL"})
    void lockWaitTimeoutsAndDeadlocksAgainstASecondSessionAreRetriedAndTheResultIsExact(String kind) throws Exception {
        Fixtures.Workload w = Fixtures.workload(TRANSACTIONS);
        // H2: the applier's lock timeout (the blocker's too: same URL)
        Target t = target(kind, w, ";LOCK_TIMEOUT=800");
        int rounds = Boolean.getBoolean("lanes.long") ? 30 : 4;
        AtomicBoolean applying = new AtomicBoolean(true);
        AtomicInteger blockerVictims = new AtomicInteger();
        AtomicInteger blockerDeadlocks = new AtomicInteger();
        AtomicInteger held = new AtomicInteger();
        // The stream waits (once every schema's tables and counter rows are submitted) until the second session holds
        // a counter row: a fast applier otherwise finished the log before the first lock round, and nothing conflicted.
        java.util.concurrent.CountDownLatch rowLocked = new java.util.concurrent.CountDownLatch(1);
        List<Throwable> blockerErrors = new ArrayList<>();
        String counter = t.dialect().qualify(t.mapping().get("s0"), "counter");
        Thread blocker = new Thread(() -> {
            Random random = new Random();
            try (Connection c = t.admin()) {
                c.setAutoCommit(false);
                // wait until the log has created the counter table
                while (applying.get() && !TableChecksums.exists(c, t.mapping().get("s0"), "counter")) {
                    c.commit();
                    Thread.sleep(2);
                }
                c.commit();
                while (applying.get() && held.get() < rounds) {
                    try (PreparedStatement lock = c.prepareStatement("SELECT n FROM " + counter + " WHERE id = ? FOR UPDATE")) {
                        // Rows in descending order with pauses, while the applier takes them ascending within its
                        // batches: lock waits always, deadlocks when both hold some.
                        for (int id = 3; id >= 0; id--) {
                            lock.setInt(1, id);
                            try (java.sql.ResultSet rs = lock.executeQuery()) {
                                if (rs.next()) {
                                    rowLocked.countDown();
                                }
                            }
                            Thread.sleep(random.nextInt(40));
                        }
                        held.incrementAndGet();
                        Thread.sleep(1200 + random.nextInt(600)); // longer than the applier's lock timeout
                        c.commit();
                    } catch (SQLException e) {
                        // chosen as the deadlock victim, or timed out itself
                        blockerVictims.incrementAndGet();
                        if ("40001".equals(e.getSQLState()) || "40P01".equals(e.getSQLState()) || e.getErrorCode() == 1213) {
                            blockerDeadlocks.incrementAndGet();
                        }
                        c.rollback();
                    }
                    Thread.sleep(random.nextInt(200));
                }
            } catch (Throwable e) {
                synchronized (blockerErrors) {
                    blockerErrors.add(e);
                }
            }
        }, "row-lock-holder");
        try {
            JdbcTarget jdbc = t.jdbc();
            Engine<SourceTransaction> engine = engine(jdbc, 30, Duration.ofMillis(10), Duration.ofMillis(300));
            RecoveryPoint from = engine.start();
            blocker.start();
            AtomicInteger submitted = new AtomicInteger();
            Fixtures.dispatch(jdbc, engine, w.binlog(), from, txn -> {
                if (submitted.incrementAndGet() == 40) { // after the 6 schemas' 4 set-up transactions each
                    try {
                        rowLocked.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return txn;
            });
            engine.stop();
            applying.set(false);
            blocker.join();
            assertTrue(blockerErrors.isEmpty(), () -> "the lock holder failed: " + blockerErrors);
            assertEquals(0, rowLocked.getCount(), "the second session never locked a counter row");
            EngineStats stats = engine.stats();
            int[] audit = verifyExact(t, w);
            System.out.printf("TARGET-FAULT fault=lock-wait-deadlock target=%s lock-rounds=%d blocker-victims=%d (deadlocks %d) "
                    + "retries=%d exact=true lost=%d doubled=%d%n", kind, held.get(), blockerVictims.get(),
                    blockerDeadlocks.get(), stats.retries(), audit[0], audit[1]);
            assertTrue(held.get() > 0, "the second session never held its locks: the test proved nothing");
            assertTrue(stats.retries() + blockerVictims.get() > 0, "no lock conflict happened: the test proved nothing");
        } finally {
            applying.set(false);
            blocker.join();
            cleanUp(t);
        }
    }

    // ---------------------------------------------------------------------------------------------- diverged target

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "POSTGRESQL", "MYSQL"})
    void aConstraintViolationStopsWithThePositionLosesNothingAndResumesExactlyAfterRepair(String kind) throws Exception {
        Fixtures.Workload w = Fixtures.workload(TRANSACTIONS);
        Target t = target(kind, w, "");
        long conflicting = 2L * w.workload().dmlTransactions() / 3; // a ledger key the log inserts late
        try {
            // Diverge the target: as soon as the log has created the ledger tables, insert the conflicting key into each.
            List<Throwable> divergeErrors = new ArrayList<>();
            Thread diverger = new Thread(() -> {
                try (Connection c = t.admin()) {
                    for (String schema : t.mapping().values()) {
                        while (!TableChecksums.exists(c, schema, "ledger")) {
                            c.commit();
                            Thread.sleep(1);
                        }
                        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t.dialect().qualify(schema, "ledger")
                                + " (txn, amount, note) VALUES (?, 0, 'diverged')")) {
                            ps.setLong(1, conflicting);
                            ps.executeUpdate();
                        }
                        c.commit();
                    }
                } catch (Throwable e) {
                    synchronized (divergeErrors) {
                        divergeErrors.add(e);
                    }
                }
            }, "diverger");
            JdbcTarget jdbc = t.jdbc();
            Engine<SourceTransaction> first = engine(jdbc, 2, Duration.ofMillis(5), Duration.ofMillis(20));
            RecoveryPoint from = first.start();
            diverger.start();
            ApplierFailedException failure = assertThrows(ApplierFailedException.class, () -> {
                Fixtures.dispatch(jdbc, first, w.binlog(), from);
                first.stop();
            });
            diverger.join();
            assertTrue(divergeErrors.isEmpty(), () -> "diverging the target failed: " + divergeErrors);
            // A clean stop with the position and a clear message.
            assertNotNull(failure.failedPosition(), "the failure names the transaction's position");
            String message = failure.getMessage() + " / " + failure.getCause();
            assertTrue(message.contains(failure.failedPosition()), message);
            assertTrue(message.toLowerCase(java.util.Locale.ROOT).matches("(?s).*(duplicate|unique|primary key).*"), message);
            assertTrue(message.contains(String.valueOf(conflicting)), "the message names the conflicting key: " + message);

            // Nothing checkpointed is lost, the failing transaction was not skipped: its audit row is absent.
            try (Connection c = t.admin(); Statement s = c.createStatement()) {
                for (Map.Entry<String, String> e : t.mapping().entrySet()) {
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + t.dialect().qualify(e.getValue(), "audit")
                            + " WHERE txn = " + conflicting)) {
                        rs.next();
                        assertEquals(0, rs.getInt(1), "the failing transaction was skipped into " + e.getKey());
                    }
                }
                // Recovery from the target's checkpoint rows: every transaction it reports applied is present.
                RecoveryPoint rp = RecoveryPoint.fromCheckpoints(jdbc.checkpointStore().load(), null);
                assertTrue(rp.lowWaterMark() > 0 && rp.lowWaterMark() < failure.failedSequence(), rp + " vs failure at "
                        + failure.failedSequence());
                c.commit();
            }

            // Repair the divergence and resume from the checkpoint: exactly the sequential state.
            try (Connection c = t.admin(); Statement s = c.createStatement()) {
                for (String schema : t.mapping().values()) {
                    s.executeUpdate("DELETE FROM " + t.dialect().qualify(schema, "ledger") + " WHERE note = 'diverged'");
                }
                c.commit();
            }
            Engine<SourceTransaction> second = engine(jdbc, 2, Duration.ofMillis(5), Duration.ofMillis(20));
            RecoveryPoint resume = second.start();
            Fixtures.dispatch(jdbc, second, w.binlog(), resume);
            second.stop();
            int[] audit = verifyExact(t, w);
            System.out.printf("TARGET-FAULT fault=constraint-violation target=%s stopped-at=%s resumed-from-lwm=%d exact=true "
                    + "lost=%d doubled=%d message=%s%n", kind, failure.failedPosition(), resume.lowWaterMark(), audit[0],
                    audit[1], failure.getMessage().replace('\n', ' '));
        } finally {
            cleanUp(t);
        }
    }
}
