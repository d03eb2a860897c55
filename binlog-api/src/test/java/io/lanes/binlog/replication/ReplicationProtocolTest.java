package io.lanes.binlog.replication;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.replication.internal.EventBuffer;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.replication.internal.MySqlGtidSetCodec;
import io.lanes.binlog.replication.internal.Packet;
import io.lanes.binlog.replication.internal.PacketEncoder;
import io.lanes.binlog.replication.internal.PacketFrameDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Packet framing, multi-packet reassembly, the size cap, GTID set encoding and the byte-bounded buffer. */
class ReplicationProtocolTest {
    private static final int MAX = 0xFFFFFF;

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Encodes with the encoder, then feeds the bytes to the decoder in chunks of {@code chunk} bytes. */
    private static Packet roundTrip(byte[] payload, int seq, int chunk) {
        EmbeddedChannel enc = new EmbeddedChannel(new PacketEncoder());
        enc.writeOutbound(new Packet(seq, Unpooled.wrappedBuffer(payload)));
        ByteBuf wire = Unpooled.buffer();
        for (ByteBuf b; (b = enc.readOutbound()) != null; ) {
            wire.writeBytes(b);
            b.release();
        }
        EmbeddedChannel dec = new EmbeddedChannel(new PacketFrameDecoder(64 << 20, () -> "test"));
        while (wire.isReadable()) {
            dec.writeInbound(wire.readRetainedSlice(Math.min(chunk, wire.readableBytes())));
        }
        wire.release();
        Packet p = dec.readInbound();
        assertNull(dec.readInbound(), "exactly one logical packet");
        return p;
    }

    @Test
    void payloadsOfEverySizeAroundTheSixteenMebibyteLimitSurviveSplittingAndReassembly() {
        int[] sizes = {0, 1, 250, MAX - 1, MAX, MAX + 1, 2 * MAX, 2 * MAX + 7};
        for (int size : sizes) {
            byte[] payload = random(size, size);
            Packet p = roundTrip(payload, 3, 1 << 20);
            try {
                assertEquals(size, p.payload().readableBytes(), "size " + size);
                byte[] got = new byte[size];
                p.payload().getBytes(p.payload().readerIndex(), got);
                assertArrayEquals(payload, got, "size " + size);
                // the sequence id of the last physical packet: one per full part, plus the final (maybe empty) one
                assertEquals(3 + size / MAX, p.sequenceId(), "size " + size);
            } finally {
                p.release();
            }
        }
    }

    @Test
    void packetsSplitAcrossReadsAtEveryByteAreReassembled() {
        byte[] payload = random(300, 7);
        Packet p = roundTrip(payload, 0, 1);
        byte[] got = new byte[300];
        p.payload().readBytes(got);
        p.release();
        assertArrayEquals(payload, got);
    }

    /**
     * While streaming, the decoder carries only the packet a read's end cut over to the next read; whatever the reads'
     * boundaries (one byte at a time, odd sizes, inside a header, inside a multi-part packet's parts, bytes left over
     * from the setup phase before the switch), every packet comes out once, whole and in order, and every read's buffer
     * is released.
     */
    @Test
    void streamingTakesEveryPacketOnceInOrderWhateverTheReadBoundaries() {
        int[] small = {0, 1, 3, 4, 250, 19, 5000, 70, 0, 65536, 1, 300};
        int[] large = {0, 1, 3, 4, 250, 19, 5000, 2 * MAX + 5, 70, 0, 65536, MAX, 1, 300};
        streamInChunks(small, new int[][] {{1}, {2, 3, 5}, {7, 4093}, {1 << 20}});
        streamInChunks(large, new int[][] {{7, 4093}, {1 << 20}, {MAX + 4, 3}, {100_000, 1, 17}});
    }

