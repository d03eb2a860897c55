package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.ReplicationTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.replication.internal.Ed25519Password;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Authentication plugins and TLS against a real MariaDB. */
class AuthMariaDbTest {

    @Test
    void ed25519AccountStreamsAndItsKeyIsTheOneTheServerStores() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog()) {
            db.sql("INSTALL SONAME 'auth_ed25519'; CREATE USER ed@'%' IDENTIFIED VIA ed25519 USING PASSWORD('Ed-p4ss wörd');"
                    + " GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO ed@'%'; CREATE DATABASE d;");
            String stored = db.sql("SELECT authentication_string FROM mysql.user WHERE user = 'ed'").trim();
            byte[] pub = Ed25519Password.publicKey("Ed-p4ss wörd".getBytes(StandardCharsets.UTF_8));
            assertEquals(stored, Base64.getEncoder().withoutPadding().encodeToString(pub));
            try (ReplicationClient c = client(db, "ed", "Ed-p4ss wörd").startPosition(StartPosition.file("bin.000001", 4))
                    .build()) {
                c.start();
                List<ReplicationEvent> got = new ArrayList<>();
                pollUntil(c, got, masterStatus(db), 10_000);
                assertStreamMatchesFiles(got, readAll(db.binlogFiles()), null);
            }
            try (ReplicationClient c = client(db, "ed", "Ed-p4ss word").startPosition(StartPosition.file("bin.000001", 4))
                    .build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.AUTHENTICATION, e.kind());
                assertTrue(e.getMessage().contains("client_ed25519"), e.getMessage());
            }
        }
    }

    @Test
    void tlsWithCertificateVerificationAgainstMariaDb(@TempDir Path tmp) throws Exception {
        ReplicationTestCertificates ca = ReplicationTestCertificates.newCa(tmp, "lanes-test-ca");
        Path[] server = ca.serverCertificate("mariadb", "IP:127.0.0.1,DNS:localhost");
        try (MariaDbServer db = MariaDbServer.startWithBinlog("--ssl-ca=" + ca.caCert, "--ssl-cert=" + server[0],
                "--ssl-key=" + server[1])) {
            db.sql("CREATE USER tls@'%' IDENTIFIED BY 'pw' REQUIRE SSL; GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.*"
                    + " TO tls@'%'; CREATE DATABASE d;");
            try (ReplicationClient c = client(db, "tls", "pw").tls(TlsSettings.of(TlsMode.VERIFY_IDENTITY, ca.caCert))
                    .startPosition(StartPosition.file("bin.000001", 4)).build()) {
                c.start();
                List<ReplicationEvent> got = new ArrayList<>();
                pollUntil(c, got, masterStatus(db), 10_000);
                assertStreamMatchesFiles(got, readAll(db.binlogFiles()), null);
            }
            // the account requires TLS: without it the server refuses the login
            try (ReplicationClient c = client(db, "tls", "pw").startPosition(StartPosition.file("bin.000001", 4))
                    .build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.AUTHENTICATION, e.kind());
                assertEquals(1045, e.serverErrorCode());
            }
            // PREFERRED uses TLS when offered
            try (ReplicationClient c = client(db, "tls", "pw").tls(TlsSettings.of(TlsMode.PREFERRED))
                    .startPosition(StartPosition.file("bin.000001", 4)).build()) {
                c.start();
                assertNotNull(c.poll(Duration.ofSeconds(5)));
            }
        }
    }
}
