package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.testing.MariaDbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statement-format events from a real MariaDB server: INTVAR, RAND, USER_VAR around their statements, LOAD DATA as
 * BEGIN_LOAD_QUERY + EXECUTE_LOAD_QUERY, XA PREPARE / XA COMMIT groups, and how transactions group them.
 */
class ReaderStatementEventsLiveTest {

    @Test
    void statementContextEventsAndLoadDataAndXa(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("rows.csv");
        Files.writeString(data, "10,ten\n11,eleven\n12,twelve\n", StandardCharsets.UTF_8);
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-format=STATEMENT",
                "--secure-file-priv=" + dir)) {
            server.sql("CREATE DATABASE st; CREATE TABLE st.t (id INT AUTO_INCREMENT PRIMARY KEY, s VARCHAR(20),"
                    + " r DOUBLE) ENGINE=InnoDB;"
                    + "INSERT INTO st.t (s) VALUES ('auto');"
                    + "INSERT INTO st.t (s, r) VALUES ('rand', RAND(7));"
                    + "SET @v = 'from a variable'; INSERT INTO st.t (s) VALUES (@v);"
                    + "LOAD DATA INFILE '" + data + "' INTO TABLE st.t FIELDS TERMINATED BY ',' (id, s);"
                    + "XA START 'x1'; INSERT INTO st.t (s) VALUES ('xa'); XA END 'x1'; XA PREPARE 'x1'; XA COMMIT 'x1';");
            Path file = server.binlogFiles().get(0);
            List<BinlogEvent> events = new ArrayList<>();
            try (BinlogReader r = BinlogReader.open(file)) {
                r.forEach(events::add);
            }
            List<IntVarEvent> intvars = FixtureSupport.ofType(events, IntVarEvent.class);
            assertTrue(intvars.stream().anyMatch(i -> i.variableType() == IntVarEvent.INSERT_ID && i.value() == 1),
                    intvars.toString());
            List<RandEvent> rands = FixtureSupport.ofType(events, RandEvent.class);
            assertEquals(0, rands.size(), "RAND(7) has a constant seed: no RAND event");
            UserVarEvent var = FixtureSupport.ofType(events, UserVarEvent.class).get(0);
            assertEquals("v", var.name());
            assertEquals(0, var.valueType(), "STRING_RESULT");
            assertArrayEquals("from a variable".getBytes(StandardCharsets.UTF_8), var.value());
            BeginLoadQueryEvent begin = FixtureSupport.ofType(events, BeginLoadQueryEvent.class).get(0);
            assertEquals("10,ten\n11,eleven\n12,twelve\n", new String(begin.block(), StandardCharsets.UTF_8));
            ExecuteLoadQueryEvent exec = FixtureSupport.ofType(events, ExecuteLoadQueryEvent.class).get(0);
            assertEquals(begin.fileId(), exec.fileId());
            assertTrue(exec.sql().startsWith("LOAD DATA INFILE"), exec.sql());
            String fileName = new String(exec.sql().getBytes(StandardCharsets.UTF_8), (int) exec.fileNameStart(),
                    (int) (exec.fileNameEnd() - exec.fileNameStart()), StandardCharsets.UTF_8);
            assertTrue(fileName.contains("SQL_LOAD") || fileName.contains(data.getFileName().toString()), fileName);
            List<MariaGtidEvent> xa = FixtureSupport.ofType(events, MariaGtidEvent.class).stream()
                    .filter(g -> g.hasFlag(MariaGtidEvent.FL_PREPARED_XA) || g.hasFlag(MariaGtidEvent.FL_COMPLETED_XA))
                    .toList();
            assertEquals(2, xa.size(), "XA PREPARE group and XA COMMIT");
            assertArrayEquals("x1".getBytes(StandardCharsets.US_ASCII), xa.get(0).xaGtrid());
            assertEquals(0, xa.get(0).xaBqual().length);

            List<BinlogTransaction> txns = new ArrayList<>();
            try (TransactionReader tr = TransactionReader.open(file)) {
                for (BinlogTransaction t; (t = tr.next()) != null; ) {
                    txns.add(t);
                }
                assertEquals(0, tr.droppedIncomplete());
            }
            BinlogTransaction auto = txns.stream().filter(t -> t.events().stream().anyMatch(e -> e instanceof IntVarEvent))
                    .findFirst().orElseThrow();
            assertEquals(BinlogTransaction.Ending.XID, auto.ending());
            BinlogTransaction load = txns.stream().filter(t -> t.events().stream()
                    .anyMatch(e -> e instanceof ExecuteLoadQueryEvent)).findFirst().orElseThrow();
            assertTrue(load.events().stream().anyMatch(e -> e instanceof BeginLoadQueryEvent));
            BinlogTransaction prepared = txns.stream().filter(t -> t.ending() == BinlogTransaction.Ending.XA_PREPARE)
                    .findFirst().orElseThrow();
            assertEquals(xa.get(0).position(), prepared.gtidEvent().position());
            BinlogTransaction commit = txns.get(txns.size() - 1);
            assertEquals(xa.get(1).position(), commit.gtidEvent().position());
            assertEquals(BinlogTransaction.Ending.STANDALONE, commit.ending());
            assertTrue(commit.standaloneStatement().sql().startsWith("XA COMMIT"), commit.standaloneStatement().sql());
        }
    }
}
