package io.lanes.binlog.replication;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.testkit.FakeBinlogServer;
import io.lanes.testkit.FakeBinlogServer.AuthMethod;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Authentication and TLS against the fake source: caching_sha2_password (fast, full over RSA or TLS), auth switch. */
class AuthFakeSourceTest {
    static final Path FILE = Path.of("src/test/resources/binlogs/mysql-binlog-connector-java/mysql-bin.checksum-crc32");

    static FakeBinlogServer.Builder fake(AuthMethod method) {
        return FakeBinlogServer.builder().binlogFile(FILE).user("repl").password("Sh4-pass".toCharArray())
                .authMethod(method);
    }

    static ReplicationClient.Builder client(FakeBinlogServer f, String password) {
        return ReplicationClient.builder().host("127.0.0.1").port(f.port()).user("repl")
                .password(password.toCharArray()).serverId(5).tls(TlsSettings.disabled())
                .startPosition(StartPosition.file("mysql-bin.checksum-crc32", 4))
                // the fake makes its RSA key on first use, which takes seconds on a loaded machine
                .connectTimeout(Duration.ofSeconds(60));
    }

    static void streams(ReplicationClient c) throws InterruptedException {
        c.start();
        ReplicationEvent first = c.poll(Duration.ofSeconds(5));
        assertNotNull(first);
        assertEquals(4, first.eventType());
    }

    @Test
    void cachingSha2FastPathWhenTheAccountIsCached() throws Exception {
        try (FakeBinlogServer f = fake(AuthMethod.CACHING_SHA2_PASSWORD).cachingSha2Cached(true).build().start();
                ReplicationClient c = client(f, "Sh4-pass").build()) {
            streams(c);
            assertEquals(1, f.fastAuthentications());
            assertEquals(0, f.fullAuthentications());
        }
    }

    @Test
    void cachingSha2FullPathWithTheRetrievedRsaKeyThenFastPath() throws Exception {
        try (FakeBinlogServer f = fake(AuthMethod.CACHING_SHA2_PASSWORD).build().start()) {
            try (ReplicationClient c = client(f, "Sh4-pass").allowPublicKeyRetrieval(true).build()) {
                streams(c);
            }
            assertEquals(1, f.fullAuthentications());
            // the account is cached now: the next login takes the fast path, no key needed
            try (ReplicationClient c = client(f, "Sh4-pass").build()) {
                streams(c);
            }
            assertEquals(1, f.fastAuthentications());
        }
    }

    @Test
    void cachingSha2FullPathWithAConfiguredRsaKey() throws Exception {
        try (FakeBinlogServer f = fake(AuthMethod.CACHING_SHA2_PASSWORD).build().start();
                ReplicationClient c = client(f, "Sh4-pass").serverPublicKey(f.publicKeyPem()).build()) {
            streams(c);
            assertEquals(1, f.fullAuthentications());
        }
    }

    @Test
    void cachingSha2FullPathWithoutTlsOrKeyIsAClearError() {
        try (FakeBinlogServer f = fake(AuthMethod.CACHING_SHA2_PASSWORD).build().start();
                ReplicationClient c = client(f, "Sh4-pass").build()) {
            ReplicationException e = assertThrows(ReplicationException.class, c::start);
            assertEquals(ReplicationException.Kind.AUTHENTICATION, e.kind());
            assertTrue(e.getMessage().contains("requires TLS"), e.getMessage());
            assertFalse(e.getMessage().contains("Sh4-pass"));
        }
    }

    @Test
    void cachingSha2WrongPasswordIsRefusedOnBothPaths() {
        try (FakeBinlogServer f = fake(AuthMethod.CACHING_SHA2_PASSWORD).cachingSha2Cached(true).build().start()) {
            for (boolean retrieve : new boolean[] {false, true}) {
                try (ReplicationClient c = client(f, "wrong").allowPublicKeyRetrieval(retrieve).build()) {
                    ReplicationException e = assertThrows(ReplicationException.class, c::start);
                    assertEquals(ReplicationException.Kind.AUTHENTICATION, e.kind());
                    // a wrong fast-path scramble sends the client to full authentication, which needs the key
                    assertEquals(retrieve ? 1045 : 0, e.serverErrorCode(), e.getMessage());
                }
            }
            assertEquals(0, f.fastAuthentications() + f.fullAuthentications());
        }
    }

