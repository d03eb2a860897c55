package io.lanes.connect;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * A Kafka Connect source that follows a live MySQL/MariaDB server with Lanes' replication client (one task per server)
 * and emits Debezium-compatible change events plus {@link LanesHeaders}, every transaction whole in its schema group's
 * partition. Exactly-once (KIP-618): with {@code exactly.once.source.support=enabled} on the workers and
 * {@code transaction.boundary=connector}, each binlog transaction is one Kafka transaction, committed atomically with
 * its source offset; consumers then need {@code isolation.level=read_committed}. See docs/kafka-connect.md.
 */
public class LanesSourceConnector extends SourceConnector {
    private Map<String, String> props;

    @Override
    public String version() {
        return LanesSinkConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        new LanesSourceConfig(props);
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return LanesSourceTask.class;
    }

    /** One task: a server's binlog is one ordered stream. */
    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return List.of(props);
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return LanesSourceConfig.CONFIG_DEF;
    }

    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.SUPPORTED;
    }

    @Override
    public ConnectorTransactionBoundaries canDefineTransactionBoundaries(Map<String, String> connectorConfig) {
        return ConnectorTransactionBoundaries.SUPPORTED;
    }

    /** The source partition of a server: its address. */
    static Map<String, String> sourcePartition(LanesSourceConfig config) {
        return Map.of("server", config.host() + ":" + config.port());
    }
}
