package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.testing.MariaDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logs written by a real MariaDB server while the test runs: compressed events (log_bin_compress), an encrypted log
 * (encrypt_binlog with the file_key_management plugin), and a log still open (FORMAT_DESCRIPTION with the in-use flag).
 */
class ReaderMariaDbLiveTest {

    private static final String LONG = "x".repeat(300);

    @Test
    void compressedQueryAndRowEventsDecode() throws Exception {
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--log-bin-compress=ON",
                "--log-bin-compress-min-len=10", "--binlog-row-metadata=FULL")) {
            server.sql("CREATE DATABASE lz; CREATE TABLE lz.t (id INT PRIMARY KEY, s TEXT, n BIGINT UNSIGNED);"
                    + "INSERT INTO lz.t VALUES (1, '" + LONG + "', 18446744073709551615), (2, NULL, 7);"
                    + "UPDATE lz.t SET s = CONCAT(s, 'y') WHERE id = 1;"
                    + "DELETE FROM lz.t WHERE id = 2;"
                    + "SET SESSION binlog_format = 'STATEMENT'; INSERT INTO lz.t VALUES (3, '" + LONG + "', 3);"
                    + "SET SESSION binlog_format = 'ROW';"
                    + "CREATE TABLE lz.g (id INT PRIMARY KEY, g GEOMETRY, name VARCHAR(10) CHARACTER SET latin1,"
                    + " note TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin);"
                    + "INSERT INTO lz.g VALUES (1, ST_GeomFromText('POINT(1 2)'), 'abc', 'n');");
            Path file = server.binlogFiles().get(0);
            Map<String, Integer> counts = new TreeMap<>();
            List<RowsEvent> rows = new ArrayList<>();
            List<QueryEvent> queries = new ArrayList<>();
            try (BinlogReader r = BinlogReader.open(file)) {
                for (BinlogEvent e; (e = r.next()) != null; ) {
                    counts.merge(FixtureSupport.typeName(e), 1, Integer::sum);
                    if (e instanceof RowsEvent re) {
                        rows.add(re);
                    } else if (e instanceof QueryEvent q) {
                        queries.add(q);
                    }
                    if (e instanceof FormatDescriptionEvent fde) {
                        assertTrue(fde.header().hasFlag(EventHeader.FLAG_BINLOG_IN_USE), "the server has the log open");
                    }
                }
            }
            assertEquals(2, counts.get("MARIA_WRITE_ROWS_COMPRESSED_V1"), counts.toString());
            assertEquals(1, counts.get("MARIA_UPDATE_ROWS_COMPRESSED_V1"), counts.toString());
            assertEquals(1, counts.get("MARIA_DELETE_ROWS_COMPRESSED_V1"), counts.toString());
            assertTrue(counts.getOrDefault("MARIA_QUERY_COMPRESSED", 0) >= 2, counts.toString());
            assertTrue(rows.stream().allMatch(RowsEvent::isCompressed));
            TableMapEvent g = rows.get(rows.size() - 1).tableMap();
            assertEquals("lz.g", g.qualifiedName());
            // MariaDB counts GEOMETRY among the character columns of the charset metadata (MySQL does not)
            assertEquals(List.of(-1, 63, 8, 46), g.columns().stream().map(ColumnDef::charsetId).toList());
            assertEquals(0, g.columns().get(1).geometryType(), "GEOMETRY_TYPE metadata: 0 = GEOMETRY (1 would be POINT)");
            rows.remove(rows.size() - 1);
            assertTrue(rows.stream().allMatch(x -> "lz".equals(x.schema()) && "t".equals(x.table())));
            assertEquals(List.of("id", "s", "n"), rows.get(0).tableMap().columnNames());
            assertTrue(rows.get(0).tableMap().columns().get(2).unsigned(), "SIGNEDNESS with binlog_row_metadata=FULL");
            QueryEvent insert = queries.stream().filter(q -> q.sql().startsWith("INSERT INTO lz.t VALUES (3")).findFirst()
                    .orElseThrow();
            assertTrue(insert.compressed());
            assertEquals("INSERT INTO lz.t VALUES (3, '" + LONG + "', 3)", insert.sql());
            assertTrue(queries.stream().anyMatch(q -> q.compressed() && q.sql().startsWith("CREATE TABLE lz.t")));

            // the inflated row images are complete: two rows written, one updated (two images), one deleted
            assertEquals(RowsEvent.Kind.WRITE, rows.get(0).kind());
            assertEquals(2, rows.get(0).rowCount());
            assertEquals(1, rows.get(1).rowCount());
            assertEquals(1, rows.get(2).rowCount());
            List<Row> written = rows.get(0).rows();
            assertEquals(1, ((Number) written.get(0).after(0)).intValue());
            assertEquals(LONG, text(written.get(0).after(1)));
            assertEquals("18446744073709551615", written.get(0).after(2).toString());
            assertEquals(null, written.get(1).after(1));
            Row updated = rows.get(1).rows().get(0);
            assertEquals(LONG, text(updated.before(1)));
            assertEquals(LONG + "y", text(updated.after(1)));
            assertEquals(2, ((Number) rows.get(2).rows().get(0).before(0)).intValue());

            assertV2CompressedLayoutDecodesTheSame(file, rows.get(0));

            List<BinlogTransaction> txns = new ArrayList<>();
            try (TransactionReader tr = TransactionReader.open(file)) {
                for (BinlogTransaction t; (t = tr.next()) != null; ) {
                    txns.add(t);
                }
            }
            assertEquals(2 + 4 + 2, txns.size(), "CREATE DATABASE, CREATE TABLE, four DML transactions, the GEOMETRY table");
        }
    }

    /**
     * MariaDB writes compressed row events in the v1 layout (166-168); the v2 layout (169-171) adds the extra-data header.
     * Rebuild the logged write event in the v2 layout and decode it in the same decoder state: same rows.
     */
    private static void assertV2CompressedLayoutDecodesTheSame(Path file, RowsEvent v1) throws java.io.IOException {
        byte[] log = Files.readAllBytes(file);
        BinlogEventDecoder d = new BinlogEventDecoder(file.toString());
        int at = 4;
        while (at < v1.position()) {
            int len = (int) ((log[at + 9] & 0xffL) | (log[at + 10] & 0xffL) << 8 | (log[at + 11] & 0xffL) << 16);
            d.decode(log, at, len, at);
            at += len;
        }
        int len = (int) v1.header().eventLength();
        byte[] v2 = new byte[len + 2];
        System.arraycopy(log, at, v2, 0, 19 + 8);          // header, table id, flags
        v2[19 + 8] = 2;                                     // extra-data length (itself only)
        System.arraycopy(log, at + 27, v2, 29, len - 27 - 4); // width, bitmap, compressed rows
        v2[4] = (byte) EventType.MARIA_WRITE_ROWS_COMPRESSED.code();
        EventSyntheticTest.putLe(v2, 9, v2.length, 4);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(v2, 0, v2.length - 4);
        EventSyntheticTest.putLe(v2, v2.length - 4, crc.getValue(), 4);
        RowsEvent decoded = (RowsEvent) d.decode(v2, 0, v2.length, at);
        assertEquals(2, decoded.version());
        assertTrue(decoded.isCompressed());
        assertEquals(v1.rows().toString(), decoded.rows().toString());
    }

    private static String text(Object value) {
        return value instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : String.valueOf(value);
    }

    @Test
    void encryptedLogStopsWithATypedError(@TempDir Path dir) throws Exception {
        Path keys = dir.resolve("keys.txt");
        Files.writeString(keys, "1;a7addd9adea9978fda19f21e6be987880e68ac92632ca052e5bb42b1a506939a\n");
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--plugin-load-add=file_key_management",
                "--file-key-management-filename=" + keys, "--encrypt-binlog=ON")) {
            server.sql("CREATE DATABASE secret; CREATE TABLE secret.t (id INT PRIMARY KEY); INSERT INTO secret.t VALUES (1);");
            Path file = server.binlogFiles().get(0);
            List<BinlogEvent> seen = new ArrayList<>();
            BinlogFormatException e = assertThrows(BinlogFormatException.class, () -> {
                try (BinlogReader r = BinlogReader.open(file)) {
                    for (BinlogEvent ev; (ev = r.next()) != null; ) {
                        seen.add(ev);
                    }
                }
            });
            assertEquals(2, seen.size(), "FORMAT_DESCRIPTION and START_ENCRYPTION decode");
            MariaStartEncryptionEvent start = (MariaStartEncryptionEvent) seen.get(1);
            assertEquals(1, start.scheme());
            assertEquals(12, start.nonce().length);
            assertEquals(file.toString(), e.source());
            assertEquals(start.header().endPosition(), e.offset());
            assertTrue(e.getMessage().contains("encrypted"), e.getMessage());

            // the header-only scan stops there too
            assertThrows(BinlogFormatException.class, () -> {
                try (BinlogReader r = BinlogReader.open(file)) {
                    while (r.nextHeader() != null) {
                        assertNotNull(r.currentSource());
                    }
                }
            });
        }
    }
}
