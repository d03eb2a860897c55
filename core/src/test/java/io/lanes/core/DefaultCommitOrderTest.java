package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The engine's default commit order is {@link CommitOrder#PER_PARTITION} (one default for the engine and the pipeline),
 * and it keeps {@link CommitOrder#STRICT}'s guarantee for a caller whose transactions carry no partition keys: each
 * commits after every transaction before it.
 */
class DefaultCommitOrderTest {
    @Test
    void transactionsWithoutPartitionKeysCommitInSourceOrderByDefault() throws Exception {
        assertEquals(CommitOrder.PER_PARTITION, EngineSettings.defaults().commitOrder());
        List<Long> committed = new ArrayList<>();
        ApplierFactory<Long> appliers = worker -> new Applier<>() {
            private final List<Long> open = new ArrayList<>();

            @Override
            public void apply(Transaction<Long> txn, ApplyContext ctx) {
                if (txn.payload() % 5 == 0) {
                    LockSupport.parkNanos(2_000_000); // an earlier transaction that is slow to apply
                }
                open.add(txn.payload());
            }

            @Override
            public void commit(Batch<Long> batch, Checkpoint checkpoint) {
                synchronized (committed) {
                    committed.addAll(open);
                }
                open.clear();
            }

            @Override
            public void rollback(Batch<Long> batch) {
                open.clear();
            }
        };
        int n = 400;
        // Distinct write keys and runs of 1: nothing but the commit order keeps these transactions in order, and
        // each goes to whichever worker is free.
        try (Engine<Long> engine = Engine.builder(appliers).scheduler(new WritesetScheduler(1000, 1)).workers(4)
                .blockCommit(1).build()) {
            engine.start();
            long last = 0;
            for (long i = 1; i <= n; i++) {
                last = engine.submit(Transaction.builder(i).position("p" + i).writeKeys(new long[] {i}).build());
            }
            engine.awaitLowWaterMark(last, java.time.Duration.ofMinutes(1));
        }
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            expected.add(i);
        }
        synchronized (committed) {
            assertEquals(expected, committed);
        }
    }
}
