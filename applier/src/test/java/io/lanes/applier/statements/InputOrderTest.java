package io.lanes.applier.statements;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.LanesBuilder;
import io.lanes.applier.LanesException;
import io.lanes.applier.LanesStats;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.testing.TestTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #18, defect 8: the same input twice ({@code --source F F}) applied every transaction twice (a statement-based
 * {@code UPDATE k = k + 1} counts twice), moved the checkpoint's GTID backwards and left the target unresumable. Input
 * whose position or GTID goes backwards or repeats is refused before any of it is applied, naming both positions; a
 * checkpoint such a run left behind is reported as broken (docs/operations.md says how to repair it). On H2, with the
 * real types-full-metadata fixture (MariaDB 10.11, row-based, GTIDs, starting at the server's first transaction).
 */
class InputOrderTest {
    static final String FIXTURE = "/binlogs/mariadb-10.11/types-full-metadata.000001";

    @TempDir
    Path temp;

    private static LanesBuilder into(TestTarget target, String shop, String ckpt, Path... files) {
        return StatementLogs.to(target, target.url(), ckpt).source(files).workers(2)
                .mapping(SchemaMapping.builder().rename("shop", shop).excludeSchemas("db*").build());
    }

    private static String checkpointRows(TestTarget target, String ckpt) throws Exception {
        try (Connection c = target.connect()) {
            List<String> tables = StatementLogs.query(c, "SELECT COUNT(*) FROM information_schema.tables WHERE "
                    + "table_schema = '" + ckpt + "' AND table_name = 'lanes_checkpoint'");
            return tables.equals(List.of("0")) ? "(no checkpoint table)"
                    : String.join("; ", StatementLogs.query(c, "SELECT worker_id, seqno, lwm_position FROM "
                            + target.dialect().qualify(ckpt, "lanes_checkpoint") + " ORDER BY worker_id"));
        }
    }

    private static List<String> lowWaterMark(TestTarget target, String ckpt) throws Exception {
        try (Connection c = target.connect()) {
            return StatementLogs.query(c, "SELECT seqno, lwm_position FROM " + target.dialect().qualify(ckpt,
                    "lanes_checkpoint") + " WHERE worker_id = -1");
        }
    }

    @Test
    void theSameFileTwiceIsRefusedBeforeAnythingIsApplied() throws Exception {
        Path f = StatementLogs.fixture(temp, FIXTURE, "fx-bin.000001");
        try (TestTarget target = TestTarget.h2()) {
            String shop = target.newSchema("shop");
            String ckpt = target.newSchema("ckpt");
            LanesException e = StatementLogs.run(into(target, shop, ckpt, f, f)).failed();
            assertTrue(e.getMessage().contains("repeats") && e.getMessage().contains("number 2"), e.getMessage());
            assertEquals("(no checkpoint table)", checkpointRows(target, ckpt), "nothing may be applied");
        }
    }

    @Test
    void aCopyOfAFileIsRefusedAtItsFirstTransactionNamingBothPositions() throws Exception {
        Path f = StatementLogs.fixture(temp, FIXTURE, "fx-bin.000001");
        Path copy = Files.copy(f, temp.resolve("fx-bin.000002"));
        try (TestTarget target = TestTarget.h2()) {
            String shop = target.newSchema("shop");
            String ckpt = target.newSchema("ckpt");
            StatementLogs.Run once = StatementLogs.run(into(target, shop, ckpt, f));
            LanesStats first = once.ok();

            String shop2 = target.newSchema("shop2");
            String ckpt2 = target.newSchema("ckpt2");
            StatementLogs.Run twice = StatementLogs.run(into(target, shop2, ckpt2, f, copy));
            LanesException e = twice.failed();
            assertTrue(e.getMessage().contains("fx-bin.000002:") && e.getMessage().contains("fx-bin.000001:")
                    && e.getMessage().contains("does not come after"), e.getMessage());
            assertTrue(e.position().startsWith("fx-bin.000002:"), e.position());
            // the first file's transactions, and nothing of the copy
            assertEquals(first.transactions(), twice.stats().transactions());
            assertEquals(lowWaterMark(target, ckpt), lowWaterMark(target, ckpt2));
        }
    }

    @Test
    void numberedFilesOutOfOrderAreRefused() throws Exception {
        Path f4 = StatementLogs.fixture(temp, "/binlogs/mariadb-poc/domain_id_0/mariadb-repl-bin.000004",
                "mariadb-repl-bin.000004");
        Path f5 = StatementLogs.fixture(temp, "/binlogs/mariadb-poc/domain_id_0/mariadb-repl-bin.000005",
                "mariadb-repl-bin.000005");
        try (TestTarget target = TestTarget.h2()) {
            String ckpt = target.newSchema("ckpt");
            LanesException e = StatementLogs.run(StatementLogs.to(target, target.url(), ckpt).source(f5, f4)).failed();
            assertTrue(e.getMessage().contains("earlier file"), e.getMessage());
            assertEquals("(no checkpoint table)", checkpointRows(target, ckpt));
        }
    }

    /**
     * A checkpoint as the run {@code --source F F} left it before this change (observed with the mariadb-poc fixture and
     * one worker: every row at the end of F, with F's transactions counted twice): the next run over F now stops,
     * calling it broken, instead of resuming as if the target held each transaction once.
     */
    @Test
    void aCheckpointThatCountsTransactionsTwiceIsReportedAsBroken() throws Exception {
        Path f = StatementLogs.fixture(temp, FIXTURE, "fx-bin.000001");
        try (TestTarget target = TestTarget.h2()) {
            String shop = target.newSchema("shop");
            String ckpt = target.newSchema("ckpt");
            LanesStats first = StatementLogs.run(into(target, shop, ckpt, f)).ok();
            long n = first.transactions();
            try (Connection c = target.connect(); Statement s = c.createStatement()) {
                s.execute("UPDATE " + target.dialect().qualify(ckpt, "lanes_checkpoint") + " SET seqno = seqno + " + n);
            }
            String before = checkpointRows(target, ckpt);
            LanesException e = StatementLogs.run(into(target, shop, ckpt, f)).failed();
            assertTrue(e.getMessage().contains("checkpoint is broken") && e.getMessage().contains("operations.md"),
                    e.getMessage());
            assertEquals(before, checkpointRows(target, ckpt), "nothing applied");

            // the repair of docs/operations.md: the target holds F once, so one low-water-mark row for F's end
            String position = lowWaterMark(target, ckpt).get(0).split("\\|")[1];
            try (Connection c = target.connect(); Statement s = c.createStatement()) {
                String table = target.dialect().qualify(ckpt, "lanes_checkpoint");
                s.execute("DELETE FROM " + table + " WHERE pipeline = 'default'");
                s.execute("INSERT INTO " + table + " (pipeline, worker_id, lwm_position, gtid_state, bitmap, seqno, "
                        + "updated_at) VALUES ('default', -1, '" + position + "', '" + position.substring(
                        position.indexOf("gtid=") + 5) + "', NULL, " + n + ", CURRENT_TIMESTAMP)");
            }
            LanesStats repaired = StatementLogs.run(into(target, shop, ckpt, f)).ok();
            assertEquals(n, repaired.transactionsSkipped());
            assertEquals(0, repaired.transactionsRead());
        }
    }

    @Test
    void aCheckpointWhoseGtidDiffersFromTheInputAtItsPositionIsReported() throws Exception {
        Path f = StatementLogs.fixture(temp, FIXTURE, "fx-bin.000001");
        try (TestTarget target = TestTarget.h2()) {
            String shop = target.newSchema("shop");
            String ckpt = target.newSchema("ckpt");
            StatementLogs.run(into(target, shop, ckpt, f)).ok();
            try (Connection c = target.connect(); Statement s = c.createStatement()) {
                s.execute("UPDATE " + target.dialect().qualify(ckpt, "lanes_checkpoint")
                        + " SET lwm_position = REPLACE(lwm_position, 'gtid=0-11-', 'gtid=0-12-')");
            }
            LanesException e = StatementLogs.run(into(target, shop, ckpt, f)).failed();
            assertTrue(e.getMessage().contains("does not match the input") && e.getMessage().contains("0-12-"),
                    e.getMessage());
        }
    }
}
