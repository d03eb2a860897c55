package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * A connection's packets as a blocking request/response API for the setup phase (handshake, authentication, queries,
 * registration), run on the caller's thread while the channel's event loop queues incoming packets.
 *
 * <p>Once {@link #switchToStreaming(StreamingHandler)} is called, packets go to that handler on the event loop instead.
 * One thread drives the setup phase; the switch happens before the command whose responses are streamed is written.
 */
public final class PacketChannel extends ChannelInboundHandlerAdapter {
    private static final Object CLOSED = new Object();

    /** Receives packets on the event loop once the connection streams. */
    public interface StreamingHandler {
        void onPacket(Packet packet);

        /** The packets of one batch of socket reads were all passed to {@link #onPacket}. */
        void onReadComplete();

        void onClosed(Throwable cause);
    }

    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private volatile StreamingHandler streaming;
    private volatile Channel channel;
    private volatile Throwable failure;
    private int lastSequenceId = -1;
    /** Queued bytes over which reading stops until {@link #read} has taken them (Long.MAX_VALUE: no limit). */
    private volatile long queueLimit = Long.MAX_VALUE;
    private final java.util.concurrent.atomic.AtomicLong queuedBytes = new java.util.concurrent.atomic.AtomicLong();

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        channel = ctx.channel();
        super.channelActive(ctx);
    }

    public Channel channel() {
        return channel;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg == PacketFrameDecoder.FRAMES_TAKEN) {
            return;
        }
        StreamingHandler s = streaming;
        if (s != null) {
            s.onPacket((Packet) msg);
        } else {
            // counted before it is queued: the reader may take and release it at once
            int size = ((Packet) msg).payload().readableBytes();
            boolean over = queuedBytes.addAndGet(size) > queueLimit;
            inbox.add(msg);
            if (over) {
                ctx.channel().config().setAutoRead(false);
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        StreamingHandler s = streaming;
        if (s != null) {
            s.onReadComplete();
        }
        super.channelReadComplete(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        StreamingHandler s = streaming;
        if (s != null) {
            s.onClosed(failure);
        }
        inbox.add(CLOSED);
    }

    /** The cause recorded when the channel failed, or null. */
    public Throwable failure() {
        return failure;
    }

    /**
     * From now on the socket is read only while fewer than {@code maxBytes} are queued: once a command whose answer is
     * a stream (the dump) has been sent, what arrives before the stream is handed over stays bounded, while the
     * answers before it are read as they come. Past the limit, {@link #read} asks for one more socket read whenever
     * nothing is queued.
     */
    public void limitQueue(long maxBytes) {
        queueLimit = maxBytes;
    }

    /** Reads the next packet, waiting at most {@code timeoutMillis}. The caller releases it. */
    public Packet read(long timeoutMillis) throws InterruptedException, java.io.IOException {
        if (queueLimit != Long.MAX_VALUE && inbox.isEmpty() && !channel.config().isAutoRead()) {
            // Netty folds read requests made before the read happens into one, and a read that brings only part of
            // a packet asks for the next itself; a request racing a read in progress costs one read more, no more
            channel.read();
        }
        Object o = inbox.poll(timeoutMillis, TimeUnit.MILLISECONDS);
        if (o == null) {
            throw new java.io.IOException("no answer from the server within " + timeoutMillis + " ms");
        }
        if (o == CLOSED) {
            inbox.add(CLOSED);
            Throwable f = failure;
            throw new java.io.IOException("connection closed by the server" + (f == null ? "" : ": " + describe(f)), f);
        }
        Packet p = (Packet) o;
        queuedBytes.addAndGet(-p.payload().readableBytes());
        lastSequenceId = p.sequenceId();
        return p;
    }

    private static String describe(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && (c.getMessage() == null || c instanceof io.netty.handler.codec.DecoderException)) {
            c = c.getCause();
        }
        return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    }

    /**
     * Writes the next packet of the current exchange (sequence id = last received + 1) without waiting for it to be
     * sent: a write that fails closes the channel with that cause, which the next {@link #read} reports. Not waiting
     * saves a round of thread wake-ups per packet; the answer is what the caller waits for anyway.
     */
    public void writeReply(ByteBuf payload) {
        write(lastSequenceId + 1, payload, true);
    }

    /**
     * As {@link #writeReply}, but waits until the packet is on the wire: before the pipeline changes under it (the SSL
     * request, after which a TLS handler is put in front of the codec and must not encrypt that request).
     */
    public void writeReplyAndWait(ByteBuf payload) throws java.io.IOException, InterruptedException {
        lastSequenceId = lastSequenceId + 1;
        await(channel.writeAndFlush(new Packet(lastSequenceId, payload)), 30_000, "write");
    }

    /** Writes the first packet of a new command (sequence id 0) without waiting, as {@link #writeReply}. */
    public void writeCommand(ByteBuf payload) {
        write(0, payload, true);
    }

    /**
     * Queues the first packet of a new command without sending it yet: the next {@link #writeCommand} or
     * {@link #writeReply} sends every queued packet at once. Servers read commands one at a time and answer them in
     * order, so a client may send several before reading the answers (pipelining), one round trip for all of them.
     */
    public void queueCommand(ByteBuf payload) {
        write(0, payload, false);
    }

    private void write(int seq, ByteBuf payload, boolean flush) {
        lastSequenceId = seq;
        Packet packet = new Packet(seq, payload);
        (flush ? channel.writeAndFlush(packet) : channel.write(packet)).addListener(f -> {
            if (!f.isSuccess()) {
                if (failure == null) {
                    failure = new java.io.IOException("write failed: " + describe(f.cause()), f.cause());
                }
                channel.close();
            }
        });
    }

    /** Inserts a TLS handler in front of the packet codec and waits for the TLS handshake. */
    public void startTls(SslContext context, String host, int port, boolean verifyHostname, long timeoutMillis)
            throws java.io.IOException, InterruptedException {
        SSLEngine engine = context.newEngine(channel.alloc(), host, port);
        if (verifyHostname) {
            SSLParameters params = engine.getSSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(params);
        }
        SslHandler ssl = new SslHandler(engine);
        ssl.setHandshakeTimeoutMillis(timeoutMillis);
        channel.pipeline().addFirst("tls", ssl);
        await(ssl.handshakeFuture(), timeoutMillis + 1000, "TLS handshake");
    }

    public boolean isTls() {
        return channel.pipeline().get("tls") != null;
    }

    public String remote() {
        Channel c = channel;
        if (c != null && c.remoteAddress() instanceof InetSocketAddress a) {
            return a.getHostString() + ":" + a.getPort();
        }
        return String.valueOf(c == null ? null : c.remoteAddress());
    }

    /**
     * From now on packets go to {@code handler} on the event loop: first {@code first} (a packet already read, or null),
     * then the packets already queued, then new ones (a handler that is also a {@link PacketFrameDecoder.FrameSink}
     * gets the new single-part ones as frames, without a {@link Packet}); {@code afterHandOver} runs on the event loop once the queued ones
     * were handed over.
     */
    public void switchToStreaming(StreamingHandler handler, Packet first, Runnable afterHandOver) {
        channel.eventLoop().execute(() -> {
            if (first != null) {
                handler.onPacket(first);
            }
            Object o;
            while ((o = inbox.poll()) != null) {
                if (o == CLOSED) {
                    handler.onClosed(failure);
                } else {
                    handler.onPacket((Packet) o);
                }
            }
            handler.onReadComplete();
            streaming = handler;
            if (handler instanceof PacketFrameDecoder.FrameSink sink
                    && channel.pipeline().get("frames") instanceof PacketFrameDecoder frames) {
                frames.directTo(sink);
            }
            afterHandOver.run();
        });
    }

    /** Releases any packets still queued. */
    public void drain() {
        Object o;
        while ((o = inbox.poll()) != null) {
            if (o != CLOSED) {
                ReferenceCountUtil.release(o);
            }
        }
    }

    private static void await(Future<?> f, long millis, String what) throws java.io.IOException, InterruptedException {
        try {
            f.get(millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw new java.io.IOException(what + " failed: " + describe(c), c);
        } catch (TimeoutException e) {
            throw new java.io.IOException(what + " did not complete within " + millis + " ms");
        }
    }
}
