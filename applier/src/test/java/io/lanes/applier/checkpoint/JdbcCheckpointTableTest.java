package io.lanes.applier.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.testing.TestTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class JdbcCheckpointTableTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    private static final Instant T0 = Instant.parse("2026-11-21T10:15:30.123456Z");

    static CheckpointRow row(String pipeline, int worker, long seqno) {
        return new CheckpointRow(pipeline, worker, "bin.000042:" + (1000 + seqno), "0-1-" + seqno + ",1-2-7",
                new byte[] {(byte) 0b1011_0001, 0, (byte) 0xff}, seqno, T0.plus(seqno, ChronoUnit.MICROS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void rowsAreWrittenReplacedAndReadBackPerPipeline(TestTarget target) throws SQLException {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema("ckpt");
            JdbcCheckpointTable table = new JdbcCheckpointTable(d, schema, "lanes_checkpoint");
            try (Connection c = target.session()) {
                table.createIfAbsent(c);
                table.createIfAbsent(c);
                for (int w = 0; w < 3; w++) {
                    table.write(c, row("main", w, 1));
                }
                table.write(c, row("other", 0, 9));
                c.commit();
                assertEquals(List.of(row("main", 0, 1), row("main", 1, 1), row("main", 2, 1)), table.read(c, "main"));
                table.write(c, row("main", 1, 2));
                table.write(c, new CheckpointRow("main", 2, "bin.000043:4", null, null, 3, T0));
                c.commit();
                assertEquals(List.of(row("main", 0, 1), row("main", 1, 2),
                        new CheckpointRow("main", 2, "bin.000043:4", "", new byte[0], 3, T0)), table.read(c, "main"));
                assertEquals(List.of(row("other", 0, 9)), table.read(c, "other"));
                assertEquals(List.of(), table.read(c, "none"));
                assertEquals(3, table.delete(c, "main"));
                c.commit();
                assertEquals(List.of(), table.read(c, "main"));
            }
        }
    }

    /**
     * The checkpoint and the data it covers commit together: a rollback, or a commit that fails because the session died,
     * leaves neither; a commit that succeeds leaves both.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void checkpointCommitsAndFailsWithTheDataTransaction(TestTarget target) throws SQLException {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema("atomic");
            JdbcCheckpointTable table = new JdbcCheckpointTable(d, schema, "lanes_checkpoint");
            String data = d.qualify(schema, "data");
            try (Connection admin = target.session()) {
                table.createIfAbsent(admin);
                try (Statement s = admin.createStatement()) {
                    s.execute("CREATE TABLE " + data + " (id INT PRIMARY KEY)");
                }
                admin.commit();

                // 1. Rolled back together.
                try (Connection worker = target.session()) {
                    insert(worker, data, 1);
                    table.write(worker, row("p", 0, 1));
                    worker.rollback();
                }
                assertState(admin, table, data, List.of(), List.of());

                // 2. The session dies before COMMIT: the commit fails and neither survives.
                try (Connection worker = target.session()) {
                    insert(worker, data, 2);
                    table.write(worker, row("p", 0, 2));
                    killSession(d, admin, worker);
                    assertThrows(SQLException.class, worker::commit);
                }
                assertState(admin, table, data, List.of(), List.of());

                // 3. Committed together.
                try (Connection worker = target.session()) {
                    insert(worker, data, 3);
                    table.write(worker, row("p", 0, 3));
                    worker.commit();
                }
                assertState(admin, table, data, List.of(3), List.of(row("p", 0, 3)));
            }
        }
    }

    /** PostgreSQL: a deferred constraint makes COMMIT itself fail; the checkpoint written before it is gone too. */
    @Test
    void postgresCommitFailingOnDeferredConstraintDiscardsTheCheckpoint() throws SQLException {
        try (TestTarget target = TestTarget.postgres()) {
            Dialect d = target.dialect();
            String schema = target.newSchema("deferred");
            JdbcCheckpointTable table = new JdbcCheckpointTable(d, schema, "lanes_checkpoint");
            String parent = d.qualify(schema, "parent");
            String child = d.qualify(schema, "child");
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                table.createIfAbsent(c);
                s.execute("CREATE TABLE " + parent + " (id INT PRIMARY KEY)");
                s.execute("CREATE TABLE " + child + " (id INT PRIMARY KEY, parent_id INT REFERENCES " + parent
                        + " DEFERRABLE INITIALLY DEFERRED)");
                c.commit();
                s.execute("INSERT INTO " + child + " VALUES (1, 42)");
                table.write(c, row("p", 0, 1));
                SQLException e = assertThrows(SQLException.class, c::commit);
                assertTrue(e.getMessage().contains("foreign key"), e.getMessage());
                c.rollback();
                assertEquals(List.of(), table.read(c, "p"));
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + child)) {
                    rs.next();
                    assertEquals(0, rs.getInt(1));
                }
            }
        }
    }

    @Test
    void defaultLocationIsSchemaLanesTableLanesCheckpoint() throws SQLException {
        try (TestTarget target = TestTarget.h2(); Connection c = target.session()) {
            JdbcCheckpointTable table = new JdbcCheckpointTable(Dialect.h2());
            table.createIfAbsent(c);
            table.write(c, row("p", 0, 1));
            c.commit();
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT \"seqno\" FROM \"lanes\".\"lanes_checkpoint\"")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getLong(1));
            }
        }
    }

    @Test
    void coreCheckpointsRoundTripThroughRowsWithTheGtidStateCopied() {
        io.lanes.core.Checkpoint worker = io.lanes.core.Checkpoint.ofWorker(3, 41, "bin.000002:1234 gtid=0-1-41,1-2-7",
                new long[] {0b1011L, 1L << 63});
        CheckpointRow row = CheckpointRows.toRow("p", worker, T0);
        assertEquals("0-1-41,1-2-7", row.gtidState());
        assertEquals(41, row.seqno());
        assertEquals(worker, CheckpointRows.fromRow(row));
        io.lanes.core.Checkpoint lwm = io.lanes.core.Checkpoint.ofLowWaterMark(0, null);
        assertEquals(lwm, CheckpointRows.fromRow(CheckpointRows.toRow("p", lwm, T0)));
        assertEquals("", CheckpointRows.toRow("p", io.lanes.core.Checkpoint.ofLowWaterMark(5, "opaque"), T0).gtidState());
    }

    private static void insert(Connection c, String table, int id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?)")) {
            ps.setInt(1, id);
            ps.executeUpdate();
        }
    }

    private static void killSession(Dialect d, Connection admin, Connection victim) throws SQLException {
        String idQuery = switch (d.kind()) {
            case H2 -> "SELECT SESSION_ID()";
            case POSTGRESQL -> "SELECT pg_backend_pid()";
            case MYSQL -> "SELECT CONNECTION_ID()";
        };
        long id;
        try (Statement s = victim.createStatement(); ResultSet rs = s.executeQuery(idQuery)) {
            rs.next();
            id = rs.getLong(1);
        }
        try (Statement s = admin.createStatement()) {
            switch (d.kind()) {
                case H2 -> s.execute("CALL ABORT_SESSION(" + id + ")");
                case POSTGRESQL -> s.execute("SELECT pg_terminate_backend(" + id + ")");
                case MYSQL -> s.execute("KILL CONNECTION " + id);
            }
        }
        admin.commit();
    }

    private static void assertState(Connection admin, JdbcCheckpointTable table, String data, List<Integer> ids,
            List<CheckpointRow> rows) throws SQLException {
        admin.commit(); // a fresh snapshot
        List<Integer> actual = new java.util.ArrayList<>();
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM " + data + " ORDER BY id")) {
            while (rs.next()) {
                actual.add(rs.getInt(1));
            }
        }
        assertEquals(ids, actual, "data rows");
        assertEquals(rows, table.read(admin, "p"), "checkpoint rows");
        admin.commit();
    }
}
