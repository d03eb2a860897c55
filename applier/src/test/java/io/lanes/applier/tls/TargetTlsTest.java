package io.lanes.applier.tls;

import io.lanes.applier.testing.CapturedOutput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesBuilder;
import io.lanes.applier.LanesConfig;
import io.lanes.applier.LanesException;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.TargetTls;
import io.lanes.binlog.encode.BinlogFlavor;
import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.binlog.encode.Table;
import io.lanes.binlog.testing.MariaDbServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TLS to real targets through {@link Lanes}, with certificates made at test time by {@code openssl} ({@link TestPki}):
 * a MariaDB ({@code mariadbd --ssl-cert --ssl-key --ssl-ca --require-secure-transport=ON}) and a private PostgreSQL
 * ({@code ssl=on}, {@code hostssl} lines only), each serving a certificate for {@code 127.0.0.1}, plus one of each
 * serving a certificate for another host name. The applier's account has a password and may only connect over TLS
 * ({@code REQUIRE SSL}; {@code hostssl ... scram-sha-256}).
 *
 * <ul>
 *   <li>Only {@code lanes.target.tls-ca} set (so verification is on by default): the log is applied, and the session
 *       really is encrypted (the server refuses the account otherwise; a connection made with the pipeline's own
 *       properties reports a cipher; PostgreSQL's {@code pg_stat_ssl} shows the applier's sessions encrypted).</li>
 *   <li>A CA that did not sign the server's certificate: a clear failure naming the certificate, nothing applied.</li>
 *   <li>verify-identity against a certificate for another name: a clear failure, nothing applied; verify-ca against the
 *       same server applies (so the name, not the chain, was refused).</li>
 *   <li>Mode disabled against a server that requires TLS: a clear failure, nothing applied.</li>
 * </ul>
 * In every case nothing written to System.out/System.err and no failure's stack trace holds the password.
 *
 * <p>Without {@code openssl} (or, for PostgreSQL, without its server binaries) the tests are skipped with the reason,
 * except in CI ({@code CI=true}) where they fail. Each test prints a {@code TARGET-TLS} line.
 */
class TargetTlsTest {
    static final String USER = "lanes_tls";
    /** MariaDB only: an account without REQUIRE SSL, so that only the server's --require-secure-transport refuses. */
    static final String ANY_TRANSPORT_USER = "lanes_any_transport";
    static final String MARIADB_SECRET = "Tls-m4ria-s3cret-R7w!";
    static final String POSTGRES_SECRET = "Tls-pg-s3cret-H5q#";
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private static TestPki pki;
    private static MariaDbServer mariadb;
    private static MariaDbServer mariadbWrongName;
    private static PrivatePostgres postgres;
    private static PrivatePostgres postgresWrongName;

    private final CapturedOutput captured = new CapturedOutput();

    enum Kind { MARIADB, POSTGRESQL }

    static boolean ci() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** Skips with the reason, or fails in CI where every prerequisite must be installed. */
    static void require(boolean available, String reason) {
        if (!available) {
            if (ci()) {
                fail(reason + " (CI=true: required)");
            }
            Assumptions.abort(reason + "; skipped (set CI=true to make this a failure)");
        }
    }

    @BeforeAll
    static void certificates() throws IOException {
        Optional<String> openssl = TestPki.openssl();
        require(openssl.isPresent(), "the openssl command line tool is not installed: it makes the test certificates");
        pki = TestPki.create(openssl.get());
    }

