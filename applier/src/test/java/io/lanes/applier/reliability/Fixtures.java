package io.lanes.applier.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.BinlogBridge;
import io.lanes.applier.TestDispatch;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.CatalogTableMetadata;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.binlog.TransactionReader;
import io.lanes.core.Engine;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.SequentialScheduler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Shared by the reliability tests: a {@link CrashWorkload} log written once per size and its sequential reference (the
 * log applied with 0 workers into a separate in-memory H2), target preparation (schemas and the key-less audit tables)
 * and the audit.
 */
final class Fixtures {
    private Fixtures() {
    }

    /** A written workload and the checksums of its sequential apply, keyed {@code sourceSchema.table}. */
    record Workload(CrashWorkload workload, Path binlog, int binlogTransactions, Map<String, String> reference) {
    }

    private static final Map<Integer, Workload> WORKLOADS = new HashMap<>();

    static synchronized Workload workload(int transactions) {
        Workload w = WORKLOADS.get(transactions);
        if (w != null) {
            return w;
        }
        try {
            Path dir = Files.createTempDirectory("lanes-reliability-");
            dir.toFile().deleteOnExit();
            CrashWorkload workload = new CrashWorkload(6, transactions, 20261121L);
            Path binlog = dir.resolve("crash.000001");
            binlog.toFile().deleteOnExit();
            int count = workload.write(binlog);
            w = new Workload(workload, binlog, count, sequentialReference(workload, binlog));
            WORKLOADS.put(transactions, w);
            return w;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("the sequential reference apply failed", e);
        }
    }

    private static Map<String, String> sequentialReference(CrashWorkload workload, Path binlog) throws Exception {
        String url = "jdbc:h2:mem:reliability_reference_" + System.nanoTime() + ";DB_CLOSE_DELAY=-1"
                + Dialect.h2RecommendedUrlOptions();
        Map<String, String> identity = new TreeMap<>();
        for (String s : workload.sourceSchemas()) {
            identity.put(s, s);
        }
        Dialect d = Dialect.h2();
        try (Connection keepAlive = DriverManager.getConnection(url)) {
            prepareTarget(keepAlive, d, identity, "ckpt");
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(url, new Properties()), d)
                    .checkpointTable(new JdbcCheckpointTable(d, "ckpt", "lanes_checkpoint")).build();
            Engine<SourceTransaction> engine = Engine.builder(jdbc.applierFactory())
                    .checkpointStore(jdbc.checkpointStore()).scheduler(new SequentialScheduler()).workers(0).build();
            dispatch(jdbc, engine, binlog, engine.start());
            engine.stop();
            Map<String, String> reference = TableChecksums.all(keepAlive, d, identity, CrashWorkload.TABLES);
            verifyAudit(keepAlive, d, identity, workload);
            try (Statement s = keepAlive.createStatement()) {
                s.execute("SHUTDOWN");
            }
            return reference;
        }
    }

    /** Reads the whole log into the engine from {@code from} (the engine keeps applying; stop it to wait). */
    static void dispatch(JdbcTarget jdbc, Engine<SourceTransaction> engine, Path binlog, RecoveryPoint from)
            throws Exception {
        dispatch(jdbc, engine, binlog, from, java.util.function.UnaryOperator.identity());
    }

    /** As above, each transaction passed through {@code onSubmit} on the dispatching thread just before it is submitted. */
    static void dispatch(JdbcTarget jdbc, Engine<SourceTransaction> engine, Path binlog, RecoveryPoint from,
            java.util.function.UnaryOperator<io.lanes.core.Transaction<SourceTransaction>> onSubmit) throws Exception {
        try (CatalogTableMetadata metadata = new CatalogTableMetadata(jdbc.connections(), jdbc.catalog());
                TransactionReader reader = TransactionReader.open(binlog)) {
            new TestDispatch(engine, new BinlogBridge(jdbc.mapping(), metadata), onSubmit).run(reader, from);
        }
    }

    /** {@code s0 -> <prefix>s0, ...}. */
    static Map<String, String> mapping(CrashWorkload workload, String prefix) {
        Map<String, String> m = new TreeMap<>();
        for (String s : workload.sourceSchemas()) {
            m.put(s, prefix + s);
        }
        return m;
    }

    static SchemaMapping schemaMapping(Map<String, String> mapping) {
        SchemaMapping.Builder b = SchemaMapping.builder();
        mapping.forEach(b::rename);
        return b.build();
    }

    /** Creates the target schemas, the key-less audit tables and the checkpoint schema. */
    static void prepareTarget(Connection c, Dialect d, Map<String, String> mapping, String ckpt) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String target : mapping.values()) {
                s.execute(d.createSchemaIfAbsent(target));
                s.execute(CrashWorkload.auditTableDdl(d.qualify(target, "audit")));
            }
            s.execute(d.createSchemaIfAbsent(ckpt));
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    /** Drops the target schemas and the checkpoint schema (H2 and PostgreSQL schemas, MariaDB databases). */
    static void dropSchemas(Connection c, Dialect d, Map<String, String> mapping, String ckpt) throws SQLException {
        List<String> schemas = new ArrayList<>(mapping.values());
        schemas.add(ckpt);
        try (Statement s = c.createStatement()) {
            for (String schema : schemas) {
                s.execute(d.kind() == Dialect.Kind.MYSQL ? "DROP DATABASE IF EXISTS " + d.quoteIdentifier(schema)
                        : "DROP SCHEMA IF EXISTS " + d.quoteIdentifier(schema) + " CASCADE");
            }
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    /**
     * The audit: every DML transaction has exactly one row in its schema's key-less audit table, and each schema's
     * counters add up to its number of transactions. Returns {lost, doubled} after asserting both are zero.
     */
    static int[] verifyAudit(Connection c, Dialect d, Map<String, String> mapping, CrashWorkload workload)
            throws SQLException {
        int lost = 0;
        int doubled = 0;
        List<String> problems = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (Map.Entry<String, String> e : mapping.entrySet()) {
                String audit = d.qualify(e.getValue(), "audit");
                int expected = workload.dmlPerSchema().get(e.getKey());
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(DISTINCT txn) FROM " + audit)) {
                    rs.next();
                    int rows = rs.getInt(1);
                    int distinct = rs.getInt(2);
                    lost += expected - distinct;
                    doubled += rows - distinct;
                    if (rows != expected || distinct != expected) {
                        problems.add(e.getKey() + ": " + rows + " audit rows for " + distinct + " distinct transactions, "
                                + expected + " expected");
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT txn, COUNT(*) FROM " + audit + " GROUP BY txn HAVING COUNT(*) > 1")) {
                    while (rs.next() && problems.size() < 20) {
                        problems.add(e.getKey() + ": transaction " + rs.getLong(1) + " applied " + rs.getInt(2) + " times");
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT SUM(n) FROM " + d.qualify(e.getValue(), "counter"))) {
                    rs.next();
                    if (rs.getLong(1) != expected) {
                        problems.add(e.getKey() + ": counters sum to " + rs.getLong(1) + ", " + expected + " expected");
                    }
                }
            }
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        return new int[] {lost, doubled};
    }
}
