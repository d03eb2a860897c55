package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.replication.TlsSettings;
import io.lanes.binlog.testing.MariaDbServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The lag of a live pipeline stays honest while idle, as MySQL's does with heartbeats: a caught-up pipeline whose source
 * writes nothing for several heartbeat periods reads 0 (the server's heartbeats say it is alive and has nothing more),
 * and one whose source went silent (killed) reads the time since the last heartbeat, rising. Against a MariaDB the test
 * starts, with a 1 s heartbeat; the distance to the server's binlog end, asked every second, is 0 when caught up.
 */
class LanesLiveLagTest {

    @Test
    void anIdleSourceKeepsTheLagAtZeroAndASilentOneMakesItRise() throws Exception {
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE shop; CREATE TABLE shop.items (id INT PRIMARY KEY, qty INT);"
                    + " INSERT INTO shop.items VALUES (1, 1), (2, 2);");
            ReplicationClient.Builder client = ReplicationClient.builder().host("127.0.0.1").port(server.port())
                    .user("root").serverId(4343).tls(TlsSettings.disabled()).heartbeatPeriod(Duration.ofSeconds(1))
                    .reconnectBackoff(Duration.ofMillis(200), Duration.ofSeconds(1));
            try (Lanes lanes = Lanes.builder().sourceServer(client, StartPosition.file("bin.000001", 4))
                    .target("jdbc:h2:mem:livelag" + System.nanoTime()).workers(2)
                    .sourceStatusInterval(Duration.ofSeconds(1)).build()) {
                lanes.start();
                assertTrue(lanes.awaitCaughtUp(Duration.ofSeconds(60)));
                Thread.sleep(4500); // idle: several heartbeat periods, past twice the period since the last transaction
                LanesStats idle = lanes.stats();
                assertEquals(0.0, idle.sourceLagSeconds(), "caught up with a live, idle source: " + idle);
                assertTrue(idle.lastAppliedSourceMillis() > 0, idle.toString());
                assertEquals(0, idle.sourceBehindBytes(), "nothing between the applied position and the end: " + idle);
                String[] end = server.sql("SHOW MASTER STATUS").trim().split("\t");
                assertEquals(end[0] + ":" + end[1], idle.sourceEndPosition());

                server.kill(); // silent from now on: no heartbeat, no answer
                Thread.sleep(4000);
                double first = lanes.stats().sourceLagSeconds();
                Thread.sleep(1000);
                double second = lanes.stats().sourceLagSeconds();
                assertTrue(first >= 2.0, "silent for 4 s with a 1 s heartbeat: lag " + first);
                assertTrue(second >= first + 0.8, "the lag rises while the source is silent: " + first + " then "
                        + second);
                lanes.abort();
            }
        }
    }
}
