package io.lanes.binlog.replication.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogEventDecoder;
import io.lanes.binlog.GtidEvent;
import io.lanes.binlog.PreviousGtidsEvent;
import io.lanes.binlog.gtid.MySqlGtid;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.internal.VarLen;
import io.lanes.binlog.gtid.GtidSetFormatException;
import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ReplicationException;
import io.lanes.binlog.replication.StartPosition;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/**
 * MySQL 8.3+ tagged GTIDs in the replication client's GTID set: the text form as the server reads and prints it, the
 * binary form of COM_BINLOG_DUMP_GTID (checked against a PREVIOUS_GTIDS event a MySQL 9.6 server wrote, and round-tripped
 * through the binlog decoder), GTID_TAGGED events, and the stream tracker's resume set.
 */
class TaggedGtidSetTest {
    /** A MySQL 9.6.0 binlog with one tagged transaction (see the PROVENANCE.md beside it). */
    static final Path TAGGED = Path.of("src/test/resources/binlogs/rust_mysql_common/binlog_transaction_with_GTID_TAG.000001");
    static final String U = "55778904-0299-11f1-b1b8-4ef0c4956feb";
    static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    static final String B = "4e11fa47-71ca-11e1-9e33-c80aa9429562";

    // ------------------------------------------------------------------------------------------------ text form

    @Test
    void parsesAndPrintsTaggedSetsAsMySqlDoes() {
        assertEquals(A + ":mytag:1-3", MySqlGtidSet.parse("3E11FA47-71CA-11E1-9E33-C80AA9429562:MyTag:1-3").toString());
        // per UUID: untagged intervals first, then the tags in alphabetical order; each UUID once
        assertEquals(A + ":1-3:ta:1-2:tb:5-6," + B + ":3",
                MySqlGtidSet.parse(B + ":3," + A + ":tb:5:ta:1-2," + A + ":1-3:TB:6").toString());
        // the example: untagged and tagged intervals of the same UUID in one element
        assertEquals(A + ":1-5:tag1:1-2," + B + ":3", MySqlGtidSet.parse(A + ":1-5:tag1:1-2," + B + ":3").toString());
        // a tag applies to the intervals after it, up to the next tag
        assertEquals(A + ":x:1-2:y:3:z:7", MySqlGtidSet.parse(A + ":x:1-2:y:3:z:7").toString());
        // whitespace around the items, empty elements, a UUID or tag without intervals: all as the server reads them
        assertEquals(A + ":1-3:tag:1-2," + B + ":2",
                MySqlGtidSet.parse(" " + A + " : 1 - 3 : Tag : 1 , ,\n" + B + ":2,," + A + ":tag:2").toString());
        assertEquals("", MySqlGtidSet.parse("").toString());
        assertEquals("", MySqlGtidSet.parse(" , ,").toString());
        assertEquals("", MySqlGtidSet.parse(A).toString());
        assertEquals("", MySqlGtidSet.parse(A + ":lonely").toString());
        assertEquals(B + ":1", MySqlGtidSet.parse(A + ":lonely," + B + ":1").toString());
        String tag32 = "_234567890abcdefghijklmnopqrstu_";
        assertEquals(32, tag32.length());
        assertEquals(A + ":" + tag32 + ":9223372036854775806",
                MySqlGtidSet.parse(A + ":" + tag32.toUpperCase() + ":9223372036854775806").toString());
        // merging keeps tags apart
        MySqlGtidSet s = MySqlGtidSet.parse(A + ":1-2:t:1");
        s.add(A, "T", 2);
        s.add(A, null, 3);
        s.add(A.toUpperCase(), "", 5);
        assertEquals(A + ":1-3:5:t:1-2", s.toString());
        assertTrue(s.contains(A, "t", 2));
        assertTrue(s.contains(A, "T", 2));
        assertFalse(s.contains(A, "t", 3));
        assertTrue(s.contains(A, 3));
        assertFalse(s.contains(A, "u", 1));
        assertEquals(s.toString(), MySqlGtidSet.parse(s.toString()).toString(), "what it prints, it reads");
    }

