package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.examples.cli.DumpCommandTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lanes apply}: one JSON line, resume without applying twice, exit codes 0/1/2. */
class ApplyCommandTest {
    static final Path TYPES = DumpCommandTest.FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");

    @TempDir
    Path temp;

    static long number(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\":(-?[0-9.]+)").matcher(json);
        assertTrue(m.find(), field + " in " + json);
        return (long) Double.parseDouble(m.group(1));
    }

    static String last(Result r) {
        assertFalse(r.out().isEmpty(), r.err());
        return r.out().get(r.out().size() - 1);
    }

    @Test
    void appliesEndsWithOneJsonLineAndResumesWithoutApplyingTwice() throws Exception {
        String url = "jdbc:h2:" + temp.resolve("target").toAbsolutePath();
        Result first = DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", url, "--workers", "3",
                "--scheduler", "writeset", "--block-commit", "4", "--json");
        assertEquals(0, first.code(), first.err());
        assertEquals(1, first.out().size(), "--json prints only the JSON line: " + first.out());
        String json = last(first);
        assertTrue(json.startsWith("{\"status\":\"ok\""), json);
        long transactions = number(json, "transactions");
        assertTrue(transactions > 10, json);
        assertTrue(number(json, "events") > transactions, json);
        assertTrue(number(json, "rows") > 0, json);
        assertTrue(json.contains("\"seconds\":") && json.contains("\"tps\":"), json);
        Matcher cpu = Pattern.compile("\"process_cpu_s\":([0-9.]+)").matcher(json);
        assertTrue(cpu.find() && Double.parseDouble(cpu.group(1)) > 0, "this process's CPU time: " + json);
        assertEquals(3, Pattern.compile("\"worker\":").matcher(json).results().count(), json);
        long customers = count(url, "customers");
        assertTrue(customers > 0);

        Result again = DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", url, "--workers", "3");
        assertEquals(0, again.code(), again.err());
        String json2 = last(again);
        assertEquals(0, number(json2, "transactions"), json2);
        assertEquals(transactions, number(json2, "skipped"), json2);
        assertTrue(again.out().size() > 1, "without --json a human summary comes first");
        assertEquals(customers, count(url, "customers"));
    }

    @Test
    void followsALiveServerUntilCaughtUpAndResumes() throws Exception {
        String url = "jdbc:h2:" + temp.resolve("live").toAbsolutePath();
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE USER repl@'%'; GRANT REPLICATION SLAVE, REPLICATION CLIENT, BINLOG MONITOR ON *.* TO "
                    + "repl@'%';");
            String[] status = server.sql("SHOW MASTER STATUS").trim().split("\t");
            String start = "file:" + status[0] + ":" + status[1];
            server.sql("CREATE DATABASE shop; CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(20));"
                    + " INSERT INTO shop.customers VALUES (1,'a'),(2,'b'); INSERT INTO shop.customers VALUES (3,'c');");
            String[] args = {"apply", "--source-server", "127.0.0.1:" + server.port(), "--source-user", "repl",
                "--source-start", start, "--target", url, "--until-caught-up", "--json"};
            Result first = DumpCommandTest.run(args);
            assertEquals(0, first.code(), first.err());
            assertEquals(3, count(url, "customers"));
            assertTrue(number(last(first), "transactions") >= 4, last(first)); // CREATE DATABASE, CREATE TABLE, 2 inserts

            server.sql("INSERT INTO shop.customers VALUES (4,'d'); DELETE FROM shop.customers WHERE id = 1;");
            Result second = DumpCommandTest.run(args);
            assertEquals(0, second.code(), second.err());
            assertEquals(2, number(last(second), "transactions"), last(second));
            assertEquals(3, count(url, "customers"));
        }
        assertEquals(2, DumpCommandTest.run("apply", "--source", TYPES.toString(), "--source-server", "h:1",
                "--target", url).code());
        assertEquals(2, DumpCommandTest.run("apply", "--source-server", "h:1", "--target", url).code());
    }

    @Test
    void followsALiveServerGivenAsAUrlFromAFilePositionOrAMariaDbGtid() throws Exception {
        String byFile = "jdbc:h2:" + temp.resolve("url-file").toAbsolutePath();
        String byGtid = "jdbc:h2:" + temp.resolve("url-gtid").toAbsolutePath();
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE shop; CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(20));"
                    + " INSERT INTO shop.customers VALUES (1,'a'),(2,'b');");
            String gtid = server.sql("SELECT @@gtid_binlog_pos").trim();
            assertTrue(gtid.matches("0-1-\\d+"), gtid);
            server.sql("INSERT INTO shop.customers VALUES (3,'c'); DELETE FROM shop.customers WHERE id = 2;");
            String base = "mysql://root@127.0.0.1:" + server.port();

            Result file = DumpCommandTest.run("apply", "--source", base + "?file=bin.000001&pos=4", "--target", byFile,
                    "--until-caught-up", "--json");
            assertEquals(0, file.code(), file.err());
            assertEquals(2, count(byFile, "customers"));

            // From the GTID: only what followed it arrives, so the target holds the table and the first rows already.
            try (Connection c = DriverManager.getConnection(byGtid + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE");
                    Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA \"shop\"");
                s.execute("CREATE TABLE \"shop\".\"customers\" (\"id\" INT PRIMARY KEY, \"name\" VARCHAR(20))");
                s.execute("INSERT INTO \"shop\".\"customers\" VALUES (1, 'x'), (2, 'y')");
            }
            Result fromGtid = DumpCommandTest.run("apply", "--source", base + "?gtid=" + gtid, "--target", byGtid,
                    "--until-caught-up", "--json");
            assertEquals(0, fromGtid.code(), fromGtid.err());
            assertEquals(2, number(last(fromGtid), "transactions"), last(fromGtid));
            assertEquals(2, count(byGtid, "customers"));
            assertEquals("x", name(byGtid, 1), "a row written before the GTID is not applied again");
        }
    }

    @Test
    void aSourceUrlSelectsTheGtidFlavourAndRefusesAPassword() {
        assertEquals(new SourceUrl("repl", "db1:3307", "gtid=0-1-5,1-2-7"),
                SourceUrl.parse("mysql://repl@db1:3307?gtid=0-1-5,1-2-7"));
        assertInstanceOf(StartPosition.MariaDbGtids.class, StartPosition.parse("gtid=0-1-5,1-2-7"));
        String uuid = "3E11FA47-71CA-11E1-9E33-C80AA9429562";
        assertEquals(new SourceUrl("repl", "db1:3306", "gtid=" + uuid + ":1-5"),
                SourceUrl.parse("mysql://repl@db1?gtid=" + uuid + ":1-5"));
        assertEquals(new SourceUrl("a b", "127.0.0.1:3306", "bin.000002:120"),
                SourceUrl.parse("mysql://a%20b@127.0.0.1:3306?file=bin.000002&pos=120"));
        assertEquals(new SourceUrl("repl", "[::1]:3306", null), SourceUrl.parse("mysql://repl@[::1]:3306"));

        Result withPassword = DumpCommandTest.run("apply", "--source", "mysql://repl:s3cr3t-pw@127.0.0.1:3306?gtid=0-1-1",
                "--target", "jdbc:h2:mem:url-pw");
        assertEquals(2, withPassword.code(), withPassword.err());
        assertTrue(withPassword.err().contains(ApplyCommand.SOURCE_PASSWORD_ENV), withPassword.err());
        assertFalse(withPassword.err().contains("s3cr3t-pw") || String.join("\n", withPassword.out()).contains("s3cr3t"),
                "the password is not echoed: " + withPassword.err());

        for (String bad : new String[] {"mysql://127.0.0.1:3306?gtid=0-1-1", "mysql://repl@h:99999?gtid=0-1-1",
            "mysql://repl@h:3306?file=bin.000001", "mysql://repl@h:3306?pos=4&file=bin.1&gtid=0-1-1",
            "mysql://repl@h:3306?file=bin.000001&pos=2", "mysql://repl@h:3306?fil=bin.000001&pos=4"}) {
            Result r = DumpCommandTest.run("apply", "--source", bad, "--target", "jdbc:h2:mem:url-bad");
            assertEquals(2, r.code(), bad + ": " + r.err());
            assertTrue(r.err().contains("--source"), bad + ": " + r.err());
        }
        assertEquals(2, DumpCommandTest.run("apply", "--source", "mysql://repl@h:1?gtid=0-1-1", TYPES.toString(),
                "--target", "jdbc:h2:mem:url-mix").code(), "a URL and files do not mix");
        assertEquals(2, DumpCommandTest.run("apply", "--source", "mysql://repl@h:1?gtid=0-1-1", "--source-server", "h:1",
                "--target", "jdbc:h2:mem:url-both").code(), "a URL and --source-server do not mix");
        assertEquals(2, DumpCommandTest.run("apply", "--source", "mysql://repl@h:1?gtid=0-1-1", "--source-start",
                "file:bin.000001:4", "--target", "jdbc:h2:mem:url-start").code(), "two starts contradict");
    }

    @Test
    void badInputExitsOneNamingTheOffset() throws Exception {
        byte[] bytes = Files.readAllBytes(TYPES);
        bytes[50_000] ^= (byte) 0xff;
        Path bad = temp.resolve("bad.000001");
        Files.write(bad, bytes);
        Result r = DumpCommandTest.run("apply", "--source", bad.toString(), "--target",
                "jdbc:h2:mem:cli-bad;DB_CLOSE_DELAY=-1", "--json");
        assertEquals(1, r.code(), r.err());
        String json = last(r);
        assertTrue(json.contains("\"status\":\"failed\"") && json.contains("\"failed_position\":\"" + bad + ":"), json);
        assertTrue(r.err().contains(bad + " at byte offset "), r.err());
    }

    @Test
    void aConfigFileSetsOptionsAndTheCommandLineWins() throws Exception {
        Path config = temp.resolve("lanes.properties");
        Files.writeString(config, "lanes.scheduler=schema\nlanes.workers=2\nlanes.block-commit=3\n"
                + "lanes.target.pipeline=from-file\n");
        String url = "jdbc:h2:" + temp.resolve("cfg").toAbsolutePath();
        Result r = DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", url, "--config",
                config.toString(), "--workers", "3", "--json");
        assertEquals(0, r.code(), r.err());
        String json = last(r);
        assertTrue(json.contains("\"scheduler\":\"schema\"") && json.contains("\"workers\":3")
                && json.contains("\"block_commit\":3"), json);
        assertEquals(3, Pattern.compile("\"worker\":").matcher(json).results().count(), json);
        try (Connection c = DriverManager.getConnection(url + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"lanes\".\"lanes_checkpoint\" "
                        + "WHERE \"pipeline\" = 'from-file'")) {
            rs.next();
            assertTrue(rs.getLong(1) > 0, "the pipeline name came from the file");
        }
        Files.writeString(config, "lanes.workres=2\n");
        assertEquals(2, DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", url, "--config",
                config.toString()).code(), "a misspelt key is bad usage");
    }

    @Test
    void badUsageExitsTwo() {
        assertEquals(2, DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", "jdbc:h2:mem:x",
                "--scheduler", "fastest").code());
        assertEquals(2, DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", "jdbc:oracle:x").code());
        assertEquals(2, DumpCommandTest.run("apply", "--target", "jdbc:h2:mem:x").code());
        assertEquals(2, DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", "jdbc:h2:mem:x",
                "--workers", "many").code());
    }

    /**
     * The mariadb-poc fixture of domain 1 (MariaDB 11.8: eleven account statements with passwords, one CREATE
     * DATABASE): account management is skipped and counted in the summary, no password reaches either stream; the
     * statement options are on the command line and checked.
     */
    @Test
    void accountStatementsAreCountedAndStatementOptionsChecked() throws Exception {
        Path poc = DumpCommandTest.FIXTURES.resolve("mariadb-poc/domain_id_1/mariadb-repl-bin.000002");
        String url = "jdbc:h2:" + temp.resolve("accounts").toAbsolutePath();
        Result r = DumpCommandTest.run("apply", "--source", poc.toString(), "--target", url, "--json");
        assertEquals(0, r.code(), r.err());
        String json = last(r);
        assertEquals(11, number(json, "account_statements_skipped"), json);
        assertEquals(0, number(json, "statements_filtered"), json);
        String all = String.join("\n", r.out()) + r.err();
        assertFalse(all.contains("zk<9ZL") || all.contains("MariaDB11!"), "a password reached the output");

        String help = String.join("\n", DumpCommandTest.run("apply", "--help").out());
        assertTrue(help.contains("--apply-account-statements") && help.contains("--triggers")
                && help.contains("--collation-map"), help);
        assertEquals(2, DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", "jdbc:h2:mem:x",
                "--triggers", "sometimes").code());
        assertEquals(2, DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", "jdbc:h2:mem:x",
                "--collation-map", "utf8mb4_0900_ai_ci").code());
    }

    @Test
    void schemaFileIsListedAndAnUnreadableOneStopsBeforeAnythingIsApplied() {
        String help = String.join("\n", DumpCommandTest.run("apply", "--help").out());
        assertTrue(help.contains("--schema-file") && help.replaceAll("\\s+", " ").contains("mysqldump --no-data"), help);
        Path missing = temp.resolve("no-such-schema.sql");
        String url = "jdbc:h2:" + temp.resolve("schema-file").toAbsolutePath();
        Result r = DumpCommandTest.run("apply", "--source", TYPES.toString(), "--target", url, "--schema-file",
                missing.toString());
        assertTrue(r.code() != 0, r.err());
        assertTrue(r.err().contains("cannot read the schema file " + missing), r.err());
        assertTrue(r.err().contains("nothing was applied"), r.err());
    }

    @Test
    void helpDocumentsExitCodesAndDefaults() {
        Result r = DumpCommandTest.run("apply", "--help");
        assertEquals(0, r.code());
        String help = String.join("\n", r.out());
        assertTrue(help.contains("Exit status") && help.contains("LANES_TARGET_PASSWORD"), help);
        assertTrue(help.contains("(default: writeset)") && help.contains("(default: 4)"), help);
    }

    private static String name(String url, int id) throws Exception {
        try (Connection c = DriverManager.getConnection(url + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT \"name\" FROM \"shop\".\"customers\" WHERE \"id\" = " + id)) {
            assertTrue(rs.next(), "row " + id);
            return rs.getString(1);
        }
    }

    private static long count(String url, String table) throws Exception {
        try (Connection c = DriverManager.getConnection(url + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"shop\".\"" + table + "\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
