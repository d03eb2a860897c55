package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/**
 * Event types no fixture holds (MySQL-only or network-only events, pre-5.0 LOAD DATA, v3 logs), built byte by byte from
 * the layouts in MySQL's libbinlogevents and appended to a real server's FORMAT_DESCRIPTION event.
 */
class EventSyntheticTest {

    /** Builds a log: a real MySQL 8.0.40 FDE (CRC32), then the given events with correct lengths, positions, CRCs. */
    static final class Log {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final boolean crc;

        Log(byte[] prefix, boolean crc) {
            out.writeBytes(prefix);
            this.crc = crc;
        }

        static Log mysql80() {
            byte[] file = FixtureSupport.bytes(FixtureSupport.path("rust_mysql_common/minimal_row_metadata.000001"));
            return new Log(Arrays.copyOf(file, 4 + 122), true); // magic + FDE
        }

        Log add(int type, int flags, long nextPos, byte[] body) {
            int len = 19 + body.length + (crc ? 4 : 0);
            int pos = out.size();
            byte[] e = new byte[len];
            putLe(e, 0, 1_700_000_000L, 4);
            e[4] = (byte) type;
            putLe(e, 5, 42, 4);
            putLe(e, 9, len, 4);
            putLe(e, 13, nextPos < 0 ? pos + len : nextPos, 4);
            putLe(e, 17, flags, 2);
            System.arraycopy(body, 0, e, 19, body.length);
            if (crc) {
                CRC32 c = new CRC32();
                c.update(e, 0, len - 4);
                putLe(e, len - 4, c.getValue(), 4);
            }
            out.writeBytes(e);
            return this;
        }

        Log add(int type, byte[] body) {
            return add(type, 0, -1, body);
        }

        List<BinlogEvent> read() {
            List<BinlogEvent> events = new ArrayList<>();
            try (BinlogReader r = BinlogReader.open(new ByteArrayInputStream(out.toByteArray()), "synthetic",
                    BinlogReaderOptions.defaults())) {
                r.forEach(events::add);
            }
            return events;
        }
    }

    static void putLe(byte[] b, int at, long v, int n) {
        for (int k = 0; k < n; k++) {
            b[at + k] = (byte) (v >>> (8 * k));
        }
    }

