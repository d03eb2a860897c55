package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import java.util.List;
import java.util.function.Supplier;

/**
 * Splits the byte stream into {@link Packet}s: a 3-byte little-endian payload length and a sequence id before each payload;
 * a payload of exactly 16 MiB - 1 bytes continues in the next packet, and the parts are joined into one logical packet.
 *
 * <p>The size cap is checked on each header, before the decoder waits for (or allocates) the payload, so a hostile or
 * corrupt length can never make it allocate more than {@code maxPayload} bytes. A single-packet payload is a retained
 * slice of the receive buffer (no copy); a multi-packet one is copied once into a buffer of exactly its size.
 *
 * <p>While streaming to a {@link FrameSink} the decoder keeps its own carry-over instead of ByteToMessageDecoder's
 * cumulation: a socket read almost never ends where a packet does, and the cumulation would then copy the whole next
 * read (a megabyte) behind the few hundred bytes left over. Here only the packet cut by the end of a read is copied, and
 * the packets of each read are taken from the receive buffer where they lie.
 *
 * <p>Runs on the channel's event loop only.
 */
public final class PacketFrameDecoder extends ByteToMessageDecoder {
    private final int maxPayload;
    private final Supplier<String> where;

    /**
     * @param maxPayload largest logical payload accepted
     * @param where describes the connection and stream position for error messages
     */
    public PacketFrameDecoder(int maxPayload, Supplier<String> where) {
        this.maxPayload = maxPayload;
        this.where = where;
    }

    private boolean suspended;
    private FrameSink sink;
    private boolean markedThisRead;

    /**
     * Passed down the pipeline once per socket read in which the sink took frames, for ByteToMessageDecoder's sake: a
     * read that produced no message makes it ask for another read even while autoRead is off (it assumes it needs more
     * bytes), which would defeat the backpressure. Receivers ignore it.
     */
    public static final Object FRAMES_TAKEN = new Object() {
        @Override
        public String toString() {
            return "FRAMES_TAKEN";
        }
    };

