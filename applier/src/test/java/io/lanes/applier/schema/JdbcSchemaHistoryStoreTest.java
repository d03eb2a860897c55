package io.lanes.applier.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.testing.TestTarget;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The schema history beside the checkpoint, on each real target. */
class JdbcSchemaHistoryStoreTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    private static final String TABLE = "ckpt_schema_history";

    private static JdbcSchemaHistoryStore store(Recorded connections, String schema) {
        return new JdbcSchemaHistoryStore(connections, connections.target.dialect(), schema, TABLE);
    }

    /** How many versions the store's table holds, read on a connection of the test's own. */
    private static List<String> versions(TestTarget target, String schema) throws SQLException {
        return target.rows("SELECT COUNT(*) FROM " + target.dialect().qualify(schema, TABLE));
    }

    private static SchemaHistory history(int tables) {
        SchemaHistory h = new SchemaHistory();
        for (int i = 0; i < tables; i++) {
            h.apply("CREATE TABLE t" + i + " (id INT PRIMARY KEY, v VARCHAR(10))", "db", 0, "bin.000001:" + (100 * i));
        }
        return h;
    }

    /** Every connection the store opens, kept to count them and to break them under it. */
    private static final class Recorded implements ConnectionFactory {
        final TestTarget target;
        final List<Connection> opened = new ArrayList<>();

        Recorded(TestTarget target) {
            this.target = target;
        }

        @Override
        public Connection open() throws SQLException {
            Connection c = target.connect();
            opened.add(c);
            return c;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void savesAndLoadsOnOneConnectionKeptBetweenCalls(TestTarget target) throws Exception {
        try (target) {
            String schema = target.newSchema("hist");
            Recorded connections = new Recorded(target);
            try (JdbcSchemaHistoryStore store = store(connections, schema)) {
                store.prepare();
                for (int i = 1; i <= 5; i++) {
                    store.save("p", "bin.000001:" + (1000 * i), history(i));
                }
                assertNull(store.load("p", "bin.000001:999"), "nothing saved at or before it");
                assertEquals(3, store.load("p", "bin.000001:3500").tables().size());
                assertEquals(5, store.load("p", "bin.000002:4").tables().size());
                // One DDL statement opened one connection before (about 4 ms on PostgreSQL, on the reading thread).
                assertEquals(1, connections.opened.size(), "prepare, five saves and three loads on one connection");
                assertEquals(List.of("5"), versions(target, schema), "every save committed");
            }
            assertTrue(connections.opened.get(0).isClosed(), "closed with the store");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aKeptConnectionThatBrokeIsReplacedOnce(TestTarget target) throws Exception {
        try (target) {
            String schema = target.newSchema("hist");
            Recorded connections = new Recorded(target);
            try (JdbcSchemaHistoryStore store = store(connections, schema)) {
                store.save("p", "bin.000001:1000", history(1));
                connections.opened.get(0).close(); // broken under the store (a restart, a killed session)
                store.save("p", "bin.000001:2000", history(2));
                assertEquals(2, connections.opened.size(), "one fresh connection");
                assertEquals(2, store.load("p", "bin.000001:2000").tables().size());
                assertEquals(List.of("2"), versions(target, schema));
            }
        }
    }

    @Test
    void aSessionTheTargetKilledIsReplaced() throws Exception {
        try (TestTarget target = TestTarget.postgres()) {
            String schema = target.newSchema("hist");
            Recorded connections = new Recorded(target);
            try (JdbcSchemaHistoryStore store = store(connections, schema)) {
                store.save("p", "bin.000001:1000", history(1));
                long pid;
                try (Statement s = connections.opened.get(0).createStatement();
                        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                    assertTrue(rs.next());
                    pid = rs.getLong(1);
                }
                connections.opened.get(0).commit();
                try (Connection admin = target.connect(); Statement s = admin.createStatement()) {
                    s.execute("SELECT pg_terminate_backend(" + pid + ")");
                }
                store.save("p", "bin.000001:2000", history(2));
                assertEquals(2, connections.opened.size());
                SchemaHistory loaded = store.load("p", "bin.000001:2000");
                assertNotNull(loaded);
                assertEquals(2, loaded.tables().size());
            }
        }
    }
}
