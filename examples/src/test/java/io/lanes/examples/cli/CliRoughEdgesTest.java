package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.examples.PrintTableChanges;
import io.lanes.examples.cli.DumpCommandTest.Result;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's rough edges of issue #18 (defects 9 and 12), each as a user met it: on real binlogs written by a
 * MariaDB server the test starts (default settings apart from the binlog), into H2, the shared PostgreSQL (unique
 * schemas) and that MariaDB. What only a real process shows (stderr through the real logging configuration, a closed
 * pipe) runs the command as a child process.
 */
class CliRoughEdgesTest {
    static final Path TYPES = ApplyCommandTest.TYPES;
    static final String PG = "jdbc:postgresql://127.0.0.1:5432/test";

    static MariaDbServer server;

    @TempDir
    Path temp;

    @BeforeAll
    static void startServer() {
        server = MariaDbServer.startWithBinlog();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** A name no other test (or engineer) uses. */
    static String unique(String prefix) {
        return prefix + "_" + Long.toHexString(ProcessHandle.current().pid()) + "_"
                + Long.toHexString(System.nanoTime() & 0xffffffL);
    }

    /** The binlog file the server writes while it runs {@code sql} (in one session), copied out whole. */
    Path binlogOf(String sql) throws Exception {
        server.sql("FLUSH BINARY LOGS");
        server.sql(sql);
        server.sql("FLUSH BINARY LOGS");
        List<Path> files = server.binlogFiles();
        Path written = files.get(files.size() - 2);
        return Files.copy(written, temp.resolve(written.getFileName()));
    }

    // ---- 9: BIT values are unsigned ----------------------------------------------------------------------------------

    @Test
    void dumpAndPrintTableChangesShowBitValuesUnsigned() throws Exception {
        String db = unique("bits");
        Path log = binlogOf("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".b (id INT PRIMARY KEY, b64 BIT(64),"
                + " b63 BIT(63), b1 BIT(1)); INSERT INTO " + db + ".b VALUES (1, b'" + "1".repeat(64) + "', b'"
                + "1".repeat(63) + "', b'1'), (2, b'1" + "0".repeat(62) + "1', 5, 0)");
        Result r = DumpCommandTest.run("dump", log.toString());
        assertEquals(0, r.code(), r.err());
        String rows = r.out().stream().filter(l -> l.contains("\"WRITE_ROWS")).findFirst().orElseThrow();
        assertTrue(rows.contains("{\"after\":[1,18446744073709551615,9223372036854775807,1]}"), rows);
        assertTrue(rows.contains("{\"after\":[2,9223372036854775809,5,0]}"), rows);

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        assertEquals(2, PrintTableChanges.print(log, db, "b", new PrintStream(printed, true, StandardCharsets.UTF_8)));
        String text = printed.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("=18446744073709551615") && text.contains("=9223372036854775809"), text);
        assertFalse(text.contains("=-"), text);
    }

    // ---- 12: usage -----------------------------------------------------------------------------------------------------

    @Test
    void noCommandIsBadUsageOnStderr() {
        Result r = DumpCommandTest.run();
        assertEquals(2, r.code());
        assertTrue(r.out().isEmpty(), "usage goes to stderr: " + r.out());
        assertTrue(r.err().contains("Usage: lanes") && r.err().contains("apply"), r.err());
        assertEquals(0, DumpCommandTest.run("--help").code(), "asked for, help is no error");
    }

    @Test
    void liveSourceOptionsAreRefusedWithFiles() {
        String target = "jdbc:h2:mem:" + unique("liveopts");
        for (String[] extra : List.of(new String[] {"--source-start", "file:bin.000001:4"},
                new String[] {"--source-user", "repl"}, new String[] {"--until-caught-up"},
                new String[] {"--server-id", "7"})) {
            String[] args = new String[extra.length + 5];
            System.arraycopy(new String[] {"apply", "--source", TYPES.toString(), "--target", target}, 0, args, 0, 5);
            System.arraycopy(extra, 0, args, 5, extra.length);
            Result r = DumpCommandTest.run(args);
            assertEquals(2, r.code(), extra[0] + " with files: " + r.err() + r.out());
            assertTrue(r.err().contains(extra[0]) && r.err().contains("live source"), r.err());
        }
    }

    @Test
    void aConfigFileMayNameTheTarget() throws Exception {
        String url = "jdbc:h2:" + temp.resolve("from-config").toAbsolutePath();
        Path config = Files.writeString(temp.resolve("lanes.properties"), "lanes.target.url=" + url + "\n");
        Result r = DumpCommandTest.run("apply", "--source", TYPES.toString(), "--config", config.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        assertTrue(ApplyCommandTest.number(ApplyCommandTest.last(r), "transactions") > 10, ApplyCommandTest.last(r));
        Result none = DumpCommandTest.run("apply", "--source", TYPES.toString());
        assertEquals(2, none.code());
        assertTrue(none.err().contains("--target"), none.err());
    }

    @Test
    void theWorkerCapIsDocumentedAndNamed() {
        String help = String.join("\n", DumpCommandTest.run("apply", "--help").out());
        assertTrue(help.contains("0..4096"), help);
        Result r = DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", "jdbc:h2:mem:cap",
                "--workers", "4097");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("0..4096"), r.err());
    }

