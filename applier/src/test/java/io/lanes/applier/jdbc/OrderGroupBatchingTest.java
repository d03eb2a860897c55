package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Change;
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
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rows of target tables that cannot affect each other are batched across the transactions of a block (order groups,
 * see {@link OrderGroups}), on every target: fewer executions for unrelated tables, the source order kept for tables a
 * foreign key relates and, when a table has a trigger, for every table; an UPDATE that matches no row in a batch flushed
 * at the end of the block still names its own transaction. Executions are counted by a wrapper of the applier's
 * connection (each execute, executeUpdate or executeBatch of a statement on the test's tables is one round trip).
 */
class OrderGroupBatchingTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    /** An applier over a connection that counts the executions of statements naming the test's schema. */
    static final class Harness implements AutoCloseable {
        final TestTarget target;
        final Dialect d;
        final String schema;
        final AtomicInteger executions = new AtomicInteger();
        /** Statements the target runs: one per plain execution, one per row added to a JDBC batch. */
        final AtomicInteger statementsRun = new AtomicInteger();
        final Applier<SourceTransaction> applier;
        private long sequence;

        Harness(TestTarget target, String suffix) throws Exception {
            this.target = target;
            this.d = target.dialect();
            this.schema = target.newSchema(suffix);
            String ckpt = target.newSchema("ckpt");
            JdbcCheckpointTable table = new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint");
            try (Connection c = target.session()) {
                table.createIfAbsent(c);
                c.commit();
            }
            // The driver settings Lanes connects with (MariaDB: server-side prepared statements, bulk inserts), so that
            // statements of several groups, bound and pending at once, are exercised as in production.
            java.util.Properties props = JdbcApplierEngineTest.credentials(d);
            d.recommendedConnectionProperties().forEach(props::setProperty);
            ConnectionFactory plain = ConnectionFactory.of(target.url(), props);
            JdbcTarget jdbc = JdbcTarget.builder(() -> counting(plain.open()), d).checkpointTable(table)
                    .appliesInProcess(false).build();
            applier = jdbc.applierFactory().create(0);
        }

        String q(String table) {
            return d.qualify(schema, table);
        }

        /** Runs the statements on a connection of the test's own (not counted), committed. */
        void sql(String... statements) throws Exception {
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                for (String st : statements) {
                    s.execute(st);
                }
                c.commit();
            }
        }

        List<String> rows(String table, String order) throws Exception {
            return target.rows("SELECT * FROM " + q(table) + " ORDER BY " + order);
        }

        /** Applies the transactions as one block (one target transaction) and commits it; the executions it took. */
        int applyBlock(List<SourceTransaction> block) throws Exception {
            int before = executions.get();
            List<Transaction<SourceTransaction>> txns = new ArrayList<>();
            long first = sequence + 1;
            for (SourceTransaction st : block) {
                txns.add(Transaction.builder(st).position(st.position()).build());
            }
            for (int i = 0; i < txns.size(); i++) {
                applier.apply(txns.get(i), context(++sequence, i, i == txns.size() - 1));
            }
            Batch<SourceTransaction> batch = new Batch<>() {
                @Override
                public int size() {
                    return txns.size();
                }

                @Override
                public Transaction<SourceTransaction> transaction(int index) {
                    return txns.get(index);
                }

                @Override
                public long sequence(int index) {
                    return first + index;
                }
            };
            applier.commit(batch, Checkpoint.ofWorker(0, sequence, block.get(block.size() - 1).position(), new long[0]));
            return executions.get() - before;
        }

        /** Applies the block, expecting a failure; rolls it back as the engine would, and returns the failure. */
        Exception failBlock(List<SourceTransaction> block) {
            Exception e = assertThrows(Exception.class, () -> applyBlock(block));
            try {
                applier.rollback(null);
            } catch (Exception rollbackFailed) {
                e.addSuppressed(rollbackFailed);
            }
            return e;
        }

        private Connection counting(Connection real) {
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, method, args) -> {
                        Object result = invoke(real, method, args);
                        if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql
                                && sql.contains(schema)) {
                            PreparedStatement ps = (PreparedStatement) result;
                            return Proxy.newProxyInstance(getClass().getClassLoader(),
                                    new Class<?>[] {PreparedStatement.class}, countingStatement(ps));
                        }
                        return result;
                    });
        }

        private InvocationHandler countingStatement(PreparedStatement ps) {
            Set<String> executing = Set.of("execute", "executeUpdate", "executeLargeUpdate", "executeBatch",
                    "executeLargeBatch", "executeQuery");
            return (proxy, method, args) -> {
                if (executing.contains(method.getName())) {
                    executions.incrementAndGet();
                    if (!method.getName().endsWith("Batch")) {
                        statementsRun.incrementAndGet();
                    }
                } else if (method.getName().equals("addBatch")) {
                    statementsRun.incrementAndGet();
                }
                return invoke(ps, method, args);
            };
        }

        private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        @Override
        public void close() throws Exception {
            applier.close();
        }
    }

    static ApplyContext context(long sequence, int index, boolean last) {
        return new TestApplyContext(sequence, 0, index, last);
    }

    static SourceTransaction txn(String position, Change... changes) {
        return new SourceTransaction(position, null, null, List.of(changes));
    }

    static RowImage image(Object... idThenV) {
        return new RowImage(List.of("id", "v"), idThenV);
    }

    static RowImage child(int id, int pid, String v) {
        return new RowImage(List.of("id", "pid", "v"), new Object[] {id, pid, v});
    }

    /** One execution per table and statement with groups, one per row without (the property set to false). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aBlockAlternatingUnrelatedTablesTakesOneExecutionPerTable(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "alt")) {
            h.sql("CREATE TABLE " + h.q("a") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE " + h.q("b") + " (id INT PRIMARY KEY, v VARCHAR(20))");
            StringBuilder seed = new StringBuilder("INSERT INTO " + h.q("b") + " VALUES ");
            for (int i = 1; i <= 20; i++) {
                seed.append(i > 1 ? ", " : "").append("(").append(i).append(", 'old')");
            }
            h.sql(seed.toString());
            TableRef a = new TableRef(h.schema, "a");
            TableRef b = new TableRef(h.schema, "b");
            List<SourceTransaction> block = new ArrayList<>();
            for (int i = 1; i <= 20; i++) {
                block.add(txn("alt:" + i, RowChange.insert(a, image(i, "a" + i)),
                        RowChange.update(b, image(i, "old"), image(i, "new" + i))));
            }
            int executions = h.applyBlock(block);
            // On MySQL/MariaDB the 20 UPDATEs of b go as one statement of 32 rows (MultiRowStatementTest).
            int updates = 1;
            assertEquals(RowBatches.GROUP_BATCHES ? 1 + updates : 40, executions,
                    "20 INSERTs of a and 20 UPDATEs of b, alternating");
            List<String> expectedA = new ArrayList<>();
            List<String> expectedB = new ArrayList<>();
            for (int i = 1; i <= 20; i++) {
                expectedA.add(i + "|a" + i);
                expectedB.add(i + "|new" + i);
            }
            assertEquals(expectedA, h.rows("a", "id"));
            assertEquals(expectedB, h.rows("b", "id"));
        }
    }

    /**
     * A large transaction's rows ({@link io.lanes.applier.internal.StreamedChanges}, converted as the applier takes
     * them) go to the target as they come, at most {@link RowBatches#MAX_PENDING_ROWS} held at a time, not all held
     * until the transaction ends: the first run is executed before the row after it is even converted.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aLargeTransactionsRowsAreExecutedAsTheyCome(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "large")) {
            h.sql("CREATE TABLE " + h.q("t") + " (id INT PRIMARY KEY, v VARCHAR(20))");
            TableRef t = new TableRef(h.schema, "t");
            int rows = 2 * RowBatches.MAX_PENDING_ROWS + 10;
            int executions = executionsWhileStreaming(h, rows, RowBatches.MAX_PENDING_ROWS + 1,
                    i -> RowChange.insert(t, image(i, "v" + i)));
            assertTrue(executions > 0, "executions before the run's end: " + executions);
            assertEquals(List.of(String.valueOf(rows)), target.rows("SELECT COUNT(*) FROM " + h.q("t")));
        }
    }

    /**
     * Wide rows of a large transaction are executed once they take about {@link RowBatches#MAX_PENDING_STREAMED_BYTES}
     * (8,000-character values: some 1,000 rows), long before {@link RowBatches#MAX_PENDING_ROWS}.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aLargeTransactionsWideRowsAreExecutedBeforeTheyFillTheHeap(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "wide")) {
            h.sql("CREATE TABLE " + h.q("t") + " (id INT PRIMARY KEY, v VARCHAR(8000))");
            TableRef t = new TableRef(h.schema, "t");
            int rows = 3_000;
            String wide = "w".repeat(8_000);
            int executions = executionsWhileStreaming(h, rows, 2_000, i -> RowChange.insert(t, image(i, wide)));
            assertTrue(executions > 0, "executions before row 2000: " + executions);
            assertEquals(List.of(rows + "|" + (long) rows * wide.length()),
                    target.rows("SELECT COUNT(*), SUM(CHAR_LENGTH(v)) FROM " + h.q("t")));
        }
    }

    /**
     * Applies one large transaction of {@code rows} rows converted as the applier takes them (rows 1 to {@code rows} of
     * {@code row}); returns the statements the target had executed when the applier took row {@code checkAt}.
     */
    private static int executionsWhileStreaming(Harness h, int rows, int checkAt,
            java.util.function.IntFunction<RowChange> row) throws Exception {
        AtomicInteger executionsAtTheCheck = new AtomicInteger(-1);
        io.lanes.applier.internal.StreamedChanges.Segment segment = new io.lanes.applier.internal.StreamedChanges
                .Segment() {
            @Override
            public Change first() {
                return null;
            }

            @Override
            public int rowCount() {
                return rows;
            }

            @Override
            public String schema() {
                return row.apply(1).table().schema();
            }

            @Override
            public java.util.Iterator<RowChange> rows() {
                return java.util.stream.IntStream.rangeClosed(1, rows).mapToObj(i -> {
                    if (i == checkAt) {
                        executionsAtTheCheck.set(h.executions.get());
                    }
                    return row.apply(i);
                }).iterator();
            }
        };
        h.applyBlock(List.of(new SourceTransaction("large:1", null, null,
                new io.lanes.applier.internal.StreamedChanges("large:1", List.of(segment)))));
        return executionsAtTheCheck.get();
    }

    /** A parent and a child related by a foreign key on the target: see {@link #parentChildBlock}. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void tablesRelatedByAForeignKeyKeepTheirOrder(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "fk")) {
            h.sql("CREATE TABLE " + h.q("p") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE " + h.q("c") + " (id INT PRIMARY KEY, pid INT NOT NULL, v VARCHAR(20), "
                            + "CONSTRAINT c_parent FOREIGN KEY (pid) REFERENCES " + h.q("p") + " (id) ON DELETE CASCADE)",
                    "CREATE TABLE " + h.q("u") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + h.q("u") + " VALUES (1, 'u0')");
            parentChildBlock(h);
        }
    }

    /**
     * The same block after the child table and its foreign key were created by a logged statement, applied by the same
     * applier once its order groups were read (with p and u only): the statement makes it read them again.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aForeignKeyALoggedStatementCreatedIsHonouredByTheNextBlock(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "fkddl")) {
            h.sql("CREATE TABLE " + h.q("p") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE " + h.q("u") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + h.q("u") + " VALUES (1, 'u0')");
            TableRef p = new TableRef(h.schema, "p");
            TableRef u = new TableRef(h.schema, "u");
            h.applyBlock(List.of(txn("fkddl:a", RowChange.insert(p, image(100, "p100")),
                    RowChange.update(u, image(1, "u0"), image(1, "u0 again")),
                    RowChange.update(u, image(1, "u0 again"), image(1, "u0")))));
            h.applyBlock(List.of(txn("fkddl:b", io.lanes.applier.ddl.SourceStatement.of("CREATE TABLE c (id INT PRIMARY "
                    + "KEY, pid INT NOT NULL, v VARCHAR(20), CONSTRAINT c_parent FOREIGN KEY (pid) REFERENCES p (id) "
                    + "ON DELETE CASCADE)", h.schema))));
            h.sql("DELETE FROM " + h.q("p") + " WHERE id = 100");
            parentChildBlock(h);
        }
    }

    /**
     * A block on parent p and child c (ON DELETE CASCADE) with an unrelated table u changed beside every change: where
     * batching p and c apart would insert a child before its parent, delete a parent before its child, or insert a
     * child again before the cascade removed the old one, every change applies in source order; u still batches.
     */
    private static void parentChildBlock(Harness h) throws Exception {
        TableRef p = new TableRef(h.schema, "p");
        TableRef c = new TableRef(h.schema, "c");
        TableRef u = new TableRef(h.schema, "u");
        List<Change> changes = List.of(
                RowChange.insert(p, image(1, "p1")),
                RowChange.insert(c, child(10, 1, "c10")),
                RowChange.update(c, child(10, 1, "c10"), child(10, 1, "c10b")),
                RowChange.delete(c, child(10, 1, "c10b")),
                RowChange.delete(p, image(1, "p1")),
                RowChange.insert(p, image(2, "p2")),
                RowChange.insert(c, child(20, 2, "c20")),
                RowChange.update(c, child(20, 2, "c20"), child(20, 2, "c20b")),
                // the target's cascade deletes c 20 (a source's InnoDB cascade is not in its log)
                RowChange.delete(p, image(2, "p2")),
                RowChange.insert(p, image(3, "p3")),
                RowChange.insert(c, child(20, 3, "c20 again")),
                RowChange.update(c, child(20, 3, "c20 again"), child(20, 3, "c20 last")));
        List<SourceTransaction> block = new ArrayList<>();
        int n = 0;
        String v = "u0";
        for (Change change : changes) {
            n++;
            String next = "u" + n;
            block.add(txn("fk:" + n, change, RowChange.update(u, image(1, v), image(1, next))));
            v = next;
        }
        int executions = h.applyBlock(block);
        assertEquals(List.of("3|p3"), h.rows("p", "id"));
        assertEquals(List.of("20|3|c20 last"), h.rows("c", "id"));
        assertEquals(List.of("1|u12"), h.rows("u", "id"));
        // p and c share a group: each of their changes needs another statement than the one before (one execution
        // each); the 12 UPDATEs of u are one batch.
        assertEquals(RowBatches.GROUP_BATCHES ? 13 : 24, executions);
    }

    /**
     * A table with a trigger (that writes another table) keeps the order of every table, as without groups: the trigger
     * on a inserts b's row, which the next transactions update and delete; batched apart, the UPDATE of b would run
     * before the INSERT of a made its row.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aTableWithATriggerKeepsEveryTableInOrder(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "trg")) {
            h.sql("CREATE TABLE " + h.q("a") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE " + h.q("b") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE " + h.q("u") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + h.q("u") + " VALUES (1, 'u0')");
            switch (h.d.kind()) {
                case MYSQL -> h.sql("CREATE TRIGGER " + h.q("a_ins") + " AFTER INSERT ON " + h.q("a")
                        + " FOR EACH ROW INSERT INTO " + h.q("b") + " VALUES (NEW.id, 'made')");
                case POSTGRESQL -> h.sql("CREATE FUNCTION " + h.q("a_ins") + "() RETURNS trigger LANGUAGE plpgsql AS "
                        + "$$ BEGIN INSERT INTO " + h.q("b") + " VALUES (NEW.id, 'made'); RETURN NEW; END $$",
                        "CREATE TRIGGER a_ins AFTER INSERT ON " + h.q("a") + " FOR EACH ROW EXECUTE FUNCTION "
                                + h.q("a_ins") + "()");
                case H2 -> h.sql("CREATE TRIGGER " + h.q("a_ins") + " AFTER INSERT ON " + h.q("a")
                        + " FOR EACH ROW CALL \"" + InsertIntoB.class.getName() + "\"");
            }
            TableRef a = new TableRef(h.schema, "a");
            TableRef b = new TableRef(h.schema, "b");
            TableRef u = new TableRef(h.schema, "u");
            List<SourceTransaction> block = new ArrayList<>();
            int n = 0;
            for (int id = 1; id <= 3; id++) {
                for (Change change : List.of(RowChange.insert(a, image(id, "a")),
                        RowChange.update(b, image(id, "made"), image(id, "changed")),
                        RowChange.delete(b, image(id, "changed")))) {
                    n++;
                    block.add(txn("trg:" + n, change, RowChange.update(u, image(1, "u" + (n - 1)), image(1, "u" + n))));
                }
            }
            int executions = h.applyBlock(block);
            assertEquals(List.of("1|a", "2|a", "3|a"), h.rows("a", "id"));
            assertEquals(List.of(), h.rows("b", "id"));
            assertEquals(List.of("1|u9"), h.rows("u", "id"));
            assertEquals(18, executions, "one execution per row, as without groups (u too)");
        }
    }

    /** H2's trigger of {@link #aTableWithATriggerKeepsEveryTableInOrder}: inserts (id, 'made') into b. */
    public static final class InsertIntoB implements org.h2.api.Trigger {
        private String b;

        @Override
        public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before,
                int type) {
            b = "\"" + schemaName + "\".\"b\"";
        }

        @Override
        public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws java.sql.SQLException {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + b + " VALUES (?, 'made')")) {
                ps.setObject(1, newRow[0]);
                ps.executeUpdate();
            }
        }
    }

    /**
     * An UPDATE that matches no row, batched with later rows of its table and flushed only at the end of the block
     * (after other groups' rows of later transactions ran): the failure names its own transaction, and nothing of the
     * block is committed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aMismatchInADeferredBatchNamesItsTransaction(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "mm")) {
            h.sql("CREATE TABLE " + h.q("a") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE " + h.q("b") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + h.q("b") + " VALUES (1, 'old'), (2, 'old'), (3, 'old')");
            TableRef a = new TableRef(h.schema, "a");
            TableRef b = new TableRef(h.schema, "b");
            List<SourceTransaction> block = List.of(
                    txn("mm:1", RowChange.insert(a, image(1, "a1")), RowChange.update(b, image(1, "old"), image(1, "x"))),
                    txn("mm:2", RowChange.insert(a, image(2, "a2")), RowChange.update(b, image(2, "old"), image(2, "x"))),
                    txn("mm:3", RowChange.insert(a, image(3, "a3")), RowChange.update(b, image(99, "old"),
                            image(99, "x"))),
                    txn("mm:4", RowChange.insert(a, image(4, "a4")), RowChange.update(b, image(3, "old"), image(3, "x"))),
                    txn("mm:5", RowChange.insert(a, image(5, "a5"))));
            Exception e = h.failBlock(block);
            TargetRefusedException refused = refusal(e);
            assertEquals("mm:3", refused.position(), e.toString());
            assertTrue(refused.getMessage().contains("matched no row"), refused.getMessage());
            assertTrue(refused.getMessage().contains("id=99"), refused.getMessage());
            assertEquals(List.of(), h.rows("a", "id"), "nothing of the block is committed");
            assertEquals(List.of("1|old", "2|old", "3|old"), h.rows("b", "id"));
        }
    }

    /**
     * A run of 3,000 INSERTs of about 1 KiB each (one block, as a bulk load arrives) goes in JDBC batches of at most
     * {@link RowBatches#BATCH_VALUE_BYTES} of values, not one batch of 3 MiB (which made MariaDB's driver allocate a
     * 16 MiB packet buffer per execution); every row arrives, in order. A duplicate key in the last batch then fails
     * the block: it names a transaction of that batch, never one of the batches before it, and nothing is committed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aLargeInsertRunGoesInBatchesOfBoundedSize(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "big")) {
            h.sql("CREATE TABLE " + h.q("a") + " (id INT PRIMARY KEY, v VARCHAR(1000))");
            TableRef a = new TableRef(h.schema, "a");
            int rows = 3000;
            String text = "x".repeat(1000);
            List<SourceTransaction> block = new ArrayList<>();
            for (int i = 1; i <= rows; i++) {
                block.add(txn("big:" + i, RowChange.insert(a, image(i, numbered(text, i)))));
            }
            long perRow = RowBatches.valueBytes(RowChange.insert(a, image(1, text)));
            int perBatch = (int) (RowBatches.BATCH_VALUE_BYTES / perRow);
            int batches = (rows + perBatch - 1) / perBatch;
            assertTrue(batches >= 3, "the test needs several batches: " + batches);
            assertEquals(batches, h.applyBlock(block),
                    rows + " INSERTs of " + perRow + " bytes, " + perBatch + " per batch");
            List<String> got = h.rows("a", "id");
            assertEquals(rows, got.size());
            for (int i = 1; i <= rows; i++) {
                assertEquals(i + "|" + numbered(text, i), got.get(i - 1));
            }

            h.sql("DELETE FROM " + h.q("a"));
            h.sql("INSERT INTO " + h.q("a") + " VALUES (" + (rows + 7) + ", 'there before')");
            List<SourceTransaction> failing = new ArrayList<>();
            for (int i = 1; i <= rows; i++) {
                failing.add(txn("dup:" + i, RowChange.insert(a, image(i == rows ? rows + 7 : i, text))));
            }
            Exception e = h.failBlock(failing);
            TargetRefusedException refused = refusal(e);
            int lastBatchFirst = (batches - 1) * perBatch + 1;
            java.util.regex.Matcher named = java.util.regex.Pattern.compile("dup:(\\d+)").matcher(refused.position());
            assertTrue(named.find(), refused.position());
            int first = Integer.parseInt(named.group(1));
            assertTrue(first >= lastBatchFirst && first <= rows,
                    "names " + refused.position() + ", the last batch starts at dup:" + lastBatchFirst);
            assertTrue(refused.position().endsWith("dup:" + rows), refused.position() + ": " + refused.getMessage());
            assertEquals(List.of((rows + 7) + "|there before"), h.rows("a", "id"), "nothing of the block is committed");
        }
    }

    /** The text with its last ten characters replaced by the number, so that every row's value differs. */
    private static String numbered(String text, int i) {
        return text.substring(0, text.length() - 10) + String.format("%010d", i);
    }

    /**
     * A duplicate key in the fourth of five INSERTs batched together names that transaction, or the range of the
     * batch where the driver does not say which row failed, never another single transaction: PostgreSQL's driver
     * rewrites the five into statements of four rows and one, and its "Batch entry 0" once named the first.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aDuplicateKeyInAnInsertBatchNamesItsTransactionOrTheBatch(TestTarget target) throws Exception {
        try (target; Harness h = new Harness(target, "dupk")) {
            h.sql("CREATE TABLE " + h.q("a") + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + h.q("a") + " VALUES (40, 'there before')");
            TableRef a = new TableRef(h.schema, "a");
            List<SourceTransaction> block = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                block.add(txn("k:" + i, RowChange.insert(a, image(i == 4 ? 40 : i, "v" + i))));
            }
            Exception e = h.failBlock(block);
            TargetRefusedException refused = refusal(e);
            assertTrue(refused.position().equals("k:4")
                    || refused.position().equals("one of the transactions from k:1 to k:5"),
                    refused.position() + ": " + refused.getMessage());
            assertEquals(List.of("40|there before"), h.rows("a", "id"), "nothing of the block is committed");
        }
    }

    /** The applier's refusal: the failure itself, or its cause where the harness wrapped it. */
    private static TargetRefusedException refusal(Exception e) {
        return e instanceof TargetRefusedException r ? r : (TargetRefusedException) e.getCause();
    }
}
