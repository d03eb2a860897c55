package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.connect.testing.SharedConnect;
import io.lanes.connect.testing.Tables;
import io.lanes.connect.testing.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Lanes' source -> Kafka -> Lanes' sink: the {@link LanesSourceConnector} follows a MariaDB the test starts, with
 * exactly-once source support (each binlog transaction one Kafka transaction), two partitions by schema, a restart of
 * the source task (it resumes from its offsets) and a mid-stream ALTER TABLE; the {@link LanesSinkConnector} applies it into PostgreSQL. The target equals the source, and
 * a read_committed consumer sees every record with its Lanes headers, each transaction's records together in one
 * partition.
 */
@ExtendWith(SharedConnect.class)
class LanesSourceEndToEndTest {
    static MariaDbServer source;

    @BeforeAll
    static void server() {
        source = MariaDbServer.startWithBinlog();
    }

    @AfterAll
    static void stop() {
        if (source != null) {
            source.close();
        }
    }

    static Map<String, String> lanesSource(String topic, int port, List<String> schemas, int partitions) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", LanesSourceConnector.class.getName());
        c.put("tasks.max", "1");
        c.put(LanesSourceConfig.HOST, "127.0.0.1");
        c.put(LanesSourceConfig.PORT, Integer.toString(port));
        c.put(LanesSourceConfig.USER, "root");
        c.put(LanesSourceConfig.SERVER_ID, "7301");
        c.put(LanesSourceConfig.TOPIC, topic);
        c.put(LanesSourceConfig.PARTITIONS, Integer.toString(partitions));
        c.put(LanesSourceConfig.INCLUDE_SCHEMAS, String.join(",", schemas));
        c.put("exactly.once.support", "required");
        c.put("transaction.boundary", "connector");
        return c;
    }

    @Test
    void lanesSourceToLanesSinkIsExactAcrossAnAlterTable() throws Exception {
        long seed = Long.getLong("lanes.seed", System.nanoTime());
        System.out.println("LanesSourceEndToEndTest seed=" + seed);
        EmbeddedConnectCluster connect = SharedConnect.cluster();
        String id = "ls" + ProcessHandle.current().pid() % 10000;
        List<String> schemas = List.of(id + "_a", id + "_b");
        String sourceUrl = source.jdbcUrl("mysql");
        Workload workload = new Workload(sourceUrl, schemas, seed);
        workload.createSource(0);
        String pgUrl = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
        for (String s : schemas) {
            List<String> pg = new ArrayList<>(List.of("CREATE SCHEMA \"" + s + "\""));
            pg.addAll(Workload.targetDdl(s, false));
            pg.add("INSERT INTO \"" + s + "\".\"counter\" VALUES (1, 0)");
            Tables.execute(pgUrl, pg);
        }
        String topic = id + ".binlog";
        connect.kafka().createTopic(topic, 2);
        List<String> names = List.of(id + "-src", id + "-sink");
        try {
            connect.configureConnector(names.get(0), lanesSource(topic, source.port(), schemas, 2));
            ConnectorConfigs.awaitRunning(connect, names.get(0));
            connect.configureConnector(names.get(1), ConnectorConfigs.lanesSink(topic, pgUrl, 1, 4));
            long[] first = workload.run(150, 3);
            for (int i = 0; i < schemas.size(); i++) {
                ConnectorConfigs.awaitCount(pgUrl, "SELECT COUNT(*) FROM \"" + schemas.get(i) + "\".\"audit\"", first[i], 90);
            }
            // The source task restarts: it resumes from Connect's source offsets (file and position after the last
            // transaction committed to Kafka), losing and repeating nothing.
            connect.restartConnectorAndTasks(names.get(0), false, true, false);
            ConnectorConfigs.awaitRunning(connect, names.get(0));
            // A schema change mid-stream: a barrier on its partition, applied by the target's DDL handler.
            Tables.execute(source.jdbcUrl(schemas.get(0)), List.of("ALTER TABLE `items` ADD COLUMN `extra` INT NULL",
                    "UPDATE `items` SET `extra` = `id` * 2 WHERE `id` % 3 = 0"));
            long[] second = workload.run(150, 3);
            for (int i = 0; i < schemas.size(); i++) {
                ConnectorConfigs.awaitCount(pgUrl, "SELECT COUNT(*) FROM \"" + schemas.get(i) + "\".\"audit\"",
                        first[i] + second[i], 90);
            }
            ConnectorConfigs.awaitCount(pgUrl, "SELECT COUNT(*) FROM \"" + schemas.get(0) + "\".\"items\" WHERE \"extra\" IS NOT NULL",
                    Tables.count(sourceUrl, "SELECT COUNT(*) FROM `" + schemas.get(0) + "`.`items` WHERE `extra` IS NOT NULL"), 60);
            ConnectorConfigs.assertTasksRunning(connect, names);
            for (String s : schemas) {
                for (String table : Workload.TABLES) {
                    assertEquals(Tables.rows(sourceUrl, s, table, '`'), Tables.rows(pgUrl, s, table, '"'), s + "." + table);
                }
            }
            assertWholeTransactionsWithHeaders(connect, topic);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + ConnectorConfigs.diagnose(connect, topic, 2, names), e);
        } finally {
            names.forEach(connect::deleteConnector);
            for (String s : schemas) {
                Tables.execute(pgUrl, List.of("DROP SCHEMA IF EXISTS \"" + s + "\" CASCADE"));
            }
        }
    }

    /** A read_committed consumer sees, per partition, each transaction's records 1..n together, with the headers. */
    private static void assertWholeTransactionsWithHeaders(EmbeddedConnectCluster connect, String topic) {
        Map<String, Object> props = new HashMap<>();
        props.put("isolation.level", "read_committed");
        props.put("auto.offset.reset", "earliest");
        props.put("group.id", topic + "-check");
        int checked = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = connect.kafka().createConsumer(props)) {
            List<TopicPartition> tps = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<Integer, long[]> expect = new HashMap<>(); // partition -> {index due, count}
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            int idle = 0;
            while (System.nanoTime() < deadline && idle < 3) {
                var batch = consumer.poll(Duration.ofMillis(500));
                idle = batch.isEmpty() ? idle + 1 : 0;
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    long index = Long.parseLong(new String(r.headers().lastHeader(LanesHeaders.EVENT_INDEX).value()));
                    long count = Long.parseLong(new String(r.headers().lastHeader(LanesHeaders.EVENT_COUNT).value()));
                    assertTrue(r.headers().lastHeader(LanesHeaders.TRANSACTION_SEQUENCE) != null);
                    assertTrue(r.headers().lastHeader(LanesHeaders.BARRIER) != null);
                    long[] due = expect.getOrDefault(r.partition(), new long[] {1, 0});
                    assertEquals(due[0], index, "record order within its transaction, partition " + r.partition());
                    if (index > 1) {
                        assertEquals(due[1], count);
                    }
                    expect.put(r.partition(), index == count ? new long[] {1, 0} : new long[] {index + 1, count});
                    if (index == 1) {
                        checked++;
                    }
                }
            }
        }
        assertTrue(checked >= 300, "transactions seen by a read_committed consumer: " + checked);
    }
}
