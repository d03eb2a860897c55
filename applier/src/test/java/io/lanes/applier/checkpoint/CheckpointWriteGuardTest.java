package io.lanes.applier.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.testing.TestTarget;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JdbcCheckpointTable#withWriteGuard}: the guard runs on the writing connection before the row, and can veto it. */
class CheckpointWriteGuardTest {
    @Test
    void theGuardRunsInTheWritingTransactionAndItsFailureWritesNothing() throws SQLException {
        try (TestTarget target = TestTarget.h2()) {
            Dialect d = target.dialect();
            String schema = target.newSchema("guard");
            List<Connection> seen = new ArrayList<>();
            boolean[] refuse = {false};
            JdbcCheckpointTable table = new JdbcCheckpointTable(d, schema, "lanes_checkpoint").withWriteGuard((c, row) -> {
                seen.add(c);
                if (refuse[0]) {
                    throw new SQLException("not the owner any more", "LF001");
                }
            });
            try (Connection c = target.session()) {
                table.createIfAbsent(c);
                CheckpointRow row = new CheckpointRow("p", 0, "bin.000001:10", "", new byte[0], 1, Instant.EPOCH);
                table.write(c, row);
                c.commit();
                assertEquals(1, seen.size(), "the guard ran once, for the one write");
                assertSame(c, seen.get(0), "on the connection whose transaction holds the row");
                refuse[0] = true;
                SQLException e = assertThrows(SQLException.class, () -> table.write(c,
                        new CheckpointRow("p", 0, "bin.000001:20", "", new byte[0], 2, Instant.EPOCH)));
                assertEquals("LF001", e.getSQLState());
                c.commit();
                assertEquals(1, table.read(c, "p").get(0).seqno(), "the refused row was not written");
            }
        }
    }
}
