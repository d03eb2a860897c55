package io.lanes.applier.statements;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Change;
import io.lanes.applier.Lanes;
import io.lanes.applier.LanesException;
import io.lanes.applier.RowChange;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.schema.UnexplainedRowsException;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.testing.MariaDbServer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Logs written with the servers' default TABLE_MAP metadata (MySQL's and the MINIMAL; MariaDB 10.11's own
 * default NO_LOG says even less: no signedness), by a MariaDB the test starts, applied into H2, PostgreSQL and MariaDB
 * and through the sink SPI: the schema history, followed through the log's own CREATE/ALTER TABLE, gives column names,
 * UNSIGNED, ENUM/SET members and BINARY lengths (issue 18, defects 1, 2, 3, 13).
 */
class MinimalMetadataApplyTest {
    /** The repro of defect 1 plus every integer width at its limits, signed and unsigned, after a YEAR column. */
    static final String TYPES = """
            CREATE TABLE t (id BIGINT UNSIGNED PRIMARY KEY, y YEAR, i64 BIGINT, ti TINYINT UNSIGNED, si SMALLINT,
              mi MEDIUMINT UNSIGNED, i INT UNSIGNED, dd DECIMAL(20,0) UNSIGNED, e ENUM('small','medium','large'),
              s SET('a','b','c'), b BINARY(16), v VARCHAR(10), f DOUBLE UNSIGNED, bt BIT(3), y2 YEAR, t8 TINYINT,
              m24 MEDIUMINT);
            INSERT INTO t VALUES (1, 2000, -9223372036854775808, 255, -32768, 16777215, 4294967295,
              18446744073709551615, 'large', 'a,c', 0x41, 'x', 1.5, b'101', 1999, -128, -8388608),
              (18446744073709551615, 2155, 9223372036854775807, 0, 32767, 0, 0, 0, 'small', '', 0x0000410000, 'y',
              0, b'0', 2001, 127, 8388607);
            ALTER TABLE t ADD COLUMN added INT UNSIGNED AFTER y, DROP COLUMN v, MODIFY e ENUM('small','medium','large','huge');
            INSERT INTO t VALUES (2, 1901, 4294967295, -1, 1, 2, 3, 4, 5, 'huge', 'b', NULL, 2.5, b'111', 2155, -1, -1);
            UPDATE t SET e = 'medium' WHERE id = 1;
            """;

    static final List<String> EXPECTED = List.of(
            "1|2000|null|-9223372036854775808|255|-32768|16777215|4294967295|18446744073709551615|medium|a,c|"
                    + "41000000000000000000000000000000|1999|-128|-8388608",
            "2|1901|4294967295|-1|1|2|3|4|5|huge|b|null|2155|-1|-1",
            "18446744073709551615|2155|null|9223372036854775807|0|32767|0|0|0|small||"
                    + "00004100000000000000000000000000|2001|127|8388607");

    static MariaDbServer minimal;
    static MariaDbServer noLog;

    @TempDir
    Path temp;

    @BeforeAll
    static void sources() {
        minimal = MariaDbServer.startWithBinlog("--binlog-row-metadata=MINIMAL");
        noLog = MariaDbServer.startWithBinlog("--binlog-row-metadata=NO_LOG");
    }

    @AfterAll
    static void stop() {
        if (minimal != null) {
            minimal.close();
        }
        if (noLog != null) {
            noLog.close();
        }
    }

    static Stream<Arguments> targetsAndMetadata() {
        List<Arguments> out = new ArrayList<>();
        for (String metadata : List.of("MINIMAL", "NO_LOG")) {
            for (TestTarget t : TestTarget.all()) {
                out.add(Arguments.of(metadata, t));
            }
        }
        return out.stream();
    }

    /** Writes {@code sql} in a fresh database of the server and returns that database and a copy of the log. */
    private Log write(MariaDbServer server, String sql) throws Exception {
        String db = "src_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime());
        server.sql("CREATE DATABASE " + db + "; USE " + db + ";\n" + sql + "\nFLUSH BINARY LOGS;");
        return new Log(db, server.copyBinlogFiles(temp.resolve(db)));
    }

    record Log(String db, List<Path> files) {
    }

