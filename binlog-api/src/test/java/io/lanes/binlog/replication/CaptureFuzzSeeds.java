package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.ReplicationTestSupport.createReplicationUser;
import static io.lanes.binlog.replication.ReplicationTestSupport.masterStatus;
import static io.lanes.binlog.replication.ReplicationTestSupport.pollUntil;

import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Records the fuzzing seeds of {@link ReplicationFuzzTest}: what a real MariaDB sends to the replication client over
 * one session (greeting, authentication, the setup queries' results, the registration, the dump stream of a small
 * workload), through {@link ReplicationTestProxy}. Runs only on demand:
 * {@code mvn -pl binlog-api test -Dtest=CaptureFuzzSeeds -Dlanes.fuzz.capture=binlog-api/src/test/resources/replication/fuzz-seeds}.
 * Only the server's side is kept (the client's side holds the authentication response).
 */
@EnabledIfSystemProperty(named = "lanes.fuzz.capture", matches = ".+")
class CaptureFuzzSeeds {
    @Test
    void captureAMariaDbSession() throws Exception {
        Path out = Path.of(System.getProperty("lanes.fuzz.capture"));
        try (MariaDbServer db = MariaDbServer.startWithBinlog();
                ReplicationTestProxy proxy = new ReplicationTestProxy(db.port())) {
            createReplicationUser(db, "repl", "pw");
            ReplicationMariaDbTest.schema(db);
            ReplicationMariaDbTest.workload(db, 1, 2, 5);
            proxy.recordServerBytes(1 << 20);
            try (ReplicationClient c = ReplicationClient.builder().host("127.0.0.1").port(proxy.port()).user("repl")
                    .password("pw".toCharArray()).serverId(4321).tls(TlsSettings.disabled())
                    .startPosition(StartPosition.file("bin.000001", 4)).heartbeatPeriod(Duration.ofSeconds(1))
                    .build()) {
                c.start();
                List<ReplicationEvent> got = new ArrayList<>();
                pollUntil(c, got, masterStatus(db), 30_000);
                Thread.sleep(500); // let the proxy forward (and record) what is in flight
            }
            String version = db.sql("SELECT @@version").trim();
            byte[] server = proxy.serverBytes().get(0);
            Files.createDirectories(out);
            Files.write(out.resolve("mariadb-session.server.bin"), server);
            System.out.println("captured " + server.length + " bytes from " + version);
        }
    }
}
