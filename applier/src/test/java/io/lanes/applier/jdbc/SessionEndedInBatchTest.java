package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableRef;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.testing.TestTarget;
import io.lanes.core.Applier;
import io.lanes.core.ApplyContext;
import io.lanes.core.Batch;
import io.lanes.core.Checkpoint;
import io.lanes.core.Transaction;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A target session that ends while a batch is open (killed from another connection, a server restart) loses the
 * batch's work on the server. When the driver learns of it before the commit (here, as in the engine, through the
 * commit-order lock-view probe run on the worker's connection while it waits for its turn), the commit must fail as a
 * lost connection so that the batch is applied again from its start; it must never reopen a session and commit the
 * checkpoint there without the batch's rows (TargetFaultTest's killed sessions and restarted MariaDB lost one
 * transaction that way).
 */
class SessionEndedInBatchTest {

    static Stream<TestTarget> targets() {
        return Stream.of(TestTarget.mariadb(), TestTarget.postgres());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aBatchWhoseSessionEndedIsAppliedAgainNotCommittedWithoutItsRows(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema("sess");
            String ckpt = target.newSchema("ckpt");
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + d.qualify(schema, "t") + " (id INT PRIMARY KEY, v INT)");
                c.commit();
            }
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(), JdbcApplierEngineTest.credentials(d)), d)
                    .checkpointTable(new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint")).appliesInProcess(false).build();
            jdbc.checkpointStore().load(); // creates the checkpoint table, as Engine.start() does
            Transaction<SourceTransaction> txn = Transaction.builder(new SourceTransaction("bin.000001:100", null, null,
                    List.of(RowChange.insert(new TableRef(schema, "t"),
                            new RowImage(List.of("id", "v"), new Object[] {1, 10}))))).position("bin.000001:100").build();
            Batch<SourceTransaction> batch = new Batch<>() {
                @Override
                public int size() {
                    return 1;
                }

                @Override
                public Transaction<SourceTransaction> transaction(int index) {
                    return txn;
                }

                @Override
                public long sequence(int index) {
                    return 1;
                }
            };
            Checkpoint checkpoint = Checkpoint.ofWorker(0, 1, "bin.000001:100", new long[0]);
            Applier<SourceTransaction> applier = jdbc.applierFactory().create(0);
            try {
                applier.apply(txn, context(0));
                long session = applier.targetSession();
                assertTrue(session >= 0, "the applier knows its session");
                try (Connection other = target.session(); Statement s = other.createStatement()) {
                    s.execute(d.kind() == Dialect.Kind.POSTGRESQL ? "SELECT pg_terminate_backend(" + session + ")"
                            : "KILL " + session);
                }
                Thread.sleep(200);
                // The worker's probe while it waits for commit order: fails on the dead session (the engine logs it).
                assertThrows(Exception.class, applier::sessionsWaitingForThis);

                TargetRefusedException e = assertThrows(TargetRefusedException.class,
                        () -> applier.commit(batch, checkpoint), "a commit without the batch's rows");
                assertEquals(TargetErrorClass.CONNECTION, e.errorClass(), e.toString());
                assertEquals(0, rows(target, d, schema), "nothing committed");

                applier.rollback(batch);
                applier.apply(txn, context(1));
                applier.commit(batch, checkpoint);
                assertEquals(1, rows(target, d, schema), "the batch applied again, whole");
            } finally {
                applier.close();
            }
        }
    }

    private static int rows(TestTarget target, Dialect d, String schema) throws Exception {
        try (Connection c = target.session(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + d.qualify(schema, "t"))) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static ApplyContext context(int attempt) {
        return new ApplyContext() {
            @Override
            public int workerId() {
                return 0;
            }

            @Override
            public long sequence() {
                return 1;
            }

            @Override
            public int attempt() {
                return attempt;
            }

            @Override
            public boolean endOfBatch() {
                return true;
            }

            @Override
            public int indexInBatch() {
                return 0;
            }
        };
    }
}
