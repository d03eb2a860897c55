package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.encode.BinlogFlavor;
import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.binlog.encode.Table;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source-side figures of {@link LanesStats}: rows applied, the source commit time of the last applied transaction
 * and the lag behind the source, from logs whose commit times the test chose.
 */
class LanesSourceLagTest {
    @TempDir
    Path temp;

    /** {@code transactions} transactions of two inserted rows each, all committed at {@code epochMillis} on the source. */
    private Path log(long epochMillis, int transactions) throws Exception {
        Path log = temp.resolve("lag-bin-" + epochMillis + ".000001");
        Table t = Table.builder("shop", "items").integer("id").notNull().primaryKey().integer("qty").build();
        try (OutputStream out = Files.newOutputStream(log);
                BinlogWriter w = BinlogWriter.open(out, BinlogWriter.Options.builder(BinlogFlavor.MARIADB)
                        .startMicros(epochMillis * 1000L).tickMicros(1).build())) {
            w.ddl("", "CREATE DATABASE shop");
            w.ddl("shop", "CREATE TABLE items (id INT NOT NULL PRIMARY KEY, qty INT)");
            for (int i = 1; i <= transactions; i++) {
                w.beginTransaction();
                w.insert(t, new Object[] {2 * i, i});
                w.insert(t, new Object[] {2 * i + 1, i});
                w.commit();
            }
        }
        return log;
    }

    @Test
    void aFinishedRunCountsItsRowsAndItsLastSourceCommitTimeAndIsNotBehind() throws Exception {
        for (int workers : new int[] {0, 3}) {
            long committedAt = System.currentTimeMillis() - Duration.ofMinutes(90).toMillis();
            Path log = log(committedAt, 40);
            String url = "jdbc:h2:mem:lag" + workers + System.nanoTime();
            try (Lanes lanes = Lanes.builder().source(log).target(url).workers(workers).build()) {
                lanes.start();
                assertTrue(lanes.awaitCaughtUp(Duration.ofSeconds(60)));
                LanesStats s = lanes.stats();
                assertEquals(80, s.rows(), "workers " + workers);
                assertEquals(s.rows(), s.rowsApplied(), "workers " + workers);
                assertEquals(committedAt / 1000 * 1000, s.lastAppliedSourceMillis(), "workers " + workers);
                assertEquals(s.sourcePosition(), s.appliedPosition(), "workers " + workers);
                assertEquals(0.0, s.sourceLagSeconds(), "caught up with the whole input: workers " + workers);
                assertEquals(-1, s.sourceBehindBytes());
                assertEquals(null, s.sourceEndPosition());
            }
        }
    }

    @Test
    void theLagRisesWhileTheTargetIsHeldBackAndFallsToZeroOnceApplied() throws Exception {
        long committedAt = System.currentTimeMillis();
        Path log = log(committedAt, 5);
        String url = "jdbc:h2:mem:held" + System.nanoTime();
        // the apply delay holds every transaction back until 3 s after its source commit time
        try (Lanes lanes = Lanes.builder().source(log).target(url).workers(2).applyDelay(Duration.ofSeconds(3))
                .build()) {
            lanes.start();
            Thread.sleep(800);
            LanesStats early = lanes.stats();
            Thread.sleep(1200);
            LanesStats later = lanes.stats();
            assertEquals(0, later.transactions(), "nothing may be applied within the delay");
            double expectedEarly = (System.currentTimeMillis() - 1200 - committedAt / 1000 * 1000) / 1000.0;
            assertTrue(Math.abs(early.sourceLagSeconds() - expectedEarly) < 0.5, early.sourceLagSeconds() + " vs "
                    + expectedEarly);
            assertTrue(later.sourceLagSeconds() >= early.sourceLagSeconds() + 1.0,
                    "the lag must rise while held back: " + early.sourceLagSeconds() + " then "
                            + later.sourceLagSeconds());
            assertTrue(lanes.awaitCaughtUp(Duration.ofSeconds(60)));
            LanesStats done = lanes.stats();
            assertEquals(0.0, done.sourceLagSeconds());
            assertEquals(10, done.rowsApplied());
        }
    }
}
