package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.examples.cli.DumpCommandTest.Result;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The main job: {@code lanes demo} applies the bundled sysbench binlog and verifies it; a second run on the same target
 * applies nothing and still verifies; a target that differs is caught by the check.
 */
class DemoCommandTest {

    @Test
    void demoAppliesTheBundledBinlogAndVerifiesIt() throws Exception {
        String url = "jdbc:h2:mem:demo-test-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1" + Dialect.h2RecommendedUrlOptions();
        Result r = DumpCommandTest.run("demo", "--target", url);
        assertEquals(0, r.code(), r.err() + r.out());
        String json = ApplyCommandTest.last(r);
        assertTrue(json.contains("\"verified\":true"), json);
        assertTrue(r.out().stream().anyMatch(l -> l.startsWith("verified")), r.out().toString());
        assertEquals(10_040, ApplyCommandTest.number(json, "transactions"), json);
        assertEquals(20_000, ApplyCommandTest.number(json, "rows"), json);
        assertTrue(json.contains("\"scheduler\":\"schema\"") && json.contains("\"workers\":10"), json);
        int processors = Runtime.getRuntime().availableProcessors();
        boolean noted = r.out().stream().anyMatch(l -> l.contains("note: the embedded H2 target applies on this machine"));
        assertEquals(processors - 1 < 10, noted, "the in-process placement line, " + processors + " processors: " + r.out());

        Result again = DumpCommandTest.run("demo", "--target", url, "--json");
        assertEquals(0, again.code(), again.err());
        String json2 = ApplyCommandTest.last(again);
        assertEquals(0, ApplyCommandTest.number(json2, "transactions"), json2);
        assertEquals(10_040, ApplyCommandTest.number(json2, "skipped"), json2);
        assertTrue(json2.contains("\"verified\":true"), json2);

        // The check can fail: one changed value in one schema is caught.
        assertEquals("  note: the embedded H2 target applies on this machine's 2 processor(s), so work goes to 1 of the 10"
                + " workers (worker 0 does all of it); a database server target uses them all",
                DemoCommand.inProcessPlacement(url, 10, 2));
        assertEquals(null, DemoCommand.inProcessPlacement(url, 10, 16));
        assertEquals(null, DemoCommand.inProcessPlacement("jdbc:postgresql://h/db", 10, 2));
        Map<String, String> expected = DemoCommand.expectedChecksums();
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(expected, DemoCommand.checksums(c, Dialect.h2(), expected.keySet()));
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE \"db7\".\"sbtest1\" SET \"pad\" = 'x' WHERE \"id\" = 500");
            }
            Map<String, String> actual = DemoCommand.checksums(c, Dialect.h2(), expected.keySet());
            assertNotEquals(expected.get("db7"), actual.get("db7"));
            assertEquals(expected.get("db6"), actual.get("db6"));
        }
        Result changed = DumpCommandTest.run("demo", "--target", url, "--json");
        assertEquals(1, changed.code(), changed.err());
        assertTrue(ApplyCommandTest.last(changed).contains("\"verified\":false"));
    }
}
