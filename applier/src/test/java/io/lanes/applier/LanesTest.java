package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.jdbc.Dialect;
import io.lanes.core.CommitOrder;
import io.lanes.core.RecoveryPoint;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The facade end to end on the real sysbench fixture (10 schemas, MINIMAL metadata) into an H2 file database: a graceful
 * stop, an abort and a final run together apply everything exactly once (the source's checksums, where SUM(k) would
 * show an UPDATE k=k+1 applied twice or lost); failures stop with a position.
 */
class LanesTest {
    static final String FIXTURE = "/binlogs/mariadb-10.11/sysbench-10schemas-update-index.000001.gz";
    static final String EXPECTED = "/binlogs/mariadb-10.11/sysbench-10schemas-update-index.expected.tsv";
    static final String TYPES = "/binlogs/mariadb-10.11/types-full-metadata.000001";
    static final int SYSBENCH_TRANSACTIONS = 10_040;

    @TempDir
    Path temp;

    private Path copy(String resource, String name) throws Exception {
        Path out = temp.resolve(name);
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            assertNotNull(in, resource);
            Files.copy(in, out);
        }
        return out;
    }

    private LanesBuilder sysbench(Path binlog, String url) {
        // A small checkpoint group keeps reading close behind the low-water mark, so a stop lands mid-log.
        return Lanes.builder().source(binlog).target(url).scheduler("schema").workers(4)
                .checkpointPeriod(Duration.ofMillis(20)).checkpointGroupSize(64);
    }

    @Test
    void stopAbortAndResumeApplyEveryTransactionExactlyOnce() throws Exception {
        Path binlog = copy(FIXTURE, "sysbench-10schemas-update-index.000001.gz");
        String url = "jdbc:h2:" + temp.resolve("target").toAbsolutePath();

        // Run 1: graceful stop part-way.
        Lanes first = sysbench(binlog, url).build();
        RecoveryPoint fresh = first.start();
        assertNull(fresh.position());
        waitFor(first, 2_000);
        LanesStats s1 = first.stop();
        assertEquals(Lanes.State.STOPPED, first.state());
        assertTrue(s1.transactions() >= 2_000 && s1.transactions() < SYSBENCH_TRANSACTIONS, s1.toString());
        assertEquals(s1.transactionsRead(), s1.transactions(), "a graceful stop commits everything it read");
        assertTrue(s1.rows() > 0 && s1.events() > s1.transactions(), s1.toString());

        // Run 2: resumes exactly after run 1, then is aborted (no drain).
        Lanes second = sysbench(binlog, url).commitOrder(CommitOrder.NONE).build();
        RecoveryPoint rp = second.start();
        assertNotNull(rp.position());
        assertEquals(s1.transactions(), rp.lowWaterMark());
        waitFor(second, s1.transactions() + 2_000);
        second.abort();
        second.close();
        assertEquals(Lanes.State.STOPPED, second.state(), "an abort is not a failure");
        LanesStats s2 = second.stats();
        assertEquals(s1.transactions(), s2.transactionsSkipped(), "run 2 passed over exactly what run 1 committed");

        // Run 3: to the end.
        try (Lanes third = sysbench(binlog, url).build()) {
            third.start();
            assertTrue(third.awaitCaughtUp(Duration.ofMinutes(3)));
            assertEquals(Lanes.State.CAUGHT_UP, third.state());
            LanesStats s3 = third.stop();
            assertTrue(s3.transactionsSkipped() >= s1.transactions(), s3.toString());
            assertEquals(SYSBENCH_TRANSACTIONS, s3.transactionsSkipped() + s3.transactionsRead(), s3.toString());
            assertEquals(s3.sourceBytesTotal(), s3.sourceBytesRead(), "the gzip trailer gave the decompressed size");
        }
        assertEquals(expectedChecksums(), checksums(url));

        // Run 4: nothing left to do.
        try (Lanes fourth = sysbench(binlog, url).build()) {
            fourth.start();
            assertTrue(fourth.awaitCaughtUp(Duration.ofMinutes(1)));
            LanesStats s4 = fourth.stop();
            assertEquals(0, s4.transactions());
            assertEquals(SYSBENCH_TRANSACTIONS, s4.transactionsSkipped());
        }
        assertEquals(expectedChecksums(), checksums(url));
    }

    @Test
    void undecodableInputStopsWithTheFileAndOffset() throws Exception {
        Path good = copy(TYPES, "types.000001");
        byte[] bytes = Files.readAllBytes(good);
        bytes[50_000] ^= (byte) 0xff; // inside an event: its CRC32 no longer matches
        Path bad = temp.resolve("bad.000001");
        Files.write(bad, bytes);
        Lanes lanes = Lanes.builder().source(bad).target("jdbc:h2:mem:bad" + System.nanoTime() + ";DB_CLOSE_DELAY=-1")
                .workers(2).build();
        lanes.start();
        LanesException e = assertThrows(LanesException.class, () -> lanes.awaitCaughtUp(Duration.ofMinutes(1)));
        assertNotNull(e.position());
        assertTrue(e.position().startsWith(bad.toString() + ":"), e.position());
        long offset = Long.parseLong(e.position().substring(e.position().lastIndexOf(':') + 1));
        assertTrue(offset > 4 && offset <= 50_000, e.position());
        assertThrows(LanesException.class, lanes::stop);
        assertEquals(Lanes.State.FAILED, lanes.state());
        assertTrue(lanes.stats().transactions() > 0, "what came before the bad event was applied");
    }

    @Test
    void aRefusedTransactionStopsWithItsPosition() throws Exception {
        Path binlog = copy(FIXTURE, "sysbench-10schemas-update-index.000001.gz");
        String url = "jdbc:h2:mem:refused" + System.nanoTime() + ";DB_CLOSE_DELAY=-1" + Dialect.h2RecommendedUrlOptions();
        // A schema and a table of the same name but another shape are already there: the source's DDL or rows cannot
        // go into it (which of them fails first depends on how the DDL handler treats what already exists).
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA \"db3\"");
            s.execute("CREATE TABLE \"db3\".\"sbtest1\" (\"id\" INT PRIMARY KEY, \"note\" VARCHAR(10))");
        }
        Lanes lanes = sysbench(binlog, url).retries(0).build();
        lanes.start();
        LanesException e = assertThrows(LanesException.class, () -> lanes.awaitCaughtUp(Duration.ofMinutes(2)));
        assertNotNull(e.position(), e.getMessage());
        assertTrue(e.position().startsWith("sysbench-10schemas-update-index.000001.gz:"), e.position());
        assertTrue(e.getMessage().contains(e.position()), e.getMessage());
        LanesException again = assertThrows(LanesException.class, lanes::stop);
        assertEquals(e.position(), again.position());
        assertEquals(Lanes.State.FAILED, lanes.state());
    }

    @Test
    void aMissingSourceFileFailsAtStart() {
        Lanes lanes = Lanes.builder().source(temp.resolve("nope.000001")).target("jdbc:h2:mem:x").build();
        LanesException e = assertThrows(LanesException.class, lanes::start);
        assertTrue(e.getMessage().contains("nope.000001"), e.getMessage());
        assertThrows(IllegalStateException.class, lanes::start);
        assertThrows(LanesException.class, () -> lanes.awaitCaughtUp(Duration.ofMinutes(1)), "reports, never waits");
        assertEquals(Lanes.State.FAILED, lanes.state());
    }

    private static void waitFor(Lanes lanes, long transactions) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (lanes.stats().transactions() < transactions) {
            assertTrue(System.nanoTime() < deadline, "no progress: " + lanes.stats());
            assertTrue(lanes.state() != Lanes.State.FAILED, lanes.state().toString());
            Thread.sleep(5);
        }
    }

    private TreeMap<String, String> expectedChecksums() throws Exception {
        TreeMap<String, String> expected = new TreeMap<>();
        try (InputStream in = getClass().getResourceAsStream(EXPECTED)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    String[] f = line.split("\t");
                    expected.put(f[0], f[1] + " " + f[2] + " " + f[3]);
                }
            }
        }
        assertEquals(10, expected.size());
        return expected;
    }

    private static TreeMap<String, String> checksums(String url) throws Exception {
        TreeMap<String, String> actual = new TreeMap<>();
        Dialect d = Dialect.h2();
        try (Connection c = DriverManager.getConnection(url + Dialect.h2RecommendedUrlOptions());
                Statement s = c.createStatement()) {
            for (int i = 1; i <= 10; i++) {
                long rows = 0;
                long sumK = 0;
                long sumCrc = 0;
                try (ResultSet rs = s.executeQuery("SELECT id, k, c, pad FROM " + d.qualify("db" + i, "sbtest1"))) {
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
        }
        return actual;
    }
}
