package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The real schedulers run through {@link ScheduleSimulation} on small hand-made logs whose depths are worked out by hand
 * in the comments (depth: one more than the deepest transaction waited for; unit cost, unlimited workers).
 */
class ScheduleSimulationTest {

    private static Transaction.Builder<Void> txn() {
        return Transaction.<Void>builder(null).position("p");
    }

    private static Transaction<Void> keys(long... writeKeys) {
        return txn().writeKeys(writeKeys).build();
    }

    private static Transaction<Void> schemas(String... partitionKeys) {
        return txn().partitionKeys(partitionKeys).build();
    }

    private static Transaction<Void> mysql(long lastCommitted, long sequenceNumber) {
        return txn().logicalClock(LogicalClock.mysql(lastCommitted, sequenceNumber)).build();
    }

    private static Transaction<Void> commitId(long id) {
        return txn().logicalClock(LogicalClock.groupCommit(id)).build();
    }

    /** Adds the transactions in order and returns their depths. */
    @SafeVarargs
    private static int[] depths(ScheduleSimulation sim, Transaction<Void>... txns) {
        return Arrays.stream(txns).mapToInt(sim::add).toArray();
    }

    @Test
    void sequentialRunsEverythingOneAfterAnotherOnWorkerZero() {
        ScheduleSimulation sim = new ScheduleSimulation(new SequentialScheduler());
        // Independent by every key, yet one worker runs its queue in order.
        assertArrayEquals(new int[] {1, 2, 3, 4}, depths(sim, keys(1), keys(2), schemas("a"), schemas("b")));
        assertEquals(4, sim.criticalPath());
        assertEquals(1.0, sim.parallelism(), 1e-9);
        assertEquals("sequential", sim.schedulerName());
    }

    @Test
    void partitionOrdersEachSchemaAndJoinsSchemasOnTheFirstOnesWorker() {
        ScheduleSimulation sim = new ScheduleSimulation(new PartitionScheduler());
        // 1 a: 1 (new worker); 2 b: 1 (another); 3 a: after 1 on a's worker, 2; 4 c: 1.
        // 5 a+b: after 3 and 2 (on a's worker, the first key in flight): 3. 6 b: after 5: 4.
        assertArrayEquals(new int[] {1, 1, 2, 1, 3, 4},
                depths(sim, schemas("a"), schemas("b"), schemas("a"), schemas("c"), schemas("a", "b"), schemas("b")));
        assertEquals(4, sim.criticalPath());
        assertEquals(6 / 4.0, sim.parallelism(), 1e-9);
    }

    @Test
    void aTransactionThatStartsAfterAllBeforeWaitsForEveryEarlierOneButHoldsNoLaterOneBack() {
        ScheduleSimulation sim = new ScheduleSimulation(new WritesetScheduler());
        // 1 k1: 1; 2 k1 again: after 1, 2; 3 k3: 1; 4 k4, starts after all before: after 1-3, 3;
        // 5 k5: 1 (not held back, unlike after a barrier); 6 k4 again: after 4, 4.
        Transaction<Void> afterAll = txn().writeKeys(4).startsAfterAllBefore(true).build();
        assertArrayEquals(new int[] {1, 2, 1, 3, 1, 4},
                depths(sim, keys(1), keys(1), keys(3), afterAll, keys(5), keys(4)));
        assertEquals(0, sim.barriers());
        assertTrue(afterAll.startsAfterAllBefore());
        assertTrue(afterAll.toString().contains("starts after all before"));
        assertFalse(keys(1).startsAfterAllBefore());
    }

    @Test
    void partitionWithoutSchemaIsABarrier() {
        ScheduleSimulation sim = new ScheduleSimulation(new PartitionScheduler());
        // 1 a: 1; 2 a: 2; 3 b: 1; 4 (no schema): barrier after everything, 3; 5 b: after the barrier, 4; 6 c: 4.
        assertArrayEquals(new int[] {1, 2, 1, 3, 4, 4},
                depths(sim, schemas("a"), schemas("a"), schemas("b"), schemas(), schemas("b"), schemas("c")));
        assertEquals(1, sim.barriers());
        assertEquals(4, sim.criticalPath());
    }

