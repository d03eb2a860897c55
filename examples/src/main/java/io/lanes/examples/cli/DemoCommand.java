package io.lanes.examples.cli;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesBuilder;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.TargetUrls;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.zip.CRC32;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lanes demo}: the main job. Applies the bundled real MariaDB sysbench binlog (10 schemas) into an embedded H2
 * database with workers by schema and checks the result against the source server's checksums.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
        defaultValueProvider = LanesDefaults.class,
        description = {"The main job: applies a bundled real MariaDB binlog into H2 by schema and verifies the result.",
            "",
            "Applies the bundled real MariaDB 10.11 binlog of a sysbench run (10 schemas db1..db10, each",
            "with sbtest1: CREATE TABLE, 1,000 inserted rows, then 1,000 group-committed UPDATE transactions) into an",
            "embedded H2 database, then checks every schema against the source server's own checksums: row count,",
            "SUM(k) and SUM(CRC32(CONCAT_WS('|',id,k,c,pad))), the CRC32 computed here over the rows read back.",
            "Prints \"verified\" when all ten match.",
            "",
            "The last line on stdout is one JSON object: the fields of `lanes apply` plus verified (true/false) and",
            "checksums (per schema: expected and actual).",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:applied and verified", "1:the apply failed or a checksum differs", "2:bad usage",
            "130:stopped by Ctrl-C before the end (143: by SIGTERM); run again on the same --target to resume"})
public final class DemoCommand implements Callable<Integer> {
    static final String BINLOG_RESOURCE = "/binlogs/mariadb-10.11/sysbench-10schemas-update-index.000001.gz";
    static final String EXPECTED_RESOURCE = "/binlogs/mariadb-10.11/sysbench-10schemas-update-index.expected.tsv";
    static final String BINLOG_NAME = "sysbench-10schemas-update-index.000001.gz";

    @Option(names = "--scheduler", paramLabel = "POLICY",
            description = "sequential | schema | logical-clock | writeset (default: ${DEFAULT-VALUE}).")
    String scheduler;

    @Option(names = "--workers", paramLabel = "N", description = "Worker threads, 0..4096 (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--target", paramLabel = "JDBC_URL",
            description = "Apply into this database instead of a fresh in-memory H2 (password: env "
                    + ApplyCommand.PASSWORD_ENV + "). Running again on the same target resumes: nothing is applied "
                    + "twice, and the check still passes.")
    String target;

    @Option(names = "--target-user", paramLabel = "USER", description = "Target user.")
    String targetUser;

    @Option(names = "--json", description = "Print only the final JSON line on stdout.")
    boolean json;

    @Option(names = "--verbose", description = "On failure, also print the whole cause chain with stack traces.")
    boolean verbose;

    static String defaultFor(String optionName) {
        return switch (optionName) {
            case "--scheduler" -> "schema";
            case "--workers" -> "10";
            default -> ApplyCommand.defaultFor(optionName);
        };
    }

    @Override
    public Integer call() throws Exception {
        if (verbose) {
            CliLogging.verbose();
        }
        PrintStream out = System.out;
        Path dir = Files.createTempDirectory("lanes-demo");
        Path binlog = dir.resolve(BINLOG_NAME);
        try {
            try (InputStream in = resource(BINLOG_RESOURCE)) {
                Files.copy(in, binlog);
            }
            Map<String, String> expected = expectedChecksums();
            String url = target != null ? target
                    : "jdbc:h2:mem:lanes-demo-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime())
                            + ";DB_CLOSE_DELAY=-1" + Dialect.h2RecommendedUrlOptions();
            Lanes lanes;
            try {
                LanesBuilder builder = Lanes.builder().source(binlog).target(url).pipeline("demo")
                        .scheduler(scheduler).workers(workers);
                if (targetUser != null) {
                    builder.targetUser(targetUser);
                }
                if (System.getenv(ApplyCommand.PASSWORD_ENV) != null) {
                    builder.targetPasswordFromEnvironment(ApplyCommand.PASSWORD_ENV);
                }
                lanes = builder.build();
            } catch (IllegalArgumentException e) {
                System.err.println("lanes demo: " + e.getMessage());
                return 2;
            }
            if (!json) {
                out.printf(Locale.ROOT, "Applying the bundled MariaDB 10.11 sysbench binlog (%,d bytes, 10 schemas) into %s "
                        + "with %d workers, scheduler %s%n", Files.size(binlog),
                        target == null ? "an embedded H2 database" : lanes.config().targetDescription(), workers,
                        lanes.config().schedulerName());
                String placement = inProcessPlacement(url, workers, Runtime.getRuntime().availableProcessors());
                if (placement != null) {
                    out.println(placement);
                }
            }
            ApplyRun.Outcome outcome = ApplyRun.run(lanes, !json);
            Map<String, Object> summary = new LinkedHashMap<>(outcome.summary());
            if (!json) {
                ApplyRun.printHuman(out, outcome.stats(), outcome);
            }
            if (!outcome.ok() || outcome.interrupted()) {
                summary.put("verified", false);
                out.println(Json.write(summary));
                out.flush();
                if (!outcome.ok()) {
                    ApplyRun.printFailure("demo", outcome.failure(), verbose);
                    return 1;
                }
                return outcome.interruptedExitStatus();
            }
            Dialect dialect = Dialect.forJdbcUrl(url);
            Map<String, String> actual;
            // the database as the pipeline opened it (an H2 URL gets its MySQL-mode settings, where the names are
            // lower case): read back without them, H2 found no column ID
            try (Connection c = connect(TargetUrls.asOpened(url, lanes.config().h2MysqlMode()))) {
                actual = checksums(c, dialect, expected.keySet());
            }
            boolean verified = expected.equals(actual);
            Map<String, Object> detail = new LinkedHashMap<>();
            if (!json) {
                out.printf(Locale.ROOT, "  %-6s %-30s %-30s%n", "schema", "expected rows/SUM(k)/SUM(crc)", "actual");
            }
            for (Map.Entry<String, String> e : expected.entrySet()) {
                String got = actual.get(e.getKey());
                Map<String, Object> pair = new LinkedHashMap<>();
                pair.put("expected", e.getValue());
                pair.put("actual", got);
                detail.put(e.getKey(), pair);
                if (!json) {
                    out.printf(Locale.ROOT, "  %-6s %-30s %-30s %s%n", e.getKey(), e.getValue(), got,
                            e.getValue().equals(got) ? "ok" : "DIFFERS");
                }
            }
            summary.put("verified", verified);
            summary.put("checksums", detail);
            if (!json) {
                out.println(verified ? "verified: every schema matches the source server's checksums"
                        : "NOT verified: the target differs from the source server");
            }
            out.println(Json.write(summary));
            out.flush();
            return verified ? 0 : 1;
        } finally {
            Files.deleteIfExists(binlog);
            Files.deleteIfExists(dir);
        }
    }