    @Test
    void authSwitchFromNativeToCachingSha2() throws Exception {
        try (FakeBinlogServer f = fake(AuthMethod.CACHING_SHA2_PASSWORD).handshakePlugin(AuthMethod.MYSQL_NATIVE_PASSWORD)
                .cachingSha2Cached(true).build().start();
                ReplicationClient c = client(f, "Sh4-pass").build()) {
            streams(c);
            assertEquals(1, f.authSwitches());
            assertEquals(1, f.fastAuthentications());
        }
    }

    @Test
    void authSwitchFromCachingSha2ToNative() throws Exception {
        try (FakeBinlogServer f = fake(AuthMethod.MYSQL_NATIVE_PASSWORD).handshakePlugin(AuthMethod.CACHING_SHA2_PASSWORD)
                .build().start();
                ReplicationClient c = client(f, "Sh4-pass").build()) {
            streams(c);
            assertEquals(1, f.authSwitches());
        }
    }

    @Test
    void cachingSha2FullPathOverTlsSendsThePasswordInsideTls(@TempDir Path tmp) throws Exception {
        ReplicationTestCertificates ca = ReplicationTestCertificates.newCa(tmp, "lanes-test-ca");
        Path[] server = ca.serverCertificate("fake", "IP:127.0.0.1,DNS:localhost");
        try (FakeBinlogServer f = fake(AuthMethod.CACHING_SHA2_PASSWORD).tls(server[0], server[1]).build().start()) {
            try (ReplicationClient c = client(f, "Sh4-pass").tls(TlsSettings.of(TlsMode.VERIFY_IDENTITY, ca.caCert))
                    .build()) {
                streams(c);
                assertEquals(1, f.fullAuthentications());
            }
            // VERIFY_CA against another CA fails the handshake, with a TLS error
            ReplicationTestCertificates other = ReplicationTestCertificates.newCa(
                    java.nio.file.Files.createDirectory(tmp.resolve("other")), "other-ca");
            try (ReplicationClient c = client(f, "Sh4-pass").tls(TlsSettings.of(TlsMode.VERIFY_CA, other.caCert))
                    .build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.TLS, e.kind());
            }
        }
        // a certificate for another name passes VERIFY_CA but not VERIFY_IDENTITY
        Path[] wrongName = ca.serverCertificate("elsewhere", "DNS:elsewhere.example");
        try (FakeBinlogServer f = fake(AuthMethod.MYSQL_NATIVE_PASSWORD).tls(wrongName[0], wrongName[1]).build().start()) {
            try (ReplicationClient c = client(f, "Sh4-pass").tls(TlsSettings.of(TlsMode.VERIFY_CA, ca.caCert)).build()) {
                streams(c);
            }
            try (ReplicationClient c = client(f, "Sh4-pass").tls(TlsSettings.of(TlsMode.VERIFY_IDENTITY, ca.caCert))
                    .build()) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.TLS, e.kind());
            }
            // REQUIRED without a CA does not check the certificate
            try (ReplicationClient c = client(f, "Sh4-pass").tls(TlsSettings.of(TlsMode.REQUIRED)).build()) {
                streams(c);
            }
        }
    }

    @Test
    void thePasswordAppearsInNoLogLineExceptionOrToString() throws Exception {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        String secret = "Sh4-pass";
        StringBuilder seen = new StringBuilder();
        try (FakeBinlogServer f = fake(AuthMethod.CACHING_SHA2_PASSWORD).build().start()) {
            // a login that fails, one that works, a reconnect after a cut
            try (ReplicationClient c = client(f, secret).build()) {
                seen.append(c).append(assertThrows(ReplicationException.class, c::start));
            }
            f.cutAfterEvents(4);
            try (ReplicationClient c = client(f, secret).allowPublicKeyRetrieval(true)
                    .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(50)).build()) {
                seen.append(c).append(c.start());
                while (c.reconnectCount() == 0) {
                    c.poll(Duration.ofMillis(20));
                }
            }
        } finally {
            System.setErr(original);
        }
        String logs = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(logs.contains("Lost the replication connection"), "the logs were captured: " + logs);
        assertFalse(logs.contains(secret), logs);
        assertFalse(seen.toString().contains(secret), seen.toString());
    }
}