    @Test
    void logicalClockFollowsMySqlLastCommittedAndARestartedNumbering() {
        ScheduleSimulation sim = new ScheduleSimulation(new LogicalClockScheduler());
        // (0,1) and (0,2): nothing before them, 1 each. (1,3): after everything up to the one numbered 1, 2.
        // (2,4): after everything up to 2, whose deepest is 1, so 2.
        // A new file restarts the numbering at (0,1) and (0,2): both wait for everything before the file (depth 2) and
        // not for each other, 3 each; only the first of the file is where the numbering restarted.
        assertArrayEquals(new int[] {1, 1, 2, 2, 3, 3},
                depths(sim, mysql(0, 1), mysql(0, 2), mysql(1, 3), mysql(2, 4), mysql(0, 1), mysql(0, 2)));
        assertEquals(3, sim.criticalPath());
        assertEquals(2.0, sim.parallelism(), 1e-9);
        assertEquals(0, sim.barriers());
    }

    @Test
    void logicalClockRunsMariaDbGroupsTogetherAndCommitIdZeroAlone() {
        ScheduleSimulation sim = new ScheduleSimulation(new LogicalClockScheduler());
        // Group 7 (three): 1 each. Group 8: after all of group 7, 2 each. Commit id 0: after everything, 3.
        // Group 9: after everything before it, 4. No clock at all: ordered alone, 5. Group 9 again after it is a new
        // group: 6.
        assertArrayEquals(new int[] {1, 1, 1, 2, 2, 3, 4, 5, 6}, depths(sim, commitId(7), commitId(7), commitId(7),
                commitId(8), commitId(8), commitId(0), commitId(9), txn().build(), commitId(9)));
        assertEquals(6, sim.criticalPath());
        assertEquals(9 / 6.0, sim.parallelism(), 1e-9);
    }

    @Test
    void writesetWaitsForTheLastWriterOfEachKey() {
        ScheduleSimulation sim = new ScheduleSimulation(new WritesetScheduler());
        // 1 {1}: 1; 2 {2}: 1; 3 {1}: after 1, 2; 4 {1,2}: after 3 and 2, 3; 5 {3}: 1.
        assertArrayEquals(new int[] {1, 1, 2, 3, 1}, depths(sim, keys(1), keys(2), keys(1), keys(1, 2), keys(3)));
        assertEquals(3, sim.criticalPath());
        assertEquals(5 / 3.0, sim.parallelism(), 1e-9);
    }

    @Test
    void aTransactionThatStatesItsWaitsWaitsForThoseOnlyNotForWhatElseSharesItsWorker() {
        ScheduleSimulation writeset = new ScheduleSimulation(new WritesetScheduler());
        // 1 {1,2}: 1; 2 {1}: after 1, queued on 1's worker, 2; 3 {2}: after 1, queued on 1's worker too, behind 2, but
        // only because 1 has not committed when it is dispatched: its stated wait counts, 2.
        assertArrayEquals(new int[] {1, 2, 2}, depths(writeset, keys(1, 2), keys(1), keys(2)));
        ScheduleSimulation partition = new ScheduleSimulation(new PartitionScheduler());
        // 1 a: 1; 2 b: 1; 3 a+b: after 1 and 2, on a's worker, 2; 4 a: after 3, 3; 5 b: after 3 (b is on a's worker now,
        // behind 4), 3.
        assertArrayEquals(new int[] {1, 1, 2, 3, 3},
                depths(partition, schemas("a"), schemas("b"), schemas("a", "b"), schemas("a"), schemas("b")));
    }

    @Test
    void barriersWaitForEverythingBeforeAndEverythingAfterWaitsForThem() {
        ScheduleSimulation sim = new ScheduleSimulation(new WritesetScheduler());
        // 1 {1}: 1; 2 {1}: 2; 3 {2}: 1; 4 without write keys: the scheduler makes it a barrier, 3; 5 {3}: 4;
        // 6 marked a barrier (DDL) although it has keys: 5; 7 {4}: 6; 8 {5}: 6.
        assertArrayEquals(new int[] {1, 2, 1, 3, 4, 5, 6, 6}, depths(sim, keys(1), keys(1), keys(2), keys(),
                keys(3), txn().writeKeys(9).barrier(true).build(), keys(4), keys(5)));
        assertEquals(2, sim.barriers());
        assertEquals(6, sim.criticalPath());
    }

    @Test
    void aTransactionLargerThanTheQueueBudgetRunsAlone() {
        ScheduleSimulation sim = new ScheduleSimulation(new WritesetScheduler(), 100);
        // 1 {1}: 1; 2 {2} of 200 bytes: alone, 2; 3 {3}: after it, 3.
        assertArrayEquals(new int[] {1, 2, 3}, depths(sim, keys(1), txn().writeKeys(2).sizeBytes(200).build(), keys(3)));
        assertEquals(1, sim.barriers());
    }

