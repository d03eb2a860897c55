package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.ReplicationTestSupport.assertStreamMatchesFiles;
import static io.lanes.binlog.replication.ReplicationTestSupport.createReplicationUser;
import static io.lanes.binlog.replication.ReplicationTestSupport.masterStatus;
import static io.lanes.binlog.replication.ReplicationTestSupport.readAll;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.replication.ReplicationFaultTest.Writers;
import io.lanes.binlog.testing.MariaDbServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Source faults of issue 8 against a real MariaDB, seen by a {@link ReplicationClient} consumer through a TCP proxy: the
 * network cut at an arbitrary byte, a stall (the proxy stops forwarding and keeps the sockets open: only the heartbeat
 * timeout can tell), a slow target (the consumer stops taking events for a while), and a server restart on the same port
 * and data directory, all in one run under a concurrent workload, with a small byte budget.
 *
 * <p>What must hold: every event of the binlog files arrives exactly once and in order (the stream equals the files'
 * bytes); every reconnect asks the server for a transaction boundary (the COM_BINLOG_DUMP positions the proxy saw are
 * where a transaction starts, so a cut transaction comes again whole with its TABLE_MAPs); the most bytes buffered stay
 * within the budget plus one socket read plus the largest event. Bounded to well under a minute.
 */
class LiveSourceFaultsTest {
    private static final long BUDGET = 16 * 1024;