    @Test
    void rejectsMalformedSetsNamingTheTextAndOffset() {
        String tag33 = "a".repeat(33);
        Object[][] cases = {
            // text, offset of the first bad character
            {"nonsense:1", 0},
            {A.substring(1), 0},
            {A.replace('-', ':'), 0},
            {A.replace("-", ""), 0}, // the server reads only the dashed form in a set
            {A + ":", 37},
            {A + ":1-", 39},
            {A + ":0", 37},
            {A + ":01", 37}, // the server would read octal
            {A + ":0x1f", 37}, // and hex
            {A + ":+5", 37},
            {A + ":5-3", 39},
            {A + ":1:2x", 40},
            {A + ":ta-g:1", 39},
            {A + ":9tag:1", 38},
            {A + ":" + tag33 + ":1", 37 + 32},
            {A + ":t\u00e9g:1", 38},
            {A + ":9223372036854775807", 37},
            {A + ":1-99999999999999999999", 39},
            {A + ":1;" + B + ":1", 38},
            {A + ":1 2", 39},
            {A + ":1," + B + "x:1", 39 + 36},
        };
        for (Object[] c : cases) {
            String text = (String) c[0];
            GtidSetFormatException e = assertThrows(GtidSetFormatException.class, () -> MySqlGtidSet.parse(text), text);
            assertEquals(text, e.text());
            assertEquals((int) c[1], e.offset(), text + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("'" + text + "'") && e.getMessage().contains("offset " + c[1]),
                    e.getMessage());
        }
        // the public entry points check the set (the record's constructor, used per transaction by the stream, does not)
        assertThrows(GtidSetFormatException.class, () -> StartPosition.mysqlGtidSet(A + ":tag"
                + "_that_is_far_too_long_to_be_a_tag:1"));
        assertThrows(GtidSetFormatException.class, () -> StartPosition.parse("mysql-gtid:" + A + ":0"));
        assertEquals(new StartPosition.MySqlGtids(A + ":1-5:MyTag:1-3"),
                StartPosition.parse("mysql-gtid:" + A + ":1-5: MyTag:1-3"));
        assertThrows(IllegalArgumentException.class, () -> MySqlGtidSet.parse(A).add(A, "9bad", 1));
        assertThrows(IllegalArgumentException.class, () -> MySqlGtidSet.parse(A).add(A, "t", 0));
    }

    // ------------------------------------------------------------------------------------------------ binary form

    @Test
    void encodesATaggedSetByteForByteAsMySql96WroteItsPreviousGtids() throws Exception {
        byte[] prev = eventsOf(Files.readAllBytes(TAGGED)).stream().filter(e -> (e[4] & 0xff) == 35).findFirst()
                .orElseThrow();
        byte[] body = Arrays.copyOfRange(prev, 19, prev.length - 4); // CRC32 after it
        MySqlGtidSet set = MySqlGtidSet.parse(U + ":1-13:mytag:1-2");
        assertTrue(set.hasTags());
        assertArrayEquals(body, encode(set));
        assertEquals(body.length, MySqlGtidSetCodec.encodedLength(set));
        // the header word: format 1 in the top byte and the low byte, 2 sources in between
        assertEquals((1L << 56) | (2L << 8) | 1, Unpooled.wrappedBuffer(body).getLongLE(0));
        assertEquals(set.toString(), MySqlGtidSetCodec.decode(Unpooled.wrappedBuffer(body)).toString());
    }

    @Test
    void untaggedSetsKeepTheOriginalFormatForOlderServers() {
        MySqlGtidSet set = MySqlGtidSet.parse(A + ":1-5:7," + B + ":3");
        assertFalse(set.hasTags());
        byte[] b = encode(set);
        ByteBuf buf = Unpooled.wrappedBuffer(b);
        assertEquals(2, buf.getLongLE(0));
        assertEquals(8 + 2 * (16 + 8) + 3 * 16, b.length);
        assertEquals(2, buf.getLongLE(24)); // A's interval count right after its UUID: no tag bytes
        assertEquals(set.toString(), MySqlGtidSetCodec.decode(buf).toString());
    }

