package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.gtid.MySqlGtid;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every fixture decodes whole, and its decoded contents match what PROVENANCE.md and the servers' own tools say. */
class EventFixtureTest {

    static Stream<FixtureSupport.Provenance> provenance() {
        return FixtureSupport.provenance().stream();
    }

    static Stream<Path> binlogs() {
        return FixtureSupport.allBinlogs().stream();
    }

    @Test
    void provenanceCoversTheFixtures() {
        assertTrue(FixtureSupport.provenance().size() >= 25, "PROVENANCE.md rows parsed");
        assertTrue(FixtureSupport.allBinlogs().size() >= 27, "binlog fixtures found");
    }

    @ParameterizedTest
    @MethodSource("provenance")
    void eventCountsVersionsAndChecksumsMatchProvenance(FixtureSupport.Provenance p) {
        byte[] bytes = FixtureSupport.bytes(p.file());
        assertEquals(p.bytes(), bytes.length, "file size");
        FormatDescriptionEvent fde = null;
        try (BinlogReader r = BinlogReader.open(p.file())) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                if (e instanceof FormatDescriptionEvent f) {
                    fde = f;
                }
            }
        }
        assertNotNull(fde);
        // PROVENANCE abbreviates the Debian build's suffix (10.11.19-MariaDB-0+deb12u1-log) to its prefix
        assertTrue(fde.serverVersion().startsWith(p.serverVersion()), fde.serverVersion());
        assertEquals(p.checksum().equals("NONE") ? ChecksumAlgorithm.OFF : ChecksumAlgorithm.valueOf(p.checksum()),
                fde.checksumAlgorithm());
        if (p.counts() != null) {
            assertEquals(new java.util.TreeMap<>(p.counts()), FixtureSupport.countTypes(p.file()));
        }
    }

    @ParameterizedTest
    @MethodSource("binlogs")
    void positionsChainAndEveryEventIsTyped(Path file) {
        long expected = 4;
        long size = FixtureSupport.bytes(file).length;
        int events = 0;
        try (BinlogReader r = BinlogReader.open(file)) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                EventHeader h = e.header();
                assertEquals(expected, h.position(), "event " + events + " starts where the previous ended");
                if (h.nextPosition() != 0) {
                    assertEquals(h.position() + h.eventLength(), h.nextPosition(), "next_pos == pos + len at " + h.position());
                }
                if (e instanceof IgnorableEvent) {
                    assertTrue(h.hasFlag(EventHeader.FLAG_IGNORABLE), "only flagged events may stay untyped");
                    assertNull(h.type(), "a known type must be decoded, not ignored");
                }
                expected = h.endPosition();
                events++;
            }
        }
        assertEquals(size, expected, "the last event ends at the end of the file");
        assertTrue(events >= 3);
    }

    @Test
    void mariadb1011FixturesMatchMariadbBinlogCounts() {
        // Counts as `mariadb-binlog` (the server's own decoder) prints them for these files.
        assertEquals(Map.ofEntries(Map.entry("FORMAT_DESCRIPTION", 1), Map.entry("MARIA_GTID_LIST", 1),
                Map.entry("MARIA_BINLOG_CHECKPOINT", 1), Map.entry("MARIA_GTID", 22), Map.entry("QUERY", 15),
                Map.entry("MARIA_ANNOTATE_ROWS", 9), Map.entry("TABLE_MAP", 9), Map.entry("WRITE_ROWS_V1", 5),
                Map.entry("UPDATE_ROWS_V1", 3), Map.entry("DELETE_ROWS_V1", 2), Map.entry("XID", 7),
                Map.entry("ROTATE", 1)),
                FixtureSupport.countTypes(FixtureSupport.path("mariadb-10.11/types-full-metadata.000001")));
        assertEquals(Map.ofEntries(Map.entry("FORMAT_DESCRIPTION", 1), Map.entry("MARIA_GTID_LIST", 1),
                Map.entry("MARIA_BINLOG_CHECKPOINT", 1), Map.entry("MARIA_GTID", 10040), Map.entry("QUERY", 30),
                Map.entry("MARIA_ANNOTATE_ROWS", 10010), Map.entry("TABLE_MAP", 10010), Map.entry("WRITE_ROWS_V1", 240),
                Map.entry("UPDATE_ROWS_V1", 10000), Map.entry("XID", 10010), Map.entry("ROTATE", 1)),
                FixtureSupport.countTypes(FixtureSupport.path("mariadb-10.11/sysbench-10schemas-update-index.000001")));
    }

    @Test
    void mysql55LogWithoutChecksumDecodes() {
        List<BinlogEvent> ev = FixtureSupport.events("mysql-binlog-connector-java/mysql-bin.sakila");
        FormatDescriptionEvent fde = (FormatDescriptionEvent) ev.get(0);
        assertEquals("5.5.27-log", fde.serverVersion());
        assertEquals(ChecksumAlgorithm.UNDEFINED, fde.checksumAlgorithm());
        assertEquals(1374, FixtureSupport.ofType(ev, RowsEvent.class).size());
        assertTrue(FixtureSupport.ofType(ev, TableMapEvent.class).stream().allMatch(t -> t.schema().equals("sakila")));
    }

    @Test
    void gtidsAndLogicalClocks() {
        List<GtidEvent> g = FixtureSupport.ofType(FixtureSupport.events("rust-mysql-binlog/bin-log.000001"), GtidEvent.class);
        UUID sid = UUID.fromString("87cee3a4-6b31-11e7-bdfd-0d98d6698870");
        assertEquals(List.of(new MySqlGtid(sid, null, 14917), new MySqlGtid(sid, null, 14918), new MySqlGtid(sid, null, 14919)),
                g.stream().map(GtidEvent::gtid).toList());
        assertEquals(List.of(0L, 1L, 2L), g.stream().map(GtidEvent::lastCommitted).toList());
        assertEquals(List.of(1L, 2L, 3L), g.stream().map(GtidEvent::sequenceNumber).toList());
        PreviousGtidsEvent prev = FixtureSupport.ofType(FixtureSupport.events("rust-mysql-binlog/bin-log.000001"),
                PreviousGtidsEvent.class).get(0);
        assertEquals(sid + ":1-14916", prev.gtidSet());

        List<GtidEvent> anon = FixtureSupport.ofType(
                FixtureSupport.events("mysql-binlog-connector-java/mysql-bin.checksum-crc32"), GtidEvent.class);
        assertEquals(60, anon.size());
        assertTrue(anon.stream().allMatch(a -> a.anonymous() && a.gtid() == null && a.hasLogicalClock()));
        assertEquals(8, anon.stream().filter(a -> a.sequenceNumber() - a.lastCommitted() > 1).count(),
                "PROVENANCE: 8 parallelizable transactions");
    }

    @Test
    void taggedGtidsMySql96() {
        List<BinlogEvent> ev = FixtureSupport.events("rust_mysql_common/binlog_transaction_with_GTID_TAG.000001");
        GtidEvent g = FixtureSupport.ofType(ev, GtidEvent.class).get(0);
        assertEquals(EventType.GTID_TAGGED, g.type());
        assertEquals("55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:3", g.gtid().toString());
        assertEquals(0, g.lastCommitted());
        assertEquals(1, g.sequenceNumber());
        assertEquals(90600, g.immediateServerVersion());
        assertEquals(90600, g.originalServerVersion());
        assertEquals(296, g.transactionLength());
        assertEquals(1770368687207196L, g.immediateCommitTimestamp());
        PreviousGtidsEvent prev = FixtureSupport.ofType(ev, PreviousGtidsEvent.class).get(0);
        assertEquals("55778904-0299-11f1-b1b8-4ef0c4956feb:1-13,55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:1-2",
                prev.gtidSet());
        assertEquals("mytag", prev.entries().get(1).tag());
    }

    @Test
    void transactionLengthMatchesTheBytes() {
        // GTID events since 8.0 carry the transaction's length; it must equal the bytes up to the XID's end.
        List<BinlogEvent> ev = FixtureSupport.events("rust_mysql_common/binlog-invisible-columns.000001");
        for (int i = 0; i < ev.size(); i++) {
            if (ev.get(i) instanceof GtidEvent g) {
                long end = g.position() + g.transactionLength();
                assertTrue(ev.stream().anyMatch(e -> e.header().endPosition() == end), "a transaction ends at " + end);
            }
        }
    }

    @Test
    void queryTextsAndStatusVariables() {
        List<QueryEvent> q = FixtureSupport.ofType(FixtureSupport.events("rust-mysql-binlog/bin-log.000001"),
                QueryEvent.class);
        assertEquals("bltest", q.get(0).database());
        assertTrue(q.get(0).sql().startsWith("CREATE TABLE foo(id BIGINT AUTO_INCREMENT PRIMARY KEY"), q.get(0).sql());
        assertTrue(q.get(1).isBegin());
        QueryStatusVars vars = q.get(0).statusVars();
        assertNotNull(vars.sqlMode());
        assertNotNull(vars.charsetClient());
        assertEquals(-1, vars.firstUnknownCode());

        List<QueryEvent> maria = FixtureSupport.ofType(
                FixtureSupport.events("mariadb-10.11/types-full-metadata.000001"), QueryEvent.class);
        assertTrue(maria.stream().anyMatch(m -> m.statusVars().mariaXid() != null), "MariaDB Q_XID on DDL");
        assertTrue(maria.stream().allMatch(m -> m.statusVars().firstUnknownCode() == -1));
    }

    @Test
    void tableMapOptionalMetadata() {
        TableMapEvent t = FixtureSupport.ofType(FixtureSupport.events("rust_mysql_common/binlog-invisible-columns.000001"),
                TableMapEvent.class).get(0);
        assertEquals("mysql.t1", t.qualifiedName());
        assertEquals(List.of("f1", "f2", "f3", "f4", "f5", "f6"), t.columnNames());
        assertEquals(List.of(false, false, true, true, true, false), t.columns().stream().map(ColumnDef::visible).toList());
        assertEquals(List.of(true, true, false, false, false, true), t.columns().stream().map(ColumnDef::unsigned).toList());
        assertEquals(255, t.columns().get(3).charsetId());
        assertEquals(ColumnDef.BINARY_CHARSET, t.columns().get(4).charsetId());

        TableMapEvent e = FixtureSupport.ofType(FixtureSupport.events("rust_mysql_common/mysql-enum-string-set.000001"),
                TableMapEvent.class).get(0);
        assertEquals(List.of("var1", "variant2", "foo"), e.columns().get(2).enumValues());
        assertEquals(List.of("one", "two", "three", "four"), e.columns().get(3).setValues());
        assertEquals(ColumnType.STRING, e.columns().get(2).type());
        assertEquals(ColumnType.ENUM.code(), e.columns().get(2).meta() >>> 8, "real type in the metadata's high byte");

        List<TableMapEvent> v = FixtureSupport.ofType(FixtureSupport.events("rust_mysql_common/vector.binlog"),
                TableMapEvent.class);
        assertEquals(3, v.get(0).columns().get(1).vectorDimensions());
        assertEquals(List.of(0), v.get(0).primaryKey());
        assertEquals(List.of(-1, 2, -1, 4), v.get(1).columns().stream().map(ColumnDef::vectorDimensions).toList());
        // MySQL lists VECTOR columns (binary) among the character columns: the TEXT column after one is utf8mb4
        assertEquals(List.of(-1, 63, 255, 63), v.get(1).columns().stream().map(ColumnDef::charsetId).toList());

        TableMapEvent minimal = FixtureSupport.ofType(FixtureSupport.events("rust_mysql_common/minimal_row_metadata.000001"),
                TableMapEvent.class).get(0);
        assertFalse(minimal.hasColumnNames());

        TableMapEvent maria = FixtureSupport.ofType(FixtureSupport.events("rust_mysql_common/mariadb-bin.000001"),
                TableMapEvent.class).get(0);
        assertEquals("toddy_test.outbox", maria.qualifiedName());
        assertEquals(List.of("id", "topic", "event_type", "event", "created"), maria.columnNames());
        assertEquals(List.of("BLOB", "JSON", "PROTOBUF"), maria.columns().get(2).enumValues());
        assertEquals(List.of(0), maria.primaryKey());
    }

    @Test
    void mariaGtidsListsAndCheckpoints() {
        List<BinlogEvent> ev = FixtureSupport.events("rust_mysql_common/mariadb-bin.000001");
        List<MariaGtidEvent> g = FixtureSupport.ofType(ev, MariaGtidEvent.class);
        assertEquals(List.of("0-1-1", "0-1-2"), g.stream().map(x -> x.gtid().toString()).toList());
        assertTrue(g.stream().allMatch(x -> x.flags() == (MariaGtidEvent.FL_TRANSACTIONAL | MariaGtidEvent.FL_ALLOW_PARALLEL)));
        assertEquals("mariadb-bin.000001", FixtureSupport.ofType(ev, MariaBinlogCheckpointEvent.class).get(0).binlogFile());
        assertTrue(FixtureSupport.ofType(ev, MariaAnnotateRowsEvent.class).get(0).query()
                .startsWith("insert into outbox (topic, event_type, event) values ('foo',"));

        List<BinlogEvent> poc = FixtureSupport.events("mariadb-poc/domain_id_0/mariadb-repl-bin.000004");
        List<MariaGtidEvent> pg = FixtureSupport.ofType(poc, MariaGtidEvent.class);
        assertTrue(pg.stream().allMatch(x -> x.flags() == 12 || x.flags() == 41), "PROVENANCE: flags 12 or 41");
        assertTrue(pg.stream().noneMatch(x -> x.hasFlag(MariaGtidEvent.FL_GROUP_COMMIT_ID)));
        MariaGtidListEvent list = FixtureSupport.ofType(poc, MariaGtidListEvent.class).get(0);
        assertFalse(list.gtids().isEmpty());

        List<MariaGtidEvent> sb = FixtureSupport.ofType(
                FixtureSupport.events("mariadb-10.11/sysbench-10schemas-update-index.000001"), MariaGtidEvent.class);
        assertTrue(sb.stream().filter(x -> x.hasFlag(MariaGtidEvent.FL_GROUP_COMMIT_ID)).count() > 1000,
                "group-committed on the source: commit ids");
        assertTrue(sb.stream().filter(x -> x.commitId() >= 0).allMatch(x -> x.hasFlag(MariaGtidEvent.FL_GROUP_COMMIT_ID)));
    }

    @Test
    void transactionPayloadStreamsItsInnerEvents() {
        List<BinlogEvent> ev = FixtureSupport.events("mysql-binlog-connector-java/mysql-bin.compressed");
        TransactionPayloadEvent p = FixtureSupport.ofType(ev, TransactionPayloadEvent.class).get(0);
        assertEquals(TransactionPayloadEvent.COMPRESSION_ZSTD, p.compressionType());
        assertEquals(960, p.uncompressedSize());
        assertEquals(451, p.payloadSize());
        List<String> inner = new java.util.ArrayList<>();
        try (TransactionPayloadEvent.PayloadEvents it = p.events()) {
            it.forEachRemaining(e -> inner.add(FixtureSupport.typeName(e)));
        }
        assertEquals(List.of("QUERY", "TABLE_MAP", "UPDATE_ROWS_V2", "XID"), inner);
        // a second pass decodes the same (the event is immutable, each iterator independent)
        try (TransactionPayloadEvent.PayloadEvents it = p.events()) {
            assertTrue(((QueryEvent) it.next()).isBegin());
            TableMapEvent t = (TableMapEvent) it.next();
            assertEquals("demo.movies", t.qualifiedName());
            RowsEvent rows = (RowsEvent) it.next();
            assertEquals(t, rows.tableMap());
        }
    }

    @Test
    void auroraPaddingIsIgnorable() {
        List<BinlogEvent> ev = FixtureSupport.events("mysql-binlog-connector-java/mysql-bin.aurora-padding");
        IgnorableEvent pad = FixtureSupport.ofType(ev, IgnorableEvent.class).get(0);
        assertEquals(100, pad.header().typeCode());
        assertTrue(pad.header().eventLength() > 900);
    }

    @Test
    void typeFilterHandsOutOnlyChosenTypesButKeepsTableMaps() {
        BinlogReaderOptions opts = BinlogReaderOptions.builder()
                .eventTypes(EventType.WRITE_ROWS_V2, EventType.UPDATE_ROWS_V2, EventType.DELETE_ROWS_V2).build();
        int n = 0;
        try (BinlogReader r = BinlogReader.open(FixtureSupport.path("mysql-binlog-connector-java/mysql-bin.checksum-crc32"),
                opts)) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                RowsEvent rows = (RowsEvent) e;
                assertNotNull(rows.tableMap(), "table maps are tracked even when filtered out");
                n++;
            }
        }
        assertEquals(60, n);
    }

    @Test
    void headerOnlyScanSeesEveryEvent() {
        for (boolean verify : new boolean[] {true, false}) {
            BinlogReaderOptions opts = BinlogReaderOptions.builder().verifyChecksums(verify).build();
            int n = 0;
            long last = 0;
            try (BinlogReader r = BinlogReader.open(
                    FixtureSupport.path("mariadb-10.11/sysbench-10schemas-update-index.000001"), opts)) {
                for (EventHeader h; (h = r.nextHeader()) != null; ) {
                    n++;
                    last = h.endPosition();
                }
            }
            assertEquals(1 + 1 + 1 + 10040 + 30 + 10010 * 3 + 10000 + 240 + 1, n);
            assertEquals(9844684, last);
        }
    }

    @Test
    void severalFilesReadInOrder() {
        List<Path> files = List.of(FixtureSupport.path("mariadb-poc/domain_id_0/mariadb-repl-bin.000004"),
                FixtureSupport.path("mariadb-poc/domain_id_0/mariadb-repl-bin.000005"));
        int fdes = 0;
        String lastSource = null;
        try (BinlogReader r = BinlogReader.open(files, BinlogReaderOptions.defaults())) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                if (e instanceof FormatDescriptionEvent) {
                    fdes++;
                    assertEquals(4, e.position());
                }
                lastSource = r.currentSource();
            }
        }
        assertEquals(2, fdes);
        assertEquals(files.get(1).toString(), lastSource);
    }

    @Test
    void startingAtASavedPosition() {
        Path file = FixtureSupport.path("mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        List<BinlogTransaction> all = TransactionReaderTest.all("mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        BinlogTransaction tenth = all.get(9);
        // resume after the tenth transaction, as a checkpoint would
        try (TransactionReader r = new TransactionReader(BinlogReader.open(List.of(file), tenth.endPosition(),
                BinlogReaderOptions.defaults()))) {
            BinlogTransaction next = r.next();
            assertEquals(all.get(10).startPosition(), next.startPosition());
            int n = 1;
            while (r.next() != null) {
                n++;
            }
            assertEquals(50, n);
            assertEquals(0, r.droppedIncomplete());
        }
        // start in the middle of an event: the CRC (or the header) gives it away
        BinlogFormatException e = org.junit.jupiter.api.Assertions.assertThrows(BinlogFormatException.class, () -> {
            try (BinlogReader r = BinlogReader.open(List.of(file), tenth.endPosition() + 3, BinlogReaderOptions.defaults())) {
                while (r.next() != null) {
                    // drain
                }
            }
        });
        assertEquals(tenth.endPosition() + 3, e.offset());
        org.junit.jupiter.api.Assertions.assertThrows(BinlogFormatException.class,
                () -> BinlogReader.open(List.of(file), 50, BinlogReaderOptions.defaults()), "inside the FDE");
        org.junit.jupiter.api.Assertions.assertThrows(BinlogFormatException.class,
                () -> BinlogReader.open(List.of(file), 10_000_000, BinlogReaderOptions.defaults()), "past the end");
        try (BinlogReader r = BinlogReader.open(List.of(file), FixtureSupport.bytes(file).length,
                BinlogReaderOptions.defaults())) {
            assertNull(r.next(), "starting at the very end reads nothing");
        }
        // a .gz log skips by decompressing: resume after its 5000th transaction
        List<BinlogTransaction> sb = TransactionReaderTest.all("mariadb-10.11/sysbench-10schemas-update-index.000001");
        Path gz = FixtureSupport.path("mariadb-10.11/sysbench-10schemas-update-index.000001");
        try (TransactionReader r = new TransactionReader(BinlogReader.open(List.of(gz), sb.get(4999).endPosition(),
                BinlogReaderOptions.defaults()))) {
            assertEquals(sb.get(5000).gtid(), r.next().gtid());
        }
    }

    @ParameterizedTest
    @MethodSource("binlogs")
    void decodingTwiceGivesEqualEvents(Path file) {
        if (FixtureSupport.bytes(file).length > 1_000_000) {
            return; // the two large logs add nothing here
        }
        List<BinlogEvent> a = new java.util.ArrayList<>();
        List<BinlogEvent> b = new java.util.ArrayList<>();
        try (BinlogReader r = BinlogReader.open(file)) {
            r.forEach(a::add);
        }
        try (BinlogReader r = BinlogReader.open(file)) {
            r.forEach(b::add);
        }
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) instanceof Record) {
                assertEquals(a.get(i), b.get(i), "records compare by value, byte arrays by content");
                assertEquals(a.get(i).hashCode(), b.get(i).hashCode());
            } else {
                assertEquals(a.get(i).header(), b.get(i).header());
            }
        }
    }
}
