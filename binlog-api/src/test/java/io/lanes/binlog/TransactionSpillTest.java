package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.internal.SpillFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large transaction's row images beyond {@link BinlogReaderOptions#spillThresholdBytes()} wait in a temporary file:
 * on real logs (MariaDB's mixed workload with its 40,000-row INSERT, MySQL's compressed transaction payloads) every
 * transaction reads the same as held in the heap, while the heap holds about the threshold of each.
 */
class TransactionSpillTest {
    private static final long THRESHOLD = 16 << 10;

    @TempDir
    Path spillDir;

    @Test
    void spilledTransactionsReadTheSameAsTransactionsHeldInTheHeap() throws IOException {
        for (String fixture : List.of("mariadb-10.11/mixed-workload.000001.gz", "mysql-binlog-connector-java/mysql-bin.compressed",
                "mariadb-10.11/sysbench-1schema-4sessions-update-index.000001.gz")) {
            List<BinlogTransaction> held = TransactionReaderTest.all(fixture);
            // 16 KiB, and 1 byte: every row event after a transaction's first spilled
            for (long threshold : new long[] {THRESHOLD, 1}) {
                List<BinlogTransaction> spilled = read(fixture, threshold);
                assertEquals(held.size(), spilled.size(), fixture);
                for (int i = 0; i < held.size(); i++) {
                    assertSameTransaction(held.get(i), spilled.get(i), fixture + " spilled past " + threshold);
                }
                if (threshold == 1 && !fixture.endsWith(".compressed")) {
                    // (The MySQL payload fixtures hold one row event a transaction, which always stays in the heap;
                    // MariaDB's compressed row events are spilled by the campaign's odd seeds.)
                    assertTrue(spilled.stream().anyMatch(BinlogTransaction::hasSpilledRows), fixture);
                }
            }
        }
        List<BinlogTransaction> mixed = read("mariadb-10.11/mixed-workload.000001.gz", THRESHOLD);
        BinlogTransaction largest = mixed.stream().max((a, b) -> Long.compare(a.sizeBytes(), b.sizeBytes()))
                .orElseThrow();
        List<RowsEvent> rows = largest.rowsEvents();
        long resident = rows.stream().filter(r -> !r.rowsOnDisk()).mapToLong(RowsEvent::rowDataLength).sum();
        long onDisk = rows.stream().filter(RowsEvent::rowsOnDisk).mapToLong(RowsEvent::rowDataLength).sum();
        int largestEvent = rows.stream().mapToInt(RowsEvent::rowDataLength).max().orElseThrow();
        assertTrue(resident < THRESHOLD + largestEvent, "held in the heap: " + resident);
        assertTrue(onDisk > 20 * THRESHOLD, "in the file: " + onDisk);
        assertEquals(40_000, rows.stream().mapToInt(RowsEvent::rowCount).sum(), "counted before spilling");
        // Smaller transactions stay in the heap whole.
        assertTrue(mixed.stream().filter(t -> t.sizeBytes() < THRESHOLD)
                .allMatch(t -> t.rowsEvents().stream().noneMatch(RowsEvent::rowsOnDisk)));
        if (!System.getProperty("os.name").startsWith("Windows")) {
            try (Stream<Path> left = Files.list(spillDir)) {
                assertEquals(List.of(), left.toList(), "spill files are unlinked once open");
            }
        }
    }

    @Test
    void aCommittedTransactionsSpillFileIsReleasedAtOnce() {
        List<BinlogTransaction> mixed = read("mariadb-10.11/mixed-workload.000001.gz", THRESHOLD);
        BinlogTransaction small = mixed.stream().filter(t -> !t.rowsEvents().isEmpty() && t.sizeBytes() < THRESHOLD)
                .findFirst().orElseThrow();
        assertFalse(small.hasSpilledRows());
        small.releaseSpilledRows(); // nothing to release: its rows stay readable
        small.rowsEvents().forEach(RowsEvent::rows);
        List<BinlogTransaction> spilled = mixed.stream().filter(BinlogTransaction::hasSpilledRows).toList();
        assertFalse(spilled.isEmpty());
        BinlogTransaction large = spilled.get(0);
        RowsEvent onDisk = large.rowsEvents().stream().filter(RowsEvent::rowsOnDisk).findFirst().orElseThrow();
        assertEquals(onDisk.rowCount(), onDisk.rows().size());
        large.releaseSpilledRows();
        BinlogFormatException e = assertThrows(BinlogFormatException.class, onDisk::rows);
        assertTrue(e.getMessage().contains("cannot be read back"), e.getMessage());
        assertEquals(onDisk.rowCount(), onDisk.rowCount(), "the count needs no file");
        RowsEvent inHeap = large.rowsEvents().get(0);
        assertFalse(inHeap.rowsOnDisk());
        assertEquals(inHeap.rowCount(), inHeap.rows().size(), "the images held in the heap stay readable");
    }

