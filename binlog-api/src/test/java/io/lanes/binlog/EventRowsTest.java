package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.json.JsonDiff;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Row images through {@link RowsEvent#rows()} and the lazy {@link RowCursor}, on real fixtures. */
class EventRowsTest {

    @Test
    void cursorReadsOneColumnLikeTheMaterialisedRows() {
        for (RowsEvent e : FixtureSupport.ofType(
                FixtureSupport.events("mysql-binlog-connector-java/mysql-bin.checksum-crc32"), RowsEvent.class)) {
            List<Row> rows = e.rows();
            RowCursor c = e.cursor();
            int i = 0;
            while (c.next()) {
                assertEquals(i, c.rowIndex());
                int last = c.columnCount() - 1;
                // read only the last column: the cursor skipped the others
                Object v = e.hasAfterImage() ? c.after(last) : c.before(last);
                Object expected = e.hasAfterImage() ? rows.get(i).after(last) : rows.get(i).before(last);
                assertEquals(norm(expected), norm(v));
                i++;
            }
            assertEquals(rows.size(), i);
            assertEquals(rows.size(), e.rowCount());
        }
    }

    private static String norm(Object v) {
        return v instanceof byte[] b ? java.util.Arrays.toString(b) : String.valueOf(v);
    }

    @Test
    void imagesPerKind() {
        List<RowsEvent> ev = FixtureSupport.ofType(FixtureSupport.events("rust_mysql_common/mysql-enum-string-set.000001"),
                RowsEvent.class);
        Row w = ev.get(0).rows().get(0);
        assertNull(w.before());
        assertEquals(5, w.after().size());
        Row u = ev.get(1).rows().get(0);
        assertEquals(u.before(2), "var1");
        assertEquals(u.after(2), "variant2");
        Row d = ev.get(2).rows().get(0);
        assertNull(d.after());
        assertEquals("variant2", d.before(2));
        assertThrows(UnsupportedOperationException.class, () -> w.after().set(0, "x"), "rows are immutable");
    }

    @Test
    void decimalsDecodeExactly() {
        Row first = FixtureSupport.ofType(FixtureSupport.events("go-mysql/tcb-eval002c-bin.003320"), RowsEvent.class)
                .get(0).rows().get(0);
        assertEquals(new BigDecimal("-10.55"), first.after(1));
        assertEquals(new BigDecimal("-10.5500000000000000000000000"), first.after(11));
    }

    @Test
    void partialJsonUpdatesCarryTheirDiffs() {
        List<RowsEvent> ev = FixtureSupport.ofType(FixtureSupport.events("rust_mysql_common/json.binlog.000001"),
                RowsEvent.class);
        RowsEvent partial = ev.stream().filter(e -> e.kind() == RowsEvent.Kind.PARTIAL_UPDATE).findFirst().orElseThrow();
        RowsEvent fullUpdate = ev.stream().filter(e -> e.kind() == RowsEvent.Kind.UPDATE).findFirst().orElseThrow();
        List<Row> before = fullUpdate.rows();
        List<Row> rows = partial.rows();
        assertEquals(6, rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            assertNull(r.before(1), "minimal before image: only the key");
            assertNull(r.after(0), "the key is not in the after image");
            PartialJsonValue p = assertInstanceOf(PartialJsonValue.class, r.after(1));
            assertEquals(List.of(new JsonDiff(JsonDiff.Operation.REPLACE, "$.age", String.valueOf(r.after(3)))), p.diffs());
            // applied to the document the previous full update wrote, the diff gives age + 1 there
            String previous = (String) before.get(i).after(1);
            String now = p.applyTo(previous);
            assertTrue(now.contains("\"age\": " + r.after(3)), now);
        }
        RowCursor c = partial.cursor();
        c.next();
        assertTrue(c.isPartialJson(1));
        assertFalse(c.isPresent(0));
        assertFalse(c.isNull(2));
    }

    @Test
    void rowsOfUnknownTableAreATypedError() {
        // The ROWS event alone, without its TABLE_MAP (a stream that starts mid-transaction)
        List<BinlogEvent> ev = FixtureSupport.events("rust-mysql-binlog/bin-log.000001");
        RowsEvent rows = FixtureSupport.ofType(ev, RowsEvent.class).get(0);
        byte[] file = FixtureSupport.bytes(FixtureSupport.path("rust-mysql-binlog/bin-log.000001"));
        BinlogEventDecoder d = new BinlogEventDecoder("partial");
        FormatDescriptionEvent fde = (FormatDescriptionEvent) d.decode(file, 4, 119, 4);
        assertEquals("5.7.24-27-log", fde.serverVersion());
        RowsEvent orphan = (RowsEvent) d.decode(file, (int) rows.position(), (int) rows.header().eventLength(),
                rows.position());
        assertNull(orphan.tableMap());
        BinlogFormatException e = assertThrows(BinlogFormatException.class, orphan::rows);
        assertEquals(rows.position(), e.offset());
    }

    /**
     * Decoding an event in place (its array kept, not copied: the replication client's path) gives the same rows as
     * decoding a copy, for every ROWS event of real binlogs of both flavours, including MariaDB's compressed ones and a
     * file with events of every column type; and the event's array is then what the rows are read from.
     */
    @Test
    void decodingInPlaceGivesTheRowsOfDecodingACopy() {
        int rowsEvents = 0;
        for (String name : List.of("mysql-binlog-connector-java/mysql-bin.checksum-crc32",
                "mysql-binlog-connector-java/mysql-bin.sakila", "mariadb-10.11/types-full-metadata.000001",
                "mariadb-10.11/sysbench-10schemas-update-index.000001.gz")) {
            byte[] file = FixtureSupport.bytes(FixtureSupport.path(name));
            BinlogEventDecoder copying = new BinlogEventDecoder(name);
            BinlogEventDecoder inPlace = new BinlogEventDecoder(name);
            int events = 0;
            for (int at = 4; at + 19 <= file.length && events < 20_000; events++) {
                int len = (int) ((file[at + 9] & 0xffL) | (file[at + 10] & 0xffL) << 8 | (file[at + 11] & 0xffL) << 16
                        | (file[at + 12] & 0xffL) << 24);
                byte[] event = java.util.Arrays.copyOfRange(file, at, at + len);
                BinlogEvent a = copying.decodeIfAccepted(file, at, len, at);
                BinlogEvent b = inPlace.decodeRetainingIfAccepted(event, at);
                if (a instanceof RowsEvent ra) {
                    RowsEvent rb = (RowsEvent) b;
                    assertEquals(ra.rowDataLength(), rb.rowDataLength(), name + " at " + at);
                    assertEquals(String.valueOf(ra.rows()), String.valueOf(rb.rows()), name + " at " + at);
                    assertEquals(ra.includedColumns(), rb.includedColumns());
                    assertEquals(ra.includedColumnsAfter(), rb.includedColumnsAfter());
                    if (!rb.isCompressed() && rb.rowDataLength() > 0) {
                        // changing the event's array changes what the rows read: they are read from it
                        java.util.Arrays.fill(event, 19, event.length, (byte) 0x7f);
                        String changed;
                        try {
                            changed = String.valueOf(rb.rows());
                        } catch (BinlogFormatException e) {
                            changed = "unreadable: " + e.getMessage();
                        }
                        assertFalse(String.valueOf(ra.rows()).equals(changed), name + " at " + at);
                    }
                    rowsEvents++;
                } else {
                    assertEquals(a == null, b == null);
                }
                at += len;
            }
        }
        assertTrue(rowsEvents > 1000, rowsEvents + " ROWS events");
    }
}
