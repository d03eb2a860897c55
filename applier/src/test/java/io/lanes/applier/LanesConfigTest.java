package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.core.CommitOrder;
import io.lanes.core.EngineSettings;
import io.lanes.binlog.replication.StartPosition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The configuration: defaults as documented, Properties keys, validation, and a password that never shows. */
class LanesConfigTest {

    private static LanesBuilder minimal() {
        return Lanes.builder().source(Path.of("a.000001")).target("jdbc:h2:mem:x");
    }

    @Test
    void builderDefaultsAreTheDocumentedOptionDefaults() {
        LanesConfig built = minimal().buildConfig();
        // Parse every documented default through the Properties path: the result must equal the builder's defaults.
        Properties p = new Properties();
        p.setProperty("lanes.source.files", "a.000001");
        p.setProperty("lanes.target.url", "jdbc:h2:mem:x");
        for (LanesConfig.Option o : LanesConfig.Option.values()) {
            boolean liveOnly = o.key().startsWith("lanes.source.") && o != LanesConfig.Option.VERIFY_CHECKSUMS;
            if (!o.defaultValue().startsWith("(") && !liveOnly) {
                p.setProperty(o.key(), o.defaultValue());
            }
        }
        LanesConfig parsed = LanesConfig.fromProperties(p);
        assertEquals(built.toString(), parsed.toString());
        // every engine knob at once: the one record both paths produce
        assertEquals(built.engineSettings(), parsed.engineSettings());
        assertEquals(built.writesetRun(), parsed.writesetRun());
        assertEquals(built.schedulerKind(), parsed.schedulerKind());
        assertEquals(built.verifyChecksums(), parsed.verifyChecksums());
        assertEquals(built.h2MysqlMode(), parsed.h2MysqlMode());
        assertEquals(built.pipeline(), parsed.pipeline());
        assertEquals(built.applyAccountStatements(), parsed.applyAccountStatements());
        assertFalse(built.applyAccountStatements(), "account statements are skipped unless asked for");
        assertEquals(built.triggers(), parsed.triggers());
        assertEquals(built.checkpointSchema() + "." + built.checkpointTable(),
                LanesConfig.Option.CHECKPOINT_TABLE.defaultValue());
        assertEquals(built.engineSettings(), parsed.engineSettings());
    }

    @Test
    void theSpillThresholdFollowsTheHeapAndTheLargeTransactionSize() {
        LanesConfig c = minimal().buildConfig();
        long large = LanesConfig.DEFAULT_LARGE_TRANSACTION_BYTES;
        assertEquals(large, c.spillThresholdBytes(16L << 20), "a small heap: the large-transaction size");
        assertEquals(32L << 20, c.spillThresholdBytes(256L << 20), "an eighth of 256 MiB");
        assertEquals(768L << 20, c.spillThresholdBytes(6L << 30), "an eighth of 6 GiB");
        assertEquals(0, minimal().largeTransactionBytes(0).buildConfig().spillThresholdBytes(6L << 30),
                "transactions converted whole: nothing spilled");
        assertEquals(8192, minimal().spillThresholdBytes(8192).buildConfig().spillThresholdBytes(6L << 30));
        assertEquals(0, minimal().spillThresholdBytes(0).buildConfig().spillThresholdBytes(64L << 20));
    }

    @Test
    void theEngineSettingsCarryThePipelinesKnobsAndTheEnginesDefaultsForTheRest() {
        Properties p = new Properties();
        p.setProperty("lanes.source.files", "a.000001");
        p.setProperty("lanes.target.url", "jdbc:h2:mem:x");
        p.setProperty("lanes.workers", "7");
        p.setProperty("lanes.block-commit", "9");
        p.setProperty("lanes.retries", "3");
        EngineSettings s = LanesConfig.fromProperties(p).engineSettings();
        assertEquals(7, s.workers());
        assertEquals(9, s.blockCommit());
        assertEquals(3, s.retries());
        assertEquals("lanes-" + LanesConfig.fromProperties(p).pipeline(), s.name());
        assertEquals(EngineSettings.defaults().commitOrderTimeout(), s.commitOrderTimeout());
        assertEquals(EngineSettings.defaults().retryBackoff(), s.retryBackoff());
    }

