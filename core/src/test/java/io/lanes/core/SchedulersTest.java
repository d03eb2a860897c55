package io.lanes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each policy's decisions, against a scripted view of the in-flight window. */
class SchedulersTest {

    /** The engine's view, scripted: which sequence numbers committed, where the others sit, who is least loaded. */
    static final class FakeContext implements SchedulingContext {
        final Set<Long> committed = new HashSet<>();
        final Map<Long, Integer> placedOn = new HashMap<>();
        int leastLoaded = 5;
        long lwm;
        CommitOrder commitOrder = CommitOrder.NONE;
        boolean processorsToSpare = true;

        @Override
        public boolean processorsToSpare() {
            return processorsToSpare;
        }

        @Override
        public CommitOrder commitOrder() {
            return commitOrder;
        }

        @Override
        public int workerCount() {
            return 8;
        }

        @Override
        public boolean isCommitted(long sequence) {
            return sequence <= lwm || committed.contains(sequence);
        }

        @Override
        public int workerOf(long sequence) {
            return isCommitted(sequence) ? -1 : placedOn.getOrDefault(sequence, -1);
        }

        @Override
        public int leastLoadedWorker() {
            return leastLoaded;
        }

        /** How often a policy asked for a worker for an idle key, and the previous worker it gave last (-2: never). */
        int idleKeyQueries;
        int lastIdleKeyPrevious = -2;

        @Override
        public int workerForIdleKey(int previous) {
            idleKeyQueries++;
            lastIdleKeyPrevious = previous;
            return leastLoaded;
        }

        /** Workers with something in flight, as the engine would count them; 0 for the others. */
        final Map<Integer, Integer> pending = new HashMap<>();

        @Override
        public int pendingTransactions(int worker) {
            return pending.getOrDefault(worker, 0);
        }

        @Override
        public long lowWaterMark() {
            return lwm;
        }
    }

    /** What a policy decided for one transaction. */
    static final class Decision implements Placement {
        final long seq;
        int worker = -1;
        final List<Long> after = new ArrayList<>();
        long afterAllUpTo;
        boolean barrier;

        Decision(long seq) {
            this.seq = seq;
        }

        @Override
        public long sequence() {
            return seq;
        }

        @Override
        public Placement toWorker(int w) {
            worker = w;
            return this;
        }

        @Override
        public Placement after(long s) {
            after.add(s);
            return this;
        }

        @Override
        public Placement afterAllUpTo(long s) {
            afterAllUpTo = Math.max(afterAllUpTo, s);
            return this;
        }

        @Override
        public Placement asBarrier() {
            barrier = true;
            return this;
        }
    }

    FakeContext ctx;
    long next;

    @BeforeEach
    void reset() {
        ctx = new FakeContext();
        next = 1;
    }

    private Decision place(Scheduler s, Transaction.Builder<Object> b) {
        Decision d = new Decision(next++);
        s.schedule(b.build(), d);
        int w = d.worker >= 0 ? d.worker : ctx.leastLoaded;
        ctx.placedOn.put(d.seq, w);
        return d;
    }

    /** A writeset scheduler with runs of up to {@code runLength}, initialised under {@code order}. */
    private WritesetScheduler writesetWithRuns(int runLength, CommitOrder order) {
        WritesetScheduler s = new WritesetScheduler(100, runLength);
        ctx.commitOrder = order;
        s.init(ctx);
        return s;
    }

    private static Transaction.Builder<Object> txn() {
        return Transaction.builder((Object) null).position("p");
    }