    @Test
    void taggedEncodingRoundTripsThroughTheBinlogDecodersPreviousGtids() throws Exception {
        List<byte[]> events = eventsOf(Files.readAllBytes(TAGGED));
        byte[] fde = events.get(0);
        String[] sets = {
            A + ":1-5:tag1:1-2," + B + ":3",
            A + ":x:1-2:y:3:z:7:9-11",
            A + ":1," + B + ":" + "q".repeat(32) + ":1-9223372036854775806",
            B + ":_:1",
            A + ":1-3:7:9," + B + ":1", // untagged: the original format
        };
        for (String text : sets) {
            MySqlGtidSet set = MySqlGtidSet.parse(text);
            byte[] body = encode(set);
            byte[] ev = event(35, body, 4 + fde.length);
            BinlogEventDecoder decoder = new BinlogEventDecoder("roundtrip");
            decoder.decode(fde, 0, fde.length, 4);
            BinlogEvent decoded = decoder.decode(ev, 0, ev.length, 4 + fde.length);
            PreviousGtidsEvent p = assertInstanceOf(PreviousGtidsEvent.class, decoded, text);
            // the decoder prints each tagged source as its own element; the same set once re-read
            assertEquals(set.toString(), MySqlGtidSet.parse(p.gtidSet()).toString(), text);
            assertEquals(set.toString(), MySqlGtidSetCodec.decode(Unpooled.wrappedBuffer(body)).toString(), text);
        }
    }

    @Test
    void variableLengthIntegersMatchTheDecodersReader() {
        long[] values = {0, 1, 5, 32, 127, 128, 255, 16383, 16384, (1L << 21) - 1, 1L << 21, (1L << 49), (1L << 56) - 1,
            1L << 56, Long.MAX_VALUE, -1};
        for (long v : values) {
            ByteBuf out = Unpooled.buffer();
            MySqlGtidSetCodec.writeVarLen(out, v);
            assertEquals(MySqlGtidSetCodec.varLenSize(v), out.readableBytes(), "size of " + v);
            byte[] b = new byte[out.readableBytes()];
            out.getBytes(0, b);
            assertEquals(v, VarLen.readUnsigned(new ByteReader(b, "varlen", 0)), "decoder reads " + v);
            assertEquals(v, MySqlGtidSetCodec.readVarLen(out), "reads back " + v);
        }
        ByteBuf five = Unpooled.buffer();
        MySqlGtidSetCodec.writeVarLen(five, 5);
        assertEquals(0x0a, five.getUnsignedByte(0), "a 5-byte tag's length is one byte, 5 << 1, as MySQL writes it");
    }

    @Test
    void decodeRejectsMalformedBinarySets() {
        ByteBuf unknownFormat = Unpooled.buffer().writeLongLE((2L << 56) | 1);
        assertThrows(ProtocolException.class, () -> MySqlGtidSetCodec.decode(unknownFormat));
        ByteBuf badTag = Unpooled.buffer().writeLongLE((1L << 56) | (1L << 8) | 1).writeZero(16).writeByte(4)
                .writeBytes("9abc".getBytes(StandardCharsets.US_ASCII)).writeLongLE(0);
        assertThrows(ProtocolException.class, () -> MySqlGtidSetCodec.decode(badTag));
        ByteBuf truncated = Unpooled.buffer().writeLongLE((1L << 56) | (3L << 8) | 1).writeZero(16);
        assertThrows(ProtocolException.class, () -> MySqlGtidSetCodec.decode(truncated));
    }

    // ---------------------------------------------------------------------------------------- GTID_TAGGED events

    @Test
    void readsTheIdentityOfARealGtidTaggedEvent() throws Exception {
        List<byte[]> events = eventsOf(Files.readAllBytes(TAGGED));
        byte[] tagged = events.stream().filter(e -> (e[4] & 0xff) == 42).findFirst().orElseThrow();
        MySqlGtid g = MySqlGtidSetCodec.readTaggedGtidEvent(tagged, 19, tagged.length - 4);
        assertEquals(U + ":mytag:3", g.toString());
        // the same as the binlog decoder reads
        BinlogEventDecoder decoder = new BinlogEventDecoder("fixture");
        long pos = 4;
        GtidEvent decoded = null;
        for (byte[] e : events) {
            BinlogEvent d = decoder.decode(e, 0, e.length, pos);
            pos += e.length;
            if (d instanceof GtidEvent ge) {
                decoded = ge;
            }
        }
        assertNotNull(decoded);
        assertEquals(decoded.gtid().toString(), g.toString());
        // truncated anywhere in the identity: a protocol error, never an out-of-bounds read
        for (int cut = 19; cut < 19 + 30; cut++) {
            int end = cut;
            assertThrows(ProtocolException.class, () -> MySqlGtidSetCodec.readTaggedGtidEvent(tagged, 19, end), "cut " + cut);
        }
    }

