package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A transaction larger than the queue budget runs alone and is streamed to its worker: {@code submit} hands it over at
 * once (after the work before it drained), while the source is still producing its content. The payload here is a
 * stream of at most 4 buffered chunks; if the engine buffered the transaction whole before handing it over, the
 * producer would block forever on the full stream.
 */
class OversizedTransactionTest {
    private static final byte[] END = new byte[0];

    @Test
    void largerThanTheBudgetIsStreamedAndRunsAlone() throws Exception {
        long budget = 64 * 1024;
        int chunks = 1_000;
        int chunkSize = 16 * 1024; // 16 MB in all: 250 times the budget
        List<String> events = new CopyOnWriteArrayList<>();
        ApplierFactory<Object> factory = wid -> new Applier<>() {
            @Override
            public void apply(Transaction<Object> txn, ApplyContext ctx) throws Exception {
                if (txn.payload() instanceof BlockingQueue<?> q) {
                    events.add("big-start");
                    long bytes = 0;
                    for (;;) {
                        byte[] chunk = (byte[]) q.poll(10, TimeUnit.SECONDS);
                        assertTrue(chunk != null, "stream stalled");
                        if (chunk == END) {
                            break;
                        }
                        bytes += chunk.length;
                    }
                    events.add("big-applied " + bytes);
                } else {
                    events.add("apply " + txn.payload());
                }
            }

            @Override
            public void commit(Batch<Object> batch, Checkpoint checkpoint) {
                for (int i = 0; i < batch.size(); i++) {
                    Object p = batch.transaction(i).payload();
                    events.add("commit " + (p instanceof BlockingQueue ? "big" : p));
                }
            }

            @Override
            public void rollback(Batch<Object> batch) {
            }
        };
        try (Engine<Object> engine = Engine.builder(factory).scheduler(new PartitionScheduler()).workers(4)
                .commitOrder(CommitOrder.NONE).queueBudgetBytes(budget).build()) {
            engine.start();
            for (int i = 1; i <= 3; i++) {
                engine.submit(Transaction.builder((Object) ("small" + i)).position("p" + i).partitionKey("s" + i)
                        .sizeBytes(1_000).build());
            }
            BlockingQueue<byte[]> stream = new ArrayBlockingQueue<>(4);
            engine.submit(Transaction.builder((Object) stream).position("p4").partitionKey("s1")
                    .sizeBytes((long) chunks * chunkSize).build());
            // submit returned while the transaction is still being read: keep producing it
            for (int i = 0; i < chunks; i++) {
                assertTrue(stream.offer(new byte[chunkSize], 10, TimeUnit.SECONDS), "worker is not consuming");
            }
            assertTrue(stream.offer(END, 10, TimeUnit.SECONDS));
            engine.submit(Transaction.builder((Object) "after").position("p5").partitionKey("s2").sizeBytes(10)
                    .build());
            assertTrue(engine.awaitLowWaterMark(5, Duration.ofSeconds(20)));
            assertEquals(1, engine.stats().barriers());
        }
        int bigStart = events.indexOf("big-start");
        for (int i = 1; i <= 3; i++) {
            assertTrue(events.indexOf("commit small" + i) < bigStart, "small" + i + " committed before: " + events);
        }
        assertTrue(events.contains("big-applied " + (long) chunks * chunkSize), events.toString());
        assertTrue(events.indexOf("commit big") < events.indexOf("apply after"), "ran alone: " + events);
    }
}
