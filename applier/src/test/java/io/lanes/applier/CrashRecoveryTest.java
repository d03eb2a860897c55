package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.testing.ApplyMain;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.TransactionReader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exactly once across crashes: a child JVM applies the sysbench fixture (10,000+ transactions) and is killed with SIGKILL
 * at random moments, then restarted from the target's checkpoint, until one run completes. Then the target must hold the
 * source's checksums, and the audit table (one row per source transaction, written inside it, keyed by its position)
 * must hold every transaction exactly once: a transaction applied twice would have failed on the audit's primary key.
 * CI kills twice per target on PostgreSQL and MariaDB (the reliability crash harness adds more, H2 included); {@code -Dlanes.long=true} 25 times.
 */
class CrashRecoveryTest {
    @TempDir
    Path temp;

    /** The H2 file database (slow: it writes at every commit) runs under lanes.long; the crash harness covers it in CI. */
    static Stream<String> targets() {
        return Boolean.getBoolean("lanes.long") ? Stream.of("H2", "POSTGRESQL", "MYSQL") : Stream.of("POSTGRESQL", "MYSQL");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void killedAndRestartedApplyEndsExactlyOnce(String kind) throws Exception {
        int kills = Boolean.getBoolean("lanes.long") ? 25 : 2;
        Path binlog = temp.resolve("sysbench-10schemas-update-index.000001.gz");
        try (InputStream in = getClass().getResourceAsStream(SysbenchFixtureApplyTest.FIXTURE)) {
            assertNotNull(in);
            Files.copy(in, binlog, StandardCopyOption.REPLACE_EXISTING);
        }
        long transactions = 0;
        try (TransactionReader reader = TransactionReader.open(binlog)) {
            while (reader.next() != null) {
                transactions++;
            }
        }
        try (TestTarget target = switch (kind) {
            case "H2" -> h2File(temp.resolve("h2"));
            case "POSTGRESQL" -> TestTarget.postgres();
            default -> TestTarget.mariadb();
        }) {
            Dialect d = target.dialect();
            String prefix = "lc" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime() & 0xffffff) + "_";
            for (int i = 1; i <= 10; i++) {
                target.dropOnClose(prefix + "db" + i);
            }
            String ckpt = prefix + "ckpt";
            target.dropOnClose(ckpt);
            String user = d.kind() == Dialect.Kind.H2 ? "-" : d.kind() == Dialect.Kind.POSTGRESQL ? "postgres" : "root";
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), ApplyMain.class.getName(), target.url(), user,
                    prefix, ckpt, binlog.toString(), kind.equals("POSTGRESQL") ? "writeset" : "logical-clock", "4");
            Random random = new Random(kind.hashCode() ^ System.nanoTime());
            List<String> resumes = new ArrayList<>();
            int killed = 0;
            boolean done = false;
            int runs = 0;
            while (!done) {
                runs++;
                assertTrue(runs <= kills + 20, "no complete run after " + runs + " starts: " + resumes);
                Path log = temp.resolve("run" + runs + ".log");
                Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
                if (killed < kills) {
                    // Kill at a random moment of the apply itself, not of the JVM's start.
                    long startDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (p.isAlive() && !resumeLine(log).startsWith("RESUME") && System.nanoTime() < startDeadline) {
                        Thread.sleep(20);
                    }
                    // Within the first 0.45 s of the apply, which lasts well over a second even on an idle machine:
                    // a longer random delay let the whole apply finish before the kill on a fast machine. Kills at
                    // positions spread over the whole run are CrashHarnessTest's job (it places them by progress).
                    long delay = 50 + random.nextInt(400);
                    if (!p.waitFor(delay, TimeUnit.MILLISECONDS)) {
                        p.destroyForcibly(); // SIGKILL
                        p.waitFor();
                        killed++;
                        resumes.add(resumeLine(log));
                        continue;
                    }
                } else {
                    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "final run did not finish");
                }
                String output = Files.readString(log, StandardCharsets.UTF_8);
                assertEquals(0, p.exitValue(), "run " + runs + " failed:\n" + tail(output));
                resumes.add(resumeLine(log));
                done = output.contains("DONE");
            }
            assertEquals(kills, killed, "kills");
            System.out.println(kind + ": " + killed + " kills, runs resumed at " + resumes);

            try (Connection c = target.session(); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(DISTINCT " + d.quoteIdentifier("position")
                        + ") FROM " + d.qualify(ckpt, "audit"))) {
                    rs.next();
                    assertEquals(transactions, rs.getLong(1), "every transaction applied, none twice; resumes " + resumes);
                    assertEquals(transactions, rs.getLong(2));
                }
                TreeMap<String, String> expected = new TreeMap<>();
                try (InputStream in = getClass().getResourceAsStream(SysbenchFixtureApplyTest.EXPECTED)) {
                    for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                        if (!line.isBlank()) {
                            String[] f = line.split("\t");
                            expected.put(f[0], f[1] + " " + f[2] + " " + f[3]);
                        }
                    }
                }
                TreeMap<String, String> actual = new TreeMap<>();
                for (int i = 1; i <= 10; i++) {
                    long rows = 0;
                    long sumK = 0;
                    long sumCrc = 0;
                    try (ResultSet rs = s.executeQuery("SELECT id, k, c, pad FROM " + d.qualify(prefix + "db" + i, "sbtest1"))) {
                        while (rs.next()) {
                            rows++;
                            sumK += rs.getLong(2);
                            CRC32 crc = new CRC32();
                            crc.update((rs.getLong(1) + "|" + rs.getLong(2) + "|" + rs.getString(3) + "|" + rs.getString(4))
                                    .getBytes(StandardCharsets.UTF_8));
                            sumCrc += crc.getValue();
                        }
                    }
                    actual.put("db" + i, rows + " " + sumK + " " + sumCrc);
                }
                assertEquals(expected, actual, "resumes " + resumes);
            }
        }
    }

    private static String resumeLine(Path log) throws java.io.IOException {
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith("RESUME")) {
                return line.length() > 80 ? line.substring(0, 80) : line;
            }
        }
        return "(killed before resuming)";
    }

    private static String tail(String s) {
        return s.length() <= 4000 ? s : s.substring(s.length() - 4000);
    }

    /** An H2 file database (what survives a kill), in MySQL mode. */
    static TestTarget h2File(Path dir) {
        String url = "jdbc:h2:file:" + dir.resolve("target").toAbsolutePath() + io.lanes.applier.jdbc.Dialect.h2RecommendedUrlOptions();
        return new TestTarget() {
            @Override
            public Dialect dialect() {
                return Dialect.h2();
            }

            @Override
            public String url() {
                return url;
            }

            @Override
            protected java.util.Properties properties() {
                return new java.util.Properties();
            }

            @Override
            public void close() {
                // the temporary directory goes with the test
            }
        };
    }
}
