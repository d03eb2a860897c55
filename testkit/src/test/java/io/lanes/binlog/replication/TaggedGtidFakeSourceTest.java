package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.FakeSourceTest.client;
import static io.lanes.binlog.replication.ReplicationTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.testkit.FakeBinlogServer;
import io.lanes.binlog.gtid.MySqlGtid;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.replication.internal.MySqlGtidSetCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real replication client against the fake source, starting from GTID sets with tags (MySQL 8.3+): the client sends
 * the set in the tagged COM_BINLOG_DUMP_GTID encoding, the source starts at the first transaction whose tagged GTID the
 * set lacks, and the stream's resume set gains the tagged GTIDs it passes, across cuts too.
 *
 * <p>The binlog: {@link TaggedGtidBinlogs#taggedTransactions}, MySQL 9.6's tagged transaction as mytag:3, 4 and 5.
 */
class TaggedGtidFakeSourceTest {
    static final String U = TaggedGtidBinlogs.UUID;

    @Test
    void startsAfterTheTransactionsOfATaggedSetAndResumesWithTheTags(@TempDir Path tmp) throws Exception {
        Path file = TaggedGtidBinlogs.taggedTransactions(tmp, 3);
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
        Path file = TaggedGtidBinlogs.taggedTransactions(tmp, 3);
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

    private static MySqlGtid tagged(byte[] ev) {
        return MySqlGtidSetCodec.readTaggedGtidEvent(ev, 19, ev.length - 4);
    }
}