    @Test
    void aSpillDirectoryThatCannotHoldTheFileStopsNamingTheTransaction() throws IOException {
        Path notADirectory = Files.writeString(spillDir.resolve("file"), "x");
        BinlogReaderOptions options = BinlogReaderOptions.builder().spillThresholdBytes(THRESHOLD)
                .spillDirectory(notADirectory).build();
        Path fixture = FixtureSupport.path("mariadb-10.11/mixed-workload.000001.gz");
        try (TransactionReader r = TransactionReader.open(List.of(fixture), options)) {
            BinlogFormatException e = assertThrows(BinlogFormatException.class, () -> {
                while (r.next() != null) {
                    // read until the first transaction larger than the threshold
                }
            });
            assertTrue(e.source().endsWith("mixed-workload.000001.gz"), e.getMessage());
            assertTrue(e.offset() > 0, e.getMessage());
            assertTrue(e.getMessage().contains("cannot be written to a temporary file in " + notADirectory),
                    e.getMessage());
        }
    }

    @Test
    void rowsWhoseFileIsGoneCannotBeReadAndSayWhere() throws IOException {
        SpillFile file = SpillFile.create(spillDir);
        BinlogTransaction t = TransactionReaderTest.all("mariadb-10.11/mixed-workload.000001.gz").stream()
                .filter(x -> !x.rowsEvents().isEmpty()).findFirst().orElseThrow();
        RowsEvent held = t.rowsEvents().get(0);
        RowsEvent spilled = held.spilledTo(file);
        assertTrue(spilled.rowsOnDisk());
        assertFalse(held.rowsOnDisk());
        assertEquals(held.rows().toString(), spilled.rows().toString());
        assertEquals(held.rowCount(), spilled.rowCount());
        file.close();
        BinlogFormatException e = assertThrows(BinlogFormatException.class, spilled::rows);
        assertEquals(held.position(), e.offset());
        assertTrue(e.getMessage().contains("cannot be read back"), e.getMessage());
    }

    /**
     * Rows that cannot be read when spilled (here: a stream that began after the event's TABLE_MAP) are written all the
     * same, and reading them later fails as it would have in the heap, naming the event's position.
     */
    @Test
    void rowsThatCannotBeCountedWhenSpilledFailWhenReadAsInTheHeap() throws IOException {
        RowsEvent held = TransactionReaderTest.all("mariadb-10.11/mixed-workload.000001.gz").stream()
                .flatMap(t -> t.rowsEvents().stream()).findFirst().orElseThrow();
        RowsEvent headless = new RowsEvent(held.header(), held.kind(), held.version(), held.isCompressed(),
                held.tableId(), held.flags(), held.extraData(), held.columnCount(), held.includedColumns(),
                held.includedColumnsAfter(), null, new byte[] {1, 2, 3}, "stream", 1234);
        try (SpillFile file = SpillFile.create(spillDir)) {
            RowsEvent spilled = headless.spilledTo(file);
            assertTrue(spilled.rowsOnDisk());
            BinlogFormatException inHeap = assertThrows(BinlogFormatException.class, headless::rowCount);
            BinlogFormatException onDisk = assertThrows(BinlogFormatException.class, spilled::rowCount);
            assertEquals(inHeap.getMessage(), onDisk.getMessage());
            assertEquals(held.position(), onDisk.offset());
            assertThrows(BinlogFormatException.class, spilled::rows);
        }
    }

    private List<BinlogTransaction> read(String fixture, long threshold) {
        BinlogReaderOptions options = BinlogReaderOptions.builder().spillThresholdBytes(threshold)
                .spillDirectory(spillDir).build();
        List<BinlogTransaction> out = new ArrayList<>();
        try (TransactionReader r = TransactionReader.open(List.of(FixtureSupport.path(fixture)), options)) {
            for (BinlogTransaction t; (t = r.next()) != null; ) {
                out.add(t);
            }
        }
        return out;
    }

    private static void assertSameTransaction(BinlogTransaction held, BinlogTransaction spilled, String fixture) {
        String what = fixture + " at " + held.startPosition();
        assertEquals(held.startPosition(), spilled.startPosition(), what);
        assertEquals(held.endPosition(), spilled.endPosition(), what);
        assertEquals(held.sizeBytes(), spilled.sizeBytes(), what);
        assertEquals(held.ending(), spilled.ending(), what);
        assertEquals(held.events().size(), spilled.events().size(), what);
        for (int i = 0; i < held.events().size(); i++) {
            BinlogEvent a = held.events().get(i);
            BinlogEvent b = spilled.events().get(i);
            assertEquals(a.position(), b.position(), what);
            assertEquals(a.getClass(), b.getClass(), what);
            if (a instanceof RowsEvent ra && b instanceof RowsEvent rb) {
                assertEquals(ra.rowCount(), rb.rowCount(), what);
                assertEquals(ra.rowDataLength(), rb.rowDataLength(), what);
                assertEquals(ra.rows().toString(), rb.rows().toString(), what + " event " + a.position());
            }
        }
    }
}
