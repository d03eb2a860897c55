package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.gtid.MariaDbGtid;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TransactionReaderTest {

    static List<BinlogTransaction> all(String... relative) {
        List<Path> files = Arrays.stream(relative).map(FixtureSupport::path).toList();
        List<BinlogTransaction> out = new ArrayList<>();
        try (TransactionReader r = TransactionReader.open(files, BinlogReaderOptions.defaults())) {
            for (BinlogTransaction t; (t = r.next()) != null; ) {
                out.add(t);
            }
            assertEquals(0, r.droppedIncomplete(), "complete fixtures drop nothing");
        }
        return out;
    }

    static Map<BinlogTransaction.Ending, Long> endings(List<BinlogTransaction> txns) {
        return txns.stream().collect(Collectors.groupingBy(BinlogTransaction::ending, Collectors.counting()));
    }

    @Test
    void checksumCrc32Has60RowTransactions() {
        List<BinlogTransaction> t = all("mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        assertEquals(60, t.size());
        assertEquals(Map.of(BinlogTransaction.Ending.XID, 60L), endings(t));
        long previousEnd = 0;
        for (BinlogTransaction x : t) {
            assertNull(x.gtid(), "anonymous GTIDs");
            assertInstanceOf(GtidEvent.class, x.events().get(0));
            assertEquals(x.events().get(0).position(), x.startPosition());
            assertTrue(x.startPosition() >= previousEnd);
            assertTrue(x.hasLogicalClock());
            assertTrue(x.sequenceNumber() > x.lastCommitted());
            assertEquals(1, x.tableMaps().size());
            assertEquals(1, x.rowsEvents().size());
            long bytes = x.events().stream().mapToLong(e -> e.header().eventLength()).sum();
            assertEquals(bytes, x.sizeBytes());
            assertEquals(x.startPosition() + x.sizeBytes(), x.endPosition(), "contiguous events");
            assertFalse(x.isDdl());
            previousEnd = x.endPosition();
        }
    }

    @Test
    void checksumNoneHasDdlAndRowTransactions() {
        List<BinlogTransaction> t = all("mysql-binlog-connector-java/mysql-bin.checksum-none");
        assertEquals(40, t.size());
        assertEquals(Map.of(BinlogTransaction.Ending.XID, 36L, BinlogTransaction.Ending.STANDALONE, 4L), endings(t));
        assertTrue(t.stream().filter(x -> x.ending() == BinlogTransaction.Ending.STANDALONE).allMatch(BinlogTransaction::isDdl));
    }

    @Test
    void gtidTransactionsCarryTheirGtid() {
        List<BinlogTransaction> t = all("rust-mysql-binlog/bin-log.000001");
        assertEquals(List.of("87cee3a4-6b31-11e7-bdfd-0d98d6698870:14917", "87cee3a4-6b31-11e7-bdfd-0d98d6698870:14918",
                "87cee3a4-6b31-11e7-bdfd-0d98d6698870:14919"), t.stream().map(x -> x.gtid().toString()).toList());
        assertTrue(t.get(0).isDdl());
        assertEquals(List.of("bltest"), t.get(1).schemas());
        assertEquals(2, t.get(2).lastCommitted());
        assertEquals(3, t.get(2).sequenceNumber());
    }

    @Test
    void sysbenchHas10000UpdateTransactionsPlusDdlAndLoads() {
        List<BinlogTransaction> t = all("mariadb-10.11/sysbench-10schemas-update-index.000001");
        assertEquals(10040, t.size());
        assertEquals(Map.of(BinlogTransaction.Ending.XID, 10010L, BinlogTransaction.Ending.STANDALONE, 30L), endings(t));
        List<BinlogTransaction> updates = t.stream().filter(x -> x.rowsEvents().stream()
                .anyMatch(r -> r.kind() == RowsEvent.Kind.UPDATE)).toList();
        assertEquals(10000, updates.size());
        for (BinlogTransaction u : updates) {
            assertInstanceOf(MariaDbGtid.class, u.gtid());
            assertEquals(1, u.rowsEvents().size());
            assertEquals(1, u.schemas().size());
            assertTrue(u.schemas().get(0).matches("db([1-9]|10)"), u.schemas().toString());
            assertEquals("sbtest1", u.tableMaps().get(0).table());
        }
        assertEquals(10, updates.stream().map(u -> u.schemas().get(0)).distinct().count());
        assertTrue(updates.stream().filter(BinlogTransaction::hasLogicalClock).count() > 1000, "group commit ids");
        assertEquals(30, t.stream().filter(BinlogTransaction::isDdl).count());
        // gtid sequence numbers of domain 0 rise by one per transaction
        long seq = ((MariaDbGtid) t.get(0).gtid()).sequence();
        for (BinlogTransaction x : t) {
            assertEquals(seq++, ((MariaDbGtid) x.gtid()).sequence());
        }
    }

    @Test
    void mariadbStatementLogGroupsStandaloneAndTransactional() {
        List<BinlogTransaction> t = all("mariadb-poc/domain_id_0/mariadb-repl-bin.000002");
        assertEquals(4433, t.size());
        assertEquals(Map.of(BinlogTransaction.Ending.XID, 4431L, BinlogTransaction.Ending.STANDALONE, 2L), endings(t));
        // statement format: the transactional groups hold only QUERY events between GTID and XID
        assertTrue(t.stream().filter(x -> x.ending() == BinlogTransaction.Ending.XID)
                .allMatch(x -> x.events().subList(1, x.events().size() - 1).stream().allMatch(e -> e instanceof QueryEvent)));
    }

    @Test
    void typesFixtureTransactions() {
        List<BinlogTransaction> t = all("mariadb-10.11/types-full-metadata.000001");
        assertEquals(22, t.size());
        assertEquals(Map.of(BinlogTransaction.Ending.XID, 7L, BinlogTransaction.Ending.STANDALONE, 15L), endings(t));
        assertEquals(15, t.stream().filter(BinlogTransaction::isDdl).count());
    }

    @Test
    void payloadEventsBecomeTheTransactionsEvents() {
        List<BinlogTransaction> t = all("mysql-binlog-connector-java/mysql-bin.compressed");
        assertEquals(1, t.size());
        BinlogTransaction x = t.get(0);
        assertEquals(List.of("ANONYMOUS_GTID", "QUERY", "TABLE_MAP", "UPDATE_ROWS_V2", "XID"),
                x.events().stream().map(FixtureSupport::typeName).toList());
        assertEquals(157, x.startPosition());
        assertEquals(724, x.endPosition());
        assertEquals(79 + 488, x.sizeBytes(), "the GTID plus the compressed payload as logged");
        assertEquals(List.of("demo"), x.schemas());
    }

    @Test
    void auroraPaddingStaysInsideItsTransactionWhichTheFileCutsShort() {
        // The fixture ends right after BEGIN: the transaction (GTID, padding, BEGIN) never commits, so it is dropped.
        try (TransactionReader r = TransactionReader.open(
                FixtureSupport.path("mysql-binlog-connector-java/mysql-bin.aurora-padding"))) {
            assertNull(r.next());
            assertEquals(1, r.droppedIncomplete());
        }
        byte[] bytes = FixtureSupport.bytes(FixtureSupport.path("mysql-binlog-connector-java/mysql-bin.aurora-padding"));
        // append a hand-made XID event (no checksum verification needed: checksum bytes computed below)
        byte[] xid = new byte[19 + 8 + 4];
        int pos = bytes.length;
        xid[4] = 16;
        putInt(xid, 9, xid.length);
        putInt(xid, 13, pos + xid.length);
        xid[19] = 42;
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(xid, 0, xid.length - 4);
        putInt(xid, xid.length - 4, (int) crc.getValue());
        byte[] whole = Arrays.copyOf(bytes, bytes.length + xid.length);
        System.arraycopy(xid, 0, whole, bytes.length, xid.length);
        try (TransactionReader r = new TransactionReader(BinlogReader.open(new ByteArrayInputStream(whole), "aurora+xid",
                BinlogReaderOptions.defaults()))) {
            BinlogTransaction t = r.next();
            assertEquals(List.of("ANONYMOUS_GTID", "type100", "QUERY", "XID"), t.events().stream()
                    .map(FixtureSupport::typeName).toList());
            assertEquals(42, ((XidEvent) t.events().get(3)).xid());
            assertEquals(whole.length, t.endPosition());
            assertNull(r.next());
        }
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }

    @Test
    void transactionsContinueAcrossFiles() {
        List<BinlogTransaction> t = all("mariadb-poc/domain_id_0/mariadb-repl-bin.000004",
                "mariadb-poc/domain_id_0/mariadb-repl-bin.000005");
        assertEquals(405 + 87, t.size());
        assertTrue(t.get(0).startFile().endsWith("000004"));
        assertTrue(t.get(t.size() - 1).endFile().endsWith("000005"));
    }

    @Test
    void inputEndingInsideATransactionDropsIt() {
        byte[] all = FixtureSupport.bytes(FixtureSupport.path("mysql-binlog-connector-java/mysql-bin.checksum-crc32"));
        // cut just before the 10th XID event: nine whole transactions, the tenth open
        long cut = 0;
        int xids = 0;
        try (BinlogReader r = BinlogReader.open(FixtureSupport.path("mysql-binlog-connector-java/mysql-bin.checksum-crc32"))) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                if (e instanceof XidEvent && ++xids == 10) {
                    cut = e.position();
                    break;
                }
            }
        }
        BinlogReader reader = BinlogReader.open(new ByteArrayInputStream(Arrays.copyOf(all, (int) cut)), "cut",
                BinlogReaderOptions.defaults());
        try (TransactionReader r = new TransactionReader(reader)) {
            int n = 0;
            while (r.next() != null) {
                n++;
            }
            assertEquals(9, n);
            assertEquals(1, r.droppedIncomplete());
        }
    }

    @Test
    void pushDecoderAndAssemblerGroupLikeTheReader() {
        // What a replication consumer does: whole event byte arrays in, decoded and grouped without a reader.
        for (String fixture : List.of("mariadb-10.11/types-full-metadata.000001",
                "mysql-binlog-connector-java/mysql-bin.compressed", "rust_mysql_common/binlog-invisible-columns.000001")) {
            byte[] file = FixtureSupport.bytes(FixtureSupport.path(fixture));
            BinlogEventDecoder decoder = new BinlogEventDecoder("push");
            TransactionAssembler assembler = new TransactionAssembler();
            List<BinlogTransaction> pushed = new ArrayList<>();
            int at = 4;
            while (at < file.length) {
                int len = (file[at + 9] & 0xff) | (file[at + 10] & 0xff) << 8 | (file[at + 11] & 0xff) << 16
                        | (file[at + 12] & 0xff) << 24;
                byte[] packet = Arrays.copyOfRange(file, at, at + len); // as a network packet would hold it
                assembler.accept(decoder.decode(packet, 0, len, at), "push");
                for (BinlogTransaction t; (t = assembler.poll()) != null; ) {
                    pushed.add(t);
                }
                at += len;
            }
            List<BinlogTransaction> read = all(fixture);
            assertEquals(read.size(), pushed.size(), fixture);
            for (int i = 0; i < read.size(); i++) {
                assertEquals(read.get(i).startPosition(), pushed.get(i).startPosition());
                assertEquals(read.get(i).endPosition(), pushed.get(i).endPosition());
                assertEquals(read.get(i).gtid(), pushed.get(i).gtid());
                assertEquals(read.get(i).events().size(), pushed.get(i).events().size());
            }
            assertFalse(assembler.insideTransaction());
        }
    }
}
