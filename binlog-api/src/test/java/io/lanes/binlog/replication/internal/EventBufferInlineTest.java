package io.lanes.binlog.replication.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ReplicationException;
import io.lanes.binlog.replication.StartPosition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The buffer's inline mode: the sink gets every event once, in order, whenever it came, and the failure last. */
class EventBufferInlineTest {
    private static ReplicationEvent event(long position, int size) {
        return new ReplicationEvent(new byte[size], "bin.000001", position, false, true,
                StartPosition.file("bin.000001", position + size));
    }

    private static List<ReplicationEvent> batch(long from, int n) {
        List<ReplicationEvent> b = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            b.add(event(from + i, 100));
        }
        return b;
    }

    private static long weight(List<ReplicationEvent> b) {
        return b.stream().mapToLong(EventBuffer::weight).sum();
    }

    /** Records positions; a failure is recorded as -1. */
    static final class Recorder implements EventBuffer.InlineSink {
        final List<Long> got = new ArrayList<>();
        final AtomicInteger failures = new AtomicInteger();

        @Override
        public synchronized void onEvent(ReplicationEvent e) {
            got.add(e.position());
        }

        @Override
        public synchronized void onFailure(ReplicationException failure) {
            failures.incrementAndGet();
            got.add(-1L);
        }

        synchronized List<Long> got() {
            return new ArrayList<>(got);
        }
    }

    private static List<Long> range(long from, int n) {
        List<Long> r = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            r.add(from + i);
        }
        return r;
    }

    @Test
    void eventsQueuedBeforeTheSinkCameGoFirstEvenWhenTheNextBatchComesBeforeTheDrain() {
        EventBuffer b = new EventBuffer(1 << 20);
        List<ReplicationEvent> first = batch(0, 5);
        assertTrue(b.offerAll(first, weight(first), () -> { }));
        Recorder sink = new Recorder();
        b.deliverInline(sink); // no drain yet: the next offer must deliver what is queued before its own events
        List<ReplicationEvent> second = batch(5, 3);
        assertTrue(b.offerAll(second, weight(second), () -> { }));
        assertEquals(range(0, 8), sink.got());
        assertEquals(0, b.bufferedBytes(), "the queued events went back to the budget");
        b.drainInline();
        assertEquals(range(0, 8), sink.got(), "nothing twice");
    }

    @Test
    void aDrainDeliversWhatIsQueuedAndResumesAPausedProducer() {
        List<ReplicationEvent> big = batch(0, 20);
        EventBuffer b = new EventBuffer(weight(big) / 2);
        AtomicInteger resumed = new AtomicInteger();
        assertFalse(b.offerAll(big, weight(big), resumed::incrementAndGet), "over the budget: reading stops");
        Recorder sink = new Recorder();
        b.deliverInline(sink);
        assertTrue(sink.got().isEmpty());
        b.drainInline();
        assertEquals(range(0, 20), sink.got());
        assertEquals(1, resumed.get(), "the stopped reads go on");
        assertFalse(b.isPaused());
        List<ReplicationEvent> more = batch(20, 40);
        assertTrue(b.offerAll(more, weight(more), resumed::incrementAndGet), "inline: never over the budget");
        assertEquals(0, b.bufferedBytes());
        assertEquals(range(0, 60), sink.got());
    }

    @Test
    void theFailureComesAfterTheEventsBeforeItAndOnlyOnce() {
        EventBuffer b = new EventBuffer(1 << 20);
        List<ReplicationEvent> first = batch(0, 4);
        b.offerAll(first, weight(first), () -> { });
        b.fail(new ReplicationException(ReplicationException.Kind.CONNECTION, "gone"));
        Recorder sink = new Recorder();
        b.deliverInline(sink);
        b.drainInline();
        b.drainInline();
        b.fail(new ReplicationException(ReplicationException.Kind.CONNECTION, "gone again"));
        List<Long> expected = range(0, 4);
        expected.add(-1L);
        assertEquals(expected, sink.got());
        assertEquals(1, sink.failures.get());
    }

    @Test
    void aFailureAfterTheSinkCameIsReportedAtOnce() {
        EventBuffer b = new EventBuffer(1 << 20);
        Recorder sink = new Recorder();
        b.deliverInline(sink);
        List<ReplicationEvent> first = batch(0, 2);
        b.offerAll(first, weight(first), () -> { });
        b.fail(new ReplicationException(ReplicationException.Kind.CONNECTION, "gone"));
        assertEquals(List.of(0L, 1L, -1L), sink.got());
    }

    @Test
    void nothingIsDeliveredOnceClosed() {
        EventBuffer b = new EventBuffer(1 << 20);
        List<ReplicationEvent> first = batch(0, 2);
        b.offerAll(first, weight(first), () -> { });
        Recorder sink = new Recorder();
        b.deliverInline(sink);
        b.close();
        b.drainInline();
        List<ReplicationEvent> second = batch(2, 2);
        b.offerAll(second, weight(second), () -> { });
        b.fail(new ReplicationException(ReplicationException.Kind.CONNECTION, "gone"));
        assertTrue(sink.got().isEmpty(), "closed: " + sink.got());
    }

    @Test
    void consumersAndTheSinkExcludeEachOther() throws Exception {
        EventBuffer taken = new EventBuffer(1 << 20);
        List<ReplicationEvent> first = batch(0, 3);
        taken.offerAll(first, weight(first), () -> { });
        assertNotNull(taken.poll(1, TimeUnit.SECONDS));
        assertThrows(IllegalStateException.class, () -> taken.deliverInline(new Recorder()));

        EventBuffer inline = new EventBuffer(1 << 20);
        inline.deliverInline(new Recorder());
        assertThrows(IllegalStateException.class, () -> inline.deliverInline(new Recorder()));
        assertThrows(IllegalStateException.class, () -> inline.poll(1, TimeUnit.MILLISECONDS));
        assertThrows(IllegalStateException.class, () -> inline.take(new ArrayList<>(), 10, 1, TimeUnit.MILLISECONDS));
        assertThrows(IllegalStateException.class, () -> inline.drainTo(new ArrayList<>(), 10));
    }

    /**
     * The sink comes while the producer offers its last batch, and the queued events are drained from another thread
     * (as the client does when it attaches a listener): every event arrives once and in order, whichever of the producer
     * and the drain gets there first, with no later offer or drain to pick up a batch queued in between.
     */
    @Test
    void aSinkThatComesWhileTheProducerOffersGetsEveryEventOnceInOrder() throws Exception {
        for (int round = 0; round < 100; round++) {
            EventBuffer b = new EventBuffer(1 << 30);
            int batches = 1 + round % 3;
            int perBatch = 7;
            java.util.concurrent.atomic.AtomicBoolean lastComing = new java.util.concurrent.atomic.AtomicBoolean();
            Thread producer = new Thread(() -> {
                for (int i = 0; i < batches; i++) {
                    List<ReplicationEvent> next = batch((long) i * perBatch, perBatch);
                    if (i == batches - 1) {
                        lastComing.set(true);
                    }
                    b.offerAll(next, weight(next), () -> { });
                }
            });
            Recorder sink = new Recorder();
            producer.start();
            while (!lastComing.get()) {
                Thread.onSpinWait();
            }
            b.deliverInline(sink);
            b.drainInline();
            producer.join();
            assertEquals(range(0, batches * perBatch), sink.got(), "round " + round);
            assertEquals(0, b.bufferedBytes());
        }
    }
}