    private Connection connect(String url) throws SQLException {
        Properties p = new Properties();
        if (targetUser != null) {
            p.setProperty("user", targetUser);
        }
        String pw = System.getenv(ApplyCommand.PASSWORD_ENV);
        if (pw != null) {
            p.setProperty("password", pw);
        }
        Connection c = DriverManager.getConnection(url, p);
        Dialect.forJdbcUrl(url).initSession(c);
        return c;
    }

    /** schema -> "rows SUM(k) SUM(crc)" from the source server, in the file's order. */
    /**
     * The one line that says how many of the workers an in-process target can use: an embedded H2 database applies on
     * this machine's own processors, so the engine places work on at most (processors - 1) workers (the reading thread
     * has the last); the others stay idle. Null when every worker can be used (a server target, or enough processors).
     */
    static String inProcessPlacement(String url, int workers, int processors) {
        int usable = Math.max(1, processors - 1);
        if (!io.lanes.applier.jdbc.JdbcTarget.isInProcessUrl(url) || workers <= usable) {
            return null;
        }
        return String.format(Locale.ROOT, "  note: the embedded H2 target applies on this machine's %d processor(s), so"
                + " work goes to %d of the %d workers (%s); a database server target uses them all", processors, usable,
                workers, usable == 1 ? "worker 0 does all of it" : "the others stay idle");
    }

    static Map<String, String> expectedChecksums() throws IOException {
        Map<String, String> expected = new LinkedHashMap<>();
        try (InputStream in = resource(EXPECTED_RESOURCE)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    String[] f = line.trim().split("\t");
                    if (f.length != 4) {
                        throw new IOException(EXPECTED_RESOURCE + ": expected 4 tab-separated fields: " + line);
                    }
                    expected.put(f[0], f[1] + " " + f[2] + " " + f[3]);
                }
            }
        }
        return expected;
    }

    /**
     * Per schema, "rows SUM(k) SUM(crc)" of its sbtest1 as MySQL computes SUM(CRC32(CONCAT_WS('|',id,k,c,pad))): the
     * CRC32 of the UTF-8 bytes of the four values joined by '|', CHAR values without trailing pad spaces (as MySQL
     * returns CHAR columns). A schema without the table reads "missing".
     */
    static Map<String, String> checksums(Connection c, Dialect d, Iterable<String> schemas) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String schema : schemas) {
            long rows = 0;
            long sumK = 0;
            long sumCrc = 0;
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT id, k, c, pad FROM " + d.qualify(schema, "sbtest1"))) {
                while (rs.next()) {
                    rows++;
                    sumK += rs.getLong(2);
                    CRC32 crc = new CRC32();
                    crc.update((rs.getLong(1) + "|" + rs.getLong(2) + "|" + stripPad(rs.getString(3)) + "|"
                            + stripPad(rs.getString(4))).getBytes(StandardCharsets.UTF_8));
                    sumCrc += crc.getValue();
                }
            } catch (SQLException e) {
                out.put(schema, "missing (" + e.getMessage().lines().findFirst().orElse("") + ")");
                rollbackQuietly(c);
                continue;
            }
            out.put(schema, rows + " " + sumK + " " + sumCrc);
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
        return out;
    }

    private static void rollbackQuietly(Connection c) {
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException ignored) {
            // the next query reports the connection's state
        }
    }

    private static String stripPad(String v) {
        if (v == null) {
            return "";
        }
        int end = v.length();
        while (end > 0 && v.charAt(end - 1) == ' ') {
            end--;
        }
        return v.substring(0, end);
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = DemoCommand.class.getResourceAsStream(name);
        if (in == null) {
            throw new IOException("the bundled resource " + name + " is missing from the jar");
        }
        return in;
    }
}
