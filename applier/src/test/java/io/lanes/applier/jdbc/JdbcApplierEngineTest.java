package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Change;
import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableRef;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.testing.TestTarget;
import io.lanes.core.ApplierFailedException;
import io.lanes.core.Engine;
import io.lanes.core.PartitionScheduler;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Transaction;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDBC applier under core's engine on every target: DDL then row changes across two schemas with 4 workers; an abort
 * mid-stream and a restart from the target's checkpoint rows give exactly the sequential result (an audit table whose
 * primary key refuses a transaction applied twice, and counts every one).
 */
class JdbcApplierEngineTest {

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    /** A synthetic source: per schema an account table updated by every transaction and an audit row per transaction. */
    static final class Source {
        final List<String> schemas;
        final List<SourceTransaction> transactions = new ArrayList<>();
        final Map<String, TreeMap<Integer, Long>> balances = new TreeMap<>();

        Source(List<String> schemas, int count) {
            this.schemas = schemas;
            for (String s : schemas) {
                balances.put(s, new TreeMap<>());
                transactions.add(txn(s, List.of(
                        SourceStatement.of("CREATE TABLE acct (id INT PRIMARY KEY, balance BIGINT NOT NULL, note VARCHAR(40))", s),
                        SourceStatement.of("CREATE TABLE audit (txn INT PRIMARY KEY, `schema` VARCHAR(64))", s))));
            }
            for (int i = 0; i < count; i++) {
                String s = schemas.get(i % schemas.size());
                int n = transactions.size() + 1;
                TreeMap<Integer, Long> acct = balances.get(s);
                List<Change> changes = new ArrayList<>();
                changes.add(RowChange.insert(new TableRef(s, "audit"), new RowImage(List.of("txn", "schema"),
                        new Object[] {n, s})));
                int id = i % 7;
                Long old = acct.get(id);
                if (old == null) {
                    acct.put(id, (long) n);
                    changes.add(RowChange.insert(new TableRef(s, "acct"), new RowImage(List.of("id", "balance", "note"),
                            new Object[] {id, (long) n, "it's \"" + n + "\""})));
                } else if (i % 11 == 10) {
                    acct.remove(id);
                    changes.add(RowChange.delete(new TableRef(s, "acct"), new RowImage(List.of("id", "balance"),
                            new Object[] {id, old})));
                } else {
                    acct.put(id, old + n);
                    // MINIMAL images: key before, changed column after.
                    changes.add(RowChange.update(new TableRef(s, "acct"), new RowImage(List.of("id"), new Object[] {id}),
                            new RowImage(List.of("balance"), new Object[] {old + n})));
                }
                transactions.add(txn(s, changes));
            }
        }

        private SourceTransaction txn(String schema, List<Change> changes) {
            return new SourceTransaction("pos:" + (transactions.size() + 1), null, null, changes);
        }

        Transaction<SourceTransaction> coreTransaction(int index) {
            SourceTransaction t = transactions.get(index);
            boolean ddl = t.changes().get(0) instanceof SourceStatement;
            Transaction.Builder<SourceTransaction> b = Transaction.builder(t).position(t.position()).sizeBytes(100);
            if (!ddl) {
                b.partitionKey(((RowChange) t.changes().get(0)).table().schema());
            }
            return b.build();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void appliesInParallelAndResumesExactlyOnceAfterAnAbort(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            List<String> schemas = List.of(target.newSchema("a"), target.newSchema("b"), target.newSchema("c"));
            String ckptSchema = target.newSchema("ckpt");
            Source source = new Source(schemas, 150);
            Properties props = credentials(d);
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(), props), d)
                    .checkpointTable(new JdbcCheckpointTable(d, ckptSchema, "lanes_checkpoint"))
                    .mapping(SchemaMapping.identity()).pipeline("engine-test").build();

