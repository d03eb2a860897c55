package io.lanes.examples.cli;

import static io.lanes.examples.cli.ApplyCommandTest.last;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.checkpoint.CheckpointRow;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lanes status} reads the checkpoint rows that {@code lanes apply} left in H2, PostgreSQL and MariaDB targets:
 * the low-water position equals the position the run reported, the rows were written during the run, and with
 * {@code --source-server} the distance equals the server's own end position minus the applied offset. The binlog is a
 * real MariaDB's (default settings but a binlog), written by the test's statements.
 */
class StatusCommandTest {
    private static final String PG = "jdbc:postgresql://127.0.0.1:5432/test";

    @TempDir
    Path temp;

    static String text(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\":\"([^\"]*)\"").matcher(json);
        assertTrue(m.find(), field + " in " + json);
        return m.group(1);
    }

    @Test
    void statusReadsTheCheckpointOfH2PostgresAndMariaDbTargets() throws Exception {
        String id = Long.toHexString(ProcessHandle.current().pid()) + "_" + Long.toHexString(System.nanoTime() & 0xffffff);
        String pgSchema = "lt_status_" + id;
        String myCkpt = "lt_status_ckpt_" + id;
        try (MariaDbServer server = MariaDbServer.startWithBinlog()) {
            server.sql("CREATE DATABASE shop; CREATE TABLE shop.items (id INT PRIMARY KEY, qty INT) ENGINE=InnoDB;"
                    + " INSERT INTO shop.items VALUES (1, 10), (2, 20); UPDATE shop.items SET qty = qty + 1;"
                    + " INSERT INTO shop.items VALUES (3, 30); DELETE FROM shop.items WHERE id = 1;");
            List<String> files = new ArrayList<>();
            for (Path f : server.binlogFiles()) {
                Path copy = temp.resolve(f.getFileName());
                Files.copy(f, copy);
                files.add(copy.toString());
            }
            Instant before = Instant.now().minusSeconds(1);
            String h2 = "jdbc:h2:" + temp.resolve("target").toAbsolutePath();
            String maria = server.jdbcUrl(null);
            List<String[]> targets = List.of(
                    new String[] {h2},
                    new String[] {PG, "--target-user", "postgres", "--checkpoint-table", pgSchema + ".ckpt"},
                    new String[] {maria, "--checkpoint-table", myCkpt + ".lanes_checkpoint"});
            try {
                for (String[] target : targets) {
                    List<String> apply = new ArrayList<>(List.of("apply", "--json", "--pipeline", "p1", "--source"));
                    apply.addAll(files);
                    apply.add("--target");
                    apply.addAll(List.of(target));
                    if (target[0].equals(maria)) {
                        // the target is the source server itself: its copy of shop goes to another database
                        Path props = temp.resolve("rename.properties");
                        Files.writeString(props, "lanes.schema.rename=shop=shop_copy\n");
                        apply.addAll(List.of("--config", props.toString()));
                    }
                    DumpCommandTest.Result applied = DumpCommandTest.run(apply.toArray(String[]::new));
                    assertEquals(0, applied.code(), applied.err());
                    String position = text(last(applied), "position");

                    List<String> status = new ArrayList<>(List.of("status", "--json", "--target"));
                    status.addAll(List.of(target));
                    DumpCommandTest.Result s = DumpCommandTest.run(status.toArray(String[]::new));
                    assertEquals(0, s.code(), s.err());
                    String json = last(s);
                    assertEquals("p1", text(json, "pipeline"), json);
                    assertEquals(position.split(" ")[0], text(json, "low_water_position"), target[0] + ": " + json);
                    assertEquals(0, ApplyCommandTest.number(json, "applied_beyond"), json);
                    Instant written = Instant.parse(text(json, "last_written"));
                    assertTrue(!written.isBefore(before) && !written.isAfter(Instant.now()), written + " " + json);

                    DumpCommandTest.Result missing = DumpCommandTest.run(concat(status, "--pipeline", "nope"));
                    assertEquals(1, missing.code(), "a pipeline without rows is an error: " + missing.err());
                    assertTrue(missing.err().contains("'nope'"), missing.err());
                }
                // With the source: the server's end now, and how far the MariaDB target's checkpoint is behind it
                // (the apply into the same server wrote to its binlog after the copied files ended)
                List<String> withSource = new ArrayList<>(List.of("status", "--json", "--target", maria,
                        "--checkpoint-table", myCkpt + ".lanes_checkpoint", "--source-server",
                        "127.0.0.1:" + server.port(), "--source-user", "root"));
                DumpCommandTest.Result s = DumpCommandTest.run(withSource.toArray(String[]::new));
                assertEquals(0, s.code(), s.err());
                String json = last(s);
                String[] end = server.sql("SHOW MASTER STATUS").trim().split("\t");
                assertEquals(end[0] + ":" + end[1], text(json, "end_position"), json);
                String lwm = text(json, "low_water_position");
                assertEquals(end[0], lwm.substring(0, lwm.lastIndexOf(':')), "one binlog file: " + json);
                long expectedBehind = Long.parseLong(end[1]) - Long.parseLong(lwm.substring(lwm.lastIndexOf(':') + 1));
                assertTrue(expectedBehind > 0, json);
                assertEquals(expectedBehind, ApplyCommandTest.number(json, "bytes_behind"), json);
                assertEquals(0, ApplyCommandTest.number(json, "files_behind"), json);

                // human output, and a source that cannot be asked is an error naming it
                DumpCommandTest.Result human = DumpCommandTest.run("status", "--target", h2);
                assertEquals(0, human.code(), human.err());
                assertTrue(String.join("\n", human.out()).contains("low-water position"), human.out().toString());
                DumpCommandTest.Result refused = DumpCommandTest.run("status", "--target", h2, "--source-server",
                        "127.0.0.1:" + server.port(), "--source-user", "nobody");
                assertEquals(1, refused.code(), refused.err());
                assertTrue(refused.err().contains("nobody"), refused.err());
            } finally {
                try (Connection c = DriverManager.getConnection(PG, "postgres", null); Statement st = c.createStatement()) {
                    st.execute("DROP SCHEMA IF EXISTS \"" + pgSchema + "\" CASCADE");
                    st.execute("DROP SCHEMA IF EXISTS \"shop\" CASCADE");
                }
            }
        }
    }

    private static String[] concat(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void appliedBeyondIsTheUnionOfTheWorkersBitsPastTheHighestLowWaterMark() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        // the engine's row says everything up to 10 is applied; worker 0 committed 11 and 13 beyond it (bits 0 and 2
        // past its own mark 10), worker 1 committed 12 and 13 (bits 3 and 4 past its older mark 8)
        List<CheckpointRow> rows = List.of(
                new CheckpointRow("p", -1, "bin.000001:1000 gtid=0-1-10", "0-1-10", new byte[0], 10, t0),
                new CheckpointRow("p", 0, "bin.000001:1000 gtid=0-1-10", "0-1-10", new byte[] {0b101}, 10,
                        t0.plusSeconds(5)),
                new CheckpointRow("p", 1, "bin.000001:800 gtid=0-1-8", "0-1-8", new byte[] {0b11000}, 8,
                        t0.plusSeconds(3)));
        PipelineStatus s = PipelineStatus.of("p", rows);
        assertEquals("bin.000001:1000 gtid=0-1-10", s.lowWaterPosition());
        assertEquals("0-1-10", s.gtidState());
        assertEquals(3, s.appliedBeyond(), "11, 12 and 13");
        assertEquals(t0.plusSeconds(5), s.lastWritten());
        assertEquals(3, s.rows());
    }
}