    @Test
    void aFullWritesetHistoryMakesLaterTransactionsWaitForEverythingBeforeTheClearing() {
        // History of 3 keys. Nothing commits in the simulation, so no writer's keys can be dropped: the history is
        // cleared only once the in-flight writers' keys pass IN_FLIGHT_HISTORY_FACTOR x 3 = 24. 1..25 {1}..{25}: 1 each,
        // and placing 25 (24 + 1 > 24) clears the history at 24; 26 waits for everything up to 24: 2.
        int cap = WritesetScheduler.IN_FLIGHT_HISTORY_FACTOR * 3;
        Transaction<Void>[] log = distinctKeys(cap + 2);
        int[] expected = new int[cap + 2];
        java.util.Arrays.fill(expected, 1);
        expected[cap + 1] = 2;
        ScheduleSimulation bounded = new ScheduleSimulation(new WritesetScheduler(3));
        assertArrayEquals(expected, depths(bounded, log));
        assertEquals((cap + 2) / 2.0, bounded.parallelism(), 1e-9);
        // With a history large enough for the whole log nothing waits.
        ScheduleSimulation unbounded = new ScheduleSimulation(new WritesetScheduler(1 << 30));
        java.util.Arrays.fill(expected, 1);
        assertArrayEquals(expected, depths(unbounded, log));
        assertEquals(cap + 2, unbounded.parallelism(), 1e-9);
    }

    @Test
    void aBulkTransactionFillsTheHistoryOnlyPastTheInFlightBound() {
        // History of 4 keys, in-flight bound 32. A 5-key transaction fits under the bound: nothing is forgotten, and
        // 3 {20} and 4 {21} wait for nothing.
        ScheduleSimulation fits = new ScheduleSimulation(new WritesetScheduler(4));
        assertArrayEquals(new int[] {1, 1, 1, 1}, depths(fits, keys(10), keys(1, 2, 3, 4, 5), keys(20), keys(21)));
        // A 40-key one does not: 1 + 40 > 32, cleared at 1 once 2 is placed (depth 1); 3 {20} waits for everything up
        // to 1 (2), and its own placement clears again at 2 (the 40 keys are still there): 4 {21} waits up to 2 (2).
        long[] bulk = new long[40];
        for (int i = 0; i < bulk.length; i++) {
            bulk[i] = 100 + i;
        }
        ScheduleSimulation over = new ScheduleSimulation(new WritesetScheduler(4));
        assertArrayEquals(new int[] {1, 1, 2, 2}, depths(over, keys(10), keys(bulk), keys(20), keys(21)));
    }

    @Test
    void onceEveryWorkerWasUsedTheOneWhoseQueueEndsEarliestIsReused() {
        // Independent transactions (MySQL clocks with last_committed 0) each get a worker of their own until all
        // are used; the next one queues behind a depth-1 transaction: the bound of "unlimited" workers.
        ScheduleSimulation sim = new ScheduleSimulation(new LogicalClockScheduler());
        for (int i = 1; i <= ScheduleSimulation.WORKERS; i++) {
            assertEquals(1, sim.add(mysql(0, i)));
        }
        assertEquals(2, sim.add(mysql(0, ScheduleSimulation.WORKERS + 1)));
        assertEquals(2, sim.criticalPath());
    }

    @Test
    void aSchedulerThatWaitsForALaterTransactionIsRefused() {
        ScheduleSimulation sim = new ScheduleSimulation(new Scheduler() {
            @Override
            public void init(SchedulingContext context) {
            }

            @Override
            public void schedule(Transaction<?> txn, Placement placement) {
                placement.after(placement.sequence());
            }
        });
        assertThrows(IllegalArgumentException.class, () -> sim.add(keys(1)));
    }

    @Test
    void emptyHasNoCriticalPath() {
        ScheduleSimulation sim = new ScheduleSimulation(new PartitionScheduler());
        assertEquals(0, sim.criticalPath());
        assertEquals(0.0, sim.parallelism());
        assertEquals(0, sim.transactions());
    }

    @SuppressWarnings("unchecked")
    private static Transaction<Void>[] distinctKeys(int n) {
        Transaction<Void>[] log = new Transaction[n];
        for (int i = 0; i < n; i++) {
            log[i] = keys(i + 1);
        }
        return log;
    }
}