    /**
     * The decoder and the stream share one GTID_TAGGED parser; each reports bad input in its own terms: the decoder
     * with the file and byte offset, the protocol reader with the byte of the event, the stream with the connection and
     * its position.
     */
    @Test
    void oneParserReportsBadInputInEachCallersTerms() throws Exception {
        List<byte[]> events = eventsOf(Files.readAllBytes(TAGGED));
        int gtidAt = indexOfType(events, 42);
        long eventOffset = 4;
        for (int i = 0; i < gtidAt; i++) {
            eventOffset += events.get(i).length;
        }
        byte[] bad = events.get(gtidAt).clone();
        assertEquals(0x78, bad[20] & 0xff, "the payload size, 60 (the whole body), is the body's second byte");
        bad[20] = (byte) (63 << 1); // 63 bytes: more than the body has
        fixCrc(bad);

        BinlogEventDecoder decoder = new BinlogEventDecoder("fixture");
        long pos = 4;
        for (int i = 0; i < gtidAt; i++) {
            decoder.decode(events.get(i), 0, events.get(i).length, pos);
            pos += events.get(i).length;
        }
        long at = pos;
        io.lanes.binlog.BinlogFormatException file = assertThrows(io.lanes.binlog.BinlogFormatException.class,
                () -> decoder.decode(bad, 0, bad.length, at));
        assertEquals("fixture", file.source());
        assertEquals(eventOffset + 20, file.offset(), file.getMessage());
        assertTrue(file.getMessage().contains("payload size 63"), file.getMessage());

        ProtocolException protocol = assertThrows(ProtocolException.class,
                () -> MySqlGtidSetCodec.readTaggedGtidEvent(bad, 19, bad.length - 4));
        assertTrue(protocol.getMessage().contains("payload size 63") && protocol.getMessage().contains("byte 20"),
                protocol.getMessage());

        StreamTracker t = new StreamTracker(StartPosition.mysqlGtidSet(U + ":1-13:mytag:1-2"), true, "test");
        t.startConnection("server:3306", true);
        for (int i = 0; i < gtidAt; i++) {
            t.onEvent(events.get(i));
        }
        ReplicationException stream = assertThrows(ReplicationException.class, () -> t.onEvent(bad));
        assertEquals(ReplicationException.Kind.PROTOCOL, stream.kind());
        assertTrue(stream.getMessage().startsWith("server:3306 at ") && stream.getMessage().contains("payload size 63"),
                stream.getMessage());
    }

    @Test
    void theTrackerPutsTaggedTransactionsIntoTheResumeSet() throws Exception {
        List<byte[]> events = eventsOf(Files.readAllBytes(TAGGED));
        StreamTracker t = new StreamTracker(StartPosition.mysqlGtidSet(U + ":1-13:MyTag:1-2"), true, "test");
        t.startConnection("test", true);
        ReplicationEvent last = null;
        List<StartPosition> resumes = new ArrayList<>();
        for (byte[] e : events) {
            last = t.onEvent(e);
            resumes.add(last.resumePosition());
        }
        assertEquals(StartPosition.mysqlGtidSet(U + ":1-13:mytag:1-3"), last.resumePosition());
        assertEquals(StartPosition.mysqlGtidSet(U + ":1-13:mytag:1-3"), t.resumePosition());
        // inside the transaction the resume set is still the one before it (printed canonically since the first event)
        int gtidAt = indexOfType(events, 42);
        assertEquals(new StartPosition.MySqlGtids(U + ":1-13:mytag:1-2"), resumes.get(gtidAt));
        assertEquals(new StartPosition.MySqlGtids(U + ":1-13:mytag:1-2"), resumes.get(gtidAt + 3));
    }

