package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.connect.testing.SharedConnect;
import io.lanes.connect.testing.Tables;
import io.lanes.connect.testing.Workload;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link LanesSourceConnector} resumes from Connect's stored source offsets by GTID while a workload writes to the
 * MariaDB it follows: after a restart of the connector and its tasks, after a restart of the task alone, and after its
 * offset's binlog file was made one the server never had (as after a failover to a replica, whose files differ while
 * the GTIDs are the same): a resume by file position would fail there, a resume by GTID position goes on. Nothing lost:
 * the PostgreSQL target, fed by a {@link LanesSinkConnector}, equals the source (its audit table has no key, so a
 * doubled transaction would show too). Nothing doubled in Kafka either (the sink skips transactions at or below its
 * applied position, which would hide a doubling source): a read_committed consumer sees each GTID once.
 *
 * <p>Only MariaDB's GTID position is exercised: the machine has no MySQL server for a MySQL GTID set.
 */
@ExtendWith(SharedConnect.class)
class LanesSourceGtidResumeTest {
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

    @Test
    void resumesByGtidAfterConnectorAndTaskRestartsAndAnUnknownBinlogFile() throws Exception {
        long seed = Long.getLong("lanes.seed", System.nanoTime());
        System.out.println("LanesSourceGtidResumeTest seed=" + seed);
        EmbeddedConnectCluster connect = SharedConnect.cluster();
        String id = "lg" + ProcessHandle.current().pid() % 10000;
        List<String> schemas = List.of(id + "_a", id + "_b");
        String sourceUrl = source.jdbcUrl("mysql");
        Workload workload = new Workload(sourceUrl, schemas, seed);
        workload.createSource(0);
        String pgUrl = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
        for (String s : schemas) {
            List<String> pg = new ArrayList<>(List.of("DROP SCHEMA IF EXISTS \"" + s + "\" CASCADE", "CREATE SCHEMA \"" + s + "\""));
            pg.addAll(Workload.targetDdl(s, false));
            pg.add("INSERT INTO \"" + s + "\".\"counter\" VALUES (1, 0)");
            Tables.execute(pgUrl, pg);
        }
        String topic = id + ".binlog";
        connect.kafka().createTopic(topic, 2);
        String src = id + "-src";
        List<String> names = List.of(src, id + "-sink");
        // Each step waits until the target has a further quarter of the workload's transactions: the source task has
        // then emitted them, and it restarts in the middle of what is left of the binlog.
        String appliedAudits = "SELECT (SELECT COUNT(*) FROM \"" + schemas.get(0) + "\".\"audit\") + (SELECT COUNT(*) FROM \""
                + schemas.get(1) + "\".\"audit\")";
        int transactions = 1200;
        CompletableFuture<long[]> writes = null;
        try {
            connect.configureConnector(src, LanesSourceEndToEndTest.lanesSource(topic, source.port(), schemas, 2));
            ConnectorConfigs.awaitRunning(connect, src);
            connect.configureConnector(names.get(1), ConnectorConfigs.lanesSink(topic, pgUrl, 1, 4));
            writes = CompletableFuture.supplyAsync(() -> {
                try {
                    return workload.run(transactions, 2);
                } catch (Exception e) {
                    throw new IllegalStateException("the workload failed", e);
                }
            });

            // 1. The connector and its task restart while the source is being written.
            ConnectorConfigs.awaitCount(pgUrl, appliedAudits, transactions / 4, 120);
            connect.restartConnectorAndTasks(src, false, true, false);
            ConnectorConfigs.awaitRunning(connect, src);

            // 2. The task alone restarts.
            ConnectorConfigs.awaitCount(pgUrl, appliedAudits, transactions / 2, 120);
            connect.restartTask(src, 0);
            ConnectorConfigs.awaitRunning(connect, src);

            // 3. Stopped, its offset's file position is made one the server never had, its GTID state kept: only a
            // resume by GTID finds where to go on.
            ConnectorConfigs.awaitCount(pgUrl, appliedAudits, 3L * transactions / 4, 120);
            connect.stopConnector(src);
            awaitState(connect, src, "STOPPED");
            ConnectorOffset stored = connect.connectorOffsets(src).offsets().get(0);
            SourcePosition at = SourcePosition.parse(stored.offset().get("position").toString());
            assertTrue(at.hasGtids(), "the stored offset carries the GTID state: " + stored);
            Map<String, Object> moved = new HashMap<>(stored.offset());
            moved.put("position", new SourcePosition("elsewhere-bin.000999", 4, at.gtidState()).toString());
            System.out.println("LanesSourceGtidResumeTest: offset " + stored.offset() + " rewritten to " + moved + ": "
                    + connect.alterSourceConnectorOffset(src, stored.partition(), moved));
            connect.resumeConnector(src);
            ConnectorConfigs.awaitRunning(connect, src);
            awaitOffsetFile(connect, src, "bin.");

            long[] written = writes.get();
            for (int i = 0; i < schemas.size(); i++) {
                ConnectorConfigs.awaitCount(pgUrl, "SELECT COUNT(*) FROM \"" + schemas.get(i) + "\".\"audit\"", written[i], 120);
            }
            ConnectorConfigs.assertTasksRunning(connect, names);
            for (String s : schemas) {
                for (String table : Workload.TABLES) {
                    assertEquals(Tables.rows(sourceUrl, s, table, '`'), Tables.rows(pgUrl, s, table, '"'), s + "." + table);
                }
            }
            assertEachGtidOnce(connect, topic, transactions);
            // The offset now stored is the server's own file again, with the GTID position the server has reached.
            SourcePosition end = SourcePosition.parse(connect.connectorOffsets(src).offsets().get(0).offset().get("position").toString());
            assertTrue(end.file().startsWith("bin."), "offset after the GTID resume: " + end);
            assertEquals(gtidBinlogPos(sourceUrl), end.gtidState());
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + ConnectorConfigs.diagnose(connect, topic, 2, names), e);
        } finally {
            if (writes != null) {
                writes.cancel(true);
            }
            names.forEach(connect::deleteConnector);
            for (String s : schemas) {
                Tables.execute(pgUrl, List.of("DROP SCHEMA IF EXISTS \"" + s + "\" CASCADE"));
            }
        }
    }

    /** Waits until the connector's stored offset names a binlog file starting with {@code prefix}. */
    private static void awaitOffsetFile(EmbeddedConnectCluster connect, String name, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            last = connect.connectorOffsets(name).offsets().get(0).offset().get("position").toString();
            if (last.startsWith(prefix)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("connector " + name + " has not moved on from its offset " + last + " after 60 s");
    }

    private static void awaitState(EmbeddedConnectCluster connect, String name, String state) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (state.equals(connect.connectorStatus(name).connector().state())) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("connector " + name + " not " + state + " after 60 s");
    }

    /** A read_committed consumer sees each transaction (its first record) once, by GTID, and at least the workload's. */
    private static void assertEachGtidOnce(EmbeddedConnectCluster connect, String topic, int atLeast) {
        Map<String, Object> props = new HashMap<>();
        props.put("isolation.level", "read_committed");
        props.put("auto.offset.reset", "earliest");
        props.put("group.id", topic + "-gtids");
        Map<String, String> seen = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = connect.kafka().createConsumer(props)) {
            List<TopicPartition> tps = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int idle = 0;
            while (System.nanoTime() < deadline && idle < 3) {
                var batch = consumer.poll(Duration.ofMillis(500));
                idle = batch.isEmpty() ? idle + 1 : 0;
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    if (!"1".equals(header(r, LanesHeaders.EVENT_INDEX))) {
                        continue;
                    }
                    String gtid = header(r, LanesHeaders.GTID);
                    assertTrue(gtid != null, "a MariaDB transaction's record without its GTID at " + r.partition() + "/" + r.offset());
                    String where = r.partition() + "/" + r.offset();
                    String earlier = seen.put(gtid, where);
                    assertEquals(null, earlier, "GTID " + gtid + " sent twice: at " + earlier + " and at " + where);
                }
            }
        }
        assertTrue(seen.size() >= atLeast, "transactions seen by a read_committed consumer: " + seen.size());
    }

    private static String gtidBinlogPos(String url) throws java.sql.SQLException {
        try (var c = java.sql.DriverManager.getConnection(url); var s = c.createStatement();
                var rs = s.executeQuery("SELECT @@gtid_binlog_pos")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
