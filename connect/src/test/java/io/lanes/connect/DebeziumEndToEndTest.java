package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.connect.testing.SharedConnect;
import io.lanes.connect.testing.Tables;
import io.lanes.connect.testing.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * End to end with a real, independently written source: Debezium's MariaDB connector reads a MariaDB that the test starts
 * (snapshot of seeded rows, then a sysbench-like workload over two schemas), its records go through
 * {@link SchemaGroupRouter} into one two-partition topic, and two {@link LanesSinkConnector}s apply them into the shared
 * PostgreSQL and into a second MariaDB. Each target's tables must equal the source's, and the audit table (no key on the
 * targets) must hold every transaction exactly once.
 */
@ExtendWith(SharedConnect.class)
class DebeziumEndToEndTest {
    static final AtomicInteger RUN = new AtomicInteger();
    static MariaDbServer source;
    static MariaDbServer mariaTarget;

    @BeforeAll
    static void servers() {
        source = MariaDbServer.startWithBinlog("--binlog-row-image=FULL");
        mariaTarget = MariaDbServer.start(List.of());
    }

    @AfterAll
    static void stopServers() {
        if (source != null) {
            source.close();
        }
        if (mariaTarget != null) {
            mariaTarget.close();
        }
    }

    @Test
    void debeziumToLanesSinkIntoPostgresAndMariaDbIsExact() throws Exception {
        long seed = Long.getLong("lanes.seed", System.nanoTime());
        System.out.println("DebeziumEndToEndTest seed=" + seed + " (replay with -Dlanes.seed=" + seed + ")");
        int transactions = Boolean.getBoolean("lanes.long") ? 5000 : 400;
        EmbeddedConnectCluster connect = SharedConnect.cluster();
        String id = "e2e" + ProcessHandle.current().pid() % 10000 + "x" + RUN.incrementAndGet();
        List<String> schemas = List.of(id + "_a", id + "_b");
        String sourceUrl = source.jdbcUrl("mysql");
        Workload workload = new Workload(sourceUrl, schemas, seed);
        workload.createSource(50);

        String pgUrl = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
        String mariaUrl = mariaTarget.jdbcUrl("mysql");
        for (String s : schemas) {
            List<String> pg = new ArrayList<>(List.of("CREATE SCHEMA \"" + s + "\""));
            pg.addAll(Workload.targetDdl(s, false));
            Tables.execute(pgUrl, pg);
            List<String> my = new ArrayList<>(List.of("CREATE DATABASE `" + s + "`"));
            my.addAll(Workload.targetDdl(s, true));
            Tables.execute(mariaUrl, my);
        }
        String topic = id + ".cdc";
        connect.kafka().createTopic(topic, 2);
        connect.configureConnector(id + "-dbz", ConnectorConfigs.debezium(id, source.port(), schemas, topic, 2,
                connect.kafka().bootstrapServers()));
        connect.configureConnector(id + "-pg", ConnectorConfigs.lanesSink(topic, pgUrl, 1, 4));
        // The MariaDB sink takes the values as bytes and converts them on its partitions' threads (lanes.value.converter,
        // JsonConverter by default); the PostgreSQL sink takes them as the worker's JsonConverter made them.
        java.util.Map<String, String> maria = ConnectorConfigs.lanesSink(topic, mariaUrl, 1, 4);
        maria.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        connect.configureConnector(id + "-maria", maria);

        ConnectorConfigs.awaitRunning(connect, id + "-dbz");
        long[] perSchema;
        try {
            // The snapshot (seeded items, applied in chunks) first, so that the workload is streamed.
            for (String s : schemas) {
                ConnectorConfigs.awaitCount(pgUrl, "SELECT COUNT(*) FROM \"" + s + "\".\"items\"", 50, 90);
                ConnectorConfigs.awaitCount(mariaUrl, "SELECT COUNT(*) FROM `" + s + "`.`items`", 50, 90);
            }
            perSchema = workload.run(transactions, 3);
            for (int i = 0; i < schemas.size(); i++) {
                String s = schemas.get(i);
                ConnectorConfigs.awaitCount(pgUrl, "SELECT COUNT(*) FROM \"" + s + "\".\"audit\"", perSchema[i], 90);
                ConnectorConfigs.awaitCount(mariaUrl, "SELECT COUNT(*) FROM `" + s + "`.`audit`", perSchema[i], 90);
            }
            for (String s : schemas) {
                for (String table : Workload.TABLES) {
                    List<String> expected = Tables.rows(sourceUrl, s, table, '`');
                    assertEquals(expected, Tables.rows(pgUrl, s, table, '"'), "PostgreSQL " + s + "." + table);
                    assertEquals(expected, Tables.rows(mariaUrl, s, table, '`'), "MariaDB " + s + "." + table);
                }
                assertEquals(0, Tables.count(pgUrl, "SELECT COUNT(*) FROM (SELECT txn FROM \"" + s + "\".\"audit\" GROUP BY txn"
                        + " HAVING COUNT(*) > 1) d"), "doubled transactions in " + s);
            }
            ConnectorConfigs.assertTasksRunning(connect, List.of(id + "-dbz", id + "-pg", id + "-maria"));
            System.out.println("DEBEZIUM-E2E transactions=" + transactions + " perSchema=" + java.util.Arrays.toString(perSchema)
                    + " exact=true");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + ConnectorConfigs.diagnose(connect, topic, 2,
                    List.of(id + "-dbz", id + "-pg", id + "-maria")), e);
        } finally {
            for (String name : List.of(id + "-dbz", id + "-pg", id + "-maria")) {
                connect.deleteConnector(name);
            }
            for (String s : schemas) {
                Tables.execute(pgUrl, List.of("DROP SCHEMA IF EXISTS \"" + s + "\" CASCADE"));
            }
        }
    }
}
