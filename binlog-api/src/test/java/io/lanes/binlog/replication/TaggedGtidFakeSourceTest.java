package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.FakeSourceTest.client;
import static io.lanes.binlog.replication.ReplicationTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.replication.internal.MySqlGtidSet;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real replication client against the fake source, starting from GTID sets with tags (MySQL 8.3+): the client sends
 * the set in the tagged COM_BINLOG_DUMP_GTID encoding, the source starts at the first transaction whose tagged GTID the
 * set lacks, and the stream's resume set gains the tagged GTIDs it passes, across cuts too.
 *
 * <p>The binlog is MySQL 9.6's {@code binlog_transaction_with_GTID_TAG.000001} (one transaction, {@code mytag:3}) with that
 * transaction repeated as {@code mytag:4} and {@code mytag:5}: the copies differ only in the GNO byte of the GTID_TAGGED
 * event, their log positions and checksums.
 */
class TaggedGtidFakeSourceTest {
    static final Path TAGGED = FakeSourceTest.FIXTURES.resolve("rust_mysql_common/binlog_transaction_with_GTID_TAG.000001");
    static final String U = "55778904-0299-11f1-b1b8-4ef0c4956feb";

    @Test
    void startsAfterTheTransactionsOfATaggedSetAndResumesWithTheTags(@TempDir Path tmp) throws Exception {
        Path file = threeTaggedTransactions(tmp);
        List<FileEvent> events = readEvents(file);
        List<Long> gtidPositions = new ArrayList<>();
        for (FileEvent f : events) {
            if (f.type() == 42) {
                gtidPositions.add(f.position());
                assertEquals(U + ":mytag:" + (gtidPositions.size() + 2), tagged(f.bytes()).toString());
            }
        }
        assertEquals(3, gtidPositions.size());
        // the set has mytag:1-3: the source starts at mytag:4, the second transaction
        assertStartsAt(file, U + ":1-13:MyTag:1-3", gtidPositions.get(1), U + ":mytag:4", U + ":1-13:mytag:1-5");
        // untagged 3-5 and another tag's 4-5 are other GTIDs: mytag:3 is still missing
        assertStartsAt(file, U + ":1-2:3-5:other:4-5:mytag:1-2", gtidPositions.get(0), U + ":mytag:3",
                U + ":1-5:mytag:1-5:other:4-5");
        // a gap: mytag:4 is missing, 3 and 5 are not (the fake streams on from the first missing transaction; a server
        // would also skip mytag:5)
        assertStartsAt(file, U + ":mytag:1-3:5", gtidPositions.get(1), U + ":mytag:4", U + ":mytag:1-5");
    }

    @Test
    void cutsInsideTaggedTransactionsResumeFromTheTaggedSet(@TempDir Path tmp) throws Exception {
        Path file = threeTaggedTransactions(tmp);
        List<FileEvent> events = readEvents(file);
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.mysqlGtidSet(U + ":mytag:1-2"))
                        .build()) {
            // inside the first transaction (after its GTID_TAGGED and BEGIN), then inside the third
            fake.cutAfterEvents(5, 16);
            c.start();
            List<ReplicationEvent> got = FakeSourceTest.pollToEnd(c, file.getFileName().toString(), Files.size(file));
            assertEquals(3, fake.dumps(), "two reconnects, each by GTID set");
            List<String> delivered = new ArrayList<>();
            for (ReplicationEvent e : got) {
                if (e.eventType() == 42) {
                    delivered.add(tagged(e.bytes()).toString());
                }
            }
            assertEquals(List.of(U + ":mytag:3", U + ":mytag:4", U + ":mytag:5"), delivered,
                    "each transaction once: the re-sent events of a cut one are skipped");
            assertStreamMatchesFiles(got, events, events.get(2).key());
            assertEquals(StartPosition.mysqlGtidSet(U + ":mytag:1-5"), got.get(got.size() - 1).resumePosition());
        }
    }

    private static void assertStartsAt(Path file, String start, long firstGtidAt, String firstGtid, String endSet)
            throws Exception {
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = client(fake, "pw").startPosition(StartPosition.mysqlGtidSet(start)).build()) {
            c.start();
            List<ReplicationEvent> got = FakeSourceTest.pollToEnd(c, file.getFileName().toString(), Files.size(file));
            ReplicationEvent first = got.stream().filter(e -> !e.isSynthetic() && e.eventType() != 15).findFirst()
                    .orElseThrow();
            assertEquals(42, first.eventType(), start + ": " + got);
            assertEquals(firstGtidAt, first.position(), start);
            assertEquals(firstGtid, tagged(first.bytes()).toString(), start);
            assertEquals(StartPosition.mysqlGtidSet(endSet), got.get(got.size() - 1).resumePosition(), start);
        }
    }

    private static MySqlGtidSet.TaggedGtid tagged(byte[] ev) {
        return MySqlGtidSet.readTaggedGtidEvent(ev, 19, ev.length - 4);
    }

    /** The fixture with its transaction as mytag:3, mytag:4 and mytag:5, then its ROTATE. */
    static Path threeTaggedTransactions(Path dir) throws Exception {
        List<FileEvent> src = readEvents(TAGGED);
        int gtid = -1;
        int rotate = -1;
        for (int i = 0; i < src.size(); i++) {
            gtid = src.get(i).type() == 42 && gtid < 0 ? i : gtid;
            rotate = src.get(i).type() == 4 ? i : rotate;
        }
        assertEquals(List.of(42, 2, 19, 30, 16), src.subList(gtid, rotate).stream().map(FileEvent::type).toList(),
                "GTID_TAGGED, BEGIN, TABLE_MAP, WRITE_ROWS, XID");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Files.readAllBytes(TAGGED), 0, 4);
        for (int i = 0; i < gtid; i++) {
            append(out, src.get(i).bytes());
        }
        for (long gno = 3; gno <= 5; gno++) {
            byte[] g = src.get(gtid).bytes().clone();
            // field 2 (the GNO, zig-zag, one variable-length byte: 3 -> 0x0c) right before field 3 (the 5-byte tag)
            int at = indexOf(g, new byte[] {0x04, 0x0c, 0x06, 0x0a});
            g[at + 1] = (byte) (4 * gno);
            append(out, g);
            for (int i = gtid + 1; i < rotate; i++) {
                append(out, src.get(i).bytes());
            }
        }
        append(out, src.get(rotate).bytes());
        Path file = dir.resolve("binlog.000004");
        Files.write(file, out.toByteArray());
        return file;
    }

    /** Appends an event with its end position and checksum set for where it lands. */
    private static void append(ByteArrayOutputStream out, byte[] event) {
        byte[] ev = event.clone();
        long end = out.size() + ev.length;
        for (int i = 0; i < 4; i++) {
            ev[13 + i] = (byte) (end >>> (8 * i));
        }
        CRC32 crc = new CRC32();
        crc.update(ev, 0, ev.length - 4);
        for (int i = 0; i < 4; i++) {
            ev[ev.length - 4 + i] = (byte) (crc.getValue() >>> (8 * i));
        }
        out.writeBytes(ev);
    }

    private static int indexOf(byte[] b, byte[] what) {
        int found = -1;
        for (int i = 0; i + what.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + what.length, what, 0, what.length)) {
                assertEquals(-1, found, "the pattern is found once");
                found = i;
            }
        }
        assertTrue(found >= 0, "the pattern is found");
        return found;
    }
}
