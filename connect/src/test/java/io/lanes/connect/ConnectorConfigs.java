package io.lanes.connect;

import io.lanes.connect.testing.Tables;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Connector configurations and waits shared by the Connect tests. */
public final class ConnectorConfigs {
    private ConnectorConfigs() {
    }

    /** Debezium's MariaDB connector, with transaction metadata, routed into one topic by schema group. */
    public static Map<String, String> debezium(String id, int port, List<String> schemas, String topic, int partitions,
            String bootstrap) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", "io.debezium.connector.mariadb.MariaDbConnector");
        c.put("tasks.max", "1");
        c.put("database.hostname", "127.0.0.1");
        c.put("database.port", Integer.toString(port));
        c.put("database.user", "root");
        c.put("database.password", "");
        c.put("database.server.id", Integer.toString(5400 + Math.floorMod(id.hashCode(), 1000)));
        c.put("topic.prefix", id);
        c.put("database.include.list", String.join(",", schemas));
        c.put("schema.history.internal.kafka.bootstrap.servers", bootstrap);
        c.put("schema.history.internal.kafka.topic", id + ".history");
        c.put("provide.transaction.metadata", "true");
        c.put("include.schema.changes", "false");
        c.put("tombstones.on.delete", "false");
        c.put("transforms", "route");
        c.put("transforms.route.type", SchemaGroupRouter.class.getName());
        c.put("transforms.route.topic", topic);
        c.put("transforms.route.partitions", Integer.toString(partitions));
        return c;
    }

    public static Map<String, String> lanesSink(String topic, String url, int tasks, int workers) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", LanesSinkConnector.class.getName());
        c.put("tasks.max", Integer.toString(tasks));
        c.put("topics", topic);
        c.put(LanesSinkConfig.TARGET_URL, url);
        c.put(LanesSinkConfig.WORKERS, Integer.toString(workers));
        return c;
    }

    /** Waits until the connector and its tasks run (a source's snapshot then begins). */
    static void awaitRunning(org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster connect, String name)
            throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                var status = connect.connectorStatus(name);
                if ("RUNNING".equals(status.connector().state()) && !status.tasks().isEmpty()
                        && status.tasks().stream().allMatch(t -> "RUNNING".equals(t.state()))) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not created yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("connector " + name + " not running after 60 s");
    }

    /**
     * Restarts a task of the connector that failed because a REST request it forwarded (exactly-once source support
     * fences zombie tasks through the leader) met a worker that had just left the cluster: Connect does not restart
     * such a task by itself, an operator does. Any other failure is left for {@link #assertTasksRunning}.
     *
     * @return how many tasks were restarted
     */
    static int restartTasksFailedByADepartedWorker(org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster connect,
            String name) {
        int restarted = 0;
        for (var t : connect.connectorStatus(name).tasks()) {
            String trace = t.trace() == null ? "" : t.trace();
            if ("FAILED".equals(t.state()) && trace.contains("forward REST request")
                    && trace.contains("Connection refused")) {
                System.out.println(name + " task " + t.id() + " failed forwarding to a departed worker: restarted");
                connect.restartTask(name, t.id());
                restarted++;
            }
        }
        return restarted;
    }

    /** Fails unless every task of the connectors is RUNNING (a failed sink task would leave the target as it was). */
    static void assertTasksRunning(org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster connect, List<String> names) {
        for (String name : names) {
            var status = connect.connectorStatus(name);
            for (var t : status.tasks()) {
                if (!"RUNNING".equals(t.state())) {
                    throw new AssertionError(name + " task " + t.id() + " is " + t.state() + ": " + t.trace());
                }
            }
        }
    }

    /** The topic's end offsets and the connectors' states, for a failure message. */
    static String diagnose(org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster connect, String topic,
            int partitions, List<String> connectors) {
        StringBuilder sb = new StringBuilder();
        for (int p = 0; p < partitions; p++) {
            try {
                sb.append(topic).append('-').append(p).append(" end offset ")
                        .append(connect.kafka().endOffset(new org.apache.kafka.common.TopicPartition(topic, p))).append('\n');
            } catch (Exception e) {
                sb.append(topic).append('-').append(p).append(": ").append(e).append('\n');
            }
        }
        for (String name : connectors) {
            try {
                var status = connect.connectorStatus(name);
                sb.append(name).append(": ").append(status.connector().state());
                for (var t : status.tasks()) {
                    sb.append(" task ").append(t.id()).append(' ').append(t.state())
                            .append(t.trace() == null ? "" : " " + t.trace().lines().limit(6).toList());
                }
                sb.append('\n');
            } catch (RuntimeException e) {
                sb.append(name).append(": ").append(e).append('\n');
            }
        }
        return sb.toString();
    }

    /** Waits until {@code sql} counts {@code expected}; fails with the last count after {@code seconds}. */
    static void awaitCount(String url, String sql, long expected, int seconds) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long last = -1;
        while (System.nanoTime() < deadline) {
            try {
                last = Tables.count(url, sql);
                if (last >= expected) {
                    return;
                }
            } catch (java.sql.SQLException notYet) {
                // the table may not exist yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("after " + seconds + " s: " + sql + " = " + last + ", expected " + expected);
    }

    /** Kills every session on a MariaDB target but this one (a sink's workers, checkpoint and catalog sessions); 1 if any. */
    public static int killSessions(String url) throws Exception {
        int killed = 0;
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement s = c.createStatement()) {
            List<Long> ids = new java.util.ArrayList<>();
            try (java.sql.ResultSet rs = s.executeQuery("SELECT ID FROM information_schema.PROCESSLIST"
                    + " WHERE ID <> CONNECTION_ID() AND COMMAND <> 'Daemon' AND USER = 'root'")) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            for (long id : ids) {
                try {
                    s.execute("KILL " + id);
                    killed++;
                } catch (java.sql.SQLException gone) {
                    // ended meanwhile
                }
            }
        }
        return killed > 0 ? 1 : 0;
    }

    /** Kills the binlog dump sessions on a MariaDB source (the CDC connectors' replication connections); 1 if any. */
    public static int killBinlogDumps(String url) throws Exception {
        int killed = 0;
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement s = c.createStatement()) {
            List<Long> ids = new java.util.ArrayList<>();
            try (java.sql.ResultSet rs = s.executeQuery("SELECT ID FROM information_schema.PROCESSLIST"
                    + " WHERE COMMAND LIKE 'Binlog Dump%'")) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            for (long id : ids) {
                try {
                    s.execute("KILL " + id);
                    killed++;
                } catch (java.sql.SQLException gone) {
                    // ended meanwhile
                }
            }
        }
        return killed > 0 ? 1 : 0;
    }

    /**
     * The fault round of the sink tests and the peer runner, while a workload streams: the sink connector restarted,
     * its target sessions killed, a second Connect worker joining (tasks move) and leaving (with the 500 ms graceful
     * timeout a task still applying is abandoned: a zombie), the target SIGKILLed and restarted. Returns the faults.
     */
    public static int faultRound(org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster connect, String sink,
            String targetUrl, io.lanes.binlog.testing.MariaDbServer target) throws Exception {
        int faults = 0;
        Thread.sleep(1500);
        connect.restartConnectorAndTasks(sink, false, true, false);
        faults++;
        Thread.sleep(1500);
        faults += killSessions(targetUrl);
        Thread.sleep(1000);
        org.apache.kafka.connect.util.clusters.WorkerHandle second = connect.addWorker();
        faults++;
        Thread.sleep(4000);
        connect.removeWorker(second);
        faults++;
        Thread.sleep(1500);
        target.kill();
        Thread.sleep(1000);
        target.restart();
        faults++;
        return faults;
    }
}
