package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableRef;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.testing.TestTarget;
import io.lanes.core.Applier;
import io.lanes.core.ApplierFactory;
import io.lanes.core.ApplyContext;
import io.lanes.core.Batch;
import io.lanes.core.Checkpoint;
import io.lanes.core.CommitOrder;
import io.lanes.core.Engine;
import io.lanes.core.EngineStats;
import io.lanes.core.Placement;
import io.lanes.core.Scheduler;
import io.lanes.core.SchedulingContext;
import io.lanes.core.Transaction;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The commit-order deadlock on real targets (H2, PostgreSQL, MariaDB with default settings): the later of two
 * transactions updating the same row holds the row lock and waits for its turn to commit; the earlier one waits for
 * that lock in the target. Nothing in the engine's own bookkeeping shows the cycle: only the target's lock views
 * (MariaDB {@code INNODB_LOCK_WAITS}, PostgreSQL {@code pg_blocking_pids()}, H2 {@code SESSIONS.BLOCKER_ID}) do.
 *
 * <p>The scheduler here deliberately declares the two independent (as a scheduler whose keys miss what the target
 * locks would), and the later one is made to lock first. With detection the engine rolls the later one back within
 * milliseconds, counts one commit-order deadlock broken and no timeout, and the row ends with the later value (source
 * order). Without it, the same run stalls until the commit-order timeout (3 s here; H2's own 1 s lock timeout fails the
 * earlier one first, the wrong victim).
 */
class CommitOrderDeadlockJdbcTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void laterHolderIsRolledBackWithinMilliseconds(TestTarget target) throws Exception {
        try (target) {
            Run with = run(target, true);
            assertTrue(with.millis < 1_000, target + ": took " + with.millis + " ms");
            assertEquals(1, with.stats.commitOrderDeadlocksBroken(), with.stats.toString());
            assertEquals(0, with.stats.commitOrderRetries(), with.stats.toString());
            assertEquals(List.of("later"), with.rollbacks, "only the later transaction is rolled back");
            assertEquals(2, with.finalValue, "source order: the later update wins");

            Run without = run(target, false);
            assertTrue(without.millis >= 900, target + ": without detection took only " + without.millis + " ms");
            assertEquals(0, without.stats.commitOrderDeadlocksBroken(), without.stats.toString());
            assertEquals(2, without.finalValue);
        }
    }

    /**
     * The cycle through a third transaction: the later one (2) holds row 1 and waits for its turn; a still later one
     * (3) holds row 2 and waits in the target for row 1; the earliest (1) waits in the target for row 2. Transaction 2's
     * direct waiter is later than it, so only following the lock waits through 3 shows the cycle. Both later ones are
     * rolled back in turn (2, then 3 once it holds row 1 and waits for its turn), never the earliest.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void cycleThroughAThirdWaitingTransactionIsBrokenToo(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema("cod3");
            String ckpt = target.newSchema("ckpt");
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + d.qualify(schema, "t") + " (id INT PRIMARY KEY, v INT, w INT)");
                s.execute("INSERT INTO " + d.qualify(schema, "t") + " VALUES (1, 0, 0), (2, 0, 0)");
                c.commit();
            }
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(),
                    JdbcApplierEngineTest.credentials(d)), d).checkpointTable(new JdbcCheckpointTable(d, ckpt,
                    "lanes_checkpoint")).appliesInProcess(false).build();
            CountDownLatch secondApplied = new CountDownLatch(1);
            CountDownLatch thirdStarted = new CountDownLatch(1);
            List<String> rollbacks = new CopyOnWriteArrayList<>();
            ApplierFactory<SourceTransaction> base = jdbc.applierFactory();
            ApplierFactory<SourceTransaction> factory = wid -> new Ordered(base.create(wid), null, rollbacks) {
                @Override
                public void apply(Transaction<SourceTransaction> txn, ApplyContext context) throws Exception {
                    String name = txn.payload().position();
                    if (context.attempt() == 0 && name.equals("third")) {
                        assertTrue(secondApplied.await(20, TimeUnit.SECONDS));
                        thirdStarted.countDown();
                    } else if (context.attempt() == 0 && name.equals("first")) {
                        assertTrue(thirdStarted.await(20, TimeUnit.SECONDS));
                        Thread.sleep(300); // the third's statement reaches its lock wait on row 1
                    }
                    delegateApply(txn, context);
                    if (name.equals("second")) {
                        secondApplied.countDown();
                    }
                }
            };
            Scheduler independent = new Scheduler() {
                @Override
                public void init(SchedulingContext context) {
                }

                @Override
                public void schedule(Transaction<?> txn, Placement placement) {
                    placement.toWorker((int) (placement.sequence() % 3));
                }
            };
            long millis;
            EngineStats stats;
            try (Engine<SourceTransaction> engine = Engine.builder(factory).checkpointStore(jdbc.checkpointStore())
                    .scheduler(independent).workers(3).commitOrder(CommitOrder.STRICT)
                    .commitOrderTimeout(Duration.ofSeconds(3)).retryBackoff(Duration.ofMillis(1), Duration.ofMillis(10))
                    .build()) {
                engine.start();
                long start = System.nanoTime();
                engine.submit(txn("first", RowChange.update(new TableRef(schema, "t"),
                        new RowImage(List.of("id"), new Object[] {2}), new RowImage(List.of("v"), new Object[] {1}))));
                engine.submit(txn("second", RowChange.update(new TableRef(schema, "t"),
                        new RowImage(List.of("id"), new Object[] {1}), new RowImage(List.of("v"), new Object[] {2}))));
                // The third's second change sets another column too: another statement, so its rows run one
                // statement each in source order (row 2, then row 1), not as one statement of both rows, which MySQL
                // and MariaDB would lock in key order (row 1 first, where the cycle never forms).
                engine.submit(txn("third", RowChange.update(new TableRef(schema, "t"),
                        new RowImage(List.of("id"), new Object[] {2}), new RowImage(List.of("v"), new Object[] {3})),
                        RowChange.update(new TableRef(schema, "t"), new RowImage(List.of("id"), new Object[] {1}),
                        new RowImage(List.of("v", "w"), new Object[] {3, 0}))));
                assertTrue(engine.awaitLowWaterMark(3, Duration.ofSeconds(60)), "not applied");
                millis = (System.nanoTime() - start) / 1_000_000;
                stats = engine.stats();
            }
            assertTrue(millis < 2_000, target + ": took " + millis + " ms");
            assertEquals(2, stats.commitOrderDeadlocksBroken(), stats.toString());
            assertEquals(0, stats.commitOrderRetries(), stats.toString());
            assertEquals(List.of("second", "third"), rollbacks, "only the later transactions are rolled back");
            try (Connection c = target.session(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT v FROM " + d.qualify(schema, "t") + " ORDER BY id")) {
                rs.next();
                assertEquals(3, rs.getInt(1));
                rs.next();
                assertEquals(3, rs.getInt(1));
            }
        }
    }

    private static Transaction<SourceTransaction> txn(String name, RowChange... changes) {
        SourceTransaction t = new SourceTransaction(name, null, null, List.of(changes));
        return Transaction.builder(t).position(name).build();
    }

    private record Run(long millis, EngineStats stats, List<String> rollbacks, int finalValue) {
    }

    private static Run run(TestTarget target, boolean detection) throws Exception {
        Dialect d = target.dialect();
        String schema = target.newSchema("cod");
        String ckpt = target.newSchema("ckpt");
        try (Connection c = target.session(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + d.qualify(schema, "t") + " (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO " + d.qualify(schema, "t") + " VALUES (1, 0)");
            c.commit();
        }
        JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(), JdbcApplierEngineTest.credentials(d)), d)
                .checkpointTable(new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint")).appliesInProcess(false).build();
        CountDownLatch laterHoldsLock = new CountDownLatch(1);
        List<String> rollbacks = new CopyOnWriteArrayList<>();
        ApplierFactory<SourceTransaction> base = jdbc.applierFactory();
        ApplierFactory<SourceTransaction> factory = wid -> new Ordered(base.create(wid), laterHoldsLock, rollbacks);
        // Transaction 1 to worker 1, transaction 2 to worker 0, no dependency between them.
        Scheduler independent = new Scheduler() {
            @Override
            public void init(SchedulingContext context) {
            }

            @Override
            public void schedule(Transaction<?> txn, Placement placement) {
                placement.toWorker((int) (placement.sequence() % 2));
            }
        };
        long millis;
        EngineStats stats;
        try (Engine<SourceTransaction> engine = Engine.builder(factory).checkpointStore(jdbc.checkpointStore())
                .scheduler(independent).workers(2).commitOrder(CommitOrder.STRICT)
                .commitOrderTimeout(Duration.ofSeconds(3)).commitOrderDeadlockDetection(detection)
                .retryBackoff(Duration.ofMillis(1), Duration.ofMillis(10)).build()) {
            engine.start();
            long start = System.nanoTime();
            engine.submit(update(schema, "earlier", 1));
            engine.submit(update(schema, "later", 2));
            assertTrue(engine.awaitLowWaterMark(2, Duration.ofSeconds(60)), "not applied");
            millis = (System.nanoTime() - start) / 1_000_000;
            stats = engine.stats();
        }
        int value;
        try (Connection c = target.session(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT v FROM " + d.qualify(schema, "t") + " WHERE id = 1")) {
            rs.next();
            value = rs.getInt(1);
        }
        return new Run(millis, stats, List.copyOf(rollbacks), value);
    }

    private static Transaction<SourceTransaction> update(String schema, String name, int v) {
        SourceTransaction t = new SourceTransaction(name, null, null, List.of(RowChange.update(new TableRef(schema, "t"),
                new RowImage(List.of("id"), new Object[] {1}), new RowImage(List.of("v"), new Object[] {v}))));
        return Transaction.builder(t).position(name).partitionKey(schema).build();
    }

    /** The JDBC applier, with the earlier transaction's first attempt held back until the later one holds the row. */
    private static class Ordered implements Applier<SourceTransaction> {
        private final Applier<SourceTransaction> delegate;
        private final CountDownLatch laterHoldsLock;
        private final List<String> rollbacks;

        Ordered(Applier<SourceTransaction> delegate, CountDownLatch laterHoldsLock, List<String> rollbacks) {
            this.delegate = delegate;
            this.laterHoldsLock = laterHoldsLock;
            this.rollbacks = rollbacks;
        }

        @Override
        public void apply(Transaction<SourceTransaction> txn, ApplyContext context) throws Exception {
            boolean earlier = txn.payload().position().equals("earlier");
            if (earlier && context.attempt() == 0) {
                assertTrue(laterHoldsLock.await(20, TimeUnit.SECONDS));
            }
            delegate.apply(txn, context);
            if (!earlier) {
                laterHoldsLock.countDown();
            }
        }

        final void delegateApply(Transaction<SourceTransaction> txn, ApplyContext context) throws Exception {
            delegate.apply(txn, context);
        }

        @Override
        public void commit(Batch<SourceTransaction> batch, Checkpoint checkpoint) throws Exception {
            delegate.commit(batch, checkpoint);
        }

        @Override
        public void rollback(Batch<SourceTransaction> batch) throws Exception {
            for (int i = 0; i < batch.size(); i++) {
                rollbacks.add(batch.transaction(i).payload().position());
            }
            delegate.rollback(batch);
        }

        @Override
        public boolean isRetryable(Throwable failure) {
            return delegate.isRetryable(failure);
        }

        @Override
        public long targetSession() {
            return delegate.targetSession();
        }

        @Override
        public long[] sessionsWaitingForThis() throws Exception {
            return delegate.sessionsWaitingForThis();
        }

        @Override
        public void close() throws Exception {
            delegate.close();
        }
    }
}
