package io.lanes.examples;

import io.lanes.applier.Lanes;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.StartPosition;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Example 2: follow a live MariaDB (or MySQL) server as a replica and apply its changes into PostgreSQL, by writeset,
 * until stopped. The first run starts at {@code from}; every later run resumes after the checkpoint stored in
 * PostgreSQL (by the MariaDB GTID position it records), so a restart neither loses nor repeats a transaction. The
 * source's DDL (CREATE DATABASE/TABLE, ALTER TABLE, ...) is translated for PostgreSQL.
 *
 * <pre>
 * REPL_PASSWORD=... PG_PASSWORD=... java -cp examples/target/lanes.jar io.lanes.examples.FollowMariaDbIntoPostgres \
 *     db1.example 3306 repl jdbc:postgresql://127.0.0.1:5432/replica postgres mariadb-gtid:0-1-100
 * </pre>
 */
public final class FollowMariaDbIntoPostgres {
    private FollowMariaDbIntoPostgres() {
    }

    /** A started pipeline from the server at {@code host:port} into the PostgreSQL at {@code postgresUrl}. */
    public static Lanes start(String host, int port, String replicationUser, Supplier<char[]> replicationPassword,
            String postgresUrl, String postgresUser, Supplier<char[]> postgresPassword, StartPosition from,
            String pipeline, String checkpointSchema) {
        ReplicationClient.Builder client = ReplicationClient.builder().host(host).port(port).user(replicationUser)
                .serverId(4243);          // unique among the source's replicas
        if (replicationPassword != null) {
            client.password(replicationPassword);
        }
        var builder = Lanes.builder()
                .sourceServer(client, from)
                .target(postgresUrl).targetUser(postgresUser)
                .pipeline(pipeline).checkpointTable(checkpointSchema, "lanes_checkpoint")
                .scheduler("writeset").workers(4)
                .checkpointPeriod(Duration.ofMillis(100));
        if (postgresPassword != null) {
            builder.targetPassword(postgresPassword);
        }
        Lanes lanes = builder.build();
        lanes.start();
        return lanes;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: FollowMariaDbIntoPostgres HOST PORT REPL_USER POSTGRES_URL POSTGRES_USER START");
            System.exit(2);
        }
        Supplier<char[]> replPassword = System.getenv("REPL_PASSWORD") == null ? null
                : () -> System.getenv("REPL_PASSWORD").toCharArray();
        Supplier<char[]> pgPassword = System.getenv("PG_PASSWORD") == null ? null
                : () -> System.getenv("PG_PASSWORD").toCharArray();
        Lanes lanes = start(args[0], Integer.parseInt(args[1]), args[2], replPassword, args[3], args[4], pgPassword,
                StartPosition.parse(args[5]), "follow", "lanes");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                lanes.stop(); // Ctrl-C: drain and checkpoint
            } catch (Exception e) {
                System.err.println(e.getMessage());
            }
        }));
        while (true) {
            Thread.sleep(5_000);
            var s = lanes.stats();
            System.out.printf("%s: %d transactions, %.0f tx/s, at %s%n", s.state(), s.transactions(),
                    s.transactionsPerSecond(), s.sourcePosition());
        }
    }
}