    @Test
    void aCutTaggedTransactionIsRecognisedByItsTagWhenSentAgain() throws Exception {
        List<byte[]> events = eventsOf(Files.readAllBytes(TAGGED));
        int gtidAt = indexOfType(events, 42);
        // the same transaction sent again after a cut: its already-delivered events are skipped
        StreamTracker same = new StreamTracker(StartPosition.mysqlGtidSet(U + ":1-13:mytag:1-2"), true, "test");
        same.startConnection("test", true);
        for (int i = 0; i <= gtidAt + 1; i++) {
            assertNotNull(same.onEvent(events.get(i)));
        }
        same.connectionLost();
        assertEquals(StartPosition.mysqlGtidSet(U + ":1-13:mytag:1-2"), same.resumePosition());
        assertNull(same.onEvent(events.get(gtidAt)), "the GTID event was delivered before the cut");
        assertNull(same.onEvent(events.get(gtidAt + 1)));
        assertNotNull(same.onEvent(events.get(gtidAt + 2)));

        // a GTID with the same UUID and number but another tag is another transaction
        byte[] other = events.get(gtidAt).clone();
        int tagAt = indexOf(other, "mytag".getBytes(StandardCharsets.US_ASCII));
        System.arraycopy("other".getBytes(StandardCharsets.US_ASCII), 0, other, tagAt, 5);
        fixCrc(other);
        assertEquals(U + ":other:3", MySqlGtidSetCodec.readTaggedGtidEvent(other, 19, other.length - 4).toString());
        StreamTracker cut = new StreamTracker(StartPosition.mysqlGtidSet(U + ":1-13:mytag:1-2"), true, "test");
        cut.startConnection("test", true);
        for (int i = 0; i <= gtidAt + 1; i++) {
            cut.onEvent(events.get(i));
        }
        cut.connectionLost();
        ReplicationException e = assertThrows(ReplicationException.class, () -> cut.onEvent(other));
        assertEquals(ReplicationException.Kind.INCONSISTENT_RESUME, e.kind());
        assertTrue(e.getMessage().contains(U + ":mytag:3") && e.getMessage().contains(U + ":other:3"), e.getMessage());
    }

    // ------------------------------------------------------------------------------------------------ helpers

    static byte[] encode(MySqlGtidSet set) {
        ByteBuf b = Unpooled.buffer();
        MySqlGtidSetCodec.encode(set, b);
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return out;
    }

    /** The events of a binlog file, from offset 4. */
    static List<byte[]> eventsOf(byte[] file) {
        List<byte[]> out = new ArrayList<>();
        int pos = 4;
        while (pos + 19 <= file.length) {
            int size = (int) Wire.u32(file, pos + 9);
            out.add(Arrays.copyOfRange(file, pos, pos + size));
            pos += size;
        }
        return out;
    }

    /** An event of {@code type} with {@code body} and a CRC32, at {@code position}. */
    static byte[] event(int type, byte[] body, long position) {
        byte[] ev = new byte[19 + body.length + 4];
        ev[4] = (byte) type;
        Wire.put32(ev, 5, 1);
        Wire.put32(ev, 9, ev.length);
        Wire.put32(ev, 13, position + ev.length);
        System.arraycopy(body, 0, ev, 19, body.length);
        fixCrc(ev);
        return ev;
    }

    static void fixCrc(byte[] ev) {
        CRC32 crc = new CRC32();
        crc.update(ev, 0, ev.length - 4);
        Wire.put32(ev, ev.length - 4, crc.getValue());
    }

    static int indexOfType(List<byte[]> events, int type) {
        for (int i = 0; i < events.size(); i++) {
            if ((events.get(i)[4] & 0xff) == type) {
                return i;
            }
        }
        throw new AssertionError("no event of type " + type);
    }

    static int indexOf(byte[] b, byte[] what) {
        int found = -1;
        for (int i = 0; i + what.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + what.length, what, 0, what.length)) {
                assertEquals(-1, found, "found once");
                found = i;
            }
        }
        assertTrue(found >= 0);
        return found;
    }
}