    @ParameterizedTest(name = "{0} into {1}")
    @MethodSource("targetsAndMetadata")
    void everyTargetEndsInTheSourcesState(String metadata, TestTarget target) throws Exception {
        Log log = write(metadata.equals("MINIMAL") ? minimal : noLog, TYPES);
        try (target) {
            Dialect d = target.dialect();
            String schema = "lt_" + ProcessHandle.current().pid() + "_types_" + Long.toHexString(System.nanoTime());
            target.dropOnClose(schema);
            String ckpt = target.newSchema("ckpt");
            String url = d.kind() == Dialect.Kind.MYSQL ? target.url() + ckpt : target.url();
            StatementLogs.run(StatementLogs.to(target, url, ckpt).source(log.files()).workers(2)
                    .mapping(SchemaMapping.builder().includeSchemas(log.db()).rename(log.db(), schema).build())).ok();
            try (Connection c = target.session()) {
                String hex = switch (d.kind()) {
                    case POSTGRESQL -> "encode(b, 'hex')";
                    case H2 -> "RAWTOHEX(b)";
                    case MYSQL -> "HEX(b)";
                };
                List<String> rows = StatementLogs.query(c, "SELECT id, y, added, i64, ti, si, mi, i, dd, e, s, "
                        + "LOWER(" + hex + "), y2, t8, m24 FROM " + d.qualify(schema, "t") + " ORDER BY id");
                assertEquals(EXPECTED, rows.stream().map(r -> r.replace("NULL", "null")).toList(), metadata + " into "
                        + d.kind());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("metadataKinds")
    void aSinkGetsColumnNamesTypedValuesAndKeysFromTheHistory(String metadata) throws Exception {
        Log log = write(metadata.equals("MINIMAL") ? minimal : noLog, TYPES);
        List<SourceTransaction> delivered = Collections.synchronizedList(new ArrayList<>());
        Lanes lanes = Lanes.builder().source(log.files()).workers(2)
                .mapping(SchemaMapping.builder().includeSchemas(log.db()).build())
                .sink((t, worker) -> {
                    delivered.add(t);
                    return CompletableFuture.completedFuture(null);
                }, temp.resolve("ckpt-" + metadata)).build();
        lanes.start();
        assertTrue(lanes.awaitCaughtUp(java.time.Duration.ofMinutes(2)));
        lanes.stop();
        List<RowChange> rows = new ArrayList<>();
        for (SourceTransaction t : delivered) {
            for (Change c : t.changes()) {
                if (c instanceof RowChange r) {
                    rows.add(r);
                }
            }
        }
        assertEquals(4, rows.size(), rows.toString());
        RowChange first = rows.stream().filter(r -> r.kind() == RowChange.Kind.INSERT
                && BigInteger.ONE.equals(toBig(r.after().value("id")))).findFirst().orElseThrow();
        assertEquals(List.of("id", "y", "i64", "ti", "si", "mi", "i", "dd", "e", "s", "b", "v", "f", "bt", "y2", "t8",
                "m24"), first.after().columns());
        assertEquals(-128, ((Number) first.after().value("t8")).intValue());
        assertEquals(-8388608, ((Number) first.after().value("m24")).intValue());
        assertEquals(-9223372036854775808L, first.after().value("i64"));
        assertEquals(255, ((Number) first.after().value("ti")).intValue());
        assertEquals(4294967295L, ((Number) first.after().value("i")).longValue());
        assertEquals("large", ((io.lanes.applier.value.EnumValue) first.after().value("e")).name());
        assertEquals("a,c", ((io.lanes.applier.value.SetValue) first.after().value("s")).text());
        assertEquals(16, ((byte[]) first.after().value("b")).length);
        RowChange afterAlter = rows.stream().filter(r -> r.kind() == RowChange.Kind.INSERT
                && BigInteger.TWO.equals(toBig(r.after().value("id")))).findFirst().orElseThrow();
        assertEquals(List.of("id", "y", "added", "i64", "ti", "si", "mi", "i", "dd", "e", "s", "b", "f", "bt", "y2", "t8",
                "m24"), afterAlter.after().columns(), "the definition after the ALTER TABLE");
        assertEquals("huge", ((io.lanes.applier.value.EnumValue) afterAlter.after().value("e")).name());
    }

    static Stream<String> metadataKinds() {
        return Stream.of("MINIMAL", "NO_LOG");
    }

    private static BigInteger toBig(Object v) {
        return v instanceof BigInteger b ? b : BigInteger.valueOf(((Number) v).longValue());
    }

    /**
     * A log that starts after the tables were created, with the source's definitions from a schema file written by the
     * real {@code mariadb-dump --no-data} (views, a trigger and DELIMITER blocks included), into a target whose tables
     * the user created beforehand with their columns in another order than the source's (defect 14): the values go to
     * the columns of their names, never by position.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.lanes.applier.testing.TestTarget#all")
    void aSchemaFileExplainsALogThatStartsAfterTheTablesWereCreated(TestTarget target) throws Exception {
        String db = "src_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime());
        minimal.sql("CREATE DATABASE " + db + "; USE " + db + ";"
                + " CREATE TABLE t (id INT UNSIGNED PRIMARY KEY, kind ENUM('a','b','c'), code BINARY(4), note"
                + " VARCHAR(20), n TINYINT UNSIGNED);"
                + " CREATE TABLE log (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(20));"
                + " CREATE VIEW v AS SELECT id, kind FROM t;"
                + " CREATE TRIGGER tr AFTER INSERT ON t FOR EACH ROW INSERT INTO log (what) VALUES ('x;y');"
                + " FLUSH BINARY LOGS;"
                + " INSERT INTO t VALUES (1, 'c', 0x61000000, 'one', 200), (4294967295, 'a', 0x00, NULL, 0);"
                + " FLUSH BINARY LOGS;");
        List<Path> all = minimal.binlogFiles();
        Path only = temp.resolve(all.get(all.size() - 2).getFileName());
        Files.copy(all.get(all.size() - 2), only);
        Path schemaFile = temp.resolve("schema.sql");
        Process dump = new ProcessBuilder("mariadb-dump", "--no-defaults", "-uroot", "-S", minimal.socket().toString(),
                "--no-data", "--databases", db).redirectOutput(schemaFile.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        assertEquals(0, dump.waitFor(), "mariadb-dump");
        assertTrue(Files.readString(schemaFile).contains("DELIMITER"), "the dump has a trigger block");
        try (target) {
            Dialect d = target.dialect();
            String schema = "lt_" + ProcessHandle.current().pid() + "_pre_" + Long.toHexString(System.nanoTime());
            target.dropOnClose(schema);
            target.createSchema(schema);
            String ckpt = target.newSchema("ckpt");
            String binary = d.kind() == Dialect.Kind.POSTGRESQL ? "bytea" : "BINARY(4)";
            String bigint = d.kind() == Dialect.Kind.MYSQL ? "INT UNSIGNED" : "BIGINT";
            String qualifiedLog = d.qualify(schema, "log");
            try (Connection c = target.session(); java.sql.Statement st = c.createStatement()) {
                // the user's own tables: columns in another order than the source's
                st.execute("CREATE TABLE " + d.qualify(schema, "t") + " (note VARCHAR(20), n SMALLINT, code " + binary
                        + ", kind VARCHAR(5), id " + bigint + " PRIMARY KEY)");
                st.execute("CREATE TABLE " + qualifiedLog + " (id INT PRIMARY KEY, what VARCHAR(20))");
                if (!c.getAutoCommit()) {
                    c.commit();
                }
            }
            String url = d.kind() == Dialect.Kind.MYSQL ? target.url() + ckpt : target.url();
            StatementLogs.run(StatementLogs.to(target, url, ckpt).source(only).workers(2).sourceSchemaFile(schemaFile)
                    .mapping(SchemaMapping.builder().includeSchemas(db).rename(db, schema).build())).ok();
            try (Connection c = target.session()) {
                String hex = switch (d.kind()) {
                    case POSTGRESQL -> "encode(code, 'hex')";
                    case H2 -> "RAWTOHEX(code)";
                    case MYSQL -> "HEX(code)";
                };
                assertEquals(List.of("1|c|61000000|one|200", "4294967295|a|00000000|null|0"), StatementLogs.query(c,
                        "SELECT id, kind, LOWER(" + hex + "), note, n FROM " + d.qualify(schema, "t") + " ORDER BY id")
                        .stream().map(r -> r.replace("NULL", "null")).toList());
                assertEquals(List.of("1|x;y", "2|x;y"), StatementLogs.query(c, "SELECT id, what FROM " + qualifiedLog
                        + " ORDER BY id"));
            }
        }
    }

    /** Runs {@code sql} (ending with FLUSH BINARY LOGS) and returns a copy of the binlog file it was written to. */
    private Path step(String sql) throws Exception {
        List<Path> before = minimal.binlogFiles();
        Path current = before.get(before.size() - 1);
        minimal.sql(sql + " FLUSH BINARY LOGS;");
        Path copy = temp.resolve(current.getFileName());
        Files.copy(current, copy, StandardCopyOption.REPLACE_EXISTING);
        return copy;
    }

    /**
     * A restart whose input no longer holds the CREATE TABLE (the first file archived) continues with the definitions
     * in force at its checkpoint, restored from beside the checkpoint: the ALTER TABLE of the second file (a column added
     * FIRST, an ENUM member added) is already in them, so the skipped second file does not apply it twice, and the
     * third file's rows get the right names, members and lengths. Without the saved history the table is unknown after
     * the restart (its CREATE TABLE is gone): the sink stops, and a PostgreSQL target, whose ADD COLUMN cannot place a
     * column first, would take its catalog's order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targetsAndSink")
    void aRestartContinuesWithTheDefinitionsInForceAtItsCheckpoint(String where) throws Exception {
        String db = "src_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime());
        Path a = step("CREATE DATABASE " + db + "; USE " + db + "; CREATE TABLE t (id INT PRIMARY KEY,"
                + " e ENUM('p','q'), b BINARY(3)); INSERT INTO t VALUES (1, 'q', 0x01);");
        Path b = step("USE " + db + "; ALTER TABLE t ADD COLUMN c INT UNSIGNED FIRST, MODIFY e ENUM('p','q','r');"
                + " INSERT INTO t VALUES (4294967295, 2, 'r', 0x02);");
        Path c = step("USE " + db + "; INSERT INTO t VALUES (7, 3, 'q', NULL); UPDATE t SET e = 'p' WHERE id = 1;");
        SchemaMapping mapping = SchemaMapping.builder().includeSchemas(db).build();
        if (where.equals("sink")) {
            Path ckpt = temp.resolve("ckpt-restart");
            List<SourceTransaction> delivered = Collections.synchronizedList(new ArrayList<>());
            io.lanes.applier.sink.TransactionSink sink = (t, worker) -> {
                delivered.add(t);
                return CompletableFuture.completedFuture(null);
            };
            StatementLogs.run(Lanes.builder().source(a, b).workers(2).mapping(mapping).sink(sink, ckpt)).ok();
            delivered.clear();
            StatementLogs.run(Lanes.builder().source(b, c).workers(2).mapping(mapping).sink(sink, ckpt)).ok();
            List<RowChange> rows = new ArrayList<>();
            delivered.forEach(t -> t.changes().stream().filter(ch -> ch instanceof RowChange)
                    .forEach(ch -> rows.add((RowChange) ch)));
            assertEquals(2, rows.size(), rows.toString());
            RowChange insert = rows.stream().filter(r -> r.kind() == RowChange.Kind.INSERT).findFirst().orElseThrow();
            assertEquals(List.of("c", "id", "e", "b"), insert.after().columns());
            assertEquals(7L, ((Number) insert.after().value("c")).longValue());
            assertEquals("q", ((io.lanes.applier.value.EnumValue) insert.after().value("e")).name());
            RowChange update = rows.stream().filter(r -> r.kind() == RowChange.Kind.UPDATE).findFirst().orElseThrow();
            assertEquals("p", ((io.lanes.applier.value.EnumValue) update.after().value("e")).name());
            assertEquals(3, ((byte[]) update.after().value("b")).length, "BINARY(3) padded");
            return;
        }
        try (TestTarget target = switch (where) {
            case "H2" -> TestTarget.h2();
            case "POSTGRESQL" -> TestTarget.postgres();
            default -> TestTarget.mariadb();
        }) {
            Dialect d = target.dialect();
            String schema = "lt_" + ProcessHandle.current().pid() + "_rs_" + Long.toHexString(System.nanoTime());
            target.dropOnClose(schema);
            String ckpt = target.newSchema("ckpt");
            String url = d.kind() == Dialect.Kind.MYSQL ? target.url() + ckpt : target.url();
            SchemaMapping renamed = SchemaMapping.builder().includeSchemas(db).rename(db, schema).build();
            StatementLogs.run(StatementLogs.to(target, url, ckpt).source(a, b).workers(2).mapping(renamed)).ok();
            StatementLogs.run(StatementLogs.to(target, url, ckpt).source(b, c).workers(2).mapping(renamed)).ok();
            try (Connection conn = target.session()) {
                assertEquals(List.of("null|1|p", "4294967295|2|r", "7|3|q"), StatementLogs.query(conn,
                        "SELECT c, id, e FROM " + d.qualify(schema, "t") + " ORDER BY id").stream()
                        .map(r -> r.replace("NULL", "null")).toList());
            }
        }
    }

    static Stream<String> targetsAndSink() {
        return Stream.of("sink", "H2", "POSTGRESQL", "MARIADB");
    }

    /**
     * Following a live server from a position after its tables were created: the definitions come from the server's
     * information_schema (ENUM members, UNSIGNED, a composite primary key for the write sets), then from the log's own
     * ALTER TABLE.
     */
    @Test
    void aLiveSourceSeedsTheHistoryFromItsInformationSchema() throws Exception {
        String db = "src_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime());
        minimal.sql("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".t (a INT UNSIGNED, b VARCHAR(5), e ENUM('x','y'),"
                + " g BIGINT AS (a + 1) VIRTUAL, PRIMARY KEY (a, b)); FLUSH BINARY LOGS;");
        List<Path> files = minimal.binlogFiles();
        String startFile = files.get(files.size() - 1).getFileName().toString();
        List<SourceTransaction> delivered = Collections.synchronizedList(new ArrayList<>());
        io.lanes.binlog.replication.ReplicationClient.Builder client = io.lanes.binlog.replication.ReplicationClient
                .builder().host("127.0.0.1").port(minimal.port()).user("root").serverId(5151)
                .tls(io.lanes.binlog.replication.TlsSettings.disabled());
        try (Lanes lanes = Lanes.builder()
                .sourceServer(client, io.lanes.binlog.replication.StartPosition.file(startFile, 4)).workers(2)
                .mapping(SchemaMapping.builder().includeSchemas(db).build())
                .sink((t, worker) -> {
                    delivered.add(t);
                    return CompletableFuture.completedFuture(null);
                }, temp.resolve("ckpt-live")).build()) {
            lanes.start();
            // caught up: the history was seeded at connect, before the statements below (information_schema tells the
            // definitions of now: seeded after the ALTER, the first INSERT would be refused, not misread)
            assertTrue(lanes.awaitCaughtUp(java.time.Duration.ofSeconds(60)));
            minimal.sql("INSERT INTO " + db + ".t (a, b, e) VALUES (4294967295, 'k', 'y');"
                    + " ALTER TABLE " + db + ".t ADD COLUMN z TINYINT UNSIGNED FIRST;"
                    + " INSERT INTO " + db + ".t (z, a, b, e) VALUES (255, 1, 'm', 'x');");
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (rows(delivered).size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
        List<RowChange> rows = rows(delivered);
        assertEquals(2, rows.size(), rows.toString());
        RowChange first = rows.get(0);
        assertEquals(List.of("a", "b", "e", "g"), first.after().columns());
        assertEquals(4294967295L, ((Number) first.after().value("a")).longValue());
        assertEquals("y", ((io.lanes.applier.value.EnumValue) first.after().value("e")).name());
        assertEquals(List.of("z", "a", "b", "e", "g"), rows.get(1).after().columns());
        assertEquals(255, ((Number) rows.get(1).after().value("z")).intValue());
    }

    private static List<RowChange> rows(List<SourceTransaction> delivered) {
        List<RowChange> out = new ArrayList<>();
        synchronized (delivered) {
            delivered.forEach(t -> t.changes().stream().filter(c -> c instanceof RowChange)
                    .forEach(c -> out.add((RowChange) c)));
        }
        return out;
    }

    /** A schema file of another moment (a column's type differs from what the log holds) is refused, not misread. */
    @Test
    void aDefinitionThatDoesNotFitTheRowEventIsRefusedNamingColumnAndOrigin() throws Exception {
        String db = "src_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime());
        minimal.sql("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(10));"
                + " FLUSH BINARY LOGS; INSERT INTO " + db + ".t VALUES (1, 'x'); FLUSH BINARY LOGS;");
        List<Path> all = minimal.binlogFiles();
        Path only = temp.resolve(all.get(all.size() - 2).getFileName());
        Files.copy(all.get(all.size() - 2), only);
        Path schemaFile = temp.resolve("stale.sql");
        Files.writeString(schemaFile, "CREATE DATABASE `" + db + "`;\nUSE `" + db + "`;\n"
                + "CREATE TABLE `t` (\n  `id` int(11) NOT NULL,\n  `v` int(11) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n);\n");
        List<SourceTransaction> delivered = Collections.synchronizedList(new ArrayList<>());
        LanesException e = StatementLogs.run(Lanes.builder().source(only).workers(1).sourceSchemaFile(schemaFile)
                .mapping(SchemaMapping.builder().includeSchemas(db).build())
                .sink((t, worker) -> {
                    delivered.add(t);
                    return CompletableFuture.completedFuture(null);
                }, temp.resolve("ckpt-stale"))).failed();
        assertTrue(e.getMessage().contains("column 2 `v` is int(11) in the source's definition (from schema file "
                + "stale.sql line 3)"), e.getMessage());
        assertTrue(e.getMessage().contains("logs a VARCHAR"), e.getMessage());
        assertTrue(rows(delivered).isEmpty(), "nothing applied");
    }

    /** Rows of a table whose CREATE TABLE is not in the log, with no schema file and no target table. */
    @Test
    void rowsNothingExplainsStopWithTheTableAndPosition() throws Exception {
        String db = "src_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime());
        minimal.sql("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".early (id INT PRIMARY KEY, v INT);"
                + " FLUSH BINARY LOGS; INSERT INTO " + db + ".early VALUES (1, 2); FLUSH BINARY LOGS;");
        List<Path> all = minimal.binlogFiles();
        Path only = temp.resolve(all.get(all.size() - 2).getFileName());
        Files.copy(all.get(all.size() - 2), only); // the file with the INSERT only
        List<SourceTransaction> delivered = Collections.synchronizedList(new ArrayList<>());
        LanesException e = null;
        // the way an embedding application runs it: try-with-resources
        try (Lanes lanes = Lanes.builder().source(only).workers(1)
                .mapping(SchemaMapping.builder().includeSchemas(db).build())
                .sink((t, worker) -> {
                    delivered.add(t);
                    return CompletableFuture.completedFuture(null);
                }, temp.resolve("ckpt-unexplained")).build()) {
            lanes.start();
            lanes.awaitCaughtUp(java.time.Duration.ofMinutes(1));
        } catch (LanesException failed) {
            e = failed;
        }
        assertNotNull(e, "the pipeline should have failed");
        assertEquals(0, e.getSuppressed().length, "reported once");
        UnexplainedRowsException cause = findCause(e, UnexplainedRowsException.class);
        assertNotNull(cause, e.toString());
        assertEquals(db, cause.table().schema());
        assertEquals("early", cause.table().table());
        assertTrue(cause.position().startsWith(only.getFileName() + ":"), cause.position());
        assertTrue(e.getMessage().contains("schema file"), e.getMessage());
        assertTrue(delivered.stream().noneMatch(t -> !t.changes().isEmpty()), "nothing applied: " + delivered);
        // the exception chain prints without a circular reference (defect 13)
        java.io.StringWriter trace = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(trace));
        assertTrue(!trace.toString().contains("CIRCULAR REFERENCE"), trace.toString());
    }

    private static <T extends Throwable> T findCause(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }
}
