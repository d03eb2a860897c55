package io.lanes.binlog.replication.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fake source's framing of a file: the same packets as framing each event when it is sent. */
class FramedFileTest {
    private static byte[] event(int size, long seed) {
        byte[] e = new byte[size];
        new Random(seed).nextBytes(e);
        Wire.put32(e, Protocol.EVENT_SIZE_OFFSET, size);
        return e;
    }

    private static byte[] file(byte[]... events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0xfe, 'b', 'i', 'n'});
        for (byte[] e : events) {
            out.writeBytes(e);
        }
        return out.toByteArray();
    }

    @Test
    void framesEachEventAsItsPacketWithConsecutiveSequenceIds() {
        byte[][] events = {event(30, 1), event(19, 2), event(300, 3), event(77, 4)};
        byte[] file = file(events);
        // a torn tail (a crashed server's file) is not part of the framing
        byte[] torn = Arrays.copyOf(file, file.length + 10);
        FramedFile f = FramedFile.of(torn);
        assertEquals(4, f.events());
        assertEquals(0, f.indexOf(4));
        assertEquals(1, f.indexOf(34));
        assertEquals(-1, f.indexOf(5));
        assertEquals(file.length, f.start(4));
        ByteBuf framing = f.framing(254);
        int at = 0;
        for (int k = 0; k < events.length; k++) {
            assertEquals(at, f.framedOffset(k));
            assertEquals(events[k].length + 1, framing.getUnsignedMediumLE(at));
            assertEquals((254 + k) & 0xff, framing.getUnsignedByte(at + 3), "sequence ids wrap at 256");
            assertEquals(0, framing.getByte(at + 4), "the OK byte");
            byte[] body = new byte[events[k].length];
            framing.getBytes(at + 5, body);
            assertArrayEquals(events[k], body);
            at += 5 + events[k].length;
        }
        assertEquals(at, framing.writerIndex());
    }

    @Test
    void keepsAFewFramingsPerFileAndRefusesEventsTooLargeForOnePacket() {
        FramedFile f = FramedFile.of(file(event(40, 5), event(50, 6)));
        ByteBuf first = f.framing(1);
        for (int s = 2; s <= FramedFile.MAX_FRAMINGS; s++) {
            assertNotNull(f.framing(s));
        }
        assertNull(f.framing(99), "no more than " + FramedFile.MAX_FRAMINGS + " per file");
        assertSame(first, f.framing(1), "kept");
        byte[] huge = new byte[Protocol.MAX_PACKET_PAYLOAD];
        Wire.put32(huge, Protocol.EVENT_SIZE_OFFSET, huge.length);
        assertNull(FramedFile.of(file(event(40, 7), huge)), "an event that needs two packets: framed one by one");
    }
}