            // First run: abort after about half, without a graceful stop.
            int firstPart = source.transactions.size() / 2;
            Engine<SourceTransaction> first = engine(jdbc);
            RecoveryPoint fresh = first.start();
            assertEquals(1, fresh.nextSequence());
            for (int i = 0; i < firstPart; i++) {
                first.submit(source.coreTransaction(i));
            }
            first.awaitLowWaterMark(firstPart / 2, java.time.Duration.ofSeconds(30));
            first.abort();

            // Second run: resume from the target's checkpoint rows and apply the rest.
            Engine<SourceTransaction> second = engine(jdbc);
            RecoveryPoint rp = second.start();
            assertTrue(rp.lowWaterMark() + rp.alreadyApplied().length >= firstPart / 2, rp.toString());
            assertEquals(rp.lowWaterMark() == 0 ? null : "pos:" + rp.lowWaterMark(), rp.position());
            for (int i = (int) rp.nextSequence() - 1; i < source.transactions.size(); i++) {
                second.submit(source.coreTransaction(i));
            }
            second.stop();
            assertEquals(source.transactions.size(), second.lowWaterMark());

            try (Connection c = target.session(); Statement s = c.createStatement()) {
                int audited = 0;
                for (String schema : schemas) {
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(" + d.quoteIdentifier("schema") + "), MAX("
                            + d.quoteIdentifier("schema") + ") FROM " + d.qualify(schema, "audit"))) {
                        rs.next();
                        audited += rs.getInt(1);
                        assertEquals(schema, rs.getString(2));
                        assertEquals(schema, rs.getString(3));
                    }
                    TreeMap<Integer, Long> actual = new TreeMap<>();
                    try (ResultSet rs = s.executeQuery("SELECT id, balance FROM " + d.qualify(schema, "acct"))) {
                        while (rs.next()) {
                            actual.put(rs.getInt(1), rs.getLong(2));
                        }
                    }
                    assertEquals(source.balances.get(schema), actual, "balances of " + schema);
                }
                assertEquals(source.transactions.size() - schemas.size(), audited, "every row transaction exactly once");
            }

            // A third start finds nothing left to do.
            Engine<SourceTransaction> third = engine(jdbc);
            assertEquals(source.transactions.size(), third.start().lowWaterMark());
            third.stop();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void updateOfAMissingRowStopsWithTheTableKeyAndPosition(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String schema = target.newSchema("m");
            String ckptSchema = target.newSchema("ckpt");
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + d.qualify(schema, "t") + " (id INT PRIMARY KEY, v INT)");
                c.commit();
            }
            Properties props = credentials(d);
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(), props), d)
                    .checkpointTable(new JdbcCheckpointTable(d, ckptSchema, "lanes_checkpoint")).build();
            Engine<SourceTransaction> engine = Engine.builder(jdbc.applierFactory()).checkpointStore(jdbc.checkpointStore())
                    .workers(1).retries(1).retryBackoff(java.time.Duration.ofMillis(1), java.time.Duration.ofMillis(2))
                    .build();
            engine.start();
            SourceTransaction bad = new SourceTransaction("bin.000001:777", null, null, List.of(RowChange.update(
                    new TableRef(schema, "t"), new RowImage(List.of("id"), new Object[] {42}),
                    new RowImage(List.of("v"), new Object[] {1}))));
            engine.submit(Transaction.builder(bad).position(bad.position()).partitionKey(schema).build());
            ApplierFailedException e = assertThrows(ApplierFailedException.class, engine::stop);
            String all = e.getMessage() + " / " + e.getCause();
            assertEquals("bin.000001:777", e.failedPosition());
            assertTrue(all.contains("matched no row") && all.contains("id=42") && all.contains("`t`"), all);
        }
    }

    private static Engine<SourceTransaction> engine(JdbcTarget jdbc) {
        return Engine.builder(jdbc.applierFactory()).checkpointStore(jdbc.checkpointStore())
                .scheduler(new PartitionScheduler()).workers(4).build();
    }

    static Properties credentials(Dialect d) {
        Properties props = new Properties();
        if (d.kind() != Dialect.Kind.H2) {
            props.setProperty("user", d.kind() == Dialect.Kind.POSTGRESQL ? "postgres" : "root");
        }
        return props;
    }
}