    // ---- 12: messages --------------------------------------------------------------------------------------------------

    @Test
    void aDirectoryIsCalledADirectory() throws Exception {
        Path dir = Files.createDirectories(temp.resolve("binlogs"));
        Result r = DumpCommandTest.run("apply", "--source", dir.toString(), "--target", "jdbc:h2:mem:" + unique("dir"));
        assertEquals(1, r.code());
        assertTrue(r.err().contains(dir + " is a directory") && !r.err().contains("does not exist"), r.err());
        Result missing = DumpCommandTest.run("apply", "--source", dir.resolve("nope.000001").toString(), "--target",
                "jdbc:h2:mem:" + unique("missing"));
        assertTrue(missing.err().contains("nope.000001 does not exist"), missing.err());
        for (String command : new String[] {"dump", "stat"}) {
            Result d = DumpCommandTest.run(command, dir.toString());
            assertEquals(1, d.code(), command);
            assertEquals("lanes " + command + ": source " + dir + " is a directory", d.err().substring(0,
                    d.err().indexOf(", not a binlog file")), command + ": " + d.err());
            Result m = DumpCommandTest.run(command, dir.resolve("nope.000001").toString());
            assertEquals("lanes " + command + ": source file " + dir.resolve("nope.000001") + " does not exist\n",
                    m.err(), command);
        }
    }

