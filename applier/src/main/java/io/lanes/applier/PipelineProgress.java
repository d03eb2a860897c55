package io.lanes.applier;

import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.applier.internal.SourceEndMonitor;
import io.lanes.binlog.replication.BinlogStatus;
import io.lanes.binlog.replication.ReplicationClient;
import java.util.Arrays;

/**
 * What a pipeline has applied, in the source's terms: the rows and the source commit time of the transactions up to the
 * engine's low-water mark, and from those the lag behind the source. The engine knows transactions by sequence number
 * only; this remembers, for each transaction handed to it and not yet known to be committed, its source commit time,
 * position and rows, and lets go of them as the low-water mark passes them.
 *
 * <p>Threads: {@link #reading} and {@link #submitted} are called by the reading thread only; {@link #snapshot} by any
 * thread. One lock guards the remembered transactions: the reading thread takes it once per transaction (uncontended:
 * tens of nanoseconds next to a transaction's microseconds of decoding), a stats reader once per snapshot. The reading
 * thread does not read the engine's low-water mark per transaction (the workers write its cache line at every commit,
 * and reading it from the dispatching thread at every submit makes that line travel between processors, which
 * docs/architecture.md explains the engine avoids): it lets go of committed transactions when a snapshot is taken, or
 * when its ring is full, so what is remembered stays bounded by the transactions in flight (plus the ring's slack).
 */
final class PipelineProgress {
    /** Lag and applied totals at one instant. */
    record Snapshot(long rowsApplied, long lastAppliedSourceMillis, String appliedPosition, double lagSeconds,
            String sourceEndPosition, long sourceBehindBytes) {
    }

    private long[] sequences = new long[64];
    private long[] sourceMillis = new long[64];
    private long[] rowsAfter = new long[64]; // rows submitted up to and including this transaction
    private String[] positions = new String[64];
    private int head;
    private int size;

    private long rowsSubmitted;
    private long rowsApplied;
    private long appliedSourceMillis = -1;
    private String appliedPosition;
    /**
     * Source commit time of the transaction read and not yet submitted (waiting for the delay or for room), or -1.
     * Written by the reading thread with a release store (a plain store on x86), read by snapshots.
     */
    private final java.util.concurrent.atomic.AtomicLong readingSourceMillis = new java.util.concurrent.atomic.AtomicLong(-1);
    /** Source commit time of the last transaction submitted, -1 before any. */
    private long submittedSourceMillis = -1;

    /** The reading thread has a whole transaction committed on the source at {@code sourceMillis} and will submit it. */
    void reading(long sourceMillis) {
        readingSourceMillis.lazySet(sourceMillis);
    }

    /**
     * The transaction {@link #reading} announced was submitted as {@code sequence}.
     *
     * @param engine the engine, whose low-water mark is read only when the ring is full
     */
    synchronized void submitted(long sequence, long sourceMillis, String position, long rows,
            io.lanes.core.Engine<?> engine) {
        readingSourceMillis.lazySet(-1);
        submittedSourceMillis = sourceMillis;
        rowsSubmitted += rows;
        if (size == sequences.length) {
            advance(engine.lowWaterMark());
            if (size == sequences.length) {
                grow();
            }
        }
        int at = (head + size) % sequences.length;
        sequences[at] = sequence;
        this.sourceMillis[at] = sourceMillis;
        rowsAfter[at] = rowsSubmitted;
        positions[at] = position;
        size++;
    }

    /** Lets go of everything at or below {@code lowWaterMark}: it is committed. */
    private void advance(long lowWaterMark) {
        while (size > 0 && sequences[head] <= lowWaterMark) {
            rowsApplied = rowsAfter[head];
            appliedSourceMillis = sourceMillis[head];
            appliedPosition = positions[head];
            positions[head] = null;
            head = (head + 1) % sequences.length;
            size--;
        }
    }

