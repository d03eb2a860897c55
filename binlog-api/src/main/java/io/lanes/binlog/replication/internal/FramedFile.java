package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A binlog file's events framed once as the packets of a dump (3-byte length, sequence id, the OK byte, the event), for
 * the fake source to send as slices of one buffer instead of framing every event of every dump again: on a machine
 * where the fake shares the cores with the client it serves, the fake's own CPU is taken from the client's.
 *
 * <p>A packet's sequence id depends on how many packets the dump sent before it, so the framing is kept per first
 * sequence id (the id of the file's first event): a dump at event {@code k} with sequence id {@code s} uses the framing
 * whose first id is {@code s - k}. Dumps that start alike share one; at most {@value #MAX_FRAMINGS} are kept per file,
 * and a dump that would need another is framed event by event as before. Thread-safe.
 */
public final class FramedFile {
    /** Framings kept per file (each as large as the file). */
    static final int MAX_FRAMINGS = 4;
    /** Larger files are framed event by event: a framing as large as the file would double what the fake holds. */
    static final int MAX_FRAMED_FILE = 256 << 20;
    /** Bytes a framed packet adds before its event: the packet header and the OK byte. */
    private static final int PACKET_OVERHEAD = 5;

    private final byte[] file;
    /** Offset of each complete event in the file, in order, then the end of the last one. */
    private final int[] starts;
    private final ByteBuf[] framings = new ByteBuf[256];
    private int framingCount;

    private FramedFile(byte[] file, int[] starts) {
        this.file = file;
        this.starts = starts;
    }

    /**
     * Indexes the file's events; null when an event is too large to go in one packet (the fake then frames the file
     * event by event, splitting that one).
     */
    public static FramedFile of(byte[] file) {
        int[] starts = new int[Math.max(16, file.length / 64)];
        int n = 0;
        int at = 4;
        while (at + Protocol.EVENT_HEADER_LENGTH <= file.length) {
            long size = Wire.u32(file, at + Protocol.EVENT_SIZE_OFFSET);
            if (size < Protocol.EVENT_HEADER_LENGTH || at + size > file.length) {
                break; // a torn tail: the fake's event-by-event path deals with it
            }
            if (size + 1 >= Protocol.MAX_PACKET_PAYLOAD) {
                return null;
            }
            if (n + 1 >= starts.length) {
                starts = Arrays.copyOf(starts, starts.length * 2);
            }
            starts[n++] = at;
            at += (int) size;
        }
        starts[n] = at;
        return new FramedFile(file, Arrays.copyOf(starts, n + 1));
    }

    /** How many complete events the file holds. */
    public int events() {
        return starts.length - 1;
    }

    /** The index of the event that starts at {@code offset}, or -1 when none does. */
    public int indexOf(int offset) {
        int k = Arrays.binarySearch(starts, 0, starts.length - 1, offset);
        return k >= 0 ? k : -1;
    }

    /** Where event {@code k} starts in the file ({@code k == events()}: the end of the last event). */
    public int start(int k) {
        return starts[k];
    }

    /** Where event {@code k}'s packet starts in a framing. */
    public int framedOffset(int k) {
        return starts[k] - starts[0] + PACKET_OVERHEAD * k;
    }

    /**
     * The framing whose first event has sequence id {@code firstSequenceId}, built on first use; null when this file
     * already keeps {@value #MAX_FRAMINGS} others, is larger than {@link #MAX_FRAMED_FILE} or there is no direct memory
     * left for it. The caller sends retained slices and never releases it.
     */
    public synchronized ByteBuf framing(int firstSequenceId) {
        ByteBuf f = framings[firstSequenceId & 0xff];
        if (f != null || framingCount >= MAX_FRAMINGS || file.length > MAX_FRAMED_FILE) {
            return f;
        }
        int events = events();
        ByteBuffer direct;
        try {
            // a JDK direct buffer: sent to the socket without a copy, and freed by the garbage collector with the fake
            direct = ByteBuffer.allocateDirect(framedOffset(events));
        } catch (OutOfMemoryError e) {
            framingCount = MAX_FRAMINGS; // no room for it: this file is framed event by event from now on
            return null;
        }
        ByteBuf b = Unpooled.wrappedBuffer(direct).clear();
        for (int k = 0; k < events; k++) {
            int len = starts[k + 1] - starts[k];
            b.writeMediumLE(len + 1).writeByte((firstSequenceId + k) & 0xff).writeByte(0)
                    .writeBytes(file, starts[k], len);
        }
        framings[firstSequenceId & 0xff] = b;
        framingCount++;
        return b;
    }
}