    @Test
    void theBuilderTakesEveryEngineKnobAndAWholeSettingsRecord() {
        EngineSettings wanted = EngineSettings.defaults().withWorkers(6).withCommitOrder(CommitOrder.NONE)
                .withBlockCommit(5).withCheckpointGroupSize(40).withCheckpointPeriod(Duration.ofMillis(70))
                .withQueueBudgetBytes(12345).withWorkerQueueCapacity(33).withRetries(2)
                .withRetryBackoff(Duration.ofMillis(3), Duration.ofMillis(300)).withCommitOrderTimeout(Duration.ofMillis(900))
                .withCommitOrderDeadlockDetection(false).withStatsInterval(Duration.ofMillis(250));
        LanesConfig c = minimal().engine(wanted).buildConfig();
        assertEquals(wanted.withName("lanes-" + c.pipeline()), c.engineSettings(),
                "every knob of the record reaches the engine; the name is the pipeline's");
        io.lanes.core.StatsListener listener = stats -> { };
        java.util.concurrent.ThreadFactory threads = Thread::new;
        LanesConfig one = minimal().commitOrderTimeout(Duration.ofMillis(1234)).retryBackoff(Duration.ofMillis(7),
                Duration.ofMillis(70)).commitOrderDeadlockDetection(false).statsListener(listener, Duration.ofMillis(99))
                .threadFactory(threads).buildConfig();
        assertEquals(Duration.ofMillis(1234), one.engineSettings().commitOrderTimeout());
        assertEquals(Duration.ofMillis(7), one.engineSettings().retryBackoff());
        assertEquals(Duration.ofMillis(70), one.engineSettings().retryMaxBackoff());
        assertFalse(one.engineSettings().commitOrderDeadlockDetection());
        assertEquals(Duration.ofMillis(99), one.engineSettings().statsInterval());
        assertTrue(one.statsListener == listener && one.threadFactory == threads);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> minimal().commitOrderTimeout(Duration.ZERO));
        assertTrue(bad.getMessage().startsWith("lanes.commit-order.timeout-ms"), bad.getMessage());
        bad = assertThrows(IllegalArgumentException.class,
                () -> minimal().retryBackoff(Duration.ofMillis(-1), Duration.ofSeconds(1)));
        assertTrue(bad.getMessage().startsWith("lanes.retry.backoff-ms"), bad.getMessage());
    }

    @Test
    void everyPropertyKeyIsRead() throws Exception {
        Path ca = java.nio.file.Files.createTempFile("lanes-ca", ".pem");
        ca.toFile().deleteOnExit();
        Properties p = new Properties();
        p.setProperty("lanes.target.tls-mode", "disabled");
        p.setProperty("lanes.target.tls-ca", ca.toString());
        p.setProperty("lanes.skip-errors", "1062, 23505,sqlstate:23,code:90131");
        p.setProperty("lanes.source.files", "x/a.000001, x/a.000002.gz");
        p.setProperty("lanes.source.verify-checksums", "false");
        p.setProperty("lanes.target.url", "jdbc:postgresql://h/db?ssl=true");
        p.setProperty("lanes.target.user", "lanes");
        p.setProperty("lanes.target.password-env", "SOME_VAR");
        p.setProperty("lanes.target.h2-mysql-mode", "false");
        p.setProperty("lanes.target.pipeline", "p1");
        p.setProperty("lanes.target.checkpoint-table", "meta.ckpt");
        p.setProperty("lanes.schema.rename", "db1=copy1, db2=copy2");
        p.setProperty("lanes.schema.include", "db*");
        p.setProperty("lanes.schema.exclude", "db3");
        p.setProperty("lanes.scheduler", "logical-clock");
        p.setProperty("lanes.workers", "16");
        p.setProperty("lanes.commit-order", "strict");
        p.setProperty("lanes.block-commit", "8");
        p.setProperty("lanes.scheduler.writeset-run", "12");
        p.setProperty("lanes.checkpoint.group-size", "100");
        p.setProperty("lanes.checkpoint.period-ms", "50");
        p.setProperty("lanes.queue.budget-bytes", "1000000");
        p.setProperty("lanes.queue.worker-capacity", "10");
        p.setProperty("lanes.retries", "3");
        p.setProperty("lanes.retry.backoff-ms", "25");
        p.setProperty("lanes.retry.max-backoff-ms", "4000");
        p.setProperty("lanes.commit-order.timeout-ms", "2500");
        p.setProperty("lanes.commit-order.deadlock-detection", "false");
        p.setProperty("lanes.apply-delay-seconds", "90");
        p.setProperty("lanes.statements.account-management", "apply");
        p.setProperty("lanes.statements.triggers", "as-written");
        p.setProperty("lanes.target.collation-map", "utf8mb4_0900_ai_ci=utf8mb4_unicode_ci, 278=utf8mb4_bin");
        p.setProperty("lanes.metrics.port", "9404");
        p.setProperty("lanes.metrics.bind-address", "0.0.0.0");
        p.setProperty("lanes.progress.interval-seconds", "30");
        p.setProperty("lanes.large-transaction-bytes", "65536");
        p.setProperty("lanes.spill-directory", "/var/tmp/lanes-spill");
        p.setProperty("lanes.spill-threshold-bytes", "1048576");
        p.setProperty("unrelated.key", "ignored");
        LanesConfig c = LanesConfig.fromProperties(p);
        assertEquals(java.util.List.of(Path.of("x/a.000001"), Path.of("x/a.000002.gz")), c.sourceFiles());
        assertFalse(c.verifyChecksums());
        assertEquals("lanes", c.targetUser());
        assertTrue(c.hasTargetPassword());
        assertFalse(c.h2MysqlMode());
        assertEquals("p1", c.pipeline());
        assertEquals("meta", c.checkpointSchema());
        assertEquals("ckpt", c.checkpointTable());
        assertEquals("copy1", c.mapping().targetSchema("db1"));
        assertEquals("copy2", c.mapping().targetSchema("db2"));
        assertTrue(c.mapping().includesSchema("db1"));
        assertFalse(c.mapping().includesSchema("db3"));
        assertFalse(c.mapping().includesSchema("other"));
        assertEquals(LanesConfig.SchedulerKind.LOGICAL_CLOCK, c.schedulerKind());
        assertEquals(16, c.engineSettings().workers());
        assertEquals(CommitOrder.STRICT, c.engineSettings().commitOrder());
        assertEquals(8, c.engineSettings().blockCommit());
        assertEquals(12, c.writesetRun());
        assertEquals(100, c.engineSettings().checkpointGroupSize());
        assertEquals(Duration.ofMillis(50), c.engineSettings().checkpointPeriod());
        assertEquals(1_000_000, c.engineSettings().queueBudgetBytes());
        assertEquals(10, c.engineSettings().workerQueueCapacity());
        assertEquals(3, c.engineSettings().retries());
        EngineSettings engine = c.engineSettings();
        assertEquals(Duration.ofMillis(25), engine.retryBackoff());
        assertEquals(Duration.ofMillis(4000), engine.retryMaxBackoff());
        assertEquals(Duration.ofMillis(2500), engine.commitOrderTimeout());
        assertFalse(engine.commitOrderDeadlockDetection());
        assertEquals(Duration.ofSeconds(90), c.applyDelay());
        assertEquals(65536, c.largeTransactionBytes());
        assertEquals(java.nio.file.Path.of("/var/tmp/lanes-spill"), c.spillDirectory());
        assertEquals(1 << 20, c.spillThresholdBytes(8L << 30), "as set, whatever the heap");
        assertEquals(9404, c.metricsPort());
        assertEquals("0.0.0.0", c.metricsBindAddress());
        assertEquals(Duration.ofSeconds(30), c.progressInterval());
        assertEquals(java.util.List.of("1062", "23505", "sqlstate:23", "code:90131"), c.errorPolicy().skipList());
        assertEquals(io.lanes.applier.jdbc.TargetTls.Mode.DISABLED, c.targetTls().effectiveMode());
        assertEquals(ca, c.targetTls().caCertificate());
        assertTrue(c.applyAccountStatements());
        assertEquals(io.lanes.applier.ddl.StatementPolicy.Triggers.AS_WRITTEN, c.triggers());
        assertEquals(java.util.Map.of("utf8mb4_0900_ai_ci", "utf8mb4_unicode_ci", "278", "utf8mb4_bin"),
                c.collationMap().userEntries());
        // Every documented key is used here or in the live-source test: a new option must be added to a test too.
        for (LanesConfig.Option o : LanesConfig.Option.values()) {
            assertTrue(p.containsKey(o.key()) || o.key().startsWith("lanes.source.") && !o.key().contains("files")
                    && !o.key().contains("verify"), o.key());
        }
    }

    @Test
    void liveSourceKeysAreRead() {
        Properties p = new Properties();
        p.setProperty("lanes.source.server", "db1.example:3307");
        p.setProperty("lanes.source.user", "repl");
        p.setProperty("lanes.source.password-env", "REPL_PASSWORD");
        p.setProperty("lanes.source.server-id", "77");
        p.setProperty("lanes.source.start", "mariadb-gtid:0-1-100");
        p.setProperty("lanes.source.status-interval-seconds", "0");
        p.setProperty("lanes.source.schema-file", "schema.sql");
        p.setProperty("lanes.target.url", "jdbc:h2:mem:x");
        LanesConfig c = LanesConfig.fromProperties(p);
        assertTrue(c.hasLiveSource());
        assertEquals(java.nio.file.Path.of("schema.sql"), c.sourceSchemaFile());
        assertEquals(Duration.ZERO, c.sourceStatusInterval());
        assertEquals(-1, LanesConfig.fromProperties(p).metricsPort(), "no metrics endpoint unless asked for");
        assertTrue(c.sourceFiles().isEmpty());
        assertEquals(StartPosition.mariaDbGtid("0-1-100"), c.sourceStart());
        assertEquals("gtid=0-1-100", c.sourceStart().toString());
        assertTrue(c.sourceDescription().contains("db1.example:3307"), c.sourceDescription());
        for (LanesConfig.Option o : LanesConfig.Option.values()) {
            if (o.key().startsWith("lanes.source.") && !o.key().contains("files") && !o.key().contains("verify")) {
                assertTrue(p.containsKey(o.key()), o.key());
            }
        }
        p.setProperty("lanes.source.files", "a.000001");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LanesConfig.fromProperties(p));
        assertTrue(e.getMessage().contains("choose one"), e.getMessage());
        p.remove("lanes.source.files");
        p.setProperty("lanes.source.start", "somewhere");
        e = assertThrows(IllegalArgumentException.class, () -> LanesConfig.fromProperties(p));
        assertTrue(e.getMessage().contains("lanes.source.start"), e.getMessage());
    }

    @Test
    void aCheckpointedPositionResumesByGtidWhenItHasOne() {
        // checkpoints written by earlier releases hold exactly these texts: they resume as they did
        String mysql = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-42";
        assertEquals(StartPosition.mariaDbGtid("0-1-55,1-2-7"), LiveSource.resumePosition("bin.000002:1234 gtid=0-1-55,1-2-7"));
        assertEquals(StartPosition.mysqlGtidSet(mysql), LiveSource.resumePosition("bin.000002:1234 gtid=" + mysql));
        assertEquals(StartPosition.file("bin.000002", 1234), LiveSource.resumePosition("bin.000002:1234"));
        assertEquals(StartPosition.mysqlGtidSet(mysql + ":mytag:1-3"),
                LiveSource.resumePosition("bin.000002:1234 gtid=" + mysql + ":mytag:1-3"));
        // printed in the one text form, which reads back the same
        assertEquals("gtid=0-1-55,1-2-7", LiveSource.resumePosition("bin.000002:1234 gtid=0-1-55,1-2-7").toString());
        assertEquals("gtid=" + mysql, LiveSource.resumePosition("bin.000002:1234 gtid=" + mysql).toString());
        assertEquals("bin.000002:1234", LiveSource.resumePosition("bin.000002:1234").toString());
        // the start forms of earlier releases still read as configuration
        assertEquals(StartPosition.file("bin.000002", 1234), StartPosition.parse("file:bin.000002:1234"));
        assertEquals(StartPosition.mysqlGtidSet(mysql), StartPosition.parse("mysql-gtid:" + mysql));
        assertEquals(StartPosition.mariaDbGtid("0-1-55"), StartPosition.parse("mariadb-gtid:0-1-55"));
        // a GTID state that does not parse is refused, not read as a file position
        assertThrows(IllegalArgumentException.class, () -> LiveSource.resumePosition("bin.000002:1234 gtid=0-1"));
    }

    @Test
    void badKeysAndValuesNameTheKey() {
        Properties p = new Properties();
        p.setProperty("lanes.source.files", "a");
        p.setProperty("lanes.target.url", "jdbc:h2:mem:x");
        p.setProperty("lanes.worker", "4");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LanesConfig.fromProperties(p));
        assertTrue(e.getMessage().contains("lanes.worker") && e.getMessage().contains("lanes.workers"), e.getMessage());

        p.remove("lanes.worker");
        p.setProperty("lanes.workers", "-1");
        e = assertThrows(IllegalArgumentException.class, () -> LanesConfig.fromProperties(p));
        assertTrue(e.getMessage().contains("lanes.workers"), e.getMessage());

        p.setProperty("lanes.workers", "four");
        e = assertThrows(IllegalArgumentException.class, () -> LanesConfig.fromProperties(p));
        assertTrue(e.getMessage().contains("lanes.workers") && e.getMessage().contains("four"), e.getMessage());

        p.setProperty("lanes.workers", "4");
        p.setProperty("lanes.scheduler", "fastest");
        e = assertThrows(IllegalArgumentException.class, () -> LanesConfig.fromProperties(p));
        assertTrue(e.getMessage().contains("writeset") && e.getMessage().contains("fastest"), e.getMessage());

        p.setProperty("lanes.scheduler", "schema");
        for (String[] bad : new String[][] {{"lanes.metrics.port", "70000"}, {"lanes.metrics.port", "-1"},
                {"lanes.progress.interval-seconds", "-5"}, {"lanes.source.status-interval-seconds", "-1"},
                {"lanes.metrics.bind-address", " "}}) {
            p.setProperty(bad[0], bad[1]);
            e = assertThrows(IllegalArgumentException.class, () -> LanesConfig.fromProperties(p), bad[0]);
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
            p.remove(bad[0]);
        }
        p.setProperty("lanes.target.url", "jdbc:oracle:thin:scott/tiger@db");
        e = assertThrows(IllegalArgumentException.class, () -> LanesConfig.fromProperties(p));
        assertTrue(e.getMessage().contains("jdbc:oracle"), e.getMessage());
        assertFalse(e.getMessage().contains("tiger"), "a URL may hold credentials: " + e.getMessage());
    }

    @Test
    void aConfigurationNeedsASourceAndExactlyOneTarget() {
        assertThrows(IllegalArgumentException.class, () -> Lanes.builder().target("jdbc:h2:mem:x").buildConfig());
        assertThrows(IllegalArgumentException.class, () -> Lanes.builder().source(Path.of("a")).buildConfig());
        assertThrows(IllegalArgumentException.class, () -> minimal().workers(-1));
        assertThrows(IllegalArgumentException.class, () -> minimal().blockCommit(0));
        assertThrows(IllegalArgumentException.class, () -> minimal().writesetRun(0));
        assertThrows(IllegalArgumentException.class, () -> minimal().checkpointGroupSize(1));
        assertThrows(IllegalArgumentException.class, () -> minimal().commitOrder("sometimes"));
        assertEquals(CommitOrder.NONE, minimal().commitOrder("none").buildConfig().engineSettings().commitOrder());
    }

    @Test
    void thePasswordNeverShowsAndTheCallersArrayMayBeWiped() {
        char[] secret = "s3cr3t-Pa55".toCharArray();
        LanesBuilder b = minimal().targetUser("u").targetPassword(secret);
        Arrays.fill(secret, 'x');
        LanesConfig c = b.buildConfig();
        assertTrue(c.hasTargetPassword());
        assertFalse(c.toString().contains("s3cr3t"), c.toString());
        assertFalse(c.toString().contains("xxxx"), c.toString());
        // The builder kept its own copy: the caller wiping its array does not change what is sent.
        assertEquals("s3cr3t-Pa55", new String(c.targetPassword.get()));
        assertNull(minimal().buildConfig().targetUser());
    }

    @Test
    void targetDescriptionDropsUrlParameters() {
        LanesConfig c = Lanes.builder().source(Path.of("a")).target("jdbc:postgresql://h/db?user=u&password=pw")
                .buildConfig();
        assertEquals("jdbc:postgresql://h/db...", c.targetDescription());
        assertFalse(c.toString().contains("pw"), c.toString());
    }
}