    private static void streamInChunks(int[] sizes, int[][] chunkings) {
        ByteBuf wire = Unpooled.buffer();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            byte[] payload = random(sizes[i], i);
            EmbeddedChannel enc = new EmbeddedChannel(new PacketEncoder());
            enc.writeOutbound(new Packet(i, Unpooled.wrappedBuffer(payload)));
            for (ByteBuf b; (b = enc.readOutbound()) != null; ) {
                wire.writeBytes(b);
                b.release();
            }
            // a multi-part packet's sequence id is its last part's
            expected.add((i + sizes[i] / MAX) + ":" + java.util.Arrays.hashCode(payload) + ":" + sizes[i]);
        }
        for (int[] chunks : chunkings) {
            for (int switchAfter : new int[] {0, 1, 2, 3}) {
                List<String> got = new ArrayList<>();
                PacketFrameDecoder decoder = new PacketFrameDecoder(64 << 20, () -> "test");
                EmbeddedChannel ch = new EmbeddedChannel(decoder, new io.netty.channel.ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof Packet p) { // before the switch, and multi-part packets after it
                            got.add(describe(p.sequenceId(), p.payload(), p.payload().readerIndex(),
                                    p.payload().readableBytes()));
                            p.release();
                        }
                    }
                });
                List<ByteBuf> allocated = trackAllocations(ch);
                List<ByteBuf> fed = new ArrayList<>();
                int at = 0;
                for (int k = 0; at < wire.writerIndex(); k++) {
                    if (k == switchAfter) { // the setup phase ends: from now on the sink takes single-part packets
                        decoder.directTo((in, index, length, seq) -> got.add(describe(seq, in, index, length)));
                    }
                    int n = Math.min(chunks[k % chunks.length], wire.writerIndex() - at);
                    ByteBuf piece = Unpooled.copiedBuffer(wire.slice(at, n));
                    fed.add(piece);
                    ch.writeInbound(piece);
                    at += n;
                }
                String what = "chunks " + java.util.Arrays.toString(chunks) + ", switched after " + switchAfter;
                assertEquals(expected, got, what);
                assertFalse(ch.finish(), what);
                for (ByteBuf b : fed) {
                    assertEquals(0, b.refCnt(), what + ": every read's buffer released");
                }
                for (ByteBuf b : allocated) {
                    assertEquals(0, b.refCnt(), what + ": every carried packet released");
                }
            }
        }
        wire.release();
    }

    /** Makes the channel allocate from unpooled buffers it records, so that a test can see each one released. */
    private static List<ByteBuf> trackAllocations(EmbeddedChannel ch) {
        List<ByteBuf> allocated = new ArrayList<>();
        ch.config().setAllocator(new io.netty.buffer.AbstractByteBufAllocator(false) {
            @Override
            protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
                ByteBuf b = Unpooled.buffer(initialCapacity, maxCapacity);
                allocated.add(b);
                return b;
            }

            @Override
            protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
                ByteBuf b = Unpooled.directBuffer(initialCapacity, maxCapacity);
                allocated.add(b);
                return b;
            }

            @Override
            public boolean isDirectBufferPooled() {
                return false;
            }
        });
        return allocated;
    }

    private static String describe(int seq, ByteBuf in, int index, int length) {
        byte[] b = new byte[length];
        in.getBytes(index, b);
        return seq + ":" + java.util.Arrays.hashCode(b) + ":" + length;
    }

    @Test
    void whileStreamingACutPacketIsReleasedAtTheEndAndItsHeaderIsCheckedAgainstTheCap() {
        PacketFrameDecoder decoder = new PacketFrameDecoder(1000, () -> "conn 1.2.3.4:3306 at bin.000007:4711");
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        List<ByteBuf> allocated = trackAllocations(ch);
        List<Integer> taken = new ArrayList<>();
        decoder.directTo((in, index, length, seq) -> taken.add(length));
        ByteBuf cut = Unpooled.buffer().writeMediumLE(500).writeByte(0).writeZero(100);
        ch.writeInbound(cut);
        assertEquals(0, cut.refCnt());
        assertEquals(List.of(), taken);
        assertFalse(allocated.isEmpty(), "the cut packet is carried in a buffer of the channel's allocator");
        assertFalse(ch.finish());
        for (ByteBuf b : allocated) {
            assertEquals(0, b.refCnt(), "closing the connection released the carried packet");
        }

        // a whole packet, then one byte of the next header; the rest of that header announces 1001 bytes
        PacketFrameDecoder capped = new PacketFrameDecoder(1000, () -> "conn 1.2.3.4:3306 at bin.000007:4711");
        EmbeddedChannel ch2 = new EmbeddedChannel(capped);
        capped.directTo((in, index, length, seq) -> taken.add(length));
        ch2.writeInbound(Unpooled.buffer().writeMediumLE(6).writeByte(0).writeZero(6).writeByte(0xE9));
        assertEquals(List.of(6), taken);
        DecoderException e = assertThrows(DecoderException.class,
                () -> ch2.writeInbound(Unpooled.buffer().writeByte(0x03).writeByte(0).writeByte(1)));
        assertInstanceOf(PacketFrameDecoder.PacketTooLargeException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("conn 1.2.3.4:3306 at bin.000007:4711"), e.getMessage());
        assertEquals(List.of(6), taken, "nothing of the oversized packet was taken");
    }

    @Test
    void theSizeCapIsCheckedOnTheHeaderBeforeThePayloadArrives() {
        EmbeddedChannel dec = new EmbeddedChannel(new PacketFrameDecoder(1000, () -> "conn 1.2.3.4:3306 at bin.000007:4711"));
        ByteBuf header = Unpooled.buffer().writeMediumLE(1001).writeByte(0);
        DecoderException e = assertThrows(DecoderException.class, () -> dec.writeInbound(header));
        assertInstanceOf(PacketFrameDecoder.PacketTooLargeException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("conn 1.2.3.4:3306 at bin.000007:4711"), e.getMessage());
        // multi-packet: the running total is checked at each part's header
        EmbeddedChannel dec2 = new EmbeddedChannel(new PacketFrameDecoder(MAX + 10, () -> "x"));
        ByteBuf first = Unpooled.buffer().writeMediumLE(MAX).writeByte(0).writeZero(MAX);
        dec2.writeInbound(first);
        assertNull(dec2.readInbound());
        ByteBuf second = Unpooled.buffer().writeMediumLE(11).writeByte(1);
        assertThrows(DecoderException.class, () -> dec2.writeInbound(second));
    }

    /** A server that accepts one connection and writes {@code bytes}, then keeps it open (or closes it). */
    private static Thread serveOnce(java.net.ServerSocket server, byte[] bytes, boolean thenClose) {
        Thread t = new Thread(() -> {
            try (java.net.Socket s = server.accept()) {
                s.getOutputStream().write(bytes);
                s.getOutputStream().flush();
                if (!thenClose) {
                    Thread.sleep(5_000);
                }
            } catch (Exception ignored) {
                // the client hung up
            }
        }, "scripted-server");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static ReplicationClient clientOf(java.net.ServerSocket server, int maxEventSize) {
        return ReplicationClient.builder().host("127.0.0.1").port(server.getLocalPort()).user("repl")
                .password("pw".toCharArray()).serverId(5).tls(TlsSettings.disabled())
                .connectTimeout(java.time.Duration.ofSeconds(3)).maxEventSize(maxEventSize)
                .startPosition(StartPosition.file("bin.000001", 4)).build();
    }

    /**
     * The setup reads its packets from a blocking socket: the size cap is checked on each header there too, before the
     * payload is awaited or anything is allocated for it (the server below never sends the payload it announces).
     */
    @Test
    void duringTheSetupAPacketOverTheCapIsRefusedOnItsHeader() throws Exception {
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            // a greeting header announcing 2 GiB - 1 bytes in parts: the first part's length alone is over the cap
            serveOnce(server, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0}, false);
            long t0 = System.nanoTime();
            try (ReplicationClient c = clientOf(server, 1024)) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.EVENT_TOO_LARGE, e.kind(), e.getMessage());
                assertTrue(e.getMessage().contains("1027"), e.getMessage());
            }
            assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "refused on the header, without waiting for the payload");
        }
    }

    /** A server that hangs up in the middle of a setup packet is a connection error naming the server, not a hang. */
    @Test
    void duringTheSetupAServerThatHangsUpMidPacketIsAConnectionError() throws Exception {
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            serveOnce(server, new byte[] {50, 0, 0, 0, 10, '5', '.', '7'}, true); // 50 bytes announced, 4 sent
            try (ReplicationClient c = clientOf(server, 1 << 20)) {
                ReplicationException e = assertThrows(ReplicationException.class, c::start);
                assertEquals(ReplicationException.Kind.CONNECTION, e.kind(), e.getMessage());
                assertTrue(e.getMessage().contains("127.0.0.1:" + server.getLocalPort()), e.getMessage());
                assertTrue(e.getMessage().contains("closed by the server"), e.getMessage());
            }
        }
    }

    @Test
    void mySqlGtidSetsParseMergeAndEncodeAsTheServerExpects() {
        MySqlGtidSet set = MySqlGtidSet.parse("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5:7, 3e11fa47-71ca-11e1-9e33-c80aa9429562:6,"
                + "00000000-0000-0000-0000-000000000001:3");
        assertEquals("00000000-0000-0000-0000-000000000001:3,3e11fa47-71ca-11e1-9e33-c80aa9429562:1-7", set.toString());
        set.add(HexFormat.of().parseHex("3e11fa4771ca11e19e33c80aa9429562"), 0, 8);
        set.add(HexFormat.of().parseHex("3e11fa4771ca11e19e33c80aa9429562"), 0, 10);
        assertEquals("00000000-0000-0000-0000-000000000001:3,3e11fa47-71ca-11e1-9e33-c80aa9429562:1-8:10", set.toString());
        assertTrue(set.contains("3E11FA47-71CA-11E1-9E33-C80AA9429562", 10));
        assertFalse(set.contains("3E11FA47-71CA-11E1-9E33-C80AA9429562", 9));
        ByteBuf b = Unpooled.buffer();
        MySqlGtidSetCodec.encode(set, b);
        assertEquals(MySqlGtidSetCodec.encodedLength(set), b.readableBytes());
        // n_sids, then sid 1: uuid, 1 interval [3, 4)
        assertEquals(2, b.getLongLE(0));
        assertEquals("00000000000000000000000000000001", HexFormat.of().formatHex(b.array(), 8, 24));
        assertEquals(1, b.getLongLE(24));
        assertEquals(3, b.getLongLE(32));
        assertEquals(4, b.getLongLE(40));
        assertEquals(set.toString(), MySqlGtidSetCodec.decode(b).toString());
        assertThrows(IllegalArgumentException.class, () -> MySqlGtidSet.parse("nonsense:1"));
        assertThrows(IllegalArgumentException.class, () -> MySqlGtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:5-2"));
    }

    private static ReplicationEvent event(int size) {
        byte[] b = new byte[size];
        return new ReplicationEvent(b, "f", 4, false, true, StartPosition.file("f", 4));
    }

    @Test
    void theBufferAsksToStopReadingOverBudgetAndToResumeAtHalf() throws Exception {
        EventBuffer buf = new EventBuffer(10_000);
        AtomicInteger resumes = new AtomicInteger();
        Runnable resume = resumes::incrementAndGet;
        int offered = 0;
        while (buf.offer(event(1000), resume)) {
            offered++;
        }
        offered++;
        assertTrue(buf.isPaused());
        assertTrue(buf.bufferedBytes() > 10_000 && buf.bufferedBytes() <= 10_000 + 1096);
        List<ReplicationEvent> taken = new ArrayList<>();
        while (buf.bufferedBytes() > 5000) {
            assertEquals(0, resumes.get(), "no resume above half the budget");
            taken.add(buf.poll(1, TimeUnit.SECONDS));
        }
        assertEquals(1, resumes.get());
        assertFalse(buf.isPaused());
        buf.fail(new ReplicationException(ReplicationException.Kind.PROTOCOL, "boom"));
        while (taken.size() < offered) {
            taken.add(buf.poll(1, TimeUnit.SECONDS));
        }
        assertThrows(ReplicationException.class, () -> buf.poll(1, TimeUnit.SECONDS), "the failure after the events");
        assertEquals(buf.highWaterBytes(), offered * 1096L);
    }

    @Test
    void aBatchIsHandedOverAtOnceAndStillCountsUntilTaken() throws Exception {
        EventBuffer buf = new EventBuffer(10_000);
        AtomicInteger resumes = new AtomicInteger();
        List<ReplicationEvent> batch = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            batch.add(event(1000 - 96));
        }
        assertTrue(buf.wouldExceed(12 * 1000L));
        assertFalse(buf.offerAll(batch, 12 * 1000L, resumes::incrementAndGet), "12,000 bytes over a 10,000 budget");
        assertTrue(buf.isPaused());
        // the consumer's first poll moves the whole batch to its side; each event counts until it is returned
        ReplicationEvent first = buf.poll(1, TimeUnit.SECONDS);
        assertTrue(first == batch.get(0));
        assertEquals(11_000, buf.bufferedBytes());
        List<ReplicationEvent> sink = new ArrayList<>();
        assertEquals(5, buf.drainTo(sink, 5));
        assertEquals(6_000, buf.bufferedBytes());
        assertEquals(0, resumes.get(), "no resume above half the budget");
        assertTrue(buf.poll(1, TimeUnit.SECONDS) == batch.get(6));
        assertEquals(1, resumes.get(), "resumed at half the budget");
        assertEquals(batch.subList(1, 6), sink, "in order");
        assertEquals(12_000, buf.highWaterBytes());
    }

    @Test
    void takeMovesEventsInOrderAcrossBatchesCountsThemAsTakenAndEndsWithTheFailure() throws Exception {
        EventBuffer buf = new EventBuffer(1 << 20);
        List<ReplicationEvent> first = new ArrayList<>();
        List<ReplicationEvent> second = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            first.add(event(100));
            second.add(event(200));
        }
        assertTrue(buf.offerAll(first, 5 * 196L, () -> { }));
        assertTrue(buf.offerAll(second, 5 * 296L, () -> { }));
        List<ReplicationEvent> sink = new ArrayList<>();
        assertEquals(3, buf.take(sink, 3, 1, TimeUnit.SECONDS));
        assertEquals(first.subList(0, 3), sink);
        sink.clear();
        assertEquals(7, buf.take(sink, 100, 1, TimeUnit.SECONDS), "the rest, across the two batches");
        List<ReplicationEvent> rest = new ArrayList<>(first.subList(3, 5));
        rest.addAll(second);
        assertEquals(rest, sink);
        sink.clear();
        long t0 = System.nanoTime();
        assertEquals(0, buf.take(sink, 100, 50, TimeUnit.MILLISECONDS), "nothing left: waits, then none");
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(40));
        assertEquals(0, buf.bufferedBytes(), "everything taken is off the budget once the consumer's side is empty");
        buf.offerAll(new ArrayList<>(List.of(event(10))), 106, () -> { });
        buf.fail(new ReplicationException(ReplicationException.Kind.PROTOCOL, "boom"));
        assertEquals(1, buf.take(sink, 100, 1, TimeUnit.SECONDS), "the event before the failure first");
        assertThrows(ReplicationException.class, () -> buf.take(sink, 100, 1, TimeUnit.SECONDS));
    }
}