    @Test
    void partitionKeysStayWhileInFlightAndMoveWhenIdle() {
        PartitionScheduler s = new PartitionScheduler();
        s.init(ctx);
        ctx.leastLoaded = 2;
        Decision a1 = place(s, txn().partitionKey("a"));
        assertEquals(2, a1.worker);
        ctx.leastLoaded = 6;
        Decision a2 = place(s, txn().partitionKey("a"));
        assertEquals(2, a2.worker, "a has work in flight on worker 2");
        assertEquals(List.of(1L), a2.after);
        Decision b1 = place(s, txn().partitionKey("b"));
        assertEquals(6, b1.worker);
        ctx.committed.add(1L);
        ctx.committed.add(2L);
        ctx.leastLoaded = 4;
        Decision a3 = place(s, txn().partitionKey("a"));
        assertEquals(4, a3.worker, "a was idle: it moves to the least loaded worker");
        assertEquals(List.of(), a3.after);
        Decision ab = place(s, txn().partitionKeys("a", "b"));
        assertEquals(List.of(4L, 3L), ab.after, "waits for the last in-flight transaction of each key");
        assertEquals(4, ab.worker);
        Decision b2 = place(s, txn().partitionKey("b"));
        assertEquals(4, b2.worker, "b now belongs where the multi-key transaction went");
        assertTrue(place(s, txn()).barrier, "no partition key: unknown dependencies");
    }

    @Test
    void writesetDependenciesOnOneWorkerQueueThereOtherwiseLeastLoaded() {
        WritesetScheduler s = new WritesetScheduler(10);
        s.init(ctx);
        ctx.leastLoaded = 1;
        place(s, txn().writeKeys(100, 200));
        ctx.leastLoaded = 3;
        place(s, txn().writeKeys(300));
        ctx.leastLoaded = 7;
        Decision same = place(s, txn().writeKeys(100));
        assertEquals(List.of(1L), same.after);
        assertEquals(1, same.worker, "its only dependency sits on worker 1: queue behind it");
        Decision two = place(s, txn().writeKeys(200, 300));
        assertEquals(List.of(1L, 2L), two.after);
        assertEquals(-1, two.worker, "dependencies on workers 1 and 3: least loaded, waits there");
        ctx.committed.add(4L);
        ctx.committed.add(3L);
        Decision free = place(s, txn().writeKeys(100, 200, 300));
        assertEquals(List.of(), free.after, "every earlier writer committed");
        assertTrue(place(s, txn()).barrier, "no write keys");
    }

