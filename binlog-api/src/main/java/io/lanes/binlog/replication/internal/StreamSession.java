package io.lanes.binlog.replication.internal;

import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ReplicationException;
import io.lanes.binlog.replication.ReplicationException.Kind;
import io.lanes.binlog.replication.StartPosition;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The streaming phase of one connection, on its event loop: unwraps each packet (OK byte, semi-sync header), passes the
 * event through the {@link StreamTracker}, collects it into a batch and hands the batch to the {@link EventBuffer} (once
 * per batch of socket reads, every {@value #MAX_BATCH_EVENTS} events or {@value #MAX_BATCH_BYTES} bytes, and at once when
 * the batch would take the buffer over its budget), and stops reading the socket when the buffer is full. Batching keeps
 * the consumer from being woken per event, which dominated the cost of streaming. Detects a dead connection by heartbeats: no packet for twice the heartbeat period (while reading is
 * not paused) closes the connection. {@link #ended()} completes when the connection is gone, with the cause: a
 * {@link ReplicationException} when reconnecting would not help, another throwable or null otherwise.
 */
public final class StreamSession implements PacketChannel.StreamingHandler, PacketFrameDecoder.FrameSink {
    private final PacketChannel packets;
    private final Channel channel;
    private final StreamTracker tracker;
    private final EventBuffer buffer;
    private final SourceConnector connector;
    private final StartPosition start;
    private final boolean semiSync;
    private final long idleTimeoutNanos;
    private final CompletableFuture<Throwable> ended = new CompletableFuture<>();
    private final Runnable resumeReading;
    private volatile long resumedAtNanos = System.nanoTime();
    private Throwable endCause;
    private long events;
    /** Events tracked but not yet handed to the buffer; they already count as delivered for the tracker. */
    private ArrayList<ReplicationEvent> batch = new ArrayList<>();
    private long batchBytes;
    /** What the buffer could take when the current batch began ({@link EventBuffer#headroom}). */
    private long headroom;

    /** Hand a batch over at least this often (events), so a consumer can work while the rest of a read is decoded. */
    static final int MAX_BATCH_EVENTS = 1024;
    /** ... and at least every this many bytes. */
    static final int MAX_BATCH_BYTES = 256 * 1024;
    /**
     * Events per batch when the listener takes them inline, on this thread: few enough that their bytes are still in
     * the core's first-level cache when the listener reads them, just after they were copied and checked.
     */
    static final int INLINE_BATCH_EVENTS = 64;
    private int batchLimit = MAX_BATCH_EVENTS;

    public StreamSession(PacketChannel packets, StreamTracker tracker, EventBuffer buffer, SourceConnector connector,
            StartPosition start, boolean semiSync, long heartbeatMillis) {
        this.packets = packets;
        this.channel = packets.channel();
        this.tracker = tracker;
        this.buffer = buffer;
        this.connector = connector;
        this.start = start;
        this.semiSync = semiSync;
        this.idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(heartbeatMillis * 2);
        this.resumeReading = () -> channel.eventLoop().execute(() -> {
            resumedAtNanos = System.nanoTime();
            channel.config().setAutoRead(true);
        });
    }

    /** Starts streaming; {@code first} is the first packet, already read during setup. */
    public void start(Packet first) {
        if (idleTimeoutNanos > 0) {
            try {
                // before the packet decoder: any bytes received count as life, so a huge event that takes longer
                // than the timeout to arrive does not look like a dead connection
                channel.pipeline().addBefore("frames", "idle",
                        new IdleStateHandler(idleTimeoutNanos, 0, 0, TimeUnit.NANOSECONDS));
                channel.pipeline().addBefore("packets", "idleCheck", new IdleCheck());
            } catch (java.util.NoSuchElementException closedAlready) {
                // the connection is already gone and its pipeline torn down; the switch below reports the close
            }
        }
        // reading went on after the dump command only up to a bound; it goes on once the packets read meanwhile are in
        // the buffer, unless the buffer is full
        packets.switchToStreaming(this, first, () -> {
            if (endCause != null) {
                return;
            }
            if (buffer.pauseIfFull(resumeReading)) {
                channel.config().setAutoRead(false);
            } else {
                resumedAtNanos = System.nanoTime();
                channel.config().setAutoRead(true);
            }
        });
    }

    /** The event loop this connection's events are read on. */
    public io.netty.channel.EventLoop eventLoop() {
        return channel.eventLoop();
    }

    public CompletableFuture<Throwable> ended() {
        return ended;
    }

    public void close() {
        // waits (briefly) so that the connection is gone when the client's close returns, as a caller expects
        io.netty.channel.ChannelFuture closing = channel.close();
        if (!channel.eventLoop().inEventLoop()) {
            closing.awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
    }

    @Override
    public void onPacket(Packet packet) {
        try {
            ByteBuf p = packet.payload();
            onFrame(p, p.readerIndex(), p.readableBytes(), packet.sequenceId());
        } finally {
            packet.release();
        }
    }

    /** One packet of the stream, straight from the receive buffer (valid during the call only). Event loop only. */
    @Override
    public void onFrame(ByteBuf in, int index, int length, int sequenceId) {
        if (endCause != null) {
            return;
        }
        try {
            int h = length == 0 ? -1 : in.getUnsignedByte(index);
            if (h == 0x00) {
                int at = index + 1;
                int end = index + length;
                boolean ack = false;
                if (semiSync && end - at >= 2 && in.getByte(at) == Protocol.SEMI_SYNC_INDICATOR) {
                    ack = in.getByte(at + 1) == Protocol.SEMI_SYNC_ACK_REQUESTED;
                    at += 2;
                }
                byte[] ev = new byte[end - at];
                in.getBytes(at, ev);
                ReplicationEvent e = tracker.onEvent(ev);
                if (ack) {
                    sendAck();
                }
                if (e != null) {
                    events++;
                    if (batch.isEmpty()) {
                        // read once per batch, not per event: the consumer updates that count, and the value can only
                        // have grown since (only this thread adds to what is buffered)
                        headroom = buffer.headroom();
                        batchLimit = buffer.isInline() ? INLINE_BATCH_EVENTS : MAX_BATCH_EVENTS;
                    }
                    batch.add(e);
                    batchBytes += EventBuffer.weight(e);
                    if (batch.size() >= batchLimit || batchBytes >= MAX_BATCH_BYTES || batchBytes > headroom) {
                        handOver();
                    }
                }
            } else if (h == 0xff) {
                ServerError err = ServerError.parse(in.slice(index, length));
                if (isTransient(err.code())) {
                    end(new IOException(connector.streamError(err, start).getMessage()));
                } else {
                    end(connector.streamError(err, start));
                }
            } else if (h == 0xfe && length < 9) {
                end(new IOException("the server ended the binlog stream at " + tracker.where()));
            } else {
                end(new ReplicationException(Kind.PROTOCOL, tracker.where() + ": unexpected packet header 0x"
                        + Integer.toHexString(h) + " in the binlog stream"));
            }
        } catch (ReplicationException e) {
            end(e);
        } catch (RuntimeException e) {
            end(new ReplicationException(Kind.PROTOCOL, tracker.where() + ": " + e, 0, e));
        }
    }

    @Override
    public void onReadComplete() {
        handOver();
    }

    /** Hands the batch to the buffer; stops reading when the buffer is over its budget. Event loop only. */
    private void handOver() {
        if (batch.isEmpty()) {
            return;
        }
        // the buffer keeps the list itself; a fresh one, sized like the last, takes the next events
        ArrayList<ReplicationEvent> full = batch;
        long fullBytes = batchBytes;
        batch = new ArrayList<>(Math.min(MAX_BATCH_EVENTS, full.size() + 16));
        batchBytes = 0;
        boolean keepReading = buffer.offerAll(full, fullBytes, resumeReading);
        if (!keepReading) {
            channel.config().setAutoRead(false);
        }
    }

    /** Errors a server sends when it shuts down or kills the connection: reconnecting helps. */
    private static boolean isTransient(int code) {
        return code == 1053 || code == 1927 || code == 1317 || code == 2013 || code == 1040;
    }

    private void sendAck() {
        byte[] name = tracker.file().getBytes(StandardCharsets.UTF_8);
        ByteBuf b = Unpooled.buffer(9 + name.length);
        b.writeByte(Protocol.SEMI_SYNC_INDICATOR).writeLongLE(tracker.position()).writeBytes(name);
        channel.writeAndFlush(new Packet(0, b));
    }

    private void end(Throwable cause) {
        if (endCause == null) {
            endCause = cause;
        }
        channel.close();
    }

    @Override
    public void onClosed(Throwable cause) {
        // the tracker counts these events as handed over (a reconnect skips them when their transaction comes again)
        handOver();
        Throwable c = endCause != null ? endCause : cause;
        if (c != null && !(c instanceof ReplicationException)) {
            Throwable root = SourceConnector.rootCause(c);
            if (root instanceof PacketFrameDecoder.PacketTooLargeException tooLarge) {
                // every packet before the big one has been processed, so the tracker is at the big event
                c = new ReplicationException(Kind.EVENT_TOO_LARGE, tracker.where() + ": the next event is at least "
                        + (tooLarge.size() - 1) + " bytes, more than maxEventSize " + (tooLarge.limit() - 3)
                        + " (raise it to accept the event)", 0, tooLarge);
            }
        }
        ended.complete(c);
    }

    /** Events handed to the buffer by this connection. */
    public long events() {
        return events;
    }

    private final class IdleCheck extends ChannelInboundHandlerAdapter {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt instanceof IdleStateEvent) {
                boolean paused = !ctx.channel().config().isAutoRead();
                if (!paused && System.nanoTime() - resumedAtNanos >= idleTimeoutNanos) {
                    end(new IOException("no packet from " + packets.remote() + " for "
                            + TimeUnit.NANOSECONDS.toMillis(idleTimeoutNanos) + " ms (twice the heartbeat period):"
                            + " the connection is presumed dead"));
                }
                return;
            }
            super.userEventTriggered(ctx, evt);
        }
    }
}
