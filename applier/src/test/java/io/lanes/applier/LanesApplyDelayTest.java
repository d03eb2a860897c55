package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.encode.BinlogFlavor;
import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.binlog.encode.Table;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The apply delay (like MySQL's SOURCE_DELAY) keeps the target behind the source's commit times, and no further. */
class LanesApplyDelayTest {
    @TempDir
    Path temp;

    /** A log whose transactions committed at {@code epochMillis} on the source: one table, single-row inserts. */
    private Path logCommittedAt(long epochMillis, int rows) throws Exception {
        Path log = temp.resolve("src-bin-" + epochMillis + ".000001");
        long nowMicros = epochMillis * 1000L;
        Table t = Table.builder("shop", "items").integer("id").notNull().primaryKey().integer("qty").build();
        try (OutputStream out = Files.newOutputStream(log);
                BinlogWriter w = BinlogWriter.open(out, BinlogWriter.Options.builder(BinlogFlavor.MARIADB)
                        .startMicros(nowMicros).tickMicros(1).build())) {
            w.ddl("", "CREATE DATABASE shop");
            w.ddl("shop", "CREATE TABLE items (id INT NOT NULL PRIMARY KEY, qty INT)");
            for (int i = 1; i <= rows; i++) {
                w.beginTransaction();
                w.insert(t, new Object[] {i, i * 10});
                w.commit();
            }
        }
        return log;
    }

    private static long count(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"shop\".\"items\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void transactionsWaitUntilTheirCommitTimePlusTheDelay() throws Exception {
        Path log = logCommittedAt(System.currentTimeMillis(), 5);
        String url = "jdbc:h2:" + temp.resolve("target").toAbsolutePath();
        long started = System.nanoTime();
        try (Lanes lanes = Lanes.builder().source(log).target(url).scheduler("schema").workers(2)
                .applyDelay(Duration.ofSeconds(3)).build()) {
            lanes.start();
            Thread.sleep(1000);
            // the log's commit times are "now": nothing may be applied before 3 s have passed
            assertEquals(0, lanes.stats().transactions(), "applied before the delay was up");
            lanes.awaitCaughtUp(Duration.ofSeconds(60));
        }
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;
        assertTrue(elapsedMs >= 2_000, "the delay was not honoured: caught up after " + elapsedMs + " ms");
        assertEquals(5, count(url));
    }

    @Test
    void transactionsOlderThanTheDelayAreNotHeldBackAndTheOptionIsValidated() throws Exception {
        // committed two hours ago: a one-hour delay is already over for every transaction
        Path log = logCommittedAt(System.currentTimeMillis() - Duration.ofHours(2).toMillis(), 3);
        String url = "jdbc:h2:" + temp.resolve("target2").toAbsolutePath();
        long started = System.nanoTime();
        try (Lanes lanes = Lanes.builder().source(log).target(url).workers(1).applyDelay(Duration.ofHours(1))
                .build()) {
            lanes.start();
            lanes.awaitCaughtUp(Duration.ofSeconds(60));
        }
        assertTrue((System.nanoTime() - started) / 1_000_000 < 30_000);
        assertEquals(3, count(url));
        assertThrows(IllegalArgumentException.class, () -> Lanes.builder().applyDelay(Duration.ofSeconds(-1)));
        Properties p = new Properties();
        p.setProperty("lanes.source.files", log.toString());
        p.setProperty("lanes.target.url", url);
        p.setProperty("lanes.apply-delay-seconds", "7");
        assertEquals(Duration.ofSeconds(7), LanesConfig.fromProperties(p).applyDelay());
    }
}