    /**
     * The applied totals and the lag, in seconds, behind the source at {@code nowMillis}:
     * <ul>
     *   <li>a transaction read and not committed: now minus the source commit time of the oldest such (the target
     *       lacks what the source committed then);</li>
     *   <li>none, and the pipeline is caught up: 0 while the source was heard from within {@code contactToleranceMillis}
     *       (a live source's heartbeat, or the source commit time of its last transaction, which a caught-up replica
     *       received about then), else now minus that contact; a file source that reached its end is 0;</li>
     *   <li>none, not caught up (between two transactions of a backlog): now minus the source commit time of the last
     *       transaction applied;</li>
     *   <li>NaN when nothing says (nothing applied nor read yet, not caught up).</li>
     * </ul>
     *
     * <p>With a live source, also its binlog end as {@code sourceEnd} last heard it and the bytes from the applied
     * position (or {@code resumedFrom}) to there.
     *
     * @param client the live source's client (its heartbeats), null for files or before it connected
     * @param sourceEnd the live source's binlog status monitor, null when none
     */
    Snapshot snapshot(long lowWaterMark, boolean live, boolean caughtUp, ReplicationClient client,
            SourceEndMonitor sourceEnd, String resumedFrom) {
        long heartbeat = client == null ? 0 : client.heartbeatPeriod().toMillis();
        Snapshot p = snapshot(lowWaterMark, System.currentTimeMillis(), live, caughtUp,
                client == null ? 0 : client.lastHeartbeatMillis(), 2 * heartbeat);
        BinlogStatus end = sourceEnd == null ? null : sourceEnd.latest();
        if (end == null) {
            return p;
        }
        String applied = p.appliedPosition() != null ? p.appliedPosition() : resumedFrom;
        long behind = -1;
        if (applied != null) {
            try {
                SourcePosition at = SourcePosition.parse(applied);
                behind = end.bytesAfter(at.file(), at.offset());
            } catch (IllegalArgumentException notAFilePosition) {
                behind = -1;
            }
        }
        return new Snapshot(p.rowsApplied(), p.lastAppliedSourceMillis(), p.appliedPosition(), p.lagSeconds(),
                end.end().file() + ":" + end.end().position(), behind);
    }

    /**
     * As above, without the source's end, at {@code nowMillis}.
     *
     * @param lastContactMillis when a live source was last heard from (a heartbeat), 0 for files
     */
    synchronized Snapshot snapshot(long lowWaterMark, long nowMillis, boolean live, boolean caughtUp,
            long lastContactMillis, long contactToleranceMillis) {
        advance(lowWaterMark);
        long oldest = size > 0 ? sourceMillis[head] : -1;
        long reading = readingSourceMillis.get();
        if (reading >= 0 && (oldest < 0 || reading < oldest)) {
            oldest = reading;
        }
        double lag;
        if (oldest >= 0) {
            lag = seconds(nowMillis - oldest);
        } else if (caughtUp) {
            long contact = Math.max(lastContactMillis, submittedSourceMillis);
            lag = !live || nowMillis - contact <= contactToleranceMillis ? 0 : seconds(nowMillis - contact);
        } else if (appliedSourceMillis >= 0) {
            lag = seconds(nowMillis - appliedSourceMillis);
        } else {
            lag = Double.NaN;
        }
        return new Snapshot(rowsApplied, appliedSourceMillis, appliedPosition, lag, null, -1);
    }

    private static double seconds(long millis) {
        return Math.max(0, millis) / 1000.0;
    }

    private void grow() {
        int n = sequences.length;
        long[] s = new long[n * 2];
        long[] t = new long[n * 2];
        long[] r = new long[n * 2];
        String[] p = new String[n * 2];
        for (int i = 0; i < size; i++) {
            int from = (head + i) % n;
            s[i] = sequences[from];
            t[i] = sourceMillis[from];
            r[i] = rowsAfter[from];
            p[i] = positions[from];
        }
        sequences = s;
        sourceMillis = t;
        rowsAfter = r;
        positions = p;
        head = 0;
        Arrays.fill(p, size, p.length, null);
    }
}
