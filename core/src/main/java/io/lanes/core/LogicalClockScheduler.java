package io.lanes.core;

import java.util.Arrays;

/**
 * By the source's logical clock ({@link LogicalClock}):
 * <ul>
 *   <li>MySQL: a transaction starts once every transaction up to its {@code last_committed} committed. The scheduler
 *       maps the source's sequence numbers to the engine's; a sequence number that does not grow (a new binlog file, or
 *       a restart) makes the transaction wait for everything before it.</li>
 *   <li>MariaDB group commit: transactions of one group (same non-zero commit id, consecutive) run in parallel; the
 *       first transaction of a new group, and every transaction of it, starts once all earlier groups committed.</li>
 * </ul>
 * A transaction without a clock (or with MariaDB commit id 0: not group-committed with others) is ordered alone: it
 * starts once everything before it committed, and everything after it waits for it. It is not a barrier, though: it
 * may join the open batch of the worker holding everything before it (block commit), so a MariaDB binlog written
 * without group commit ids still commits in blocks instead of one target commit per source transaction. Each
 * transaction goes to the least loaded worker; its wait happens there.
 */
public final class LogicalClockScheduler implements Scheduler {
    private SchedulingContext ctx;
    /** Recent (source sequence number, engine sequence number) pairs, source numbers ascending. */
    private long[] srcSeq = new long[1024];
    private long[] engineSeq = new long[1024];
    private int head;
    private int count;
    private long lastSource = -1;
    private long groupId = -1;
    private long groupFloor;
    /** Engine sequence number before the last restart of the source's numbering, and the first number after it. */
    private long restartFloor;
    private long restartSource = Long.MIN_VALUE;
    /** Engine sequence number of the last transaction ordered alone (no clock, or commit id 0): later ones wait for it. */
    private long orderedAloneFloor;

    @Override
    public void init(SchedulingContext context) {
        this.ctx = context;
        head = 0;
        count = 0;
        lastSource = -1;
        groupId = -1;
        groupFloor = 0;
        restartFloor = 0;
        restartSource = Long.MIN_VALUE;
        orderedAloneFloor = 0;
    }

    @Override
    public void schedule(Transaction<?> txn, Placement placement) {
        LogicalClock clock = txn.logicalClock();
        long seq = placement.sequence();
        if (clock == null || clock.kind() == LogicalClock.Kind.GROUP_COMMIT && clock.commitId() == 0) {
            placement.afterAllUpTo(seq - 1);
            orderedAloneFloor = seq;
            groupId = -1;
            count = 0;
            return;
        }
        if (clock.kind() == LogicalClock.Kind.GROUP_COMMIT) {
            long id = clock.commitId();
            if (id != groupId) {
                groupId = id;
                groupFloor = seq - 1;
            }
            placement.afterAllUpTo(groupFloor);
            return;
        }
        long s = clock.sequenceNumber();
        if (s <= lastSource) {
            // Sequence numbers restarted (new binlog file): transactions of the new file that reach back past its
            // start depend on everything before it, which their clock can no longer name.
            restartFloor = seq - 1;
            restartSource = s;
            count = 0;
        }
        if (clock.lastCommitted() < restartSource) {
            placement.afterAllUpTo(Math.max(restartFloor, orderedAloneFloor));
        } else {
            // The clock cannot name a transaction ordered alone (it has no clock, or is not in the mapping): wait for
            // it explicitly.
            long dep = Math.max(find(clock.lastCommitted()), orderedAloneFloor);
            if (dep > 0) {
                placement.afterAllUpTo(dep);
            }
        }
        lastSource = s;
        append(s, seq);
    }

    /** The engine sequence number of the newest remembered transaction with source number &lt;= lastCommitted, or 0. */
    private long find(long lastCommitted) {
        long lwm = ctx.lowWaterMark();
        int m = srcSeq.length - 1;
        while (count > 0 && engineSeq[head] <= lwm) {
            head = (head + 1) & m;
            count--;
        }
        int lo = 0;
        int hi = count - 1;
        long found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int i = (head + mid) & m;
            if (srcSeq[i] <= lastCommitted) {
                found = engineSeq[i];
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    private void append(long s, long seq) {
        if (count == srcSeq.length) {
            int m = srcSeq.length - 1;
            long[] a = new long[srcSeq.length * 2];
            long[] b = new long[srcSeq.length * 2];
            for (int i = 0; i < count; i++) {
                a[i] = srcSeq[(head + i) & m];
                b[i] = engineSeq[(head + i) & m];
            }
            srcSeq = a;
            engineSeq = b;
            head = 0;
        }
        int i = (head + count) & (srcSeq.length - 1);
        srcSeq[i] = s;
        engineSeq[i] = seq;
        count++;
    }

    @Override
    public String name() {
        return "logical-clock";
    }

    @Override
    public String toString() {
        return name() + Arrays.toString(new long[] {count});
    }
}
