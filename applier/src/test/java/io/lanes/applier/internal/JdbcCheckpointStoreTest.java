package io.lanes.applier.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.applier.testing.TestTarget;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The low-water mark's connection is opened once and kept across saves (the checkpoint thread saves every 300 ms by
 * default; a connection per save cost a connect and a login each time), replaced when it breaks, and closed when the
 * engine stops. H2, PostgreSQL and MariaDB.
 */
class JdbcCheckpointStoreTest {
    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    private static long savedMark(CheckpointStore store) throws Exception {
        return store.load().stream().filter(Checkpoint::isLowWaterMark).mapToLong(Checkpoint::lowWaterMark).max()
                .orElse(-1);
    }

    /**
     * The store of a JDBC target over {@code table}, its checkpoint table created, whose every connection opened after
     * that is added to {@code opened}.
     */
    private static CheckpointStore store(TestTarget target, JdbcCheckpointTable table, List<Connection> opened)
            throws Exception {
        ConnectionFactory counting = () -> {
            Connection c = target.connect();
            opened.add(c);
            return c;
        };
        JdbcTarget jdbc = JdbcTarget.builder(counting, target.dialect()).checkpointTable(table)
                .mapping(SchemaMapping.identity()).pipeline("store-test").build();
        CheckpointStore store = jdbc.checkpointStore();
        store.load(); // creates the table
        opened.clear();
        return store;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void keepsOneConnectionReplacesABrokenOneAndClosesItWhenTheEngineStops(TestTarget target) throws Exception {
        try (target) {
            String schema = target.newSchema("ckpt");
            List<Connection> opened = new CopyOnWriteArrayList<>();
            CheckpointStore store = store(target, new JdbcCheckpointTable(target.dialect(), schema, "lanes_checkpoint"),
                    opened);

            for (long mark = 1; mark <= 5; mark++) {
                store.saveLowWaterMark(Checkpoint.ofLowWaterMark(mark, "pos:" + mark));
            }
            assertEquals(1, opened.size(), "one connection for five saves");
            Connection kept = opened.get(0);
            assertFalse(kept.isClosed());
            assertEquals(5, savedMark(store));

            kept.close(); // as a target that ended the session would leave it
            opened.clear();
            store.saveLowWaterMark(Checkpoint.ofLowWaterMark(6, "pos:6"));
            assertEquals(1, opened.size(), "a new connection, no failure");
            Connection replacement = opened.get(0);
            assertFalse(replacement.isClosed());
            assertEquals(6, savedMark(store));

            store.engineStopped();
            assertTrue(replacement.isClosed(), "released when the engine stops");
            store.saveLowWaterMark(Checkpoint.ofLowWaterMark(7, "pos:7")); // a later engine's save opens anew
            assertEquals(7, savedMark(store));
            store.engineStopped();
        }
    }

    /**
     * A save that fails with something other than an SQLException (here a write guard's) may leave part of its write in
     * the kept connection's transaction: the connection is dropped, never reused, and the failure is the caller's.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aConnectionWhoseSaveFailedOtherwiseIsNeverReused(TestTarget target) throws Exception {
        try (target) {
            String schema = target.newSchema("ckpt");
            List<Connection> opened = new CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicBoolean refuse = new java.util.concurrent.atomic.AtomicBoolean();
            JdbcCheckpointTable table = new JdbcCheckpointTable(target.dialect(), schema, "lanes_checkpoint")
                    .withWriteGuard((c, row) -> {
                        if (refuse.get()) {
                            throw new IllegalStateException("refused by the guard");
                        }
                    });
            CheckpointStore store = store(target, table, opened);
            store.saveLowWaterMark(Checkpoint.ofLowWaterMark(1, "pos:1"));
            Connection first = opened.get(0);

            refuse.set(true);
            IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> store.saveLowWaterMark(Checkpoint.ofLowWaterMark(2, "pos:2")));
            assertEquals("refused by the guard", refused.getMessage());
            assertTrue(first.isClosed(), "dropped");
            assertEquals(1, opened.size(), "not retried on a new connection");

            refuse.set(false);
            store.saveLowWaterMark(Checkpoint.ofLowWaterMark(3, "pos:3"));
            assertEquals(2, opened.size(), "the next save opens a new one");
            assertEquals(3, savedMark(store));
            store.engineStopped();
        }
    }
}