    @Test
    void aFailureWithoutAPositionIsNotShownAsFailedAtNull() {
        Result r = DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target",
                "jdbc:postgresql://127.0.0.1:1/nowhere", "--target-user", "postgres");
        assertEquals(1, r.code(), r.err());
        String all = String.join("\n", r.out()) + "\n" + r.err();
        assertFalse(all.contains("null:") || all.contains("at null"), all);
        assertTrue(r.err().startsWith("lanes apply: cannot start on jdbc:postgresql://127.0.0.1:1/nowhere"), r.err());
    }

    /**
     * Undecodable input and a transaction the target refuses, through a real process and its logging: one line on
     * stderr, naming the position once; the human summary on stdout does not repeat it.
     */
    @Test
    void aFailureIsOneMessageNamingItsPositionOnce() throws Exception {
        byte[] bytes = Files.readAllBytes(TYPES);
        bytes[50_000] ^= (byte) 0xff;
        Path bad = Files.write(temp.resolve("bad.000001"), bytes);
        try (ChildCli child = ChildCli.start(temp, "apply", "--source", bad.toString(), "--target",
                "jdbc:h2:mem:bad")) {
            assertEquals(1, child.waitFor(300));
            List<String> err = child.err().lines().toList();
            assertEquals(1, err.size(), child.err());
            assertEquals(1, count(err.get(0), "at byte offset"), err.get(0));
            assertEquals(1, count(err.get(0), bad.toString()), err.get(0));
            List<String> human = child.out().subList(0, child.out().size() - 1); // the JSON line has it as "error"
            assertFalse(String.join("\n", human).contains("byte offset"), "the summary repeats it: " + human);
        }

        // A duplicate key: the first log creates the table, a row is added on the target, the second log inserts it.
        String db = unique("ce_dup");
        Path ddl = binlogOf("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v INT)");
        Path insert = binlogOf("INSERT INTO " + db + ".t VALUES (7, 1)");
        server.sql("DROP DATABASE " + db);
        String h2 = "jdbc:h2:" + temp.resolve("refusing").toAbsolutePath();
        assertEquals(0, DumpCommandTest.run("apply", "--source", ddl.toString(), "--target", h2).code());
        try (Connection c = DriverManager.getConnection(h2 + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE");
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO \"" + db + "\".\"t\" VALUES (7, 0)");
        }
        try (ChildCli child = ChildCli.start(temp, "apply", "--source", insert.toString(), "--target", h2,
                "--pipeline", "second", "--workers", "2", "--json")) {
            assertEquals(1, child.waitFor(300));
            String json = child.out().get(child.out().size() - 1);
            String error = unescape(json.replaceAll(".*\"error\":\"((?:[^\"\\\\]|\\\\.)*)\".*", "$1"));
            // This pipeline's log lacks the table's CREATE TABLE (the first log had it), so the schema history
            // falls back to the target's columns by position and says so once (a documented WARN, not noise).
            String fallbackWarning = child.err().lines()
                    .filter(l -> l.contains("WARN io.lanes.applier.BinlogBridge") && l.contains("by position"))
                    .reduce("", (a, b) -> a + b + "\n");
            assertEquals(1, fallbackWarning.lines().count(), child.err());
            assertEquals("lanes apply: " + error + "\n", child.err().replace(fallbackWarning, ""),
                    "stderr holds the one error message (H2's own spans two lines), no other log lines or stack traces");
            String position = json.replaceAll(".*\"failed_position\":\"([^\"]*)\".*", "$1");
            String file = insert.getFileName().toString();
            assertTrue(position.matches(Pattern.quote(file) + ":\\d+ gtid=.*"), json);
            assertEquals(1, count(error, file), "the position, once: " + error);
            assertTrue(error.startsWith("pipeline 'second' failed at " + position + ": "), error);
            assertTrue(error.contains("23505"), "the target's own error: " + error);
        }
    }

    @Test
    void aStatementBasedUpdateIsCalledWhatItIs() throws Exception {
        String db = unique("ce_stmt");
        Path log = binlogOf("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v INT);"
                + " INSERT INTO " + db + ".t VALUES (1, 1); SET SESSION binlog_format = STATEMENT;"
                + " UPDATE " + db + ".t SET v = 2 WHERE id = 1");
        String checkpoints = db + "_ckpt";
        try {
            Result r = DumpCommandTest.run("apply", "--source", log.toString(), "--target", PG, "--target-user",
                    "postgres", "--checkpoint-table", checkpoints + ".lanes_checkpoint", "--json");
            assertEquals(1, r.code(), r.err());
            assertTrue(r.err().contains("UPDATE is a data statement (DML), not DDL")
                    && r.err().contains("binlog_format=ROW"), r.err());
            assertFalse(r.err().contains("not a DDL statement") || r.err().contains("cannot apply DDL"), r.err());
        } finally {
            dropPostgresSchemas(db, checkpoints);
        }
    }

    // ---- 12: the target's connection limit -----------------------------------------------------------------------------

    @Test
    void moreWorkersThanTheTargetAcceptsFailAtOnceWithOneMessage() throws Exception {
        String mariadb = "jdbc:mariadb://127.0.0.1:" + server.port() + "/?user=root";
        server.sql("SET GLOBAL max_connections = 20");
        try (ChildCli child = ChildCli.start(temp, "apply", "--source", TYPES.toString(), "--target", mariadb,
                "--workers", "40", "--pipeline", unique("limit"))) {
            assertEquals(1, child.waitFor(300));
            List<String> err = child.err().lines().toList();
            assertEquals(1, err.size(), child.err());
            assertTrue(err.get(0).contains("max_connections 20") && err.get(0).contains("40 workers need 42"),
                    err.get(0));
        } finally {
            server.sql("SET GLOBAL max_connections = 300");
        }
        assertEquals("", server.sql("SHOW DATABASES LIKE 'shop'").trim(), "nothing was applied");

        long max;
        try (Connection c = DriverManager.getConnection(PG, "postgres", null); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW max_connections")) {
            rs.next();
            max = Long.parseLong(rs.getString(1));
        }
        String checkpoints = unique("ce_limit");
        try {
            Result r = DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", PG, "--target-user",
                    "postgres", "--checkpoint-table", checkpoints + ".lanes_checkpoint", "--workers",
                    Long.toString(max), "--json");
            assertEquals(1, r.code(), r.err());
            assertTrue(r.err().contains("max_connections " + max) && r.err().contains(max + " workers need "
                    + (max + 2)), r.err());
            assertEquals(0, ApplyCommandTest.number(ApplyCommandTest.last(r), "transactions"));
        } finally {
            dropPostgresSchemas(checkpoints);
        }
    }

    // ---- 12: logging -------------------------------------------------------------------------------------------------

    @Test
    void aSuccessfulApplyIntoMariaDbWritesNothingOnStderr() throws Exception {
        String db = unique("ce_quiet");
        server.sql("CREATE DATABASE " + db);
        try (ChildCli child = ChildCli.start(temp, "apply", "--source", TYPES.toString(), "--target",
                "jdbc:mariadb://127.0.0.1:" + server.port() + "/" + db + "?user=root", "--checkpoint-table",
                db + ".lanes_checkpoint", "--json")) {
            assertEquals(0, child.waitFor(300), child.err());
            assertEquals("", child.err(), "the driver's WARN lines (Unknown database 'shop') are not shown");
        } finally {
            server.sql("DROP DATABASE IF EXISTS shop; DROP DATABASE " + db);
        }
    }

    // ---- 12: dump | head -----------------------------------------------------------------------------------------------

    /**
     * The reader of {@code dump}'s stdout goes away after two lines. The input ends in a bad event: decoding it all (the
     * old behaviour) ends in status 1 and a line on stderr; stopping at the closed pipe ends in 0, silently.
     */
    @Test
    void dumpStopsWhenItsReaderGoesAway() throws Exception {
        Path big = temp.resolve("big.000001");
        try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(GracefulStopTest.SYSBENCH))) {
            Files.copy(in, big);
        }
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.seek(f.length() - 10);
            f.write(0x5a ^ f.read()); // in the last event: its CRC32 no longer matches
        }
        assertEquals(1, DumpCommandTest.run("dump", big.toString()).code(), "the whole input ends in a bad event");
        try (ChildCli child = ChildCli.startPiped(temp, "dump", big.toString())) {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.process().getInputStream(),
                    StandardCharsets.UTF_8));
            assertTrue(out.readLine().startsWith("{\"file\":"));
            assertTrue(out.readLine().startsWith("{\"file\":"));
            out.close();
            assertEquals(0, child.waitFor(120), child.err());
            assertEquals("", child.err());
        }
    }

    // -------------------------------------------------------------------------------------------------------------------

    /** A JSON string's content (without its quotes) as text: the escapes the command line's JSON writer makes. */
    static String unescape(String json) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = json.charAt(++i);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> sb.append(e);
            }
        }
        return sb.toString();
    }

    static int count(String text, String part) {
        return (int) Pattern.compile(Pattern.quote(part)).matcher(text).results().count();
    }

    static void dropPostgresSchemas(String... schemas) throws Exception {
        try (Connection c = DriverManager.getConnection(PG, "postgres", null); Statement s = c.createStatement()) {
            for (String schema : schemas) {
                s.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
            }
        }
    }
}
