package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.FakeSourceTest.FIXTURES;
import static io.lanes.binlog.replication.FakeSourceTest.client;
import static io.lanes.binlog.replication.FakeSourceTest.clientFromStart;
import static io.lanes.binlog.replication.FakeSourceTest.fakeServing;
import static io.lanes.binlog.replication.FakeSourceTest.gunzip;
import static io.lanes.binlog.replication.ReplicationTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lanes.testkit.FakeBinlogServer;
import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.RowsEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inline delivery ({@link ReplicationClient#deliverInline}, {@link ReplicationClient#deliverDecodedInline}): the
 * listener is called on the network thread as events are read, with the same guarantees as the buffered ways of taking
 * events: every event once, in order, across reconnections, and failures after the last event before them.
 */
class InlineDeliveryTest {
    /** Collects what an inline listener receives, and on which threads. */
    static class Collector implements ReplicationListener {
        final List<ReplicationEvent> events = Collections.synchronizedList(new ArrayList<>());
        final Set<String> threads = Collections.synchronizedSet(new java.util.HashSet<>());
        final AtomicReference<ReplicationException> error = new AtomicReference<>();
        final CountDownLatch reachedEnd = new CountDownLatch(1);
        final CountDownLatch failed = new CountDownLatch(1);
        private final StartPosition.FilePosition end;
        /** Calls in progress, to catch overlapping calls. */
        private int inside;

        Collector(StartPosition.FilePosition end) {
            this.end = end;
        }

        @Override
        public void onEvent(ReplicationEvent e) {
            synchronized (this) {
                assertEquals(0, inside++, "calls overlap");
            }
            threads.add(Thread.currentThread().getName());
            events.add(e);
            if (end != null && reached(e, end)) {
                reachedEnd.countDown();
            }
            synchronized (this) {
                inside--;
            }
        }

        @Override
        public void onError(ReplicationException e) {
            error.compareAndSet(null, e);
            failed.countDown();
        }

        void awaitEnd() throws InterruptedException {
            assertTrue(reachedEnd.await(30, TimeUnit.SECONDS), "the stream did not reach " + end + "; got "
                    + events.size() + " events, error " + error.get());
        }
    }

    @Test
    void deliversEveryEventOnceInOrderOnTheNetworkThreadAcrossCutsInsideTransactions() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        List<FileEvent> events = readEvents(file);
        StartPosition.FilePosition end = StartPosition.file(file.getFileName().toString(), Files.size(file));
        try (FakeBinlogServer fake = fakeServing(file); ReplicationClient c = clientFromStart(fake, file).build()) {
            long[] cuts = {3, 7, 5, 9, 4, 11, 6, 8};
            fake.cutAfterEvents(cuts);
            Collector got = new Collector(end);
            c.deliverInline(got); // before start: every event, the first included, goes straight to the listener
            c.start();
            got.awaitEnd();
            assertNull(got.error.get());
            assertTrue(c.reconnectCount() >= cuts.length);
            assertTrue(c.cutTransactionCount() >= 3, "cuts inside transactions: " + c.cutTransactionCount());
            assertStreamMatchesFiles(new ArrayList<>(got.events), events, null);
            assertEquals(mariaDbGtids(events), mariaDbGtids(new ArrayList<>(got.events)));
            assertFalse(got.threads.isEmpty());
            for (String t : got.threads) {
                assertTrue(t.startsWith("lanes-replication-io"), "called on " + t + ", not a network thread");
            }
            assertEquals(0, c.maxBufferedBytes(), "nothing is buffered when the listener takes every event as read");
        }
    }

    @Test
    void eventsBufferedBeforeTheListenerCameAreDeliveredFirst() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        List<FileEvent> events = readEvents(file);
        StartPosition.FilePosition end = StartPosition.file(file.getFileName().toString(), Files.size(file));
        try (FakeBinlogServer fake = fakeServing(file); ReplicationClient c = clientFromStart(fake, file).build()) {
            fake.cutAfterEvents(40); // the rest comes over a second connection, after the listener came
            c.start();
            long t0 = System.nanoTime();
            while (c.bufferedBytes() == 0 && System.nanoTime() - t0 < 10_000_000_000L) {
                Thread.sleep(5);
            }
            assertTrue(c.bufferedBytes() > 0, "events were buffered before the listener came");
            Collector got = new Collector(end);
            c.deliverInline(got);
            got.awaitEnd();
            assertStreamMatchesFiles(new ArrayList<>(got.events), events, null);
            assertTrue(got.events.get(0).isSynthetic() && got.events.get(0).eventType() == 4,
                    "the stream's first event (the fake rotate) comes first");
            assertEquals(0, c.bufferedBytes(), "what was buffered went back to the budget");
            assertThrows(IllegalStateException.class, () -> c.poll(Duration.ofMillis(1)), "one way of taking events");
            assertThrows(IllegalStateException.class, () -> c.drainTo(new ArrayList<>(), 10));
            assertThrows(IllegalStateException.class, () -> c.deliverInline(new Collector(null)));
        }
    }

    @Test
    void aClientWhoseEventsWereTakenCannotSwitchToInlineDelivery() throws Exception {
        Path file = FIXTURES.resolve("mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        try (FakeBinlogServer fake = fakeServing(file); ReplicationClient c = clientFromStart(fake, file).build()) {
            c.start();
            assertNotNull(c.poll(Duration.ofSeconds(10)));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.deliverInline(new Collector(null)));
            assertTrue(e.getMessage().contains("already takes"), e.getMessage());
            assertNotNull(c.poll(Duration.ofSeconds(10)), "the consumer that took events goes on");
        }
    }

    @Test
    void decodesOnTheNetworkThreadWithTheTableMapsSeenBeforeACut() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        List<FileEvent> events = readEvents(file);
        try (FakeBinlogServer fake = fakeServing(file); ReplicationClient c = clientFromStart(fake, file).build()) {
            fake.cutAfterEvents(12, 9, 14, 6, 10);
            c.start();
            LinkedBlockingQueue<Object> out = new LinkedBlockingQueue<>();
            c.deliverDecodedInline(new DecodedEventListener() {
                @Override
                public void onEvent(BinlogEvent event, ReplicationEvent raw) {
                    assertTrue(Thread.currentThread().getName().startsWith("lanes-replication-io"));
                    assertEquals(raw.eventType(), event.header().typeCode());
                    assertEquals(raw.position(), event.position());
                    if (event instanceof RowsEvent rows) {
                        rows.rows(); // every row is decoded here, on the network thread
                    }
                    out.add(event);
                }

                @Override
                public void onError(ReplicationException error) {
                    out.add(error);
                }
            }, BinlogReaderOptions.defaults());
            assertDecodedStreamMatchesFiles(out, events);
            assertTrue(c.cutTransactionCount() >= 1, "a cut fell inside a transaction");
        }
    }

    @Test
    void aListenerThatThrowsClosesTheClientAndHearsWhy() throws Exception {
        Path file = FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001");
        try (FakeBinlogServer fake = fakeServing(file); ReplicationClient c = clientFromStart(fake, file).build()) {
            List<ReplicationEvent> got = Collections.synchronizedList(new ArrayList<>());
            AtomicReference<ReplicationException> error = new AtomicReference<>();
            CountDownLatch failed = new CountDownLatch(1);
            c.deliverInline(new ReplicationListener() {
                @Override
                public void onEvent(ReplicationEvent e) {
                    got.add(e);
                    if (got.size() == 6) {
                        throw new IllegalArgumentException("the sink is full");
                    }
                }

                @Override
                public void onError(ReplicationException e) {
                    error.set(e);
                    failed.countDown();
                }
            });
            c.start();
            assertTrue(failed.await(10, TimeUnit.SECONDS));
            assertEquals(ReplicationException.Kind.LISTENER, error.get().kind());
            assertTrue(error.get().getMessage().contains("the sink is full"), error.get().getMessage());
            Thread.sleep(200);
            assertEquals(6, got.size(), "nothing after the failed event");
            assertTrue(readEvents(file).size() > 20, "the file has more to send");
        }
    }

    @Test
    void aFailureOfTheStreamReachesTheListenerAfterTheLastEvent() throws Exception {
        Path file = FIXTURES.resolve("mysql-binlog-connector-java/mysql-bin.checksum-crc32");
        StartPosition.FilePosition end = StartPosition.file("mysql-bin.checksum-crc32", Files.size(file));
        FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build().start();
        try (ReplicationClient c = client(fake, "pw").startPosition(StartPosition.file("mysql-bin.checksum-crc32", 4))
                .maxReconnectAttempts(3).build()) {
            Collector got = new Collector(end);
            c.start();
            c.deliverInline(got);
            got.awaitEnd();
            int before = got.events.size();
            fake.close(); // the source goes away for good
            assertTrue(got.failed.await(30, TimeUnit.SECONDS), "the failure was reported");
            assertEquals(ReplicationException.Kind.CONNECTION, got.error.get().kind());
            assertTrue(got.error.get().getMessage().contains("after 3 attempts"), got.error.get().getMessage());
            assertEquals(before, got.events.size());
            assertStreamMatchesFiles(new ArrayList<>(got.events), readEvents(file), null);
        } finally {
            fake.close();
        }
    }

    /** A slow inline listener slows the reads down; nothing piles up in the client meanwhile, across cuts. */
    @Test
    void aSlowListenerSlowsTheStreamWithoutBuffering(@TempDir Path tmp) throws Exception {
        Path file = gunzip(FIXTURES.resolve("mariadb-10.11/sysbench-10schemas-update-index.000001.gz"), tmp);
        StartPosition.FilePosition end = StartPosition.file(file.getFileName().toString(), Files.size(file));
        try (FakeBinlogServer fake = fakeServing(file);
                ReplicationClient c = clientFromStart(fake, file).bufferBytes(256 * 1024).build()) {
            fake.cutAfterEvents(5_000, 12_000, 20_000);
            long[] n = {0};
            Collector got = new Collector(end) {
                @Override
                public void onEvent(ReplicationEvent e) {
                    super.onEvent(e);
                    if (++n[0] % 500 == 0) {
                        try {
                            Thread.sleep(2); // a slow listener
                        } catch (InterruptedException ie) {
                            Thread.currentThread().interrupt();
                        }
                        assertEquals(0, c.bufferedBytes());
                    }
                }
            };
            c.deliverInline(got);
            c.start();
            got.awaitEnd();
            assertNull(got.error.get());
            assertEquals(0, c.maxBufferedBytes());
            assertTrue(c.reconnectCount() >= 3);
            assertStreamMatchesFiles(new ArrayList<>(got.events), readEvents(file), null);
        }
    }
}
