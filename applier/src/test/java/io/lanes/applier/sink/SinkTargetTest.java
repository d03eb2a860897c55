package io.lanes.applier.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableRef;
import io.lanes.applier.checkpoint.CheckpointRow;
import io.lanes.applier.checkpoint.CheckpointRows;
import io.lanes.applier.checkpoint.FileCheckpointStore;
import io.lanes.core.Checkpoint;
import io.lanes.core.Engine;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Transaction;
import io.lanes.core.WritesetScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CDC sink contract: every transaction arrives once, in dependency order (a transaction arrives only after the
 * previous writer of its row was acknowledged), acknowledgements may come later from another thread, and no checkpoint
 * ever covers a transaction before its acknowledgement.
 */
class SinkTargetTest {
    @TempDir
    Path dir;

    static final int TRANSACTIONS = 400;
    static final int ROWS = 13;

    @Test
    void everyTransactionOnceInDependencyOrderAndCheckpointsFollowAcks() throws Exception {
        FileCheckpointStore files = new FileCheckpointStore(dir);
        Map<Long, AtomicInteger> deliveries = new ConcurrentHashMap<>();
        Set<Long> acked = ConcurrentHashMap.newKeySet();
        List<String> violations = new CopyOnWriteArrayList<>();
        ScheduledExecutorService acks = Executors.newScheduledThreadPool(3);
        Random random = new Random(42);
        TransactionSink sink = (txn, worker) -> {
            long seq = Long.parseLong(txn.position().substring(4));
            deliveries.computeIfAbsent(seq, s -> new AtomicInteger()).incrementAndGet();
            long previousWriter = seq - ROWS; // the row of seq was last written by seq - 13
            if (previousWriter >= 1 && !acked.contains(previousWriter)) {
                violations.add(seq + " delivered before its dependency " + previousWriter + " was acknowledged");
            }
            checkCheckpointsCoverOnlyAcked(files, acked, violations);
            CompletableFuture<Void> ack = new CompletableFuture<>();
            int delay;
            synchronized (random) {
                delay = random.nextInt(3);
            }
            acks.schedule(() -> {
                acked.add(seq);
                ack.complete(null);
            }, delay, TimeUnit.MILLISECONDS);
            return ack;
        };
        SinkTarget target = new SinkTarget(sink, files, "cdc");
        Engine<SourceTransaction> engine = Engine.builder(target.applierFactory()).checkpointStore(target.checkpointStore())
                .scheduler(new WritesetScheduler()).workers(4).checkpointPeriod(java.time.Duration.ofMillis(5)).build();
        RecoveryPoint from = engine.start();
        assertEquals(1, from.nextSequence());
        for (int i = 1; i <= TRANSACTIONS; i++) {
            engine.submit(transaction(i));
        }
        engine.stop();
        acks.shutdown();
        checkCheckpointsCoverOnlyAcked(files, acked, violations);
        assertEquals(List.of(), violations);
        assertEquals(TRANSACTIONS, deliveries.size());
        assertTrue(deliveries.values().stream().allMatch(n -> n.get() == 1), "each delivered once");
        assertEquals(TRANSACTIONS, acked.size());

        // A restart finds everything delivered: nothing is delivered again.
        AtomicInteger again = new AtomicInteger();
        SinkTarget restarted = new SinkTarget((txn, w) -> {
            again.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }, files, "cdc");
        Engine<SourceTransaction> second = Engine.builder(restarted.applierFactory())
                .checkpointStore(restarted.checkpointStore()).scheduler(new WritesetScheduler()).workers(4).build();
        RecoveryPoint rp = second.start();
        for (long i = rp.nextSequence(); i <= TRANSACTIONS; i++) {
            second.submit(transaction((int) i));
        }
        second.stop();
        assertEquals(0, again.get(), "recovery point " + rp);
    }

    private static Transaction<SourceTransaction> transaction(int i) {
        int row = i % ROWS;
        SourceTransaction t = new SourceTransaction("pos:" + i, null, null, List.of(RowChange.update(new TableRef("s", "t"),
                new RowImage(List.of("id"), new Object[] {row}), new RowImage(List.of("v"), new Object[] {i}))));
        return Transaction.builder(t).position(t.position()).partitionKey("s").writeKeys(row * 7919L + 1).build();
    }

    private static void checkCheckpointsCoverOnlyAcked(FileCheckpointStore files, Set<Long> acked, List<String> violations) {
        try {
            List<Checkpoint> saved = new ArrayList<>();
            for (CheckpointRow row : files.readAll("cdc")) {
                saved.add(CheckpointRows.fromRow(row));
            }
            RecoveryPoint rp = RecoveryPoint.fromCheckpoints(saved, null);
            for (long s = 1; s <= TRANSACTIONS; s++) {
                if (rp.isAlreadyApplied(s) && !acked.contains(s)) {
                    violations.add("checkpoint covers " + s + " before its acknowledgement (" + rp + ")");
                    return;
                }
            }
        } catch (Exception e) {
            violations.add("reading checkpoints: " + e);
        }
    }
}
