package io.lanes.connect;

import io.lanes.applier.checkpoint.CheckpointRows;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.connect.internal.KafkaPosition;
import io.lanes.connect.internal.OwnerFence;
import io.lanes.connect.internal.PartitionPipeline;
import io.lanes.connect.internal.SourceOrder;
import io.lanes.core.Checkpoint;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * A Kafka Connect sink that applies MySQL/MariaDB change events (Debezium's envelope, or a {@link LanesSourceConnector}'s)
 * to a JDBC target (PostgreSQL, MySQL/MariaDB, H2) in parallel and exactly once, whole transactions at a time.
 *
 * <p>Each topic-partition gets its own Lanes engine; the checkpoint (Kafka offset and source position) is written in
 * the same target transaction as the data, every checkpoint write is conditional on the partition's owner epoch (zombie
 * fencing), and {@link #alterOffsets} (KIP-875) rewrites the checkpoint rows. See docs/kafka-connect.md.
 */
public class LanesSinkConnector extends SinkConnector {
    static final String VERSION = "0.1.0";

    private Map<String, String> props;

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        new LanesSinkConfig(props); // validates
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return LanesSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> out = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            out.add(new HashMap<>(props));
        }
        return out;
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return LanesSinkConfig.CONFIG_DEF;
    }

    /**
     * KIP-875: the new offsets replace the partitions' checkpoint rows on the target (a null offset removes them, so the
     * partition starts from Connect's committed offset or the consumer's reset policy), and each partition's owner epoch
     * is incremented so that no task still running with the old checkpoint can commit. Connect calls this only while the
     * connector is stopped. Offsets should name transaction boundaries: a partition re-read from the middle of a
     * transaction stops with an error rather than apply its tail.
     */
    @Override
    public boolean alterOffsets(Map<String, String> connectorConfig, Map<TopicPartition, Long> offsets) {
        LanesSinkConfig config = new LanesSinkConfig(connectorConfig);
        PartitionPipeline.Settings settings = settings(connectorConfig.getOrDefault("name", "lanes-sink"), config);
        JdbcCheckpointTable table = new JdbcCheckpointTable(settings.dialect(), settings.checkpointSchema(),
                JdbcCheckpointTable.DEFAULT_TABLE);
        try (Connection c = settings.connections().open()) {
            settings.dialect().initSession(c);
            table.createIfAbsent(c);
            for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
                String pipeline = PartitionPipeline.pipelineName(settings.connector(), e.getKey().toString());
                OwnerFence fence = new OwnerFence(settings.dialect(), settings.checkpointSchema(), pipeline);
                fence.createIfAbsent(c);
                fence.bump(c);
                table.delete(c, pipeline);
                if (e.getValue() != null) {
                    Checkpoint lwm = Checkpoint.ofLowWaterMark(0, new KafkaPosition(e.getValue(), SourceOrder.NONE).toString());
                    table.write(c, CheckpointRows.toRow(pipeline, lwm, Instant.now()));
                }
            }
            c.commit();
        } catch (SQLException e) {
            throw new ConnectException("cannot rewrite the checkpoint rows on the target: " + e.getMessage(), e);
        }
        return true;
    }

    /** What every partition pipeline of a connector shares. */
    static PartitionPipeline.Settings settings(String connector, LanesSinkConfig config) {
        Properties p = new Properties();
        if (!config.targetUser().isEmpty()) {
            p.setProperty("user", config.targetUser());
        }
        String password = config.targetPassword().value();
        if (!password.isEmpty()) {
            p.setProperty("password", password);
        }
        String url = config.targetUrl();
        return new PartitionPipeline.Settings(connector, url, ConnectionFactory.of(url, p), Dialect.forJdbcUrl(url),
                config.mapping(), config.checkpointSchema(), config.workers(), config.commitOrder(),
                config.skipDuplicates());
    }
}
