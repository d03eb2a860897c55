package io.lanes.connect.bench;

import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.connect.ConnectorConfigs;
import io.lanes.connect.LanesSinkConnector;
import io.lanes.connect.testing.Tables;
import io.lanes.connect.testing.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * The peer comparison behind {@code scripts/bench/connect-peer.sh}: in one embedded Kafka + Connect cluster, Debezium's
 * MariaDB connector captures a sysbench-like workload (the audit-table workload of docs/reliability.md over 4 schemas)
 * from a MariaDB it starts; once the whole workload is in the topic, Debezium's JDBC sink (upsert mode) and the
 * {@link LanesSinkConnector} apply the same topic, one after the other (so neither steals the other's processors), with
 * the same tasks.max, into two identically configured MariaDB targets. Transactions per second are the workload's
 * transactions over the time from the connector's creation to the last transaction visible on the target. Then a fault
 * round on the Lanes sink (connector restart, target sessions killed, a worker joining and leaving, target SIGKILL and
 * restart) while more of the workload streams. Prints one JSON object as its last line.
 *
 * <p>With {@code --confluent-jdbc PLUGIN_DIR}, Confluent's JDBC sink too: after Debezium's, on a third identical target,
 * paused while Lanes runs; after Lanes' fault round it gets the same fault round while another third streams, and Lanes,
 * undisturbed then, applies that third as well.
 */
public final class ConnectPeer {
    private ConnectPeer() {
    }

    public static void main(String[] args) throws Exception {
        int transactions = 3000;
        int tasks = 1;
        int workers = 8;
        boolean lanesConverts = false;
        java.nio.file.Path confluentJdbc = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--transactions" -> transactions = Integer.parseInt(args[++i]);
                case "--tasks" -> tasks = Integer.parseInt(args[++i]);
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--lanes-converts" -> lanesConverts = true;
                case "--confluent-jdbc" -> confluentJdbc = java.nio.file.Path.of(args[++i]).toAbsolutePath();
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (usage: [--transactions N]"
                        + " [--tasks T] [--workers W] [--lanes-converts] [--confluent-jdbc PLUGIN_DIR])");
            }
        }
        long seed = Long.getLong("lanes.seed", System.nanoTime());
        Map<String, Object> result = run(transactions, tasks, workers, lanesConverts, confluentJdbc, seed);
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, Object> e : result.entrySet()) {
            Object v = e.getValue();
            json.append(json.length() > 1 ? ", " : "").append('"').append(e.getKey()).append("\": ")
                    .append(v instanceof String s ? "\"" + s + "\"" : String.valueOf(v));
        }
        System.out.println(json.append('}'));
        System.out.flush();
        System.exit(0);
    }

    /**
     * @param confluentJdbc the plugin directory that scripts/bench/confluent-jdbc-build.sh wrote, or null: Confluent's
     *     JDBC sink then runs too (a third target), loaded in isolation from that directory's parent as plugin.path
     */
    static Map<String, Object> run(int transactions, int tasks, int workers, boolean lanesConverts,
            java.nio.file.Path confluentJdbc, long seed) throws Exception {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        Map<String, String> workerProps = io.lanes.connect.testing.SharedConnect.workerProps();
        if (confluentJdbc != null) {
            if (!java.nio.file.Files.isDirectory(confluentJdbc)) {
                throw new IllegalArgumentException(confluentJdbc + ": no such plugin directory (build it with"
                        + " scripts/bench/confluent-jdbc-build.sh)");
            }
            workerProps.put("plugin.path", confluentJdbc.getParent().toString());
        }
        EmbeddedConnectCluster connect = new EmbeddedConnectCluster.Builder().name("lanes-peer").numWorkers(1)
                .numBrokers(1).workerProps(workerProps).brokerProps(io.lanes.connect.testing.SharedConnect.brokerProps())
                .maskExitProcedures(true).build();
        connect.start();
        List<String> schemas = List.of("peer_a", "peer_b", "peer_c", "peer_d");
        int partitions = schemas.size();
        try (MariaDbServer source = MariaDbServer.startWithBinlog();
                MariaDbServer lanesTarget = MariaDbServer.start(List.of("--innodb-flush-log-at-trx-commit=1"));
                MariaDbServer dbzTarget = MariaDbServer.start(List.of("--innodb-flush-log-at-trx-commit=1"));
                MariaDbServer cflTarget = confluentJdbc == null ? null
                        : MariaDbServer.start(List.of("--innodb-flush-log-at-trx-commit=1"))) {
            String sourceUrl = source.jdbcUrl("mysql");
            Workload workload = new Workload(sourceUrl, schemas, seed);
            workload.createSource(200);
            // Lanes applies each source schema into the target schema of the same name. Debezium's JDBC sink writes
            // into the one database of its connection URL, so there each source table is `peer`.`<schema>_<table>`
            // (collection.name.format=${source.db}_${source.table}); the tables are the same otherwise.
            for (String s : schemas) {
                List<String> ddl = new ArrayList<>(List.of("CREATE DATABASE `" + s + "`"));
                ddl.addAll(Workload.targetDdl(s, true));
                Tables.execute(lanesTarget.jdbcUrl("mysql"), ddl);
                List<String> flat = new ArrayList<>();
                for (String d : Workload.targetDdl(s, true)) {
                    flat.add(d.replace("`" + s + "`.`", "`peer`.`" + s + "_"));
                }
                for (MariaDbServer flatTarget : cflTarget == null ? List.of(dbzTarget) : List.of(dbzTarget, cflTarget)) {
                    Tables.execute(flatTarget.jdbcUrl("mysql"), List.of("CREATE DATABASE IF NOT EXISTS `peer`"));
                    Tables.execute(flatTarget.jdbcUrl("mysql"), flat);
                }
            }
            String topic = "peer.cdc";
            connect.kafka().createTopic(topic, partitions);
            connect.configureConnector("dbz-source", ConnectorConfigs.debezium("peer", source.port(), schemas, topic,
                    partitions, connect.kafka().bootstrapServers()));
            long[] perSchema = workload.run(transactions, 4);
            awaitTopicQuiet(connect, topic, partitions);
            out.put("transactions", transactions);
            out.put("tasks", tasks);
            out.put("lanes_workers", workers);
            out.put("lanes_converts", lanesConverts);
            out.put("seed", seed);

            String dbzUrl = dbzTarget.jdbcUrl("mysql");
            long t0 = System.nanoTime();
            phase("debezium-jdbc");
            connect.configureConnector("dbz-jdbc", debeziumJdbc(topic, dbzTarget.port(), tasks));
            double[] firstRow = {-1};
            boolean dbzDone = awaitAudit(dbzUrl, schemas, perSchema, 600, true, t0, firstRow);
            out.put("debezium_jdbc_first_row_seconds", round(firstRow[0]));
            double dbzSeconds = (System.nanoTime() - t0) / 1e9;
            out.put("debezium_jdbc_tps", dbzDone ? round(transactions / dbzSeconds) : 0);
            out.put("debezium_jdbc_seconds", round(dbzSeconds));

            String cflUrl = cflTarget == null ? null : cflTarget.jdbcUrl("mysql");
            boolean cflDone = false;
            double cflSeconds = 0;
            if (cflTarget != null) {
                t0 = System.nanoTime();
                phase("confluent-jdbc");
                connect.configureConnector("cfl-jdbc", confluentJdbc(topic, cflTarget.port(), tasks));
                firstRow[0] = -1;
                cflDone = awaitAudit(cflUrl, schemas, perSchema, 600, true, t0, firstRow);
                out.put("confluent_jdbc_first_row_seconds", round(firstRow[0]));
                cflSeconds = (System.nanoTime() - t0) / 1e9;
                out.put("confluent_jdbc_tps", cflDone ? round(transactions / cflSeconds) : 0);
                out.put("confluent_jdbc_seconds", round(cflSeconds));
                // Paused while Lanes runs, so that it takes no processor time from it; its fault round resumes it.
                connect.pauseConnector("cfl-jdbc");
            }

            String lanesUrl = lanesTarget.jdbcUrl("mysql");
            t0 = System.nanoTime();
            Map<String, String> lanesSink = ConnectorConfigs.lanesSink(topic, lanesUrl, tasks, workers);
            if (lanesConverts) {
                // Values as bytes: each partition's thread converts its own (lanes.value.converter, JsonConverter).
                lanesSink.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
            }
            phase("lanes");
            connect.configureConnector("lanes-sink", lanesSink);
            firstRow[0] = -1;
            boolean lanesDone = awaitAudit(lanesUrl, schemas, perSchema, 600, false, t0, firstRow);
            out.put("lanes_first_row_seconds", round(firstRow[0]));
            double lanesSeconds = (System.nanoTime() - t0) / 1e9;
            out.put("lanes_tps", lanesDone ? round(transactions / lanesSeconds) : 0);
            out.put("lanes_seconds", round(lanesSeconds));
            out.put("ratio", dbzDone && lanesDone ? round(dbzSeconds / lanesSeconds) : 0);
            out.put("lanes_exact", lanesDone && exact(sourceUrl, lanesUrl, schemas, false));
            out.put("debezium_jdbc_exact", dbzDone && exact(sourceUrl, dbzUrl, schemas, true));
            out.put("debezium_jdbc_audit_doubled", doubled(dbzUrl, schemas, true));
            if (cflTarget != null) {
                out.put("ratio_confluent", cflDone && lanesDone ? round(cflSeconds / lanesSeconds) : 0);
                out.put("confluent_jdbc_exact", cflDone && exact(sourceUrl, cflUrl, schemas, true));
                out.put("confluent_jdbc_audit_doubled", doubled(cflUrl, schemas, true));
            }

            phase("lanes-faults");
            // Fault round: more of the workload streams while the Lanes sink is disturbed.
            int more = Math.max(200, transactions / 3);
            long[] total = perSchema.clone();
            int faults = faultRoundWhileStreaming(connect, "lanes-sink", lanesTarget, workload, more, total);
            boolean doneAfter = awaitAudit(lanesUrl, schemas, total, 300, false);
            out.put("faults", faults);
            out.put("fault_transactions", more);
            out.put("lanes_exact_after_faults", doneAfter && exact(sourceUrl, lanesUrl, schemas, false));
            out.put("lanes_audit_doubled_after_faults", doubled(lanesUrl, schemas, false));
            boolean dbzAfter = awaitAudit(dbzUrl, schemas, total, 120, true);
            out.put("debezium_jdbc_exact_after_round", dbzAfter && exact(sourceUrl, dbzUrl, schemas, true));
            if (cflTarget != null) {
                // The same fault round on Confluent's sink while another third of the workload streams. It delivers at
                // least once: what a fault makes it apply again shows in the audit table, which has no key there.
                connect.resumeConnector("cfl-jdbc");
                long[] total2 = total.clone();
                int cflFaults = faultRoundWhileStreaming(connect, "cfl-jdbc", cflTarget, workload, more, total2);
                boolean cflAfter = awaitAudit(cflUrl, schemas, total2, 300, true);
                out.put("confluent_jdbc_faults", cflFaults);
                out.put("confluent_jdbc_exact_after_faults", cflAfter && exact(sourceUrl, cflUrl, schemas, true));
                out.put("confluent_jdbc_audit_doubled_after_faults", doubled(cflUrl, schemas, true));
                // Lanes, undisturbed this time, applies the same further third.
                boolean lanesAfter2 = awaitAudit(lanesUrl, schemas, total2, 300, false);
                out.put("lanes_exact_after_confluent_round", lanesAfter2 && exact(sourceUrl, lanesUrl, schemas, false));
            }
            out.put("cpu_cores", Runtime.getRuntime().availableProcessors());
            out.put("load_average", round(java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        } finally {
            connect.stop();
        }
        return out;
    }

    /**
     * The fault round of {@link ConnectorConfigs#faultRound} on {@code sink} while {@code more} transactions of the
     * workload stream, then a restart of whatever failed (as an operator would); adds the transactions written per
     * schema to {@code perSchema} and returns the faults injected.
     */
    static int faultRoundWhileStreaming(EmbeddedConnectCluster connect, String sink, MariaDbServer target,
            Workload workload, int more, long[] perSchema) throws Exception {
        java.util.concurrent.CompletableFuture<long[]> run = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return workload.run(more, 2);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        int faults = ConnectorConfigs.faultRound(connect, sink, target.jdbcUrl("mysql"), target);
        long[] written = run.get();
        Thread.sleep(2000);
        connect.restartConnectorAndTasks(sink, true, true, false);
        for (int i = 0; i < perSchema.length; i++) {
            perSchema[i] += written[i];
        }
        return faults;
    }

    /** Marks where a phase starts (stderr, epoch milliseconds), to cut a profile of the whole run into its phases. */
    static void phase(String name) {
        System.err.println("PEER-PHASE " + name + " " + System.currentTimeMillis());
    }

    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    /** What every peer JDBC sink shares: its class, tasks, the topic, the flat target's URL, JSON with schemas. */
    private static Map<String, String> jdbcSink(String connectorClass, String topic, int port, int tasks) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", connectorClass);
        c.put("tasks.max", Integer.toString(tasks));
        c.put("topics", topic);
        c.put("connection.url", "jdbc:mariadb://127.0.0.1:" + port + "/peer");
        c.put("key.converter.schemas.enable", "true");
        c.put("value.converter.schemas.enable", "true");
        return c;
    }

    static Map<String, String> debeziumJdbc(String topic, int port, int tasks) {
        Map<String, String> c = jdbcSink("io.debezium.connector.jdbc.JdbcSinkConnector", topic, port, tasks);
        c.put("connection.username", "root");
        c.put("connection.password", "");
        c.put("insert.mode", "upsert");
        c.put("delete.enabled", "true");
        c.put("primary.key.mode", "record_key");
        c.put("schema.evolution", "none");
        c.put("collection.name.format", "${source.db}_${source.table}");
        return c;
    }

    /**
     * Confluent's JDBC sink as its documentation configures it for Debezium's change events: Debezium's
     * ExtractNewRecordState (deletes as tombstones), upsert by the record key, deletes enabled, MariaDB through the
     * MySQL dialect; the table from the topic, which {@link SourceTableTopic} sets from the event's source; DATETIME
     * values (Debezium sends epoch milliseconds) converted to Connect timestamps by Kafka's TimestampConverter.
     */
    static Map<String, String> confluentJdbc(String topic, int port, int tasks) {
        Map<String, String> c = jdbcSink("io.confluent.connect.jdbc.JdbcSinkConnector", topic, port, tasks);
        c.put("connection.user", "root");
        c.put("connection.password", "");
        c.put("dialect.name", "MySqlDatabaseDialect");
        c.put("insert.mode", "upsert");
        c.put("pk.mode", "record_key");
        c.put("delete.enabled", "true");
        c.put("auto.create", "false");
        c.put("auto.evolve", "false");
        c.put("table.name.format", "${topic}");
        c.put("transforms", "table,unwrap,at");
        c.put("transforms.table.type", SourceTableTopic.class.getName());
        c.put("transforms.unwrap.type", "io.debezium.transforms.ExtractNewRecordState");
        c.put("transforms.unwrap.delete.tombstone.handling.mode", "tombstone");
        c.put("transforms.at.type", "org.apache.kafka.connect.transforms.TimestampConverter$Value");
        c.put("transforms.at.field", "at");
        c.put("transforms.at.target.type", "Timestamp");
        c.put("transforms.at.predicate", "ledger");
        c.put("predicates", "ledger");
        c.put("predicates.ledger.type", "org.apache.kafka.connect.transforms.predicates.TopicNameMatches");
        c.put("predicates.ledger.pattern", ".*_ledger");
        return c;
    }

    static void awaitTopicQuiet(EmbeddedConnectCluster connect, String topic, int partitions) throws Exception {
        long last = -1;
        int stable = 0;
        long deadline = System.nanoTime() + 600_000_000_000L;
        while (stable < 6 && System.nanoTime() < deadline) {
            long sum = 0;
            for (int p = 0; p < partitions; p++) {
                sum += connect.kafka().endOffset(new TopicPartition(topic, p));
            }
            stable = sum == last && sum > 0 ? stable + 1 : 0;
            last = sum;
            Thread.sleep(500);
        }
    }

    /** {@code schema.table} on the Lanes target, {@code peer.schema_table} on Debezium's. */
    static String table(String schema, String table, boolean flat) {
        return flat ? "`peer`.`" + schema + "_" + table + "`" : "`" + schema + "`.`" + table + "`";
    }

    static boolean awaitAudit(String url, List<String> schemas, long[] expected, int seconds, boolean flat)
            throws Exception {
        return awaitAudit(url, schemas, expected, seconds, flat, System.nanoTime(), null);
    }

    /**
     * @param firstRow when not null, its element 0 receives the seconds from {@code since} until the first audit row
     *     was seen on the target (the sink's start, before its throughput)
     */
    static boolean awaitAudit(String url, List<String> schemas, long[] expected, int seconds, boolean flat,
            long since, double[] firstRow) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (int i = 0; i < schemas.size() && (all || firstRow != null && firstRow[0] < 0); i++) {
                try {
                    long n = Tables.count(url, "SELECT COUNT(DISTINCT txn) FROM " + table(schemas.get(i), "audit", flat));
                    if (n > 0 && firstRow != null && firstRow[0] < 0) {
                        firstRow[0] = (System.nanoTime() - since) / 1e9;
                    }
                    all &= n >= expected[i];
                } catch (java.sql.SQLException down) {
                    all = false;
                }
            }
            if (all) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    static boolean exact(String sourceUrl, String targetUrl, List<String> schemas, boolean flat) throws Exception {
        for (String s : schemas) {
            for (String table : Workload.TABLES) {
                List<String> got = flat ? Tables.rows(targetUrl, "peer", s + "_" + table, '`') : Tables.rows(targetUrl, s, table, '`');
                if (!Tables.rows(sourceUrl, s, table, '`').equals(got)) {
                    System.err.println("differs: " + targetUrl.replaceAll("\\?.*", "") + " " + s + "." + table);
                    return false;
                }
            }
        }
        return true;
    }

    static long doubled(String url, List<String> schemas, boolean flat) throws Exception {
        long n = 0;
        for (String s : schemas) {
            n += Tables.count(url, "SELECT COUNT(*) FROM (SELECT txn FROM " + table(s, "audit", flat)
                    + " GROUP BY txn HAVING COUNT(*) > 1) d");
        }
        return n;
    }
}
