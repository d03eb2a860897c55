package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.connect.testing.SharedConnect;
import io.lanes.connect.testing.SourceRepeats;
import io.lanes.connect.testing.Tables;
import io.lanes.connect.testing.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults while Debezium's MariaDB connector streams a workload through {@link SchemaGroupRouter} (2 partitions) into a
 * {@link LanesSinkConnector} (2 tasks, 4 workers each) applying to a MariaDB target: the connector restarted; a second
 * Connect worker joining (tasks move to it) and leaving (the worker stops with a graceful-shutdown timeout of 500 ms, so
 * a task still applying is abandoned while it applies and its partitions are taken over: zombie fencing); the target
 * killed (SIGKILL) and restarted; the sink's target sessions killed mid-apply. The final state must equal the source
 * and the audit table (no key on the target) must hold each transaction once. Prints a SINK-FAULTS line.
 */
@ExtendWith(SharedConnect.class)
class SinkFaultTest {
    static MariaDbServer source;
    static MariaDbServer target;

    @BeforeAll
    static void servers() {
        source = MariaDbServer.startWithBinlog();
        target = MariaDbServer.start(List.of());
    }

    @AfterAll
    static void stop() {
        if (source != null) {
            source.close();
        }
        if (target != null) {
            target.close();
        }
    }

    /** A disturbance of the running connectors while the workload streams; returns the faults it injected. */
    @FunctionalInterface
    interface Faults {
        /** @param more adds the transactions per schema of any further workload it runs */
        int inject(EmbeddedConnectCluster connect, Workload workload, long[] more) throws Exception;
    }

    @Test
    void restartRebalanceTargetRestartAndKilledSessionsLeaveTheTargetExact() throws Exception {
        run("flt", "SINK-FAULTS", Boolean.getBoolean("lanes.long") ? 6000 : 1200,
                (connect, workload, more) -> ConnectorConfigs.faultRound(connect, sinkName("flt"), target.jdbcUrl("mysql"),
                        target));
    }

