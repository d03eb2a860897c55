package io.lanes.connect;

import io.lanes.applier.BinlogBridge;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.ServerStream;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.jdbc.CatalogTableMetadata;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.TargetCatalog;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.connect.internal.SourceRecords;
import io.lanes.core.Transaction;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one MySQL/MariaDB server through Lanes' {@link ServerStream} (the reading loop of its live pipeline) and emits one Debezium-compatible record per
 * row change (and one per statement), with {@link LanesHeaders}.
 *
 * <p>Offsets: the position text of {@link io.lanes.binlog.gtid.SourcePosition} ({@code NAME:POS gtid=STATE}); a
 * restarted task resumes from the GTID state when the offset has one, else from the file and position. Every record of a transaction but the last carries the position before the transaction, the last one the
 * position after it, so that Connect never commits a position past records it has not written: after a crash the whole
 * transaction is sent again from its start (at least once), or, with exactly-once source support
 * ({@code transaction.boundary=connector}), each binlog transaction is one Kafka transaction committed atomically with
 * its offset.
 *
 * <p>Threads: Connect calls {@link #poll} on the task's thread; the client's network threads fill its buffer.
 */
public class LanesSourceTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(LanesSourceTask.class);
    private static final int MAX_RECORDS_PER_POLL = 2000;

    private LanesSourceConfig config;
    private ServerStream stream;
    private BinlogBridge bridge;
    private TargetCatalog sourceCatalog;
    private SourceRecords records;
    private ConnectionFactory catalogConnections;
    private Connection catalog;
    private String lastPosition;
    private long sequence;
    /** The transaction whose records are being handed out, null between transactions. */
    private SourceRecords.Emission emitting;
    private BinlogTransaction emittingFrom;
    private Transaction<SourceTransaction> emittingTxn;

    @Override
    public String version() {
        return LanesSinkConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        config = new LanesSourceConfig(props);
        Map<String, String> partition = LanesSourceConnector.sourcePartition(config);
        Map<String, Object> offset = context.offsetStorageReader().offset(partition);
        Properties p = new Properties();
        p.setProperty("user", config.user());
        if (!config.password().value().isEmpty()) {
            p.setProperty("password", config.password().value());
        }
        catalogConnections = ConnectionFactory.of("jdbc:mariadb://" + config.host() + ":" + config.port() + "/", p);
        StartPosition start;
        try {
            catalog = catalogConnections.open();
            if (offset != null && offset.get("position") != null) {
                lastPosition = offset.get("position").toString();
                // By GTID state when the offset has one: it names the same transactions on every server of the
                // replication topology (a promoted replica, binlog files purged or renamed); the file position only
                // on the server that wrote it.
                start = StartPosition.resumingAt(SourcePosition.parse(lastPosition));
                sequence = ((Number) offset.getOrDefault("seq", 0L)).longValue();
            } else if (!config.start().isEmpty()) {
                start = StartPosition.parse(config.start());
            } else {
                start = currentEnd(catalog);
            }
        } catch (SQLException e) {
            throw new ConnectException("cannot read the source's catalog at " + config.host() + ":" + config.port() + ": "
                    + e.getMessage(), e);
        }
        sourceCatalog = new TargetCatalog(Dialect.mysql());
        bridge = new BinlogBridge(SchemaMapping.identity(), new CatalogTableMetadata(catalogConnections, sourceCatalog));
        records = new SourceRecords(config, partition);
        // The same stream as Lanes' live pipeline: a fresh start in the middle of a file reads the file from its
        // beginning for the GTID state before it (passed over, not emitted); a resume from an offset has that state.
        stream = ServerStream.open(ReplicationClient.builder().host(config.host()).port(config.port()).user(config.user())
                .password(config.password().value().toCharArray()).serverId(config.serverId()), start, bridge,
                lastPosition == null);
        bridge.largeTransactionBytes(config.largeTransactionBytes());
        stream.start(BinlogReaderOptions.builder()
                .spillThresholdBytes(config.spillThresholdBytes(Runtime.getRuntime().maxMemory()))
                .spillDirectory(config.spillDirectory()).build());
        LOG.info("following {}:{} from {} (transaction sequence {})", config.host(), config.port(), start, sequence);
    }

    private static StartPosition currentEnd(Connection c) throws SQLException {
        boolean mariaDb = c.getMetaData().getDatabaseProductVersion().toLowerCase(java.util.Locale.ROOT).contains("mariadb");
        // MySQL 8.4 knows only the new name; MariaDB and older MySQL only the old one.
        String[] statements = mariaDb ? new String[] {"SHOW MASTER STATUS"}
                : new String[] {"SHOW BINARY LOG STATUS", "SHOW MASTER STATUS"};
        for (String sql : statements) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                if (rs.next()) {
                    return StartPosition.file(rs.getString(1), rs.getLong(2));
                }
                throw new SQLException("the source has no binary log (" + sql + " is empty): start it with log_bin");
            } catch (java.sql.SQLSyntaxErrorException olderOrNewerServer) {
                // MySQL 8.4 renamed the statement; MariaDB and older MySQL know only the old name
            }
        }
        throw new SQLException("neither SHOW BINARY LOG STATUS nor SHOW MASTER STATUS is understood by the source");
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        List<SourceRecord> out = new ArrayList<>();
        long deadline = System.nanoTime() + 200_000_000L;
        while (out.size() < MAX_RECORDS_PER_POLL) {
            if (emitting != null) {
                // A large transaction's records go out a poll's worth at a time (converted as they go): the task
                // holds at most one poll's records of it, never the whole transaction's.
                if (!emitting.next(out, MAX_RECORDS_PER_POLL - out.size())) {
                    break;
                }
                finish();
                continue;
            }
            long left = deadline - System.nanoTime();
            BinlogTransaction t = stream.poll(Duration.ofNanos(Math.max(0, left)));
            if (t == null) {
                if (stream.insideTransaction() && System.nanoTime() - deadline < 5_000_000_000L) {
                    continue; // a transaction is being read: finish it
                }
                break;
            }
            if (stream.beforeStart()) {
                bridge.skip(t); // before the configured start: its GTID only
                t.releaseSpilledRows();
                continue;
            }
            begin(t);
        }
        return out.isEmpty() ? null : out;
    }

    private void begin(BinlogTransaction t) {
        Transaction<SourceTransaction> txn;
        try {
            txn = bridge.convert(t);
        } catch (Exception e) {
            t.releaseSpilledRows();
            throw new ConnectException("cannot convert the transaction at " + t + ": " + e.getMessage(), e);
        }
        emittingFrom = t;
        emittingTxn = txn;
        emitting = records.begin(txn, sequence + 1, lastPosition, catalog);
        if (emitting == null) {
            finish(); // nothing of it is emitted (a table outside the schemas, an empty transaction)
        }
    }

    /**
     * After a transaction's last record, or at once when it has none: its position becomes the last one, its DDL makes
     * the catalogs read again, its spill file is closed, and (exactly once) its last record ends a Kafka transaction.
     */
    private void finish() {
        SourceRecords.Emission done = emitting;
        emitting = null;
        emittingFrom.releaseSpilledRows();
        lastPosition = emittingTxn.payload().position();
        if (done == null) {
            return;
        }
        sequence++;
        if (emittingTxn.isBarrier()) {
            // The source has run the DDL: later row events have the shape its catalog now shows.
            records.invalidate();
            sourceCatalog.invalidateAll();
            bridge.metadata().invalidate();
        }
        TransactionContext tx = context.transactionContext();
        if (tx != null) {
            tx.commitTransaction(done.last());
        }
    }

    @Override
    public void stop() {
        if (stream != null) {
            stream.close();
        }
        if (emitting != null) {
            emitting = null;
            emittingFrom.releaseSpilledRows(); // its records were not all handed out: read again after a restart
        }
        try {
            if (catalog != null) {
                catalog.close();
            }
        } catch (SQLException ignored) {
            // closing only
        }
    }
}