    @Test
    void cutStallSlowTargetAndRestartResumeExactlyWithinTheBudget() throws Exception {
        try (MariaDbServer db = MariaDbServer.startWithBinlog();
                ReplicationTestProxy proxy = new ReplicationTestProxy(db.port())) {
            createReplicationUser(db, "repl", "pw");
            ReplicationMariaDbTest.schema(db);
            proxy.recordClientBytes(64 * 1024);
            try (ReplicationClient c = ReplicationClient.builder().host("127.0.0.1").port(proxy.port()).user("repl")
                    .password("pw".toCharArray()).serverId(79).tls(TlsSettings.disabled())
                    .startPosition(StartPosition.file("bin.000001", 4)).heartbeatPeriod(Duration.ofMillis(300))
                    .bufferBytes(BUDGET).reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500)).build()) {
                c.start();
                SlowConsumer consumer = new SlowConsumer(c);
                List<ReplicationEvent> got;
                int faults = 0;
                try {
                    try (Writers writers = new Writers(db, 3)) {
                        Random random = new Random(8);
                        ReplicationFaultTest.awaitMoreBatches(writers, 3);
                        proxy.cutAfterServerBytes(1000 + random.nextInt(20_000)); // network cut
                        ReplicationFaultTest.awaitReconnects(c, ++faults);

                        ReplicationFaultTest.awaitMoreBatches(writers, 3);
                        proxy.stallAll(); // silent peer: sockets open, nothing moves
                        ReplicationFaultTest.awaitReconnects(c, ++faults);

                        consumer.paused.set(true); // slow target: the budget fills, reading stops
                        ReplicationFaultTest.awaitMoreBatches(writers, 6);
                        long full = System.currentTimeMillis() + 10_000;
                        while (c.bufferedBytes() <= BUDGET / 2 && System.currentTimeMillis() < full) {
                            ReplicationFaultTest.sleep(20);
                        }
                        consumer.paused.set(false);

                        ReplicationFaultTest.awaitMoreBatches(writers, 3);
                        db.stop(); // server restart: clean shutdown, then the same port and data directory
                        db.restart();
                        ReplicationFaultTest.awaitReconnects(c, ++faults);

                        // a cut at an arbitrary byte lands inside a transaction most of the time: cut until one did
                        for (int extra = 0; extra < 10 && c.cutTransactionCount() == 0; extra++) {
                            ReplicationFaultTest.awaitMoreBatches(writers, 1);
                            proxy.cutAfterServerBytes(1000 + random.nextInt(20_000));
                            ReplicationFaultTest.awaitReconnects(c, ++faults);
                        }
                        ReplicationFaultTest.awaitMoreBatches(writers, 2);
                    }
                    StartPosition.FilePosition end = masterStatus(db);
                    long deadline = System.currentTimeMillis() + 30_000;
                    while (System.currentTimeMillis() < deadline && !consumer.reached(end)) {
                        assertNull(consumer.failure);
                        Thread.sleep(50);
                    }
                } finally {
                    consumer.close();
                }
                assertNull(consumer.failure);
                got = consumer.snapshot();
                assertTrue(c.reconnectCount() >= faults, "reconnects: " + c.reconnectCount());
                assertTrue(c.cutTransactionCount() >= 1, "a cut fell inside a transaction");

                assertStreamMatchesFiles(got, readAll(db.binlogFiles()), null);

                // the budget, plus the event that crossed it, plus what one socket read (64 KiB at most) still held
                // when reading stopped, counted as the buffer counts events (bytes plus 96 per event; a read of
                // small events holds many): the smallest event sets how many one read can hold
                long largest = got.stream().mapToLong(e -> e.bytes().length).max().orElse(0);
                long smallest = got.stream().mapToLong(e -> e.bytes().length).min().orElse(19);
                long perRead = 64 * 1024 + 96 * (64 * 1024 / (smallest + 5) + 1);
                long bound = BUDGET + largest + 96 + perRead;
                assertTrue(c.maxBufferedBytes() <= bound, "buffered at most " + c.maxBufferedBytes() + " > " + bound);
                System.out.printf("LiveSourceFaultsTest: budget %d B, at most %d B buffered (bound %d B), %d events,"
                        + " %d reconnects, %d cut transactions%n", BUDGET, c.maxBufferedBytes(), bound, got.size(),
                        c.reconnectCount(), c.cutTransactionCount());
                assertTrue(c.maxBufferedBytes() > BUDGET / 2, "the slow target filled the budget: at most "
                        + c.maxBufferedBytes() + " bytes buffered");

                // every dump request (the first and each resume) names a transaction boundary
                Set<String> boundaries = new HashSet<>();
                boundaries.add("bin.000001:4");
                for (ReplicationEvent e : got) {
                    if (e.endsTransaction() && !e.isSynthetic()) {
                        boundaries.add(e.binlogFile() + ":" + e.nextPosition());
                    }
                    if (e.isSynthetic() && e.eventType() == 4) {
                        boundaries.add(e.binlogFile() + ":" + e.position()); // a ROTATE's target
                    }
                }
                List<String> dumps = dumpRequests(proxy.clientBytes());
                assertTrue(dumps.size() >= faults + 1, "dump requests seen: " + dumps);
                for (String d : dumps) {
                    assertTrue(boundaries.contains(d), "the dump request " + d + " is not at a transaction boundary");
                }
            }
        }
    }

    /** The file:position of each COM_BINLOG_DUMP in the recorded client bytes (TLS is off, so they are plain). */
    static List<String> dumpRequests(List<byte[]> connections) {
        List<String> out = new ArrayList<>();
        for (byte[] b : connections) {
            int at = 0;
            while (at + 4 <= b.length) {
                int len = (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16;
                int p = at + 4;
                if (p + len > b.length) {
                    break;
                }
                if (len >= 11 && b[p] == 0x12) { // COM_BINLOG_DUMP: pos(4) flags(2) server id(4) file name
                    long pos = ReplicationTestSupport.u32(b, p + 1);
                    String file = new String(b, p + 11, len - 11, StandardCharsets.UTF_8);
                    out.add(file + ":" + pos);
                }
                at = p + len;
            }
        }
        return out;
    }

    /** Takes events on its own thread, a little slowly, or not at all while {@link #paused}. */
    static final class SlowConsumer implements AutoCloseable {
        final List<ReplicationEvent> events = Collections.synchronizedList(new ArrayList<>());
        final AtomicBoolean paused = new AtomicBoolean();
        final AtomicBoolean stop = new AtomicBoolean();
        volatile Throwable failure;
        private final Thread thread;

        SlowConsumer(ReplicationClient c) {
            thread = new Thread(() -> {
                try {
                    long n = 0;
                    while (!stop.get()) {
                        if (paused.get()) {
                            Thread.sleep(10);
                            continue;
                        }
                        ReplicationEvent e = c.poll(Duration.ofMillis(50));
                        if (e != null) {
                            events.add(e);
                            if (++n % 50 == 0) {
                                Thread.sleep(1);
                            }
                        }
                    }
                } catch (Throwable t) {
                    failure = t;
                }
            }, "test-slow-consumer");
            thread.start();
        }

        boolean reached(StartPosition.FilePosition end) {
            synchronized (events) {
                return !events.isEmpty() && ReplicationTestSupport.reached(events.get(events.size() - 1), end);
            }
        }

        List<ReplicationEvent> snapshot() {
            synchronized (events) {
                return new ArrayList<>(events);
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(10_000);
        }
    }
}
