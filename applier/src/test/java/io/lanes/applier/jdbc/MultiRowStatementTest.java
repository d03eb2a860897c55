package io.lanes.applier.jdbc;

import static io.lanes.applier.jdbc.OrderGroupBatchingTest.image;
import static io.lanes.applier.jdbc.OrderGroupBatchingTest.txn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableRef;
import io.lanes.applier.jdbc.OrderGroupBatchingTest.Harness;
import io.lanes.applier.testing.TestTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A run of UPDATEs or DELETEs of one table whose order cannot show is applied by its net change and, on MySQL and
 * MariaDB, many rows per statement (see {@link RowBatches}); everywhere else, and wherever order could show (a key or
 * unique column set, a table that refers to itself), one statement per row in source order. Each case counts the
 * statements the target ran (one per plain execution, one per row of a JDBC batch) and checks the final rows; the
 * failure cases check that a refusal still names the row's own transaction.
 */
class MultiRowStatementTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    /** Whether the dialect runs many rows per statement with the settings of this JVM. */
    static boolean multiRow(Dialect d) {
        return RowBatches.GROUP_BATCHES && RowBatches.MULTI_ROW && d.kind() == Dialect.Kind.MYSQL;
    }

    private static RowImage kv(Object key, Object v) {
        return new RowImage(List.of("k", "v"), new Object[] {key, v});
    }

    private static TargetRefusedException refusal(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TargetRefusedException r) {
                return r;
            }
        }
        throw new AssertionError("no TargetRefusedException in " + e, e);
    }

    /**
     * A counter row updated by every transaction of a block (what chains a schema's transactions in the Connect peer
     * workload) costs the target one statement, not one per transaction; the log rows beside it are all inserted.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aRowUpdatedByEveryTransactionOfABlockIsUpdatedOnce(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "ctr")) {
            h.sql("CREATE TABLE " + h.q("counter") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE " + h.q("log") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + h.q("counter") + " VALUES (1, 'n0')");
            TableRef counter = new TableRef(h.schema, "counter");
            TableRef log = new TableRef(h.schema, "log");
            List<SourceTransaction> block = new ArrayList<>();
            for (int i = 1; i <= 50; i++) {
                block.add(txn("ctr:" + i, RowChange.insert(log, image(i, "l" + i)),
                        RowChange.update(counter, image(1, "n" + (i - 1)), image(1, "n" + i))));
            }
            int before = h.statementsRun.get();
            h.applyBlock(block);
            assertEquals(List.of("1|n50"), h.rows("counter", "id"));
            assertEquals(50, h.rows("log", "id").size());
            assertEquals(RowBatches.GROUP_BATCHES ? 50 + 1 : 100,
                    h.statementsRun.get() - before, "50 INSERTs of log and the counter's last UPDATE");
        }
    }

    /**
     * 200 UPDATEs of distinct rows go as two statements of 128 rows on MySQL/MariaDB (the second holding the last 72 and
     * that row again 56 times); 37 DELETEs as one statement of 64; the rows are those of the source either way.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void distinctRowsGoManyPerStatement(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "many")) {
            h.sql("CREATE TABLE " + h.q("t") + " (k BIGINT PRIMARY KEY, v VARCHAR(20), w INT)");
            StringBuilder seed = new StringBuilder("INSERT INTO " + h.q("t") + " VALUES ");
            for (int i = 1; i <= 200; i++) {
                seed.append(i > 1 ? ", " : "").append("(").append(i).append(", 'old', ").append(i).append(")");
            }
            h.sql(seed.toString());
            TableRef t = new TableRef(h.schema, "t");
            List<String> columns = List.of("k", "v", "w");
            List<SourceTransaction> updates = new ArrayList<>();
            for (int i = 200; i >= 1; i--) { // descending: the statements' order is the target's, the rows are the same
                updates.add(txn("u:" + i, RowChange.update(t, new RowImage(columns, new Object[] {(long) i, "old", i}),
                        new RowImage(columns, new Object[] {(long) i, "new" + i, i}))));
            }
            int before = h.statementsRun.get();
            h.applyBlock(updates);
            assertEquals(multiRow(h.d) ? 2 : 200, h.statementsRun.get() - before);
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 200; i++) {
                expected.add(i + "|new" + i + "|" + i);
            }
            assertEquals(expected, h.rows("t", "k"));

            List<SourceTransaction> deletes = new ArrayList<>();
            for (int i = 1; i <= 37; i++) {
                deletes.add(txn("d:" + i, RowChange.delete(t, new RowImage(columns, new Object[] {(long) i * 5, "new"
                        + i * 5, i * 5}))));
            }
            before = h.statementsRun.get();
            h.applyBlock(deletes);
            assertEquals(multiRow(h.d) ? 1 : 37, h.statementsRun.get() - before);
            expected.removeIf(row -> Integer.parseInt(row.substring(0, row.indexOf('|'))) % 5 == 0
                    && Integer.parseInt(row.substring(0, row.indexOf('|'))) <= 185);
            assertEquals(expected, h.rows("t", "k"));
        }
    }

    /**
     * Runs of every length from 2 to 9 rows, UPDATEs then DELETEs of a key of two columns: each run is one statement on
     * MySQL/MariaDB (its spare places holding its last row again), and the rows end as the source's.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aRunShorterThanAStatementIsOneStatement(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "pad")) {
            h.sql("CREATE TABLE " + h.q("t") + " (a INT NOT NULL, b INT NOT NULL, v INT, PRIMARY KEY (a, b))");
            TableRef t = new TableRef(h.schema, "t");
            List<String> columns = List.of("a", "b", "v");
            for (int length = 2; length <= 9; length++) {
                StringBuilder seed = new StringBuilder("INSERT INTO " + h.q("t") + " VALUES ");
                for (int i = 0; i < length; i++) {
                    seed.append(i > 0 ? ", " : "").append("(").append(length).append(", ").append(i).append(", 0)");
                }
                h.sql(seed.toString());
                List<SourceTransaction> updates = new ArrayList<>();
                for (int i = 0; i < length; i++) {
                    updates.add(txn("pu:" + length + ":" + i, RowChange.update(t,
                            new RowImage(columns, new Object[] {length, i, 0}),
                            new RowImage(columns, new Object[] {length, i, 100 + i}))));
                }
                int before = h.statementsRun.get();
                h.applyBlock(updates);
                assertEquals(multiRow(h.d) ? 1 : length, h.statementsRun.get() - before, "UPDATEs, run of " + length);
                List<String> rows = h.rows("t", "a, b");
                for (int i = 0; i < length; i++) {
                    assertTrue(rows.contains(length + "|" + i + "|" + (100 + i)), rows + " after a run of " + length);
                }
                List<SourceTransaction> deletes = new ArrayList<>();
                for (int i = 0; i < length - 1; i++) { // all but the last row of this length
                    deletes.add(txn("pd:" + length + ":" + i, RowChange.delete(t,
                            new RowImage(columns, new Object[] {length, i, 100 + i}))));
                }
                before = h.statementsRun.get();
                h.applyBlock(deletes);
                assertEquals(multiRow(h.d) && length > 2 ? 1 : length - 1, h.statementsRun.get() - before,
                        "DELETEs, run of " + (length - 1));
            }
            List<String> left = h.rows("t", "a, b");
            List<String> expected = new ArrayList<>();
            for (int length = 2; length <= 9; length++) {
                expected.add(length + "|" + (length - 1) + "|" + (100 + length - 1));
            }
            assertEquals(expected, left, "each length's last row, updated, and nothing else");
        }
    }

    /**
     * A run of 5 DELETEs (a statement of 8: three places repeat the last row) one of which the target lacks: the
     * statement counts 4 of 5, which is refused as a diverged target, and nothing of the block is kept.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aShortRunOfDeletesWithAMissingRowIsRefused(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "pdm")) {
            TargetRefusedException refused = refusedDeletes(h, "pdm", 1, 2, 99, 3, 4);
            if (multiRow(h.d)) {
                assertTrue(refused.getMessage().contains("1 of the 5 rows"), refused.getMessage());
                assertEquals("one of the transactions from pdm:1 to pdm:5", refused.position());
            } else {
                assertEquals("pdm:3", refused.position());
            }
        }
    }

    /**
     * Keys the target finds equal and Java does not (another letter case, under a case-insensitive collation) are one
     * row: in one CASE the first value would win, so the statement's count (fewer rows than keys) sends the run one
     * row per statement, in source order, and the last value wins as in the source.
     */
    @org.junit.jupiter.api.Test
    void keysTheTargetFindsEqualEndAsInSourceOrder() throws Exception {
        // MariaDB only: the one target here whose key columns compare case-insensitively by default.
        try (TestTarget target = TestTarget.mariadb(); Harness h = new Harness(target, "ci")) {
            h.sql("CREATE TABLE " + h.q("t") + " (k VARCHAR(10) COLLATE utf8mb4_general_ci PRIMARY KEY, v INT)",
                    "INSERT INTO " + h.q("t") + " VALUES ('a', 0), ('b', 0), ('c', 0), ('d', 0)");
            TableRef t = new TableRef(h.schema, "t");
            h.applyBlock(List.of(txn("ci:1", RowChange.update(t, kv("a", 0), kv("a", 1))),
                    txn("ci:2", RowChange.update(t, kv("A", 1), kv("A", 2))),
                    txn("ci:3", RowChange.update(t, kv("b", 0), kv("b", 3))),
                    txn("ci:4", RowChange.update(t, kv("c", 0), kv("c", 4)))));
            assertEquals(List.of("a|2", "b|3", "c|4", "d|0"), h.rows("t", "k"));
            // three rows in a statement of four (its last place repeats 'c'): the count, 2 of 3, sends them one by one
            h.applyBlock(List.of(txn("ci:5", RowChange.update(t, kv("b", 3), kv("b", 5))),
                    txn("ci:6", RowChange.update(t, kv("B", 5), kv("B", 6))),
                    txn("ci:7", RowChange.update(t, kv("c", 4), kv("c", 7)))));
            assertEquals(List.of("a|2", "b|6", "c|7", "d|0"), h.rows("t", "k"));
        }
    }

    /**
     * Deleting children and then their parent, rows of one table that refers to itself: one statement would delete in
     * the target's order (the parent, key 1, first) and fail its foreign key; they go one per statement.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aTableThatRefersToItselfDeletesInSourceOrder(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "tree")) {
            h.sql("CREATE TABLE " + h.q("node") + " (k INT PRIMARY KEY, v INT, CONSTRAINT node_parent FOREIGN KEY (v) "
                    + "REFERENCES " + h.q("node") + " (k))",
                    "INSERT INTO " + h.q("node") + " VALUES (1, NULL)",
                    "INSERT INTO " + h.q("node") + " VALUES (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1)");
            TableRef node = new TableRef(h.schema, "node");
            List<SourceTransaction> block = new ArrayList<>();
            for (int i = 2; i <= 8; i++) {
                block.add(txn("tree:" + i, RowChange.delete(node, kv(i, 1))));
            }
            block.add(txn("tree:1", RowChange.delete(node, kv(1, null))));
            int before = h.statementsRun.get();
            h.applyBlock(block);
            assertEquals(List.of(), h.rows("node", "k"));
            assertEquals(8, h.statementsRun.get() - before, "each DELETE alone, in source order");
        }
    }

    /**
     * UPDATEs that move values of a unique column from row to row: the source's order keeps every value unique at each
     * step, another order would not; they go one per statement in source order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void updatesOfAUniqueColumnKeepSourceOrder(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "uq")) {
            h.sql("CREATE TABLE " + h.q("t") + " (k INT PRIMARY KEY, v INT NOT NULL, CONSTRAINT t_v UNIQUE (v))",
                    "INSERT INTO " + h.q("t") + " VALUES (1, 10), (2, 20), (3, 30), (4, 40)");
            TableRef t = new TableRef(h.schema, "t");
            int before = h.statementsRun.get();
            h.applyBlock(List.of(txn("uq:1", RowChange.update(t, kv(2, 20), kv(2, 50))),
                    txn("uq:2", RowChange.update(t, kv(1, 10), kv(1, 20))),
                    txn("uq:3", RowChange.update(t, kv(3, 30), kv(3, 10))),
                    txn("uq:4", RowChange.update(t, kv(4, 40), kv(4, 30)))));
            assertEquals(List.of("1|20", "2|50", "3|10", "4|30"), h.rows("t", "k"));
            assertEquals(4, h.statementsRun.get() - before);
        }
    }

    /**
     * A value the target refuses in a statement of many rows: the statement changed nothing, its rows one by one name
     * the refused row's own transaction, and nothing of the block is kept.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aRefusedValueNamesItsOwnTransaction(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "vr")) {
            h.sql("CREATE TABLE " + h.q("t") + " (k INT PRIMARY KEY, v VARCHAR(5))",
                    "INSERT INTO " + h.q("t") + " VALUES (1, 'a'), (2, 'a'), (3, 'a'), (4, 'a'), (5, 'a'), (6, 'a'), "
                            + "(7, 'a'), (8, 'a')");
            TableRef t = new TableRef(h.schema, "t");
            List<SourceTransaction> block = new ArrayList<>();
            for (int i = 1; i <= 8; i++) {
                block.add(txn("vr:" + i, RowChange.update(t, kv(i, "a"), kv(i, i == 5 ? "far too long" : "b"))));
            }
            TargetRefusedException refused = refusal(h.failBlock(block));
            assertEquals("vr:5", refused.position(), refused.toString());
            assertEquals(TargetErrorClass.DATA, refused.error().errorClass(), refused.toString());
            assertEquals(List.of("1|a", "2|a", "3|a", "4|a", "5|a", "6|a", "7|a", "8|a"), h.rows("t", "k"));
        }
    }

    /**
     * A DELETE of many rows one of which the target lacks is refused as a diverged target, naming the block's
     * transactions (one by one, the row's own), and nothing of the block is kept.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aDeleteOfAMissingRowIsRefused(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "dd")) {
            TargetRefusedException refused = refusedDeletes(h, "dd", 1, 2, 3, 99, 4, 5, 6, 7);
            if (multiRow(h.d)) {
                assertEquals("one of the transactions from dd:1 to dd:8", refused.position());
            } else {
                assertEquals("dd:4", refused.position());
            }
        }
    }

    /**
     * One block of DELETEs of {@code keys} from a table holding every one of them but 99, transaction {@code prefix:i}
     * deleting the i-th: refused as a diverged target, and nothing of the block is kept.
     */
    private static TargetRefusedException refusedDeletes(Harness h, String prefix, int... keys) throws Exception {
        StringBuilder seed = new StringBuilder("INSERT INTO " + h.q("t") + " VALUES ");
        int present = 0;
        for (int k : keys) {
            if (k != 99) {
                seed.append(present++ > 0 ? ", " : "").append("(").append(k).append(", 0)");
            }
        }
        h.sql("CREATE TABLE " + h.q("t") + " (k INT PRIMARY KEY, v INT)", seed.toString());
        TableRef t = new TableRef(h.schema, "t");
        List<SourceTransaction> block = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            block.add(txn(prefix + ":" + (i + 1), RowChange.delete(t, kv(keys[i], 0))));
        }
        TargetRefusedException refused = refusal(h.failBlock(block));
        assertEquals(TargetErrorClass.TARGET_DIVERGED, refused.error().errorClass(), refused.toString());
        assertTrue(refused.getMessage().contains("matched no row"), refused.getMessage());
        assertEquals(present, h.rows("t", "k").size(), "nothing of the block is kept");
        return refused;
    }
}
