package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A worker whose queue runs dry with a batch open, where a commit costs more than a short sleep, lingers for the next
 * transaction instead of committing at once (issue 19's workload 4: four workers fed by one reading thread made about
 * 30,000 target commits of 25-50 transactions where one worker made 4,000); the linger is bounded, so the last
 * transaction of a burst still commits promptly.
 */
class BatchLingerTest {

    /** Commits take {@code commitNanos} (as a target's round trip and log write do); records each commit's size. */
    private static final class SlowCommit implements Applier<String> {
        final List<Integer> commits = new CopyOnWriteArrayList<>();
        private final long commitNanos;

        SlowCommit(long commitNanos) {
            this.commitNanos = commitNanos;
        }

        @Override
        public void apply(Transaction<String> txn, ApplyContext ctx) {
        }

        @Override
        public void commit(Batch<String> batch, Checkpoint checkpoint) {
            long until = System.nanoTime() + commitNanos;
            while (System.nanoTime() - until < 0) {
                LockSupport.parkNanos(until - System.nanoTime());
            }
            commits.add(batch.size());
        }

        @Override
        public void rollback(Batch<String> batch) {
        }
    }

    private static Transaction<String> txn(int i) {
        return Transaction.builder("t" + i).position(Integer.toString(i)).partitionKey("one").build();
    }

    /** Waits about {@code nanos}, busy: a source handing over one transaction every so often. */
    private static void pace(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aWorkerFedSlowerThanItAppliesKeepsItsBatchOpenRatherThanCommittingEachTransaction() throws Exception {
        SlowCommit applier = new SlowCommit(400_000);
        int transactions = 300;
        try (Engine<String> e = Engine.builder(w -> applier).workers(2).scheduler(new PartitionScheduler())
                .blockCommit(64).checkpointPeriod(Duration.ofDays(1)).build()) {
            e.start();
            long last = 0;
            for (int i = 1; i <= transactions; i++) {
                last = e.submit(txn(i));
                pace(150_000); // slower than an apply, faster than a commit
            }
            assertTrue(e.awaitLowWaterMark(last, Duration.ofSeconds(30)));
        }
        int sum = applier.commits.stream().mapToInt(Integer::intValue).sum();
        assertEquals(transactions, sum);
        // Committing whenever the queue ran dry: each commit takes what arrived during the one before, 2-3 transactions
        // (98-118 commits measured). Lingering: blocks grow towards the block-commit size of 64 unless the source
        // stalls (5-19 commits, the most with both processors kept busy by other processes).
        assertTrue(applier.commits.size() <= transactions / 6,
                "commits " + applier.commits.size() + " for " + transactions + " transactions: " + applier.commits);
    }

    @Test
    void theLastTransactionOfABurstCommitsPromptly() throws Exception {
        SlowCommit applier = new SlowCommit(400_000);
        try (Engine<String> e = Engine.builder(w -> applier).workers(2).scheduler(new PartitionScheduler())
                .blockCommit(256).checkpointPeriod(Duration.ofDays(1)).build()) {
            e.start();
            for (int i = 1; i <= 200; i++) {
                e.submit(txn(i));
                pace(150_000);
            }
            long last = e.submit(txn(201));
            long from = System.nanoTime();
            assertTrue(e.awaitLowWaterMark(last, Duration.ofSeconds(30)));
            long tookMillis = (System.nanoTime() - from) / 1_000_000;
            // The linger is at most Worker.LINGER_MAX_NANOS (1 ms) past the last arrival, then one commit; allow for a
            // loaded machine, but not for a batch held open until a block fills or a checkpoint period passes.
            assertTrue(tookMillis < 500, "the burst's last transaction took " + tookMillis + " ms to commit");
        }
    }
}
