package io.lanes.applier;

import io.lanes.applier.checkpoint.FileCheckpointStore;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.CatalogTableMetadata;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.applier.jdbc.TargetUrls;
import io.lanes.applier.schema.FileSchemaHistoryStore;
import io.lanes.applier.schema.JdbcSchemaHistoryStore;
import io.lanes.applier.schema.SchemaHistory;
import io.lanes.applier.schema.SchemaHistoryStore;
import io.lanes.applier.sink.SinkTarget;
import io.lanes.core.Engine;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Properties;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Target} as a pipeline uses it, opened from a {@link LanesConfig}: with the table metadata the bridge reads
 * (the target's catalog for JDBC targets, the configured metadata for sinks), the mapping, where the schema history is
 * kept beside the checkpoints, and the target's kind as far as the bridge's keys depend on it. Three kinds: a JDBC URL,
 * a {@link io.lanes.applier.sink.TransactionSink} with a checkpoint directory, or any applier factory with its own
 * checkpoint store.
 *
 * <p>Threads: opened and closed by the thread that starts and stops the pipeline; the getters from any thread.
 */
final class PipelineTarget implements AutoCloseable {
    // the pipeline's own category: what it logs reads as the pipeline's, and is quieted with it (CliLogging)
    private static final Logger LOG = LoggerFactory.getLogger(Lanes.class);

    private final Target target;
    private final TableMetadata metadata;
    private final SchemaMapping mapping;
    private final SchemaHistoryStore historyStore;
    private final JdbcTarget jdbc;
    private AutoCloseable toClose;

    private PipelineTarget(Target target, TableMetadata metadata, SchemaMapping mapping, SchemaHistoryStore historyStore,
            JdbcTarget jdbc, AutoCloseable toClose) {
        this.target = target;
        this.metadata = metadata;
        this.mapping = mapping;
        this.historyStore = historyStore;
        this.jdbc = jdbc;
        this.toClose = toClose;
    }

    /**
     * Opens the configured target: checks a JDBC target's connection limit against the workers, and prepares where the
     * schema history is kept.
     *
     * @throws LanesException naming what is wrong; nothing was applied
     */
    static PipelineTarget open(LanesConfig config) {
        PipelineTarget opened;
        if (config.transactionSink != null) {
            try {
                SinkTarget sink = new SinkTarget(config.transactionSink,
                        new FileCheckpointStore(config.sinkCheckpointDirectory), config.pipeline);
                opened = new PipelineTarget(sink, config.sinkMetadata, config.mapping,
                        new FileSchemaHistoryStore(config.sinkCheckpointDirectory), null, null);
            } catch (IOException ex) {
                throw new LanesException("cannot use the checkpoint directory " + config.sinkCheckpointDirectory + ": "
                        + ex.getMessage(), null, ex);
            }
        } else if (config.hasSink()) {
            // a custom sink's history is rebuilt on restart: there is nowhere of ours to keep it
            opened = new PipelineTarget(Target.of(config.sinkFactory, config.sinkCheckpoints), config.sinkMetadata,
                    config.mapping, null, null, null);
        } else {
            JdbcTarget jdbc = jdbcTarget(config);
            LanesException tooFewConnections = StartChecks.connections(config, jdbc);
            if (tooFewConnections != null) {
                throw tooFewConnections;
            }
            CatalogTableMetadata catalog = new CatalogTableMetadata(jdbc.connections(), jdbc.catalog());
            opened = new PipelineTarget(jdbc, catalog, jdbc.mapping(),
                    new JdbcSchemaHistoryStore(jdbc.connections(), jdbc.dialect(), jdbc.checkpointTable().schema(),
                            jdbc.checkpointTable().table() + "_schema_history"), jdbc, catalog);
        }
        if (opened.historyStore != null) {
            try {
                opened.historyStore.prepare();
            } catch (Exception ex) {
                opened.close();
                throw new LanesException("cannot prepare the schema history store beside the checkpoint: "
                        + ex.getMessage() + "; nothing was applied", null, ex);
            }
        }
        return opened;
    }

    Target target() {
        return target;
    }

    TableMetadata metadata() {
        return metadata;
    }

    SchemaMapping mapping() {
        return mapping;
    }

    /** Where the schema history is kept beside the checkpoints; null for a custom sink. */
    SchemaHistoryStore historyStore() {
        return historyStore;
    }

    /** The JDBC target, or null for a sink. */
    JdbcTarget jdbc() {
        return jdbc;
    }

    /**
     * The bridge's settings that depend on the target: H2 runs a transaction logged with foreign key checks off alone
     * (it cannot switch them per session); MySQL and MariaDB take next-key locks on unique indexes, so a change of one
     * orders with every other change of that index. Large transactions are converted while applied for a JDBC target
     * only, whose applier iterates a transaction's changes once per apply (a sink gets them whole).
     */
    void configure(BinlogBridge bridge, LanesConfig config) {
        bridge.largeTransactionBytes(jdbc != null ? config.largeTransactionBytes() : 0);
        bridge.foreignKeyChecksOffRunsAlone(jdbc != null && jdbc.dialect().kind() == Dialect.Kind.H2);
        bridge.uniqueIndexKeys(jdbc != null && jdbc.dialect().kind() == Dialect.Kind.MYSQL);
    }

    /** The engine applying into this target, as configured (not started). */
    Engine<SourceTransaction> newEngine(LanesConfig config) {
        Engine.Builder<SourceTransaction> b = Engine.builder(target.applierFactory())
                .checkpointStore(target.checkpointStore()).scheduler(config.newScheduler());
        if (config.statsListener != null) {
            b.statsListener(config.statsListener, config.engine.statsInterval());
        }
        if (config.threadFactory != null) {
            b.threadFactory(config.threadFactory);
        }
        return b.settings(config.engineSettings()).build();
    }

    /**
     * Replaces {@code history} with the one saved with the checkpoint at {@code position}, when there is one.
     *
     * @return whether it was restored
     * @throws LanesException when the saved history cannot be read
     */
    boolean restoreHistory(String pipeline, String position, SchemaHistory history) {
        if (position == null || historyStore == null) {
            return false;
        }
        try {
            SchemaHistory restored = historyStore.load(pipeline, position);
            if (restored == null) {
                return false;
            }
            history.replaceWith(restored);
            LOG.info("lanes pipeline '{}': schema history restored as in force at {} ({} tables)", pipeline, position,
                    history.tables().size());
            return true;
        } catch (Exception ex) {
            throw new LanesException("cannot read the schema history saved with the checkpoint " + position + ": "
                    + ex.getMessage(), position, ex);
        }
    }

    /** Transactions the target's error policy skipped (0 for sinks). */
    long transactionsSkippedByErrorPolicy() {
        return jdbc == null ? 0 : jdbc.transactionsSkippedByErrorPolicy();
    }

    /** Closes the catalog connection and the schema history's of a JDBC target; idempotent. */
    @Override
    public void close() {
        if (toClose != null) {
            try {
                toClose.close();
            } catch (Exception ex) {
                LOG.warn("closing the catalog connection: {}", ex.toString());
            }
            toClose = null;
        }
        if (historyStore instanceof AutoCloseable kept) { // the schema history's connection, kept between saves
            try {
                kept.close();
            } catch (Exception ex) {
                LOG.warn("closing the schema history's connection: {}", ex.toString());
            }
        }
    }

    static JdbcTarget jdbcTarget(LanesConfig config) {
        String url = TargetUrls.asOpened(config.targetUrl, config.h2MysqlMode);
        Dialect dialect = Dialect.forJdbcUrl(url);
        Properties props = new Properties();
        dialect.recommendedConnectionProperties().forEach(props::setProperty);
        config.targetTls.connectionProperties(url).forEach(props::setProperty);
        if (config.targetUser != null) {
            props.setProperty("user", config.targetUser);
        }
        ConnectionFactory connections = new PasswordConnections(url, props, config.targetPassword,
                config.targetDescription());
        return JdbcTarget.builder(connections, dialect).mapping(config.mapping).pipeline(config.pipeline)
                .errorPolicy(config.errorPolicy).appliesInProcess(JdbcTarget.isInProcessUrl(url))
                .triggers(config.triggers).collations(config.collationMap)
                .checkpointTable(new JdbcCheckpointTable(dialect, config.checkpointSchema, config.checkpointTable))
                .build();
    }

    /**
     * Connections through DriverManager with a password asked for at each connect and wiped right after; the password
     * is never kept in a field as a String and never shown.
     */
    private static final class PasswordConnections implements ConnectionFactory {
        private final String url;
        private final Properties properties;
        private final Supplier<char[]> password;
        private final String shown;

        PasswordConnections(String url, Properties properties, Supplier<char[]> password, String shown) {
            this.url = url;
            this.properties = properties;
            this.password = password;
            this.shown = shown;
        }

        @Override
        public Connection open() throws SQLException {
            Properties p = new Properties();
            p.putAll(properties);
            char[] secret = password == null ? null : password.get();
            try {
                if (secret != null) {
                    p.setProperty("password", new String(secret));
                }
                return DriverManager.getConnection(url, p);
            } finally {
                if (secret != null) {
                    Arrays.fill(secret, '\0');
                }
            }
        }

        @Override
        public String toString() {
            return "ConnectionFactory[" + shown + ", user=" + properties.getProperty("user") + "]";
        }
    }
}
