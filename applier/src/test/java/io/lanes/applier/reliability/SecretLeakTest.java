package io.lanes.applier.reliability;

import io.lanes.applier.testing.CapturedOutput;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.SourceTransaction;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.core.ApplierFailedException;
import io.lanes.core.Engine;
import io.lanes.core.WritesetScheduler;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * No password in logs, exceptions, toString, stats or stored state. A MariaDB target user and a replication user with
 * known secret passwords; everything written to System.err and System.out (slf4j-simple logs to System.err) while
 * pipelines run, succeed and fail is captured, with the full stack traces (causes, suppressed) of every exception and the
 * toString of every configuration and client object, and none may contain a secret, a wrong password tried included.
 */
class SecretLeakTest {
    static final String TARGET_SECRET = "Tgt-s3cret-Q9x!vZ";
    static final String WRONG_SECRET = "Wr0ng-s3cret-K2p#";
    static final String REPL_SECRET = "Repl-s3cret-M4t%";

    private static MariaDbServer server;

    private final CapturedOutput captured = new CapturedOutput();
    /** Everything else looked at: exception traces, toString output, stats, stored rows. */
    private final List<String> seen = new ArrayList<>();

    static synchronized MariaDbServer server() {
        if (server == null) {
            server = MariaDbServer.startWithBinlog();
            server.sql("CREATE USER 'lanes_target'@'%' IDENTIFIED BY '" + TARGET_SECRET + "';"
                    + " GRANT ALL ON *.* TO 'lanes_target'@'%';"
                    + " CREATE USER 'lanes_repl'@'%' IDENTIFIED BY '" + REPL_SECRET + "';"
                    + " GRANT REPLICATION SLAVE, BINLOG MONITOR, REPLICATION SLAVE ADMIN ON *.* TO 'lanes_repl'@'%'");
        }
        return server;
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    @BeforeEach
    void capture() {
        captured.start();
    }

    @AfterEach
    void restore() {
        captured.stop();
    }

    private void see(Object o) {
        seen.add(String.valueOf(o));
    }

    private void seeThrowable(Throwable t) {
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        seen.add(sw.toString());
        // also log it, as an application would
        org.slf4j.LoggerFactory.getLogger(SecretLeakTest.class).error("pipeline failed", t);
    }

    /** Asserts that no secret appears anywhere looked at; returns how many characters were searched. */
    private int assertNoSecret(String... secrets) {
        System.err.flush();
        System.out.flush();
        String all = captured.text() + "\n" + String.join("\n", seen);
        for (String secret : secrets) {
            assertFalse(all.contains(secret), () -> "a secret leaked:\n" + excerpt(all, secret));
        }
        return all.length();
    }

    private static String excerpt(String all, String secret) {
        int i = all.indexOf(secret);
        return all.substring(Math.max(0, i - 600), Math.min(all.length(), i + 200));
    }

    private Properties targetProps(String password) {
        Properties p = new Properties();
        p.setProperty("user", "lanes_target");
        p.setProperty("password", password);
        return p;
    }

    private String url() {
        return "jdbc:mariadb://127.0.0.1:" + server().port() + "/";
    }

    private JdbcTarget jdbc(ConnectionFactory connections, String ckpt, Map<String, String> mapping) {
        return JdbcTarget.builder(connections, Dialect.mysql()).mapping(Fixtures.schemaMapping(mapping))
                .checkpointTable(new JdbcCheckpointTable(Dialect.mysql(), ckpt, "lanes_checkpoint")).build();
    }

    @Test
    void aPipelineThatRunsAndOneThatFailsNeverShowTheTargetPassword() throws Exception {
        Fixtures.Workload w = Fixtures.workload(300);
        String prefix = "sec" + Long.toHexString(System.nanoTime() & 0xffffff) + "_";
        Map<String, String> mapping = Fixtures.mapping(w.workload(), prefix);
        String ckpt = prefix + "ckpt";
        try (Connection root = DriverManager.getConnection(server().jdbcUrl(null))) {
            Fixtures.prepareTarget(root, Dialect.mysql(), mapping, ckpt);
        }
        try {
            // 1. A run that succeeds, logging at its usual level.
            ConnectionFactory right = ConnectionFactory.of(url(), targetProps(TARGET_SECRET));
            JdbcTarget target = jdbc(right, ckpt, mapping);
            Engine<SourceTransaction> engine = Engine.builder(target.applierFactory()).checkpointStore(target.checkpointStore())
                    .scheduler(new WritesetScheduler()).workers(4).statsListener(this::see, Duration.ofMillis(5)).build();
            io.lanes.core.RecoveryPoint from = engine.start();
            see(from);
            Fixtures.dispatch(target, engine, w.binlog(), from);
            engine.stop();
            see(engine.stats());
            see(engine.recoveryPoint());
            see(right);
            see(target);
            see(target.checkpointStore());
            try (var applier = target.applierFactory().create(0)) {
                see(applier);
            }
            // what is stored in the target: the checkpoint rows
            try (Connection c = right.open(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT * FROM " + Dialect.mysql().qualify(ckpt, "lanes_checkpoint"))) {
                while (rs.next()) {
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        see(rs.getString(i));
                    }
                }
            }

            // 2. A wrong password: start fails; the exception and the logs must show neither password.
            ConnectionFactory wrong = ConnectionFactory.of(url(), targetProps(WRONG_SECRET));
            see(wrong);
            JdbcTarget wrongTarget = jdbc(wrong, ckpt, mapping);
            Engine<SourceTransaction> refused = Engine.builder(wrongTarget.applierFactory())
                    .checkpointStore(wrongTarget.checkpointStore()).workers(2).build();
            Exception e = assertThrows(Exception.class, refused::start);
            seeThrowable(e);
            assertTrue(String.valueOf(e).contains("lanes_target") || String.valueOf(e.getCause()).contains("Access denied"),
                    "the failure is explained: " + e);

            // 3. A run that fails mid-way (the target's tables dropped under it): the failure names the position only.
            try (Connection root = DriverManager.getConnection(server().jdbcUrl(null)); Statement s = root.createStatement()) {
                s.execute("DROP TABLE " + Dialect.mysql().qualify(mapping.get("s1"), "ledger"));
                s.execute("DELETE FROM " + Dialect.mysql().qualify(ckpt, "lanes_checkpoint"));
            }
            Engine<SourceTransaction> failing = Engine.builder(target.applierFactory()).checkpointStore(target.checkpointStore())
                    .workers(2).retries(1).retryBackoff(Duration.ofMillis(1), Duration.ofMillis(2)).build();
            ApplierFailedException failure = assertThrows(ApplierFailedException.class, () -> {
                Fixtures.dispatch(target, failing, w.binlog(), failing.start());
                failing.stop();
            });
            seeThrowable(failure);
            see(failing.stats());

            // 4. A password in the URL (some users put it there): toString hides it, and a connection that fails does
            // not repeat the URL with it.
            ConnectionFactory inUrl = ConnectionFactory.of(url() + "?user=lanes_target&password=" + WRONG_SECRET,
                    new Properties());
            see(inUrl);
            seeThrowable(assertThrows(SQLException.class, inUrl::open));
            ConnectionFactory noDriver = ConnectionFactory.of("jdbc:nosuchdb://127.0.0.1/?password=" + WRONG_SECRET,
                    new Properties());
            see(noDriver);
            seeThrowable(assertThrows(SQLException.class, noDriver::open));

            int searched = assertNoSecret(TARGET_SECRET, WRONG_SECRET);
            assertTrue(captured.size() > 0, "log output was captured");
            captured.realOut().printf("SECRET-LEAK target pipeline: %d characters of logs, exceptions, toString, stats and stored rows"
                    + " searched, no password found%n", searched);
        } finally {
            try (Connection root = DriverManager.getConnection(server().jdbcUrl(null))) {
                Fixtures.dropSchemas(root, Dialect.mysql(), mapping, ckpt);
            }
        }
    }

    @Test
    void theReplicationClientNeverShowsItsPasswordRightOrWrong() throws Exception {
        MariaDbServer source = server();
        source.sql("CREATE DATABASE IF NOT EXISTS sec_src; CREATE TABLE IF NOT EXISTS sec_src.t (id INT PRIMARY KEY);"
                + " INSERT INTO sec_src.t VALUES (1)");
        String file = source.binlogFiles().get(0).getFileName().toString();

        // A wrong password: refused, the error says so without the password.
        ReplicationClient refused = ReplicationClient.builder().host("127.0.0.1").port(source.port()).user("lanes_repl")
                .password(WRONG_SECRET.toCharArray()).serverId(9101).startPosition(StartPosition.file(file, 4))
                .connectTimeout(Duration.ofSeconds(10)).maxReconnectAttempts(1).build();
        see(refused);
        try (refused) {
            Exception e = assertThrows(Exception.class, refused::start);
            seeThrowable(e);
            assertTrue(String.valueOf(e).toLowerCase(java.util.Locale.ROOT).matches("(?s).*(denied|auth).*"),
                    "the refusal is explained: " + e);
        }

        // The right password: events arrive; nothing shows it.
        ReplicationClient client = ReplicationClient.builder().host("127.0.0.1").port(source.port()).user("lanes_repl")
                .password(REPL_SECRET.toCharArray()).serverId(9102).startPosition(StartPosition.file(file, 4))
                .connectTimeout(Duration.ofSeconds(10)).build();
        try (client) {
            see(client.start());
            see(client);
            ReplicationEvent first = client.poll(Duration.ofSeconds(10));
            assertNotNull(first, "an event arrived over the authenticated connection");
            see(first);
            see(client.serverInfo());
        }
        see(client);
        int searched = assertNoSecret(REPL_SECRET, WRONG_SECRET);
        captured.realOut().printf("SECRET-LEAK replication client: %d characters searched, no password found%n", searched);
    }
}