    /** Concatenates parts: byte[], String (raw bytes), or Integer (one byte). */
    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof byte[] b) {
                o.writeBytes(b);
            } else if (p instanceof String s) {
                o.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            } else {
                o.write((Integer) p);
            }
        }
        return o.toByteArray();
    }

    static byte[] le(long v, int n) {
        byte[] b = new byte[n];
        putLe(b, 0, v, n);
        return b;
    }

    @Test
    void heartbeatsIncidentRandRowsQueryAndXaPrepare() {
        List<BinlogEvent> ev = Log.mysql80()
                .add(27, 0, 98765, bytes("binlog.000042"))
                .add(41, bytes(1, 13, "binlog.000043", 2, 9, 0xfe, le(123_456_789_012L, 8), 0))
                .add(26, bytes(le(1, 2), 11, "lost events"))
                .add(13, bytes(le(111, 8), le(222, 8)))
                .add(29, 0x80, -1, bytes(17, "INSERT INTO t VALUES (1)"))
                .add(38, bytes(0, le(1, 4), le(2, 4), le(1, 4), "abc"))
                .read();
        assertEquals(7, ev.size());
        HeartbeatEvent hb = (HeartbeatEvent) ev.get(1);
        assertEquals("binlog.000042", hb.logFile());
        assertEquals(98765, hb.logPosition());
        HeartbeatEvent hb2 = (HeartbeatEvent) ev.get(2);
        assertEquals(EventType.HEARTBEAT_V2, hb2.type());
        assertEquals("binlog.000043", hb2.logFile());
        assertEquals(123_456_789_012L, hb2.logPosition());
        IncidentEvent inc = (IncidentEvent) ev.get(3);
        assertEquals(1, inc.incidentType());
        assertEquals("lost events", inc.message());
        RandEvent rand = (RandEvent) ev.get(4);
        assertEquals(111, rand.seed1());
        assertEquals(222, rand.seed2());
        assertEquals("INSERT INTO t VALUES (1)", ((RowsQueryEvent) ev.get(5)).query());
        XaPrepareEvent xa = (XaPrepareEvent) ev.get(6);
        assertFalse(xa.onePhase());
        assertEquals(1, xa.formatId());
        assertArrayEquals("ab".getBytes(), xa.gtrid());
        assertArrayEquals("c".getBytes(), xa.bqual());
    }

    @Test
    void groupReplicationEvents() {
        String uuid = "d4b0c7f2-0000-11ee-8000-000000000001";
        byte[] tcePost = bytes(36, le(7, 4), 1, le(3, 4), le(2, 4), le(1, 4));
        byte[] tce = bytes(tcePost, uuid, new byte[] {9, 8, 7}, le(4, 2), "w1w1", le(2, 2), "w2", le(3, 2), "r1r");
        byte[] viewId = Arrays.copyOf("16856:7".getBytes(), 40);
        byte[] view = bytes(viewId, le(99, 8), le(1, 4), le(5, 4), "group", le(9, 4), "uuid:1-10");
        List<BinlogEvent> ev = Log.mysql80().add(36, 0x80, -1, tce).add(37, view).read();
        TransactionContextEvent t = (TransactionContextEvent) ev.get(1);
        assertEquals(uuid, t.serverUuid());
        assertEquals(7, t.threadId());
        assertTrue(t.gtidSpecified());
        assertArrayEquals(new byte[] {9, 8, 7}, t.encodedSnapshotVersion());
        assertEquals(List.of("w1w1", "w2"), t.writeSet());
        assertEquals(List.of("r1r"), t.readSet());
        ViewChangeEvent v = (ViewChangeEvent) ev.get(2);
        assertEquals("16856:7", v.viewId());
        assertEquals(99, v.sequenceNumber());
        assertEquals(Map.of("group", "uuid:1-10"), v.certificationInfo());
    }

    @Test
    void userVariablesNullAndInteger() {
        List<BinlogEvent> ev = Log.mysql80()
                .add(14, bytes(le(1, 4), "a", 1))
                .add(14, bytes(le(1, 4), "b", 0, 2, le(63, 4), le(8, 4), le(-5, 8), 0))
                .read();
        UserVarEvent a = (UserVarEvent) ev.get(1);
        assertTrue(a.isNull());
        UserVarEvent b = (UserVarEvent) ev.get(2);
        assertEquals("b", b.name());
        assertEquals(2, b.valueType());
        assertArrayEquals(le(-5, 8), b.value());
    }

    @Test
    void oldLoadDataFamily() {
        // LOAD (6, one-character sql_ex) and NEW_LOAD (12, length-prefixed sql_ex); then the file block events
        byte[] post = bytes(le(5, 4), le(1, 4), le(2, 4), 1, 2, le(2, 4));
        byte[] oldEx = bytes(",", "\"", "\n", 0, "\\", 1, 0);
        byte[] newEx = bytes(1, ",", 1, "\"", 1, "\n", 0, 1, "\\", 1);
        byte[] tail = bytes(1, 1, "a", 0, "b", 0, "t", 0, "db", 0, "/tmp/x.txt", 0);
        List<BinlogEvent> ev = Log.mysql80()
                .add(6, bytes(post, oldEx, tail))
                .add(12, bytes(post, newEx, tail))
                .add(8, bytes(new byte[18], le(77, 4), "first block"))
                .add(9, bytes(le(77, 4), "more"))
                .add(10, bytes(le(77, 4)))
                .add(11, bytes(le(77, 4)))
                .read();
        for (int i = 1; i <= 2; i++) {
            LoadEvent l = (LoadEvent) ev.get(i);
            assertEquals(5, l.threadId());
            assertEquals(2, l.skipLines());
            assertEquals("t", l.table());
            assertEquals("db", l.database());
            assertEquals(List.of("a", "b"), l.fieldNames());
            assertEquals("/tmp/x.txt", l.fileName());
            assertEquals(",", l.fieldTerminator());
            assertEquals("\n", l.lineTerminator());
        }
        assertEquals(77, ((CreateFileEvent) ev.get(3)).fileId());
        AppendBlockEvent append = (AppendBlockEvent) ev.get(4);
        assertEquals("more", new String(append.block()));
        assertEquals(77, ((ExecLoadEvent) ev.get(5)).fileId());
        assertEquals(77, ((DeleteFileEvent) ev.get(6)).fileId());
    }

    @Test
    void binlogFormatV3Log() {
        // MySQL 4.x: START_V3, then a QUERY without status variables, no checksums
        byte[] start = bytes(le(3, 2), Arrays.copyOf("4.0.30-log".getBytes(), 50), le(1_000_000, 4));
        byte[] query = bytes(le(9, 4), le(0, 4), 4, le(0, 2), "test", 0, "CREATE TABLE t (a INT)");
        Log log = new Log(new byte[] {(byte) 0xfe, 'b', 'i', 'n'}, false).add(1, start).add(2, query).add(3, new byte[0]);
        List<BinlogEvent> ev = log.read();
        StartV3Event s = (StartV3Event) ev.get(0);
        assertEquals(3, s.binlogVersion());
        assertEquals("4.0.30-log", s.serverVersion());
        QueryEvent q = (QueryEvent) ev.get(1);
        assertEquals("test", q.database());
        assertEquals("CREATE TABLE t (a INT)", q.sql());
        assertEquals(QueryStatusVars.NONE, q.statusVars());
        assertInstanceOf(StopEvent.class, ev.get(2));
    }

    @Test
    void statusVariablesOfEveryKind() {
        byte[] vars = bytes(0, le(0x4000, 4), 1, le(1L << 30, 8), 6, 3, "std", 3, le(2, 2), le(1, 2),
                4, le(33, 2), le(8, 2), le(45, 2), 5, 6, "+02:00", 7, le(1, 2), 8, le(45, 2), 9, le(3, 8),
                11, 4, "repl", 9, "localhost", 12, 2, "a", 0, "b", 0, 13, le(123456, 3), 16, 1, 17, le(77, 8),
                18, le(255, 2), 19, 1, 20, 0, 14, 99, 99);
        byte[] body = bytes(le(12, 4), le(3, 4), 2, le(0, 2), le(vars.length, 2), vars, "db", 0, "DROP TABLE x");
        QueryEvent q = (QueryEvent) Log.mysql80().add(2, body).read().get(1);
        QueryStatusVars v = q.statusVars();
        assertEquals(0x4000L, v.flags2());
        assertEquals(1L << 30, v.sqlMode());
        assertEquals("std", v.catalog());
        assertEquals(2, v.autoIncrementIncrement());
        assertEquals(1, v.autoIncrementOffset());
        assertEquals(33, v.charsetClient());
        assertEquals(8, v.collationConnection());
        assertEquals(45, v.collationServer());
        assertEquals("+02:00", v.timeZone());
        assertEquals(1, v.lcTimeNames());
        assertEquals(45, v.charsetDatabase());
        assertEquals(3L, v.tableMapForUpdate());
        assertEquals("repl", v.invokerUser());
        assertEquals("localhost", v.invokerHost());
        assertEquals(List.of("a", "b"), v.updatedDbNames());
        assertEquals(123456, v.microseconds());
        assertTrue(v.explicitDefaultsForTimestamp());
        assertEquals(77L, v.ddlXid());
        assertEquals(255, v.defaultCollationForUtf8mb4());
        assertEquals(1, v.sqlRequirePrimaryKey());
        assertEquals(0, v.defaultTableEncryption());
        assertEquals(14, v.firstUnknownCode(), "Q_COMMIT_TS is never written; like the server, parsing stops there");
        assertEquals("db", q.database());
        assertEquals("DROP TABLE x", q.sql());
        assertEquals(12, q.threadId());
        assertEquals(3, q.executionTime());
    }

    @Test
    void pushDecoderWithAssumedChecksumBeforeTheFde() {
        // A replication stream starts with an artificial ROTATE before any FORMAT_DESCRIPTION
        Log log = new Log(new byte[0], true).add(4, 0x20, 0, bytes(le(4, 8), "binlog.000007"));
        byte[] rotate = log.out.toByteArray();
        BinlogEventDecoder d = new BinlogEventDecoder("stream");
        d.assumeChecksum(ChecksumAlgorithm.CRC32);
        RotateEvent r = (RotateEvent) d.decode(rotate, 0, rotate.length, 0);
        assertEquals("binlog.000007", r.nextFile());
        assertEquals(4, r.nextPosition());
        assertTrue(r.header().hasFlag(EventHeader.FLAG_ARTIFICIAL));
        assertNull(d.formatDescription());
    }
}