    /**
     * The source's side of a rebalance, three times while the workload streams: a worker joins, then the worker running
     * Debezium's task leaves; it abandons the tasks still running after 500 ms, so Debezium's producer transaction is
     * aborted and its task resumes on the other worker from its last committed offsets, inside a transaction when a
     * poll batch cut one. Then Debezium's connection to its server is killed (it reconnects by itself). The target must stay exact; the line printed says what the topic received
     * (events sent again, renumbered, transactions whose END came twice).
     */
    @Test
    void debeziumMovedAndReconnectedMidStreamLeavesTheTargetExact() throws Exception {
        int perRound = Boolean.getBoolean("lanes.long") ? 1500 : 400;
        run("mov", "SOURCE-FAULTS", perRound, (connect, workload, more) -> {
            int faults = 0;
            for (int round = 0; round < 3; round++) {
                // Each round writes more while the worker joins and leaves, so the moves fall inside the stream.
                CompletableFuture<long[]> writes = CompletableFuture.supplyAsync(() -> {
                    try {
                        return workload.run(perRound, 2);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                Thread.sleep(300);
                connect.addWorker();
                Thread.sleep(2500);
                // The worker running Debezium's task leaves (with the tasks it runs, abandoned after 500 ms).
                connect.removeWorker(workerRunning(connect, dbzName("mov")));
                faults += 2;
                long[] got = writes.get();
                for (int i = 0; i < got.length; i++) {
                    more[i] += got[i];
                }
                faults += ConnectorConfigs.restartTasksFailedByADepartedWorker(connect, dbzName("mov"));
            }
            faults += ConnectorConfigs.killBinlogDumps(source.jdbcUrl("mysql"));
            return faults;
        });
    }

    private static String dbzName(String prefix) {
        return prefix + ProcessHandle.current().pid() % 10000 + "-dbz";
    }

    /** The worker that runs the connector's task 0 (the oldest worker when the status names none of them). */
    private static org.apache.kafka.connect.util.clusters.WorkerHandle workerRunning(EmbeddedConnectCluster connect,
            String connector) {
        String worker = connect.connectorStatus(connector).tasks().get(0).workerId();
        org.apache.kafka.connect.util.clusters.WorkerHandle oldest = null;
        for (var w : connect.workers()) {
            if (worker.equals(w.url().getHost() + ":" + w.url().getPort())) {
                return w;
            }
            if (oldest == null || w.toString().compareTo(oldest.toString()) < 0) {
                oldest = w;
            }
        }
        return oldest;
    }

    private static String sinkName(String prefix) {
        return prefix + ProcessHandle.current().pid() % 10000 + "-sink";
    }

    private void run(String prefix, String label, int transactions, Faults inject) throws Exception {
        long seed = Long.getLong("lanes.seed", System.nanoTime());
        System.out.println("SinkFaultTest " + label + " seed=" + seed + " transactions=" + transactions);
        EmbeddedConnectCluster connect = SharedConnect.cluster();
        String id = prefix + ProcessHandle.current().pid() % 10000;
        String sink = sinkName(prefix);
        List<String> schemas = List.of(id + "_a", id + "_b", id + "_c");
        String sourceUrl = source.jdbcUrl("mysql");
        Workload workload = new Workload(sourceUrl, schemas, seed);
        workload.createSource(30);
        String targetUrl = target.jdbcUrl("mysql");
        for (String s : schemas) {
            List<String> my = new ArrayList<>(List.of("CREATE DATABASE `" + s + "`"));
            my.addAll(Workload.targetDdl(s, true));
            Tables.execute(targetUrl, my);
        }
        String topic = id + ".cdc";
        connect.kafka().createTopic(topic, 2);
        String dbz = dbzName(prefix);
        int faults = 0;
        try {
            connect.configureConnector(dbz, ConnectorConfigs.debezium(id, source.port(), schemas, topic, 2,
                    connect.kafka().bootstrapServers()));
            ConnectorConfigs.awaitRunning(connect, dbz);
            java.util.Map<String, String> sinkConfig = ConnectorConfigs.lanesSink(topic, targetUrl, 2, 4);
            String isolation = System.getProperty("lanes.sink.isolation");
            if (isolation != null) {
                sinkConfig.put("consumer.override.isolation.level", isolation); // experiment only: the sink needs read_committed
            }
            connect.configureConnector(sink, sinkConfig);
            for (String s : schemas) {
                ConnectorConfigs.awaitCount(targetUrl, "SELECT COUNT(*) FROM `" + s + "`.`items`", 30, 90);
            }
            CompletableFuture<long[]> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return workload.run(transactions, 2);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            long[] more = new long[schemas.size()];
            faults += inject.inject(connect, workload, more);
            long[] perSchema = run.get();
            for (int i = 0; i < more.length; i++) {
                perSchema[i] += more[i];
            }
            // A task whose retries ran out while the target was down has failed: restart what failed, as an operator would.
            Thread.sleep(2000);
            connect.restartConnectorAndTasks(sink, true, true, false);
            try {
                for (int i = 0; i < schemas.size(); i++) {
                    // Distinct transactions: a double must not make up for a loss.
                    ConnectorConfigs.awaitCount(targetUrl, "SELECT COUNT(DISTINCT `txn`) FROM `" + schemas.get(i)
                            + "`.`audit`", perSchema[i], 180);
                }
            } catch (AssertionError incomplete) {
                System.out.println(incomplete.getMessage() + ": comparing what is there");
            }
            Thread.sleep(1000);
            ConnectorConfigs.assertTasksRunning(connect, List.of(dbz, sink));
            String lostOrDoubled = auditDiff(sourceUrl, targetUrl, schemas);
            if (!lostOrDoubled.isEmpty()) {
                throw new AssertionError("lost or doubled (schema:txn(target count)): " + lostOrDoubled + "\n"
                        + recordsOf(connect, topic, lostOrDoubled));
            }
            for (String s : schemas) {
                for (String table : Workload.TABLES) {
                    assertEquals(Tables.rows(sourceUrl, s, table, '`'), Tables.rows(targetUrl, s, table, '`'), s + "." + table);
                }
            }
            System.out.println(label + " transactions=" + transactions + " faults=" + faults + " exact=true lost=0 doubled=0 "
                    + SourceRepeats.scan(connect, topic, 2, "read_committed") + " / read_uncommitted: "
                    + SourceRepeats.scan(connect, topic, 2, "read_uncommitted"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + ConnectorConfigs.diagnose(connect, topic, 2, List.of(dbz, sink)), e);
        } finally {
            for (String name : List.of(dbz, sink)) {
                try {
                    connect.deleteConnector(name);
                } catch (RuntimeException ignored) {
                    // already gone
                }
            }
        }
    }

    /** Transactions whose audit row is missing or doubled on the target, as {@code schema:txn(count)} words. */
    static String auditDiff(String sourceUrl, String targetUrl, List<String> schemas) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (String s : schemas) {
            java.util.Map<String, Long> want = new java.util.HashMap<>();
            for (String r : Tables.rows(sourceUrl, s, "audit", '`')) {
                want.merge(r.split("\\|")[0], 1L, Long::sum);
            }
            java.util.Map<String, Long> got = new java.util.HashMap<>();
            for (String r : Tables.rows(targetUrl, s, "audit", '`')) {
                got.merge(r.split("\\|")[0], 1L, Long::sum);
            }
            java.util.Set<String> all = new java.util.TreeSet<>(want.keySet());
            all.addAll(got.keySet());
            for (String txn : all) {
                if (!want.getOrDefault(txn, 0L).equals(got.getOrDefault(txn, 0L))) {
                    sb.append(s).append(':').append(txn).append('(').append(got.getOrDefault(txn, 0L)).append(") ");
                }
            }
        }
        return sb.toString().trim();
    }

    /** The topic's records of those transactions' ledger rows: partition, offset, value (for a failure message). */
    static String recordsOf(EmbeddedConnectCluster connect, String topic, String diff) {
        StringBuilder sb = new StringBuilder();
        java.util.Map<String, Object> props = new java.util.HashMap<>();
        props.put("isolation.level", "read_committed");
        props.put("auto.offset.reset", "earliest");
        try (var consumer = connect.kafka().createConsumer(props)) {
            var tps = List.of(new org.apache.kafka.common.TopicPartition(topic, 0), new org.apache.kafka.common.TopicPartition(topic, 1));
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            int idle = 0;
            while (idle < 3) {
                var batch = consumer.poll(java.time.Duration.ofMillis(500));
                idle = batch.isEmpty() ? idle + 1 : 0;
                for (var r : batch) {
                    String v = r.value() == null ? "" : new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
                    for (String word : diff.split(" ")) {
                        String txn = word.substring(word.indexOf(':') + 1, word.indexOf('('));
                        if (v.contains("\"txn\":" + txn + ",") || v.contains("\"id\":\"" + txn)) {
                            int at = v.indexOf("\"payload\"");
                            sb.append(r.partition()).append('@').append(r.offset()).append(' ')
                                    .append(v.substring(Math.max(0, at), Math.min(v.length(), at + 900))).append('\n');
                        }
                    }
                }
            }
        }
        return sb.toString();
    }
}