    @Test
    void writesetWaitsOnceForTheEarlierWriterOfManyOfItsRows() {
        WritesetScheduler s = new WritesetScheduler(10_000);
        s.init(ctx);
        ctx.leastLoaded = 2;
        long[] rows = new long[1_000];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = 1_000 + i;
        }
        place(s, txn().writeKeys(rows)); // 1: inserts the rows, in flight on worker 2
        ctx.leastLoaded = 4;
        place(s, txn().writeKeys(5)); // 2: on worker 4
        long[] update = new long[rows.length + 1];
        System.arraycopy(rows, 0, update, 0, 500);
        update[500] = 5;
        System.arraycopy(rows, 500, update, 501, 500);
        Decision bulk = place(s, txn().writeKeys(update));
        assertEquals(List.of(1L, 2L, 1L), bulk.after, "one wait per run of rows with the same last writer, not 1,001");
        assertEquals(-1, bulk.worker, "its dependencies sat on two workers");
        ctx.committed.add(2L);
        Decision again = place(s, txn().writeKeys(rows));
        assertEquals(List.of(3L), again.after);
    }

    @Test
    void writesetRunsKeepConsecutiveIndependentTransactionsOnOneWorker() {
        WritesetScheduler s = writesetWithRuns(3, CommitOrder.STRICT);
        ctx.leastLoaded = 2;
        Decision a = place(s, txn().writeKeys(1));
        ctx.leastLoaded = 4;
        Decision b = place(s, txn().writeKeys(2));
        Decision c = place(s, txn().writeKeys(3));
        assertEquals(List.of(2, 2), List.of(b.worker, c.worker), "independent, consecutive: the run stays on worker 2");
        Decision d = place(s, txn().writeKeys(4));
        assertEquals(4, d.worker, "the run reached its length 3: the next one starts a run elsewhere");
        assertEquals(List.of(), a.after);
        ctx.leastLoaded = 6;
        Decision onA = place(s, txn().writeKeys(1));
        assertEquals(List.of(1L), onA.after, "a dependency is kept exactly, runs or not");
        assertEquals(4, onA.worker, "its dependency (on worker 2) precedes the run in the commit order: it joins the run");
        ctx.committed.add(5L);
        Decision afterCommit = place(s, txn().writeKeys(5));
        assertEquals(6, afterCommit.worker, "the previous transaction committed: no run to continue");
        assertTrue(place(s, txn()).barrier);
        Decision afterBarrier = place(s, txn().writeKeys(7));
        assertEquals(List.of(), afterBarrier.after);
    }

    @Test
    void writesetRunsRecordTheSameDependenciesAsWithoutRuns() {
        long seed = Long.getLong("lanes.test.seed", System.nanoTime());
        java.util.Random random = new java.util.Random(seed);
        for (int round = 0; round < 200; round++) {
            int runLength = 1 + random.nextInt(10);
            int history = 1 + random.nextInt(50);
            FakeContext plain = new FakeContext();
            FakeContext runs = new FakeContext();
            CommitOrder order = CommitOrder.values()[random.nextInt(3)];
            plain.commitOrder = order;
            runs.commitOrder = order;
            WritesetScheduler without = new WritesetScheduler(history, 1);
            WritesetScheduler with = new WritesetScheduler(history, runLength);
            without.init(plain);
            with.init(runs);
            for (long seq = 1; seq <= 100; seq++) {
                long[] keys = new long[random.nextInt(4)];
                for (int k = 0; k < keys.length; k++) {
                    keys[k] = random.nextInt(30);
                }
                int least = random.nextInt(8);
                plain.leastLoaded = least;
                runs.leastLoaded = least;
                if (random.nextInt(3) == 0) { // some earlier ones commit, the same in both views
                    long done = 1 + random.nextInt((int) seq);
                    plain.committed.add(done);
                    runs.committed.add(done);
                }
                Decision p = new Decision(seq);
                Decision r = new Decision(seq);
                without.schedule(txn().writeKeys(keys).build(), p);
                with.schedule(txn().writeKeys(keys).build(), r);
                String where = "seed " + seed + " round " + round + " seq " + seq;
                assertEquals(p.after, r.after, where);
                assertEquals(p.afterAllUpTo, r.afterAllUpTo, where);
                assertEquals(p.barrier, r.barrier, where);
                // Keep both views' placements the same so later dependencies are comparable; the worker choice is
                // the only thing runs may change.
                int w = r.worker >= 0 ? r.worker : least;
                plain.placedOn.put(seq, w);
                runs.placedOn.put(seq, w);
            }
        }
    }

    @Test
    void writesetRemembersWhereACommittedWritersRowsRanForTheLastTransactions() {
        WritesetScheduler s = new WritesetScheduler(100_000);
        s.init(ctx);
        ctx.leastLoaded = 3;
        Decision repeats = place(s, txn().writeKeys(7, 8, 7)); // 1, on worker 3
        assertEquals(List.of(), repeats.after, "a key it repeats is not a wait for itself");
        ctx.committed.add(1L);
        ctx.leastLoaded = 5;
        Decision back = place(s, txn().writeKeys(8)); // 2
        assertEquals(List.of(), back.after, "its writer committed");
        assertEquals(3, ctx.lastIdleKeyPrevious, "the worker its rows last ran on, though that writer committed");
        ctx.lwm = 2;
        long seq = 2;
        while (seq < 2 + 65_536) { // far more transactions since, on other rows
            place(s, txn().writeKeys(1_000_000 + seq));
            seq++;
            ctx.lwm = seq;
        }
        place(s, txn().writeKeys(8));
        assertEquals(-1, ctx.lastIdleKeyPrevious, "too long ago to remember: no previous worker");
    }

    @Test
    void writesetHistoryDropsCommittedWritersFirstAndForgetsNothingInFlight() {
        WritesetScheduler s = new WritesetScheduler(4);
        s.init(ctx);
        place(s, txn().writeKeys(1, 2, 3));
        place(s, txn().writeKeys(6));
        ctx.lwm = 1;
        Decision over = place(s, txn().writeKeys(4, 5));
        assertEquals(0, over.afterAllUpTo, "only the committed writer's keys were dropped: nothing forgotten");
        Decision onCommitted = place(s, txn().writeKeys(1));
        assertEquals(List.of(), onCommitted.after, "its writer committed: nothing to wait for");
        assertEquals(0, onCommitted.afterAllUpTo);
        Decision onInFlight = place(s, txn().writeKeys(6, 4));
        assertEquals(List.of(2L, 3L), onInFlight.after, "in-flight writers stay known past the history size");
        assertEquals(0, onInFlight.afterAllUpTo);
    }

    @Test
    void writesetHistoryOverflowOfInFlightWritersMakesLaterTransactionsWaitForEverythingBefore() {
        WritesetScheduler s = new WritesetScheduler(2);
        s.init(ctx);
        int cap = WritesetScheduler.IN_FLIGHT_HISTORY_FACTOR * 2;
        long[] first = new long[cap - 1];
        long[] second = new long[2];
        for (int i = 0; i < first.length; i++) {
            first[i] = 100 + i;
        }
        second[0] = 1;
        second[1] = 2;
        place(s, txn().writeKeys(first));
        Decision overflow = place(s, txn().writeKeys(second));
        assertEquals(0, overflow.afterAllUpTo, "its own dependencies were still known");
        Decision later = place(s, txn().writeKeys(100));
        assertEquals(1, later.afterAllUpTo, "the in-flight writer of key 100 was forgotten: wait for all before");
        assertEquals(List.of(), later.after);
        ctx.lwm = 1;
        assertEquals(0, place(s, txn().writeKeys(9)).afterAllUpTo, "the low-water mark passed the clearing point");
    }

    @Test
    void writesetBulkTransactionLargerThanTheHistoryDoesNotMakeEverythingAfterItWait() {
        WritesetScheduler s = new WritesetScheduler(100);
        s.init(ctx);
        long[] bulk = new long[400];
        for (int i = 0; i < bulk.length; i++) {
            bulk[i] = 1000 + i;
        }
        place(s, txn().writeKeys(1));
        place(s, txn().writeKeys(bulk));
        Decision next = place(s, txn().writeKeys(2));
        Decision afterNext = place(s, txn().writeKeys(3));
        assertEquals(0, next.afterAllUpTo);
        assertEquals(0, afterNext.afterAllUpTo, "independent of the bulk transaction, which is still in flight");
        assertEquals(List.of(2L), place(s, txn().writeKeys(1200)).after, "a row of the bulk one waits for it");
    }

    @Test
    void writesetRunsFollowEachSchemaUnderPerPartitionCommitOrder() {
        WritesetScheduler s = writesetWithRuns(3, CommitOrder.PER_PARTITION);
        ctx.leastLoaded = 2;
        Decision a1 = place(s, txn().partitionKey("a").writeKeys(1));
        ctx.leastLoaded = 4;
        Decision b1 = place(s, txn().partitionKey("b").writeKeys(2));
        ctx.leastLoaded = 6;
        Decision a2 = place(s, txn().partitionKey("a").writeKeys(3));
        Decision b2 = place(s, txn().partitionKey("b").writeKeys(4));
        assertEquals(List.of(2, 4, 2, 4), List.of(a1.worker, b1.worker, a2.worker, b2.worker),
                "each schema's transactions stay on its run's worker, the schemas side by side");
        Decision a3 = place(s, txn().partitionKey("a").writeKeys(2, 5));
        assertEquals(List.of(2L), a3.after, "its dependency, on worker 4, is recorded as without runs");
        assertEquals(2, a3.worker, "and it joins the run of its schema");
        Decision a4 = place(s, txn().partitionKey("a").writeKeys(8));
        assertEquals(6, a4.worker, "run length 3 reached: the next run of a starts on a free worker");
        Decision ab = place(s, txn().partitionKeys("a", "b").writeKeys(9));
        assertEquals(6, ab.worker, "two schemas: it continues a's run");
        Decision b3 = place(s, txn().partitionKey("b").writeKeys(10));
        assertEquals(6, b3.worker, "and b's run now goes on where the two-schema transaction went");
    }

    @Test
    void writesetRunsAreConsecutiveInSourceOrderUnderStrictCommitOrder() {
        WritesetScheduler s = writesetWithRuns(3, CommitOrder.STRICT);
        ctx.leastLoaded = 2;
        Decision a1 = place(s, txn().partitionKey("a").writeKeys(1));
        ctx.leastLoaded = 4;
        Decision b1 = place(s, txn().partitionKey("b").writeKeys(2));
        Decision a2 = place(s, txn().partitionKeys("a", "b").writeKeys(3));
        assertEquals(List.of(2, 2, 2), List.of(a1.worker, b1.worker, a2.worker),
                "schemas interleaved: consecutive in source order, one run");
        ctx.committed.add(1L);
        Decision next = place(s, txn().partitionKey("a").writeKeys(1));
        assertEquals(List.of(), next.after);
        assertEquals(4, next.worker, "run length 3 reached: the next run starts on a free worker");
        ctx.leastLoaded = 6;
        Decision dependent = place(s, txn().partitionKey("b").writeKeys(3));
        assertEquals(List.of(3L), dependent.after, "its dependency is recorded as without runs");
        assertEquals(4, dependent.worker, "its dependency is on worker 2: it joins the run on worker 4 all the same");
    }

    @Test
    void aFullRunStaysOnItsWorkerWhenNoWorkerIsFree() {
        WritesetScheduler s = writesetWithRuns(2, CommitOrder.STRICT);
        ctx.leastLoaded = 2;
        place(s, txn().writeKeys(1));
        place(s, txn().writeKeys(2));
        ctx.leastLoaded = 4;
        ctx.pending.put(4, 3); // the engine's choice is busy: no worker is free
        Decision third = place(s, txn().writeKeys(3));
        assertEquals(2, third.worker, "moving the full run to a busy worker would only tie two runs' commits together");
        ctx.pending.remove(4);
        Decision fourth = place(s, txn().writeKeys(4));
        assertEquals(4, fourth.worker, "a worker is free: the run moves there");
    }

    @Test
    void aFullRunStaysOnItsWorkerWhileTheProcessorsAreBusy() {
        WritesetScheduler s = writesetWithRuns(2, CommitOrder.PER_PARTITION);
        ctx.leastLoaded = 2;
        place(s, txn().partitionKey("a").writeKeys(1));
        place(s, txn().partitionKey("a").writeKeys(2));
        ctx.leastLoaded = 4; // free (nothing pending there)
        ctx.processorsToSpare = false;
        int queries = ctx.idleKeyQueries;
        Decision third = place(s, txn().partitionKey("a").writeKeys(3));
        Decision fourth = place(s, txn().partitionKey("a").writeKeys(4));
        assertEquals(List.of(2, 2), List.of(third.worker, fourth.worker),
                "no processor to spare: the free worker could not apply the next run sooner, the run goes on");
        assertEquals(queries, ctx.idleKeyQueries, "nor was a free worker asked for (the engine takes the one it names "
                + "off its list of idle workers)");
        Decision otherSchema = place(s, txn().partitionKey("b").writeKeys(5));
        assertEquals(4, otherSchema.worker, "a new run (another schema) still starts on a free worker");
        ctx.processorsToSpare = true;
        Decision fifth = place(s, txn().partitionKey("a").writeKeys(6));
        assertEquals(4, fifth.worker, "processors to spare again: the long run moves to the free worker");
    }

    @Test
    void aFullRunWhoseTransactionsMostlyWaitedForEachOtherStaysOnItsWorker() {
        WritesetScheduler s = writesetWithRuns(3, CommitOrder.PER_PARTITION);
        ctx.leastLoaded = 2;
        place(s, txn().partitionKey("a").writeKeys(1));
        Decision second = place(s, txn().partitionKey("a").writeKeys(1, 2));
        Decision third = place(s, txn().partitionKey("a").writeKeys(2, 3));
        assertEquals(List.of(List.of(1L), List.of(2L)), List.of(second.after, third.after), "a chain of dependencies");
        ctx.leastLoaded = 4; // free, and processors to spare
        Decision fourth = place(s, txn().partitionKey("a").writeKeys(9));
        assertEquals(2, fourth.worker, "two of the full run's three waited for the one before: the next run would wait "
                + "on the free worker too, so the run goes on where it is");
        Decision fifth = place(s, txn().partitionKey("a").writeKeys(10));
        assertEquals(4, fifth.worker, "two of the run's four waited, not most: the run moves to the free worker");
        ctx.leastLoaded = 2;
        place(s, txn().partitionKey("b").writeKeys(20));
        place(s, txn().partitionKey("b").writeKeys(21));
        Decision b3 = place(s, txn().partitionKey("b").writeKeys(22));
        assertEquals(2, b3.worker, "b's run on worker 2");
        ctx.leastLoaded = 6;
        assertEquals(6, place(s, txn().partitionKey("b").writeKeys(23)).worker,
                "a full run of independent transactions moves as before");
    }

    @Test
    void writesetHasNoRunsWithoutACommitOrder() {
        WritesetScheduler s = new WritesetScheduler(100, 8);
        s.init(ctx);
        ctx.leastLoaded = 2;
        place(s, txn().writeKeys(1));
        ctx.leastLoaded = 4;
        assertEquals(4, place(s, txn().writeKeys(2)).worker, "commit order none: block commit needs no runs");
    }

    @Test
    void mysqlLogicalClockWaitsForEverythingUpToLastCommitted() {
        LogicalClockScheduler s = new LogicalClockScheduler();
        s.init(ctx);
        assertEquals(0, place(s, txn().logicalClock(LogicalClock.mysql(0, 1))).afterAllUpTo);
        assertEquals(0, place(s, txn().logicalClock(LogicalClock.mysql(0, 2))).afterAllUpTo);
        assertEquals(2, place(s, txn().logicalClock(LogicalClock.mysql(2, 3))).afterAllUpTo);
        assertEquals(1, place(s, txn().logicalClock(LogicalClock.mysql(1, 4))).afterAllUpTo);
        // a new binlog file: numbering restarts
        assertEquals(4, place(s, txn().logicalClock(LogicalClock.mysql(0, 1))).afterAllUpTo);
        assertEquals(4, place(s, txn().logicalClock(LogicalClock.mysql(0, 2))).afterAllUpTo,
                "reaches back past the file start");
        assertEquals(6, place(s, txn().logicalClock(LogicalClock.mysql(2, 3))).afterAllUpTo);
        Decision noClock = place(s, txn());
        assertFalse(noClock.barrier, "no clock: ordered alone, yet may share a batch with what came before");
        assertEquals(7, noClock.afterAllUpTo, "waits for everything before it");
        // The next clock names only source transactions (its last_committed 3 was engine transaction 7), yet it must
        // wait for the one without a clock.
        assertEquals(8, place(s, txn().logicalClock(LogicalClock.mysql(3, 4))).afterAllUpTo);
    }

    @Test
    void mariadbGroupCommitsRunTogetherAndAfterEarlierGroups() {
        LogicalClockScheduler s = new LogicalClockScheduler();
        s.init(ctx);
        assertEquals(0, place(s, txn().logicalClock(LogicalClock.groupCommit(10))).afterAllUpTo);
        assertEquals(0, place(s, txn().logicalClock(LogicalClock.groupCommit(10))).afterAllUpTo);
        assertEquals(2, place(s, txn().logicalClock(LogicalClock.groupCommit(11))).afterAllUpTo);
        assertEquals(2, place(s, txn().logicalClock(LogicalClock.groupCommit(11))).afterAllUpTo);
        Decision alone = place(s, txn().logicalClock(LogicalClock.groupCommit(0)));
        assertFalse(alone.barrier, "commit id 0: ordered alone, not a barrier");
        assertEquals(4, alone.afterAllUpTo);
        assertEquals(5, place(s, txn().logicalClock(LogicalClock.groupCommit(12))).afterAllUpTo);
        assertEquals(5, place(s, txn().logicalClock(LogicalClock.groupCommit(12))).afterAllUpTo);
        assertEquals(7, place(s, txn().logicalClock(LogicalClock.groupCommit(0))).afterAllUpTo);
        assertEquals(8, place(s, txn().logicalClock(LogicalClock.groupCommit(0))).afterAllUpTo);
    }

    @Test
    void sequentialUsesWorkerZero() {
        SequentialScheduler s = new SequentialScheduler();
        s.init(ctx);
        Decision d = place(s, txn().partitionKey("x"));
        assertEquals(0, d.worker);
        assertFalse(d.barrier);
    }
}