    /**
     * While streaming: the start of a logical packet that the end of a socket read cut, copied out of the receive buffer
     * (which is released), completed from the next reads. Null when the last read ended at a packet boundary.
     */
    private ByteBuf carried;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (sink != null && !suspended && msg instanceof ByteBuf in) {
            streamRead(ctx, in);
            return;
        }
        markedThisRead = false;
        if (carried != null && msg instanceof ByteBuf) {
            // left streaming with a packet begun (not done by the client today): its bytes go first, in order
            ByteBuf c = carried;
            carried = null;
            super.channelRead(ctx, c);
        }
        super.channelRead(ctx, msg);
    }

    /**
     * One socket read while streaming: completes the packet carried over from the previous read, hands every whole
     * packet of {@code in} over from where it lies, and carries over the packet the read's end cut. Releases {@code in}.
     */
    private void streamRead(ChannelHandlerContext ctx, ByteBuf in) {
        try {
            if (carried == null && internalBuffer().isReadable()) {
                carried = takeLeftover(); // what the setup phase's decoding left: the start of the next packet
            }
            while (carried != null) {
                if (!topUpCarried(in)) {
                    return; // all of this read went into the carried packet, still incomplete
                }
                drain(ctx, carried);
                if (!carried.isReadable()) {
                    carried.release();
                    carried = null;
                } else if (sink == null || suspended) {
                    carry(ctx, in); // streaming stopped: the rest waits, in order, for the general path
                    return;
                } else {
                    carried.discardReadBytes(); // the setup left more than one packet; the last is incomplete
                }
            }
            drain(ctx, in);
            if (in.isReadable()) {
                carry(ctx, in);
            }
        } catch (DecoderException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DecoderException(e);
        } finally {
            in.release();
        }
    }

    /** Appends what is left of {@code in} to {@link #carried}. */
    private void carry(ChannelHandlerContext ctx, ByteBuf in) {
        if (carried == null) {
            carried = ctx.alloc().buffer(in.readableBytes());
        }
        carried.writeBytes(in);
    }

    /** Decodes every whole packet of {@code buf}, as ByteToMessageDecoder's loop would; stops at an incomplete one. */
    private void drain(ChannelHandlerContext ctx, ByteBuf buf) {
        while (buf.isReadable() && sink != null && !suspended) {
            int before = buf.readableBytes();
            Object p = decodeOne(ctx, buf);
            if (p instanceof Packet packet) {
                ctx.fireChannelRead(packet);
            } else if (p == null && buf.readableBytes() == before) {
                return;
            }
        }
    }

    /**
     * Moves bytes from {@code in} to {@link #carried} until it holds one whole logical packet (all its parts); false when
     * {@code in} ran out first. The carried buffer grows to exactly what each header announces, after the size cap was
     * checked against it.
     */
    private boolean topUpCarried(ByteBuf in) {
        while (true) {
            int missing = missingFromCarried();
            if (missing == 0) {
                return true;
            }
            if (!in.isReadable()) {
                return false;
            }
            if (carried.writableBytes() < missing) {
                carried.capacity(carried.writerIndex() + missing);
            }
            carried.writeBytes(in, Math.min(missing, in.readableBytes()));
        }
    }

    /** How many more bytes {@link #carried} needs to reach the end of its next header or part; 0 once whole. */
    private int missingFromCarried() {
        int idx = carried.readerIndex();
        int end = carried.writerIndex();
        long total = 0;
        while (true) {
            if (end - idx < 4) {
                return 4 - (end - idx);
            }
            int len = carried.getUnsignedMediumLE(idx);
            total += len;
            if (total > maxPayload) {
                throw tooLarge(total);
            }
            if (end - idx - 4 < len) {
                return len - (end - idx - 4);
            }
            idx += 4 + len;
            if (len < Protocol.MAX_PACKET_PAYLOAD) {
                return 0;
            }
        }
    }

    private PacketTooLargeException tooLarge(long total) {
        return new PacketTooLargeException(where.get() + ": packet of at least " + total
                + " bytes exceeds the limit of " + maxPayload + " bytes (raise maxEventSize to accept it)", total,
                maxPayload);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (carried != null) {
            carried.release(); // a packet the connection's end cut: never whole
            carried = null;
        }
    }

    /**
     * Takes single-part packets straight from the receive buffer while streaming, without a {@link Packet} (a retained
     * slice, its reference count and a trip down the pipeline per event cost more than the event's own processing).
     */
    public interface FrameSink {
        /**
         * One packet's payload: {@code length} bytes of {@code in} from {@code index}. Valid only during the call; the
         * sink neither keeps nor releases {@code in}.
         */
        void onFrame(ByteBuf in, int index, int length, int sequenceId);
    }

    /** From now on, single-part packets go to {@code sink} (multi-part ones still down the pipeline). Event loop only. */
    public void directTo(FrameSink sink) {
        this.sink = sink;
    }

    /**
     * Emits one packet per call, so that the handler that receives it can {@link #suspend()} decoding before the next
     * one (a server switching to TLS after the SSL request must not decode the TLS records that follow it as packets).
     */
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (suspended) {
            return;
        }
        // a frame taken by the sink consumes input without output; ByteToMessageDecoder then calls again
        Object p = decodeOne(ctx, in);
        if (p != null) {
            out.add(p);
        }
    }

    /** Stops decoding until {@link #resume()}; bytes received meanwhile accumulate. Event loop only. */
    public void suspend() {
        suspended = true;
    }

    public void resume() {
        suspended = false;
    }

    /** Removes and returns the bytes received but not yet decoded (null when none). Event loop only. */
    public ByteBuf takeLeftover() {
        ByteBuf buf = internalBuffer();
        if (buf == null || !buf.isReadable()) {
            return null;
        }
        return buf.readBytes(buf.readableBytes());
    }

    /** The next packet, {@link #FRAMES_TAKEN}, or null when no complete packet is buffered. */
    private Object decodeOne(ChannelHandlerContext ctx, ByteBuf in) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        int idx = start;
        long total = 0;
        int parts = 0;
        int seq;
        int len;
        while (true) {
            if (end - idx < 4) {
                return null;
            }
            len = in.getUnsignedMediumLE(idx);
            seq = in.getUnsignedByte(idx + 3);
            total += len;
            if (total > maxPayload) {
                throw tooLarge(total);
            }
            if (end - idx - 4 < len) {
                return null;
            }
            idx += 4 + len;
            parts++;
            if (len < Protocol.MAX_PACKET_PAYLOAD) {
                break;
            }
        }
        ByteBuf payload;
        if (parts == 1 && sink != null) {
            in.readerIndex(idx);
            sink.onFrame(in, start + 4, len, seq);
            // the single-part frames after it go to the sink in this same call: ByteToMessageDecoder's loop around
            // each call costs more than a small event's own handling
            while (sink != null && !suspended && end - idx >= 4) {
                len = in.getUnsignedMediumLE(idx);
                if (len >= Protocol.MAX_PACKET_PAYLOAD || len > maxPayload || end - idx - 4 < len) {
                    break; // a multi-part, oversized or incomplete packet: the general path deals with it
                }
                start = idx;
                seq = in.getUnsignedByte(idx + 3);
                idx += 4 + len;
                in.readerIndex(idx);
                sink.onFrame(in, start + 4, len, seq);
            }
            if (!markedThisRead) {
                markedThisRead = true;
                return FRAMES_TAKEN;
            }
            return null;
        }
        if (parts == 1) {
            payload = in.retainedSlice(start + 4, len);
        } else {
            payload = ctx.alloc().heapBuffer((int) total, (int) total);
            int p = start;
            for (int i = 0; i < parts; i++) {
                int partLen = in.getUnsignedMediumLE(p);
                payload.writeBytes(in, p + 4, partLen);
                p += 4 + partLen;
            }
        }
        in.readerIndex(idx);
        return new Packet(seq, payload);
    }

    /** A packet larger than the configured cap. */
    public static final class PacketTooLargeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final long size;
        private final long limit;

        public PacketTooLargeException(String message, long size, long limit) {
            super(message);
            this.size = size;
            this.limit = limit;
        }

        /** The size seen so far (the packet is at least this long). */
        public long size() {
            return size;
        }

        public long limit() {
            return limit;
        }
    }
}