    @AfterAll
    static void stopServers() {
        for (AutoCloseable c : new AutoCloseable[] {mariadb, mariadbWrongName, postgres, postgresWrongName}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort: the next server is still stopped
            }
        }
        mariadb = mariadbWrongName = null;
        postgres = postgresWrongName = null;
        if (pki != null) {
            pki.delete();
        }
    }

    @BeforeEach
    void capture() {
        captured.start();
    }

    @AfterEach
    void restoreAndLookForSecrets() {
        captured.stop();
        String out = captured.text();
        captured.realOut().print(out); // the test's output, shown after the fact
        for (String secret : List.of(MARIADB_SECRET, POSTGRES_SECRET)) {
            assertFalse(out.contains(secret), "a password was written to System.out/System.err");
        }
    }

    // --------------------------------------------------------------------------------------------------- servers

    static synchronized MariaDbServer mariadb() {
        if (mariadb == null) {
            mariadb = startMariaDb(pki.serverCert(), pki.serverKey(), true);
        }
        return mariadb;
    }

    static synchronized MariaDbServer mariadbWrongName() {
        if (mariadbWrongName == null) {
            mariadbWrongName = startMariaDb(pki.wrongNameCert(), pki.wrongNameKey(), false);
        }
        return mariadbWrongName;
    }

    private static MariaDbServer startMariaDb(Path cert, Path key, boolean requireSecureTransport) {
        MariaDbServer s = MariaDbServer.start(List.of("--ssl-cert=" + cert, "--ssl-key=" + key, "--ssl-ca=" + pki.ca(),
                "--require-secure-transport=" + (requireSecureTransport ? "ON" : "OFF")));
        // The applier's account: a password, and TLS or no connection (on either server). A second account with the
        // same password and no REQUIRE SSL shows what the server's own --require-secure-transport says.
        s.sql("CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + MARIADB_SECRET + "' REQUIRE SSL;"
                + " GRANT ALL ON *.* TO '" + USER + "'@'%';"
                + " CREATE USER '" + ANY_TRANSPORT_USER + "'@'%' IDENTIFIED BY '" + MARIADB_SECRET + "';"
                + " GRANT ALL ON *.* TO '" + ANY_TRANSPORT_USER + "'@'%'");
        return s;
    }

    static synchronized PrivatePostgres postgres() throws Exception {
        if (postgres == null) {
            postgres = startPostgres(pki.serverCert(), pki.serverKey());
        }
        return postgres;
    }

    static synchronized PrivatePostgres postgresWrongName() throws Exception {
        if (postgresWrongName == null) {
            postgresWrongName = startPostgres(pki.wrongNameCert(), pki.wrongNameKey());
        }
        return postgresWrongName;
    }

    private static PrivatePostgres startPostgres(Path cert, Path key) throws Exception {
        Optional<String> missing = PrivatePostgres.unavailableBecause();
        require(missing.isEmpty(), missing.orElse(""));
        // TCP only with TLS: hostssl lines, no plain host line. The applier's account needs its password.
        PrivatePostgres pg = PrivatePostgres.start(cert, key, List.of(
                "local all all trust",
                "hostssl all " + USER + " 127.0.0.1/32 scram-sha-256",
                "hostssl all all 127.0.0.1/32 trust"));
        Server s = new Server(Kind.POSTGRESQL, pg.port());
        try (Connection c = s.admin(); Statement st = c.createStatement()) {
            st.execute("SET password_encryption = 'scram-sha-256'");
            st.execute("CREATE ROLE " + USER + " LOGIN SUPERUSER PASSWORD '" + POSTGRES_SECRET + "'");
        }
        return pg;
    }

    /** A server of a kind, as the test sees it: the applier's URL and an administrative session. */
    record Server(Kind kind, int port) {
        static Server of(Kind kind, boolean wrongName) throws Exception {
            return switch (kind) {
                case MARIADB -> new Server(kind, (wrongName ? mariadbWrongName() : mariadb()).port());
                case POSTGRESQL -> new Server(kind, (wrongName ? postgresWrongName() : postgres()).port());
            };
        }

        Dialect dialect() {
            return kind == Kind.MARIADB ? Dialect.mysql() : Dialect.postgresql();
        }

        String url() {
            return kind == Kind.MARIADB ? "jdbc:mariadb://127.0.0.1:" + port + "/"
                    : "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
        }

        String secret() {
            return kind == Kind.MARIADB ? MARIADB_SECRET : POSTGRES_SECRET;
        }

        /** The test's own session: administrator, over TLS with the chain verified (not the name: see wrongName). */
        Connection admin() throws SQLException {
            Properties p = new Properties();
            if (kind == Kind.MARIADB) {
                p.setProperty("user", "root");
                p.setProperty("sslMode", "verify-ca");
                p.setProperty("serverSslCert", pki.ca().toString());
            } else {
                p.setProperty("user", "postgres");
                p.setProperty("sslmode", "verify-ca");
                p.setProperty("sslrootcert", pki.ca().toString());
            }
            return DriverManager.getConnection(url(), p);
        }

        /** A fresh target schema with an empty table {@code acct}, and its checkpoint schema. */
        String newSchema() throws SQLException {
            String schema = "tls" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
            Dialect d = dialect();
            try (Connection c = admin(); Statement s = c.createStatement()) {
                s.execute(d.createSchemaIfAbsent(schema));
                s.execute(d.createSchemaIfAbsent(schema + "_ckpt"));
                s.execute("CREATE TABLE " + d.qualify(schema, "acct") + " (id INT NOT NULL PRIMARY KEY, v BIGINT NOT NULL)");
            }
            return schema;
        }

        /** The rows of {@code acct}, as {@code id=v,...}. */
        String rows(String schema) throws SQLException {
            StringBuilder sb = new StringBuilder();
            try (Connection c = admin(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT id, v FROM " + dialect().qualify(schema, "acct") + " ORDER BY id")) {
                while (rs.next()) {
                    sb.append(sb.isEmpty() ? "" : ",").append(rs.getInt(1)).append('=').append(rs.getLong(2));
                }
            }
            return sb.toString();
        }

        /**
         * A pipeline configured as a user would: properties {@code lanes.target.tls-ca} (the given CA) and, when not null,
         * {@code lanes.target.tls-mode}.
         */
        LanesBuilder lanes(Path binlog, String schema, Path ca, String mode) {
            Properties p = new Properties();
            if (ca != null) {
                p.setProperty("lanes.target.tls-ca", ca.toString());
            }
            if (mode != null) {
                p.setProperty("lanes.target.tls-mode", mode);
            }
            return Lanes.builder().properties(p).source(binlog).target(url()).targetUser(USER)
                    .targetPassword(secret().toCharArray()).mapping(SchemaMapping.builder().rename("src", schema).build())
                    .checkpointTable(schema + "_ckpt", "lanes_checkpoint").pipeline("tls").workers(2)
                    .checkpointPeriod(Duration.ofMillis(20));
        }
    }

    static final Table ACCT = Table.builder("src", "acct").integer("id").notNull().primaryKey().bigint("v").notNull()
            .build();
    static final String APPLIED = "1=10,2=20,3=30";

    /** Two transactions: rows 1 and 2, then row 3. */
    static Path smallLog() throws Exception {
        Path f = Files.createTempDirectory("lanes-tls-").resolve("tls.000001");
        f.getParent().toFile().deleteOnExit();
        f.toFile().deleteOnExit();
        try (BinlogWriter w = BinlogWriter.open(f, BinlogWriter.Options.builder(BinlogFlavor.MARIADB).build())) {
            w.beginTransaction();
            w.insert(ACCT, new Object[] {1, 10L}, new Object[] {2, 20L});
            w.commit();
            w.beginTransaction();
            w.insert(ACCT, new Object[] {3, 30L});
            w.commit();
        }
        return f;
    }

    /** Runs the pipeline to the end of the log; it must succeed. */
    static void apply(LanesBuilder builder, Server server) throws Exception {
        try (Lanes lanes = builder.build()) {
            lanes.start();
            assertTrue(lanes.awaitCaughtUp(Duration.ofSeconds(60)), "caught up within 60 s");
            if (server.kind() == Kind.POSTGRESQL) {
                assertApplierSessionsEncrypted(server);
            }
            lanes.stop();
        }
    }

    /** The server's view, while the pipeline runs: every session of the applier's account is encrypted. */
    static void assertApplierSessionsEncrypted(Server server) throws SQLException {
        try (Connection c = server.admin(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT count(*) FILTER (WHERE s.ssl), count(*) FILTER (WHERE NOT s.ssl) FROM pg_stat_activity a"
                        + " JOIN pg_stat_ssl s ON s.pid = a.pid WHERE a.usename = '" + USER + "'")) {
            rs.next();
            assertTrue(rs.getInt(1) > 0, "pg_stat_ssl shows at least one encrypted session of the applier");
            assertEquals(0, rs.getInt(2), "pg_stat_ssl shows no plain session of the applier");
        }
    }

    /** Runs the pipeline, which must fail to reach the target; returns the failure with its full trace checked. */
    static LanesException failure(LanesBuilder builder, Server server) {
        Lanes lanes = builder.build();
        LanesException e = assertThrows(LanesException.class, () -> {
            lanes.start();
            lanes.awaitCaughtUp(Duration.ofSeconds(60));
        });
        try {
            lanes.close();
        } catch (RuntimeException | InterruptedException alsoReported) {
            // close() reports the same failure again
        }
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        assertFalse(trace.toString().contains(server.secret()), "the failure's stack trace holds the password");
        assertFalse(String.valueOf(lanes.config()).contains(server.secret()), "the configuration shows the password");
        return e;
    }

    static void assertMentions(LanesException e, String... anyOf) {
        String m = e.getMessage().toLowerCase(Locale.ROOT);
        for (String word : anyOf) {
            if (m.contains(word.toLowerCase(Locale.ROOT))) {
                return;
            }
        }
        fail("the message names none of " + List.of(anyOf) + ": " + e.getMessage());
    }

    static void report(String testCase, Kind kind, String outcome) {
        System.out.printf("TARGET-TLS case=%s target=%s %s%n", testCase, kind, outcome.replace('\n', ' '));
    }

    // ------------------------------------------------------------------------------------------------------ tests

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void onlyACaConfiguredVerifiesByDefaultAppliesAndEncrypts(Kind kind) throws Exception {
        Server server = Server.of(kind, false);
        String schema = server.newSchema();
        LanesBuilder builder = server.lanes(smallLog(), schema, pki.ca(), null);
        LanesConfig config = builder.buildConfig();
        assertEquals(TargetTls.Mode.VERIFY_IDENTITY, config.targetTls().effectiveMode(), "verification on by default");

        apply(builder, server);
        assertEquals(APPLIED, server.rows(schema));

        // A session opened with the pipeline's own connection properties reports its cipher.
        Properties p = new Properties();
        config.targetTls().connectionProperties(server.url()).forEach(p::setProperty);
        p.setProperty("user", USER);
        p.setProperty("password", server.secret());
        String cipher;
        try (Connection c = DriverManager.getConnection(server.url(), p); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(kind == Kind.MARIADB ? "SHOW SESSION STATUS LIKE 'Ssl_cipher'"
                        : "SELECT cipher FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
            assertTrue(rs.next());
            cipher = rs.getString(kind == Kind.MARIADB ? 2 : 1);
        }
        assertTrue(cipher != null && !cipher.isBlank(), "the session is encrypted");
        report("ca-only-verifies", kind, "mode=" + config.targetTls().effectiveMode().label() + " rows=" + APPLIED
                + " cipher=" + cipher);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void aServerCertificateFromAnotherCaIsRefusedAndNothingIsApplied(Kind kind) throws Exception {
        Server server = Server.of(kind, false);
        String schema = server.newSchema();
        LanesException e = failure(server.lanes(smallLog(), schema, pki.otherCa(), null), server);
        assertMentions(e, "certif", "PKIX");
        assertEquals("", server.rows(schema), "nothing applied");
        report("wrong-ca-refused", kind, "message=" + e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void verifyIdentityRefusesACertificateForAnotherNameWhereVerifyCaAccepts(Kind kind) throws Exception {
        Server server = Server.of(kind, true);
        String schema = server.newSchema();
        Path log = smallLog();
        LanesException e = failure(server.lanes(log, schema, pki.ca(), "verify-identity"), server);
        assertMentions(e, "127.0.0.1", "host", "name");
        assertMentions(e, "certif", "verif");
        assertEquals("", server.rows(schema), "nothing applied");

        // The same server and CA with the name left unchecked: the chain was fine, only the name was refused.
        apply(server.lanes(log, schema, pki.ca(), "verify-ca"), server);
        assertEquals(APPLIED, server.rows(schema));
        report("identity-mismatch-refused", kind, "message=" + e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void modeDisabledIsRefusedByAServerThatRequiresTls(Kind kind) throws Exception {
        Server server = Server.of(kind, false);
        String schema = server.newSchema();
        Path log = smallLog();
        LanesException e = failure(server.lanes(log, schema, null, "disabled"), server);
        if (kind == Kind.MARIADB) {
            // MariaDB refuses both ways (the account's REQUIRE SSL, the server's --require-secure-transport) with the
            // "access denied" of a wrong password; the failure adds that TLS was off.
            assertMentions(e, "TLS to the target is disabled");
            report("disabled-refused-require-ssl-account", kind, "message=" + e.getMessage());
            e = failure(server.lanes(log, schema, null, "disabled").targetUser(ANY_TRANSPORT_USER), server);
            assertMentions(e, "access denied");
            assertMentions(e, "TLS to the target is disabled");
        } else {
            assertMentions(e, "no encryption");
        }
        assertEquals("", server.rows(schema), "nothing applied");
        report("disabled-refused", kind, "message=" + e.getMessage());
    }
}
