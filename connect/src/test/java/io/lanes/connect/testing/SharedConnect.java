package io.lanes.connect.testing;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One embedded Kafka (KRaft, one broker) with one distributed Connect worker for the whole test run: started by the
 * first test class that uses this extension, stopped when JUnit closes its root context (the end of the run). Starting
 * one costs 8-13 s and about 600 MB, so every Connect test shares it, each in topics and connector names of its own.
 *
 * <p>Thread-safety: test classes run one at a time in this module; {@link #cluster()} is synchronized.
 */
public final class SharedConnect implements BeforeAllCallback {
    private static EmbeddedConnectCluster cluster;

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).getOrComputeIfAbsent(SharedConnect.class,
                k -> (ExtensionContext.Store.CloseableResource) SharedConnect::stop);
        cluster();
    }

    /** The Connect worker settings of the tests and the peer runner. */
    public static Map<String, String> workerProps() {
        Map<String, String> worker = new HashMap<>();
        worker.put("offset.flush.interval.ms", "1000");
        // Every plugin here has ServiceLoader manifests; scanning the whole test classpath instead takes ~50 s.
        worker.put("plugin.discovery", "service_load");
        worker.put("exactly.once.source.support", "enabled");
        worker.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        worker.put("key.converter.schemas.enable", "true");
        worker.put("value.converter.schemas.enable", "true");
        // Connect's default of 5 minutes of scheduled rebalance delay suits production; a test's worker leaving should
        // hand its tasks over within seconds.
        worker.put("scheduled.rebalance.max.delay.ms", "2000");
        // A stopping worker abandons a task that has not stopped within this time: the fault tests rely on it to
        // leave a task applying while its partitions move (a zombie the owner epoch must fence).
        worker.put("task.shutdown.graceful.timeout.ms", "500");
        // Exactly-once sources commit a Kafka transaction per binlog transaction; the next one's first send meets
        // CONCURRENT_TRANSACTIONS until the markers are written, and waits retry.backoff.ms (100 ms) each time.
        worker.put("producer.retry.backoff.ms", "10");
        // Sinks read only committed records: an exactly-once source's aborted transactions must stay unseen.
        worker.put("consumer.isolation.level", "read_committed");
        return worker;
    }

    /**
     * The one broker's settings of the tests and the peer runner: the transaction state log fits one broker (with the
     * default replication factor of 3 the exactly-once workers never get a producer id and cannot start).
     */
    public static Properties brokerProps() {
        Properties broker = new Properties();
        broker.put("transaction.state.log.replication.factor", "1");
        broker.put("transaction.state.log.min.isr", "1");
        broker.put("log.flush.interval.messages", "1000000");
        return broker;
    }

    /** The shared cluster, started on first use. */
    public static synchronized EmbeddedConnectCluster cluster() {
        if (cluster == null) {
            Map<String, String> worker = workerProps();
            cluster = new EmbeddedConnectCluster.Builder().name("lanes-connect-test").numWorkers(1).numBrokers(1)
                    .workerProps(worker).brokerProps(brokerProps()).maskExitProcedures(true).build();
            cluster.start();
        }
        return cluster;
    }

    private static synchronized void stop() {
        if (cluster != null) {
            cluster.stop();
            cluster = null;
        }
    }
}
