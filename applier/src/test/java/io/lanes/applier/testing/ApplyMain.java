package io.lanes.applier.testing;

import io.lanes.applier.BinlogBridge;
import io.lanes.applier.TestDispatch;
import io.lanes.applier.Change;
import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableRef;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.CatalogTableMetadata;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.binlog.TransactionReader;
import io.lanes.core.Engine;
import io.lanes.core.LogicalClockScheduler;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Transaction;
import io.lanes.core.WritesetScheduler;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A child process for crash tests: applies a binlog into a target, resuming from the target's checkpoint, with an audit
 * row per transaction written in the transaction itself (the audit table's primary key is the transaction's position,
 * so a transaction applied twice fails, and one never applied is missing).
 *
 * <p>Arguments: url user schemaPrefix checkpointSchema binlog scheduler workers. Exits 0 after a complete apply.
 */
public final class ApplyMain {
    private ApplyMain() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        String prefix = args[2];
        String ckpt = args[3];
        Path binlog = Path.of(args[4]);
        String scheduler = args[5];
        int workers = Integer.parseInt(args[6]);
        Dialect d = Dialect.forJdbcUrl(url);
        Properties props = new Properties();
        if (!user.equals("-")) {
            props.setProperty("user", user);
        }
        if (d.kind() == Dialect.Kind.POSTGRESQL) {
            // Only this client is killed, never the server: commits need not wait for the server's disk.
            props.setProperty("options", "-c synchronous_commit=off");
        }
        ConnectionFactory connections = ConnectionFactory.of(url, props);
        SchemaMapping.Builder mapping = SchemaMapping.builder();
        for (int i = 1; i <= 10; i++) {
            mapping.rename("db" + i, prefix + "db" + i);
        }
        try (Connection c = connections.open(); Statement s = c.createStatement()) {
            d.initSession(c);
            s.execute(d.createSchemaIfAbsent(ckpt));
            s.execute("CREATE TABLE IF NOT EXISTS " + d.qualify(ckpt, "audit") + " (" + d.quoteIdentifier("position")
                    + " VARCHAR(200) PRIMARY KEY)");
            c.commit();
        }
        JdbcTarget jdbc = JdbcTarget.builder(connections, d).mapping(mapping.build())
                .checkpointTable(new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint")).pipeline("crash").build();
        Engine<SourceTransaction> engine = Engine.builder(jdbc.applierFactory()).checkpointStore(jdbc.checkpointStore())
                .scheduler(scheduler.equals("writeset") ? new WritesetScheduler() : new LogicalClockScheduler())
                .workers(workers).checkpointPeriod(java.time.Duration.ofMillis(50)).build();
        TableRef audit = new TableRef(ckpt, "audit");
        try (CatalogTableMetadata metadata = new CatalogTableMetadata(connections, jdbc.catalog());
                TransactionReader reader = TransactionReader.open(binlog)) {
            RecoveryPoint from = engine.start();
            System.out.println("RESUME " + from);
            new TestDispatch(engine, new BinlogBridge(jdbc.mapping(), metadata), t -> audited(t, audit))
                    .run(reader, from);
            engine.stop();
        }
        System.out.println("DONE");
        System.exit(0);
    }

    /** Adds the audit row to a transaction, after its own changes. */
    static Transaction<SourceTransaction> audited(Transaction<SourceTransaction> txn, TableRef audit) {
        SourceTransaction p = txn.payload();
        List<Change> changes = new ArrayList<>(p.changes());
        changes.add(RowChange.insert(audit, new RowImage(List.of("position"), new Object[] {p.position()})));
        Transaction.Builder<SourceTransaction> b = Transaction.builder(new SourceTransaction(p.position(), p.gtid(),
                p.commitTime(), changes)).position(txn.position()).sizeBytes(txn.sizeBytes())
                .partitionKeys(txn.partitionKeys()).writeKeys(txn.writeKeys()).barrier(txn.isBarrier());
        if (txn.logicalClock() != null) {
            b.logicalClock(txn.logicalClock());
        }
        return b.build();
    }
}
