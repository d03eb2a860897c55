package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.lanes.binlog.encode.BinlogFlavor;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exhaustive hostile input on small logs: the file truncated at every offset, and every byte flipped. Every input goes
 * through every decoding path ({@link FuzzHarness#consume}) without checksum verification, where only
 * {@link BinlogFormatException} may come out; in addition a truncation inside an event must be reported (not read as a
 * clean end) at that event's offset, and with CRC32 verification every flipped byte must be detected before the event
 * that holds it is delivered.
 */
class FuzzExhaustiveTest {

    private static byte[] input(String name) {
        if (name.startsWith("synthesized-")) {
            byte[] full = FuzzHarness.synthesized(BinlogFlavor.valueOf(name.substring(12)), 99);
            return java.util.Arrays.copyOf(full, Math.min(full.length, 1500));
        }
        return FixtureSupport.bytes(FixtureSupport.path(name));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rust_mysql_common/minimal_row_metadata.000001",
        "rust_mysql_common/transaction_compression.000001", "rust_mysql_common/mariadb-bin.000001",
        "rust_mysql_common/binlog_transaction_with_GTID_TAG.000001", "rust_mysql_common/time_issue.000001",
        "synthesized-MARIADB", "synthesized-MYSQL8"})
    void truncatedAtEveryOffset(String name) {
        byte[] file = input(name);
        Set<Integer> boundaries = new HashSet<>();
        for (int[] e : FuzzHarness.events(file)) {
            boundaries.add(e[0]);
        }
        int lastEnd = FuzzHarness.events(file).stream().mapToInt(e -> e[0] + e[1]).max().orElse(4);
        boundaries.add(lastEnd);
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int cut = 0; cut < file.length; cut++) {
                byte[] in = java.util.Arrays.copyOf(file, cut);
                FuzzHarness.consume(in, false); // checksums cannot matter: the cut event is never whole
                if (cut < 4 || cut > lastEnd) {
                    continue;
                }
                BinlogFormatException error = readAll(in, false, new long[1]);
                if (boundaries.contains(cut)) {
                    assertEquals(null, error, name + " cut at event boundary " + cut + " reads cleanly");
                } else {
                    assertNotNull(error, name + " cut at " + cut + " inside an event must be reported");
                    int eventStart = 4;
                    for (int b : boundaries) {
                        if (b < cut && b > eventStart) {
                            eventStart = b;
                        }
                    }
                    assertEquals(eventStart, error.offset(), name + " cut at " + cut + ": " + error.getMessage());
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"rust_mysql_common/minimal_row_metadata.000001",
        "rust_mysql_common/transaction_compression.000001", "rust_mysql_common/mariadb-bin.000001",
        "rust_mysql_common/time_issue.000001", "synthesized-MARIADB", "synthesized-MYSQL8"})
    void everyByteFlipped(String name) {
        byte[] file = input(name);
        List<int[]> events = FuzzHarness.events(file);
        int lastEnd = events.get(events.size() - 1)[0] + events.get(events.size() - 1)[1];
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int at = 0; at < lastEnd; at++) {
                byte[] in = file.clone();
                in[at] ^= (byte) 0xff;
                FuzzHarness.consume(in, false); // with verification, readAll below must stop at the flipped event
                // every fixture here has CRC32: with verification, a flipped byte anywhere is an error, and no event
                // from the flipped one on is delivered
                long[] lastDelivered = {-1};
                BinlogFormatException error = readAll(in, true, lastDelivered);
                if (error == null) {
                    fail(name + ": flipping byte " + at + " went unnoticed with CRC32 verification");
                }
                int start = 0;
                for (int[] e : events) {
                    if (e[0] <= at) {
                        start = e[0];
                    }
                }
                assertTrue(lastDelivered[0] < start, name + ": flipping byte " + at + " (event at " + start
                        + ") still delivered the event at " + lastDelivered[0] + "; error: " + error.getMessage());
            }
        });
    }

    /** Reads every event (rows included); returns the format error, or null for a clean read. */
    private static BinlogFormatException readAll(byte[] in, boolean verify, long[] lastDelivered) {
        BinlogReaderOptions options = BinlogReaderOptions.builder().verifyChecksums(verify).build();
        try (BinlogReader r = BinlogReader.open(new ByteArrayInputStream(in), "cut", options)) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                lastDelivered[0] = e.position();
                if (e instanceof RowsEvent rows && rows.tableMap() != null) {
                    rows.rows();
                }
            }
            return null;
        } catch (BinlogFormatException e) {
            return e;
        }
    }
}
