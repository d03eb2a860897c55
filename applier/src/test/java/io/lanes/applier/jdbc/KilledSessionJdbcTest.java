package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableRef;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.testing.TestApplyContext;
import io.lanes.applier.testing.TestTarget;
import io.lanes.core.Applier;
import io.lanes.core.ApplyContext;
import io.lanes.core.Batch;
import io.lanes.core.Checkpoint;
import io.lanes.core.Transaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The row lost under a killed target session (TargetFaultTest on MariaDB once stopped at "UPDATE ... matched no row"):
 * a worker's session is killed from another connection after the worker wrote its batch, and the worker's commit-order
 * deadlock probe ({@link JdbcApplier#sessionsWaitingForThis()}) is the first to touch the dead connection. The driver
 * then marks the connection closed; the applier used to open a new session on the next use and commit the batch's
 * checkpoint there without the batch's writes. Now the commit fails with a connection error (retryable), and the batch
 * applied again from its start on a new session leaves the row, once.
 */
class KilledSessionJdbcTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void sessionKilledUnderAnOpenBatchFailsItsCommitAndTheRetryKeepsTheRow(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema("kill");
            String ckpt = target.newSchema("ckpt");
            JdbcCheckpointTable table = new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint");
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + d.qualify(schema, "t") + " (id INT PRIMARY KEY, v INT)");
                table.createIfAbsent(c);
                c.commit();
            }
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(), JdbcApplierEngineTest.credentials(d)),
                    d).checkpointTable(table).appliesInProcess(false).build();
            Applier<SourceTransaction> applier = jdbc.applierFactory().create(0);
            Transaction<SourceTransaction> insert = Transaction.builder(new SourceTransaction("k.000001:4", null, null,
                    List.of(RowChange.insert(new TableRef(schema, "t"), new RowImage(List.of("id", "v"),
                            new Object[] {41, 7}))))).position("k.000001:4").build();
            Batch<SourceTransaction> batch = new Batch<>() {
                @Override
                public int size() {
                    return 1;
                }

                @Override
                public Transaction<SourceTransaction> transaction(int index) {
                    return insert;
                }

                @Override
                public long sequence(int index) {
                    return 1;
                }
            };
            Checkpoint cp = Checkpoint.ofWorker(0, 1, "k.000001:4", new long[0]);
            try {
                applier.apply(insert, context(0));
                long session = applier.targetSession();
                assertTrue(session >= 0, "session id of the worker");
                kill(target, session);

                // The probe is the first to meet the dead session, and fails (the worker logs it and goes on).
                assertThrows(Exception.class, applier::sessionsWaitingForThis);
                // Committing now would commit the checkpoint without the insert: it must fail, retryably.
                Exception e = assertThrows(Exception.class, () -> applier.commit(batch, cp),
                        "commit after the session was killed under the open batch succeeded");
                assertTrue(applier.isRetryable(e), e.toString());
                assertEquals(0, rows(target, schema), "nothing committed by the failed commit");

                applier.rollback(batch);
                applier.apply(insert, context(1));
                applier.commit(batch, cp);
                assertEquals(1, rows(target, schema), "the re-applied batch committed its row");
            } finally {
                applier.close();
            }
        }
    }

    /** The one transaction of a batch of its own (sequence 1), at the given attempt. */
    private static ApplyContext context(int attempt) {
        return new TestApplyContext(1, attempt, 0, true);
    }

    /** Ends the session from another connection, as an operator or a failover would, and waits until it is gone. */
    private static void kill(TestTarget target, long session) throws Exception {
        Dialect.Kind kind = target.dialect().kind();
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            switch (kind) {
                case H2 -> s.execute("CALL ABORT_SESSION(" + session + ")");
                case POSTGRESQL -> s.execute("SELECT pg_terminate_backend(" + session + ")");
                case MYSQL -> s.execute("KILL " + session);
            }
            String alive = switch (kind) {
                case H2 -> "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = ?";
                case POSTGRESQL -> "SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?";
                case MYSQL -> "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?";
            };
            long deadline = System.nanoTime() + 10_000_000_000L;
            for (;;) {
                try (PreparedStatement ps = c.prepareStatement(alive)) {
                    ps.setLong(1, session);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (rs.getLong(1) == 0) {
                            return;
                        }
                    }
                }
                assertTrue(System.nanoTime() < deadline, "session " + session + " still alive 10 s after the kill");
                Thread.sleep(20);
            }
        }
    }

    private static long rows(TestTarget target, String schema) throws Exception {
        try (Connection c = target.session(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + target.dialect().qualify(schema, "t")
                        + " WHERE id = 41")) {
            rs.next();
            long n = rs.getLong(1);
            c.commit();
            return n;
        }
    }
}
