package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * A connection's packets as a blocking request/response API for the setup phase (handshake, authentication, queries,
 * registration), run on the caller's thread, then handed to a Netty channel's event loop for streaming.
 *
 * <p>A channel made with {@link #blocking} starts on a plain blocking socket: the caller's thread reads and writes it
 * itself, so each round trip of the setup wakes no other thread (with Netty doing the I/O, every request and answer
 * also crossed between the caller and the event loop: two thread wake-ups per round trip, which on a virtual machine
 * cost as much as the round trip). {@link #attach()} then moves the socket to Netty with reading off; the bytes that
 * came after the last packet read are fed to the pipeline when streaming starts. TLS is negotiated on Netty: the
 * channel attaches before {@link #startTls}.
 *
 * <p>Once {@link #switchToStreaming} is called, packets go to that handler on the event loop instead. One thread drives
 * the setup phase; the switch happens once the command whose responses are streamed was answered.
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

    /** Moves a connected socket to a Netty channel whose pipeline ends with this handler, registered, reading off. */
    public interface Attacher {
        Channel attach(SocketChannel socket, PacketChannel handler) throws java.io.IOException, InterruptedException;
    }

    /** The socket while the setup runs on it blocking (before {@link #attach}), else null. */
    private SocketChannel socket;
    private Attacher attacher;
    private int maxPayload;
    private java.io.InputStream socketIn;
    /** Bytes read from {@link #socket} and not yet parsed: {@code readBuffer[readFrom, readTo)}. */
    private byte[] readBuffer;
    private int readFrom;
    private int readTo;
    /** Packets queued by {@link #queueCommand} on a blocking socket, sent with the next flushing write. */
    private java.io.ByteArrayOutputStream pendingWrites;
    /** Bytes received after the last packet of the blocking phase, fed to the pipeline when streaming starts. */
    private ByteBuf leftover;

    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private volatile StreamingHandler streaming;
    private volatile Channel channel;
    private volatile Throwable failure;
    private int lastSequenceId = -1;
    /** Queued bytes over which reading stops until {@link #read} has taken them (Long.MAX_VALUE: no limit). */
    private volatile long queueLimit = Long.MAX_VALUE;
    private final java.util.concurrent.atomic.AtomicLong queuedBytes = new java.util.concurrent.atomic.AtomicLong();

    /** A channel for the Netty pipeline it is added to (the setup's packets cross from the event loop). */
    public PacketChannel() {
    }

    /**
     * A channel whose setup runs on {@code socket} (connected, in blocking mode) on the caller's thread; {@code attacher}
     * moves it to Netty when the setup is done or TLS starts. Packets over {@code maxPayload} bytes are refused before
     * anything is allocated for them, as {@link PacketFrameDecoder} does.
     */
    public static PacketChannel blocking(SocketChannel socket, int maxPayload, Attacher attacher) throws java.io.IOException {
        PacketChannel pc = new PacketChannel();
        pc.socket = socket;
        pc.maxPayload = maxPayload;
        pc.attacher = attacher;
        pc.socketIn = socket.socket().getInputStream();
        pc.readBuffer = new byte[16 * 1024];
        pc.pendingWrites = new java.io.ByteArrayOutputStream();
        return pc;
    }

    /** Whether the setup still runs on the blocking socket. */
    private boolean isBlocking() {
        return socket != null;
    }

    /**
     * Moves the socket to Netty (registered on an event loop, reading off); a no-op for a channel that is there already.
     * What was received beyond the packets read so far is kept for {@link #switchToStreaming}.
     */
    public void attach() throws java.io.IOException, InterruptedException {
        if (!isBlocking()) {
            return;
        }
        flushPending();
        SocketChannel s = socket;
        if (readTo > readFrom) {
            leftover = Unpooled.wrappedBuffer(java.util.Arrays.copyOfRange(readBuffer, readFrom, readTo));
        }
        readBuffer = null;
        socket = null;
        socketIn = null;
        channel = attacher.attach(s, this);
    }

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
        if (isBlocking()) {
            return readBlocking(timeoutMillis);
        }
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

    /** Reads one logical packet (its parts joined) from the blocking socket. */
    private Packet readBlocking(long timeoutMillis) throws java.io.IOException {
        if (failure != null) {
            throw new java.io.IOException("connection closed: " + describe(failure), failure);
        }
        flushPending(); // what was queued is what the caller waits an answer to
        try {
            socket.socket().setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeoutMillis)));
            long total = 0;
            ByteBuf payload = null;
            try {
                while (true) {
                    fill(4);
                    int len = (readBuffer[readFrom] & 0xff) | (readBuffer[readFrom + 1] & 0xff) << 8
                            | (readBuffer[readFrom + 2] & 0xff) << 16;
                    int seq = readBuffer[readFrom + 3] & 0xff;
                    readFrom += 4;
                    total += len;
                    if (total > maxPayload) {
                        // checked before the payload is awaited or anything is allocated for it
                        throw new PacketFrameDecoder.PacketTooLargeException("packet of at least " + total
                                + " bytes exceeds the limit of " + maxPayload, total, maxPayload);
                    }
                    if (payload == null && len < Protocol.MAX_PACKET_PAYLOAD) {
                        payload = Unpooled.buffer(len, len);
                    } else if (payload == null) {
                        payload = Unpooled.buffer(len);
                    }
                    copyInto(payload, len);
                    if (len < Protocol.MAX_PACKET_PAYLOAD) {
                        lastSequenceId = seq;
                        Packet p = new Packet(seq, payload);
                        payload = null;
                        return p;
                    }
                }
            } finally {
                if (payload != null) {
                    payload.release();
                }
            }
        } catch (java.net.SocketTimeoutException e) {
            throw new java.io.IOException("no answer from the server within " + timeoutMillis + " ms");
        } catch (java.io.IOException | PacketFrameDecoder.PacketTooLargeException e) {
            failure = e;
            closeQuietly();
            throw new java.io.IOException(e instanceof java.io.EOFException ? "connection closed by the server"
                    : "connection closed: " + describe(e), e);
        }
    }

    /** Makes at least {@code n} unparsed bytes (n at most the buffer's size) available in {@link #readBuffer}. */
    private void fill(int n) throws java.io.IOException {
        if (readTo - readFrom >= n) {
            return;
        }
        if (readBuffer.length - readFrom < n) {
            System.arraycopy(readBuffer, readFrom, readBuffer, 0, readTo - readFrom);
            readTo -= readFrom;
            readFrom = 0;
        }
        while (readTo - readFrom < n) {
            int got = socketIn.read(readBuffer, readTo, readBuffer.length - readTo);
            if (got < 0) {
                throw new java.io.EOFException();
            }
            readTo += got;
        }
    }

    /** Appends the next {@code len} bytes of the stream to {@code into}: from the buffer, then straight from the socket. */
    private void copyInto(ByteBuf into, int len) throws java.io.IOException {
        int fromBuffer = Math.min(len, readTo - readFrom);
        into.writeBytes(readBuffer, readFrom, fromBuffer);
        readFrom += fromBuffer;
        int rest = len - fromBuffer;
        while (rest > 0) {
            if (rest < readBuffer.length) {
                // a small remainder: read ahead into the buffer (what follows stays there for the next packet)
                fill(rest);
                into.writeBytes(readBuffer, readFrom, rest);
                readFrom += rest;
                return;
            }
            int got = into.writeBytes(socketIn, rest);
            if (got < 0) {
                throw new java.io.EOFException();
            }
            rest -= got;
        }
    }

    private void flushPending() throws java.io.IOException {
        if (pendingWrites != null && pendingWrites.size() > 0) {
            java.nio.ByteBuffer out = java.nio.ByteBuffer.wrap(pendingWrites.toByteArray());
            pendingWrites.reset();
            try {
                while (out.hasRemaining()) {
                    socket.write(out);
                }
            } catch (java.io.IOException e) {
                failure = e;
                closeQuietly();
                throw new java.io.IOException("write failed: " + describe(e), e);
            }
        }
    }

    private void closeQuietly() {
        SocketChannel s = socket;
        if (s != null) {
            try {
                s.close();
            } catch (java.io.IOException ignored) {
                // closing a socket that failed
            }
        }
    }

    /** Closes the connection (the blocking socket, or the Netty channel once attached). */
    public void close() {
        if (isBlocking()) {
            closeQuietly();
        } else if (channel != null) {
            channel.close();
        }
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
        if (isBlocking()) {
            write(lastSequenceId + 1, payload, true);
            if (failure != null) {
                throw new java.io.IOException("write failed: " + describe(failure), failure);
            }
            return;
        }
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
        if (isBlocking()) {
            lastSequenceId = seq;
            try {
                frame(seq, payload);
                if (flush) {
                    flushPending();
                }
            } catch (java.io.IOException e) {
                // recorded as the failure: the next read reports it, as for a write on the event loop
            } finally {
                payload.release();
            }
            return;
        }
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

    /** Appends {@code payload} as packets (split at 16 MiB - 1, as {@link PacketEncoder} does) to the pending writes. */
    private void frame(int seq, ByteBuf payload) throws java.io.IOException {
        int s = seq;
        while (true) {
            int len = Math.min(payload.readableBytes(), Protocol.MAX_PACKET_PAYLOAD);
            pendingWrites.write(len & 0xff);
            pendingWrites.write((len >>> 8) & 0xff);
            pendingWrites.write((len >>> 16) & 0xff);
            pendingWrites.write(s & 0xff);
            payload.readBytes(pendingWrites, len);
            s++;
            if (len < Protocol.MAX_PACKET_PAYLOAD) {
                return;
            }
        }
    }

    /** Inserts a TLS handler in front of the packet codec and waits for the TLS handshake. */
    public void startTls(SslContext context, String host, int port, boolean verifyHostname, long timeoutMillis)
            throws java.io.IOException, InterruptedException {
        attach(); // TLS runs on Netty's handler
        if (leftover != null) {
            // the server sent something after the request to start TLS before the handshake: not a server's way
            leftover.release();
            leftover = null;
            throw new java.io.IOException("unexpected bytes from the server before the TLS handshake");
        }
        channel.config().setAutoRead(true);
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
        return !isBlocking() && channel.pipeline().get("tls") != null;
    }

    public String remote() {
        SocketChannel s = socket;
        if (s != null) {
            try {
                if (s.getRemoteAddress() instanceof InetSocketAddress a) {
                    return a.getHostString() + ":" + a.getPort();
                }
            } catch (java.io.IOException e) {
                return "?";
            }
        }
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
        if (isBlocking()) {
            throw new IllegalStateException("attach() the channel before it streams");
        }
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
            ByteBuf early = leftover;
            leftover = null;
            if (early != null && channel.isActive()) {
                // what the blocking phase received after its last packet: the stream's first bytes, as a first read
                channel.pipeline().fireChannelRead(early);
                channel.pipeline().fireChannelReadComplete();
            } else if (early != null) {
                early.release();
            }
            afterHandOver.run();
        });
    }

    /** Releases any packets still queued. */
    public void drain() {
        ByteBuf early = leftover;
        leftover = null;
        if (early != null) {
            early.release();
        }
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
