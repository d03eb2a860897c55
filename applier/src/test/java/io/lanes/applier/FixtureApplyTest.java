package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.CatalogTableMetadata;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.applier.jdbc.TargetCatalog;
import io.lanes.applier.jdbc.TargetTable;
import io.lanes.applier.testing.CanonicalJson;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.core.Scheduler;
import io.lanes.core.WritesetScheduler;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real MariaDB fixture types-full-metadata.000001 (DDL, every column type, FK, ALTER mid-stream, hostile names)
 * applied through bridge, engine and JDBC applier into each target; every column of every row must equal the source
 * server's final state (types-full-metadata.expected-final-state.sql, loaded into a MariaDB for reading back).
 */
class FixtureApplyTest {
    static final String FIXTURE = "/binlogs/mariadb-10.11/types-full-metadata.000001";
    static final String EXPECTED = "/binlogs/mariadb-10.11/types-full-metadata.expected-final-state.sql";

    @TempDir
    Path temp;

    static Stream<TestTarget> targets() {
        return TestTarget.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void typesFixtureEqualsTheSourceServersFinalState(TestTarget target) throws Exception {
        try (target) {
            Dialect d = target.dialect();
            String shop = "lt_shop_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime());
            target.dropOnClose(shop);
            String ckpt = target.newSchema("ckpt");
            Path binlog = copy(FIXTURE, "types-full-metadata.000001");
            String expectedDb = loadExpected();

            SchemaMapping mapping = SchemaMapping.builder().rename("shop", shop).excludeSchemas("db*").build();
            ConnectionFactory connections = ConnectionFactory.of(target.url(), credentials(d));
            JdbcTarget jdbc = JdbcTarget.builder(connections, d).mapping(mapping)
                    .checkpointTable(new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint")).build();
            apply(jdbc, binlog, new WritesetScheduler(), 4);

            MariaDbServer server = TestTarget.sharedMariaDb();
            try (Connection expected = DriverManager.getConnection(server.jdbcUrl(expectedDb));
                    Connection actual = target.session()) {
                Dialect.mysql().initSession(expected);
                assertEquals(3, compareTable(expected, expectedDb, actual, d, shop, "customers"));
                assertEquals(3, compareTable(expected, expectedDb, actual, d, shop, "orders"));
                assertEquals(1, compareTable(expected, expectedDb, actual, d, shop, "weird name"));
            }
        }
    }

    static void apply(JdbcTarget jdbc, Path binlog, Scheduler scheduler, int workers) throws Exception {
        apply(jdbc, List.of(binlog), scheduler, workers);
    }

    /**
     * Applies {@code binlogs} through {@link Lanes}, the path applications use (its reading loop, ResumeCursor, barrier
     * handling), with {@code jdbc}'s appliers and checkpoint store as the sink.
     */
    static void apply(JdbcTarget jdbc, List<Path> binlogs, Scheduler scheduler, int workers) throws Exception {
        try (CatalogTableMetadata metadata = new CatalogTableMetadata(jdbc.connections(), jdbc.catalog());
                Lanes lanes = Lanes.builder().source(binlogs)
                        .sink(jdbc.applierFactory(), jdbc.checkpointStore(), metadata).mapping(jdbc.mapping())
                        .scheduler(scheduler).workers(workers).build()) {
            lanes.start();
            assertTrue(lanes.awaitCaughtUp(Duration.ofMinutes(10)), () -> "not caught up: " + lanes.stats());
            LanesStats stats = lanes.stop();
            assertEquals(Lanes.State.STOPPED, lanes.state(), () -> "stopped with " + stats);
        }
    }

    private Path copy(String resource, String name) throws IOException {
        Path out = temp.resolve(name);
        try (InputStream in = FixtureApplyTest.class.getResourceAsStream(resource)) {
            assertNotNull(in, resource);
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
        }
        return out;
    }

    /** Loads the source server's dump into a fresh database of the shared MariaDB; returns the database name. */
    static synchronized String loadExpected() throws IOException {
        if (expectedDatabase == null) {
            String db = "exp_types_" + ProcessHandle.current().pid();
            String dump;
            try (InputStream in = FixtureApplyTest.class.getResourceAsStream(EXPECTED)) {
                assertNotNull(in, EXPECTED);
                dump = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            MariaDbServer server = TestTarget.sharedMariaDb();
            server.sql("DROP DATABASE IF EXISTS `" + db + "`; CREATE DATABASE `" + db + "` CHARACTER SET utf8mb4");
            // The dump is too long for a command-line argument: feed it to the client on stdin.
            Path file = Files.createTempFile("expected", ".sql");
            try {
                Files.writeString(file, dump);
                String client = MariaDbServer.find("mariadb", "/usr/bin/mariadb").orElseThrow();
                Process p = new ProcessBuilder(client, "--no-defaults", "--default-character-set=utf8mb4", "-uroot", "-S", server.socket().toString(), db)
                        .redirectInput(file.toFile()).redirectErrorStream(true).start();
                String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                if (p.waitFor() != 0) {
                    throw new IOException("loading the expected state failed: " + output);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            } finally {
                Files.deleteIfExists(file);
            }
            expectedDatabase = db;
        }
        return expectedDatabase;
    }

    private static String expectedDatabase;

    static Properties credentials(Dialect d) {
        Properties props = new Properties();
        if (d.kind() != Dialect.Kind.H2) {
            props.setProperty("user", d.kind() == Dialect.Kind.POSTGRESQL ? "postgres" : "root");
        }
        if (d.kind() == Dialect.Kind.POSTGRESQL) {
            // Tests do not need each commit on disk before the next; crash tests must not use this.
            props.setProperty("options", "-c synchronous_commit=off");
        }
        return props;
    }

    /**
     * Compares every column of every row, ordered by primary key, normalising each target's representation; returns the
     * number of rows compared.
     */
    static int compareTable(Connection expected, String expectedDb, Connection actual, Dialect d, String schema,
            String table) throws SQLException {
        record Col(String name, String dataType, String columnType) {
        }
        List<Col> cols = new ArrayList<>();
        try (var ps = expected.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE FROM information_schema.COLUMNS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, expectedDb);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    cols.add(new Col(rs.getString(1), rs.getString(2).toLowerCase(Locale.ROOT),
                            rs.getString(3).toLowerCase(Locale.ROOT)));
                }
            }
        }
        TargetTable targetTable = new TargetCatalog(d).table(actual, schema, table);
        String orderBy = cols.get(0).name();
        List<List<String>> want = rows(expected, Dialect.mysql(), expectedDb, table, cols.stream().map(Col::name).toList(),
                orderBy, (rs, i) -> normalise(Dialect.Kind.MYSQL, cols.get(i).dataType(), cols.get(i).columnType(),
                        cols.get(i).name().equals("doc"), rs, i + 1));
        List<List<String>> got = rows(actual, d, schema, table, cols.stream().map(Col::name).toList(), orderBy,
                (rs, i) -> normalise(d.kind(), cols.get(i).dataType(), cols.get(i).columnType(),
                        targetTable.requireColumn(cols.get(i).name()).typeName().contains("JSON")
                                || cols.get(i).name().equals("doc"), rs, i + 1));
        assertEquals(want.size(), got.size(), "rows of " + table);
        for (int r = 0; r < want.size(); r++) {
            for (int c = 0; c < cols.size(); c++) {
                assertEquals(want.get(r).get(c), got.get(r).get(c), d.kind() + " " + table + " row " + r + " column "
                        + cols.get(c).name() + " (" + cols.get(c).columnType() + ")");
            }
        }
        return want.size();
    }

    @FunctionalInterface
    interface Normaliser {
        String apply(ResultSet rs, int index) throws SQLException;
    }

    static List<List<String>> rows(Connection c, Dialect d, String schema, String table, List<String> columns,
            String orderBy, Normaliser normaliser) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(d.quoteIdentifier(columns.get(i)));
        }
        sql.append(" FROM ").append(d.qualify(schema, table)).append(" ORDER BY ").append(d.quoteIdentifier(orderBy));
        List<List<String>> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 0; i < columns.size(); i++) {
                    row.add(normaliser.apply(rs, i));
                }
                out.add(row);
            }
        }
        c.commit();
        return out;
    }

    static String normalise(Dialect.Kind kind, String dataType, String columnType, boolean json, ResultSet rs, int i)
            throws SQLException {
        if (rs.getObject(i) == null) {
            return "NULL";
        }
        if (json) {
            return CanonicalJson.parse(rs.getString(i)).toString();
        }
        switch (dataType) {
            case "tinyint", "smallint", "mediumint", "int", "bigint", "year", "decimal" -> {
                BigDecimal v = rs.getBigDecimal(i);
                return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
            }
            case "float" -> {
                return Float.toString(rs.getFloat(i));
            }
            case "double" -> {
                return Double.toString(rs.getDouble(i));
            }
            case "bit" -> {
                return kind == Dialect.Kind.POSTGRESQL ? Long.toString(Long.parseLong(rs.getString(i), 2))
                        : Long.toString(rs.getLong(i));
            }
            case "binary" -> {
                // BINARY(n) holds n bytes: the log strips trailing 0x00, the replica must pad them back (issue 18,
                // defect 3; this comparison padded the target's value itself until then)
                return HexFormat.of().formatHex(rs.getBytes(i));
            }
            case "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> {
                return HexFormat.of().formatHex(rs.getBytes(i));
            }
            case "date" -> {
                return rs.getObject(i, java.time.LocalDate.class).toString();
            }
            case "datetime" -> {
                return rs.getObject(i, LocalDateTime.class).toString();
            }
            case "timestamp" -> {
                if (kind == Dialect.Kind.MYSQL) {
                    return rs.getObject(i, LocalDateTime.class).toString();
                }
                return rs.getObject(i, OffsetDateTime.class).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime().toString();
            }
            case "time" -> {
                if (kind == Dialect.Kind.H2) {
                    return rs.getObject(i, Duration.class).toString();
                }
                return parseTime(rs.getString(i)).toString();
            }
            default -> {
                return rs.getString(i);
            }
        }
    }

    /** {@code [-]H:MM:SS[.f]} (MySQL TIME, PostgreSQL interval) as a Duration. */
    static Duration parseTime(String text) {
        boolean negative = text.startsWith("-");
        String[] parts = (negative ? text.substring(1) : text).split(":");
        Duration d = Duration.ofHours(Long.parseLong(parts[0])).plusMinutes(Long.parseLong(parts[1]))
                .plusNanos(new BigDecimal(parts[2]).movePointRight(9).longValueExact());
        return negative ? d.negated() : d;
    }
}
