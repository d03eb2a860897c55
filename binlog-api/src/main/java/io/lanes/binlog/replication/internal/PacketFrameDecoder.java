package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
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

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        markedThisRead = false;
        super.channelRead(ctx, msg);
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
                throw new PacketTooLargeException(where.get() + ": packet of at least " + total
                        + " bytes exceeds the limit of " + maxPayload + " bytes (raise maxEventSize to accept it)",
                        total, maxPayload);
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
