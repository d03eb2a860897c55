package io.lanes.connect.internal;

import io.lanes.connect.LanesSinkConfig;
import io.lanes.applier.Change;
import java.util.ArrayList;
import java.util.List;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reassembles the change events of one topic-partition, in offset order, into whole transactions; an incomplete
 * transaction is never handed on. Which records end a transaction:
 * <ul>
 *   <li>Lanes-format records: the record whose index equals the transaction's event count.</li>
 *   <li>Debezium records with transaction metadata, {@link End#MARKER} (the default): the transaction topic's END record,
 *       routed into the same partition (see {@code io.lanes.connect.SchemaGroupRouter}); the events seen must be exactly
 *       {@code total_order} 1..{@code event_count}. Events of another transaction before the END are an error (the
 *       stream interleaves transactions or lacks END records), except once: a source that resumed after a
 *       transaction's last event sends no END for it, so a transaction numbered without a gap is held until the next
 *       one's END arrives, and handed on before it (see {@link #holdOpenUntilTheNextEnd}).</li>
 *   <li>{@link End#NEXT}: the first record of the next transaction (or an END, when there is one); the events seen must
 *       be {@code total_order} 1..n without a gap. A transaction's tail written to another partition cannot be detected
 *       in this mode (documented), and the partition's last transaction waits for the next one.</li>
 *   <li>Snapshot reads (no transaction): chunks of at most {@code snapshotChunk} rows, ended early by the snapshot's
 *       last record or the first record that is not a snapshot read. Chunk boundaries depend only on the records, so
 *       re-reading from a chunk's end forms the same chunks again.</li>
 *   <li>Schema changes: alone.</li>
 * </ul>
 * A repeated event of the open transaction (same {@code total_order}, as a restarted at-least-once source sends) is
 * dropped. A source that restarts also sends again transactions already handed on (or their tail: Debezium resumes
 * inside a transaction): an event of another transaction whose source position is at or below the highest one handed
 * on is such a repeat; it is dropped with its END, and the open transaction, cut by the restart, is discarded (the
 * source sends it again). The assembled transaction's source position is its highest event's. Errors are {@link DataException}s naming the partition and offset; nothing of the transaction is handed on.
 *
 * <p>Not thread-safe: one task thread feeds it.
 */
public final class PartitionAssembler {
    /** What ends a Debezium transaction (see the class comment). */
    public enum End { MARKER, NEXT }

    private static final Logger LOG = LoggerFactory.getLogger(PartitionAssembler.class);

    private final String partition;
    private final End end;
    private final int snapshotChunk;
    private final Consumer<AssembledTransaction> out;

    private String openId;
    /** The open transaction's events by their binlog identity ({@link ChangeEvent#identity()}). */
    private final Map<String, ChangeEvent> open = new HashMap<>();
    private long openFirstOffset = -1;
    private long openLastOffset = -1;
    private long openLanesCount;
    private final List<ChangeEvent> snapshotRows = new ArrayList<>();
    private String lastCompletedId;
    /** The highest source position of any event handed on (or of the checkpoint's transaction at a restart). */
    private SourceOrder highest;
    /** A transaction id whose repeated events (a restarted source) are being dropped. */
    private String droppingId;
    /** A whole transaction whose END never came, held until the next transaction's END (see holdOpenUntilTheNextEnd). */
    private AssembledTransaction endless;
    private long endsInferred;
    /** 0: no limit on the open transaction's estimated bytes. */
    private long maxOpenBytes;
    /** The open transaction's events' estimated bytes. */
    private long openBytes;

    public PartitionAssembler(String partition, End end, int snapshotChunk, Consumer<AssembledTransaction> out) {
        this(partition, end, snapshotChunk, SourceOrder.NONE, out);
    }

    /**
     * @param taken the source position of the last transaction applied before the records fed here (from the
     *     checkpoint), so that a source's repeats of it are recognised
     */
    public PartitionAssembler(String partition, End end, int snapshotChunk, SourceOrder taken,
            Consumer<AssembledTransaction> out) {
        this.highest = taken;
        this.partition = partition;
        this.end = end;
        this.snapshotChunk = snapshotChunk;
        this.out = out;
    }

    /**
     * Stops with a {@link DataException} naming the record once the open transaction's events take more than {@code
     * bytes} (estimated), rather than holding them until the worker's heap runs out: a transaction is applied whole, so
     * all its events are held until its last. 0: no limit. Call before the first record.
     */
    public PartitionAssembler limitOpenBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("limit < 0: " + bytes);
        }
        this.maxOpenBytes = bytes;
        return this;
    }

    /** Takes the next record's event; completed transactions go to the consumer, in order, before this returns. */
    public void accept(ChangeEvent e) {
        switch (e.kind()) {
            case TOMBSTONE, BEGIN -> {
                // Tombstones serve log compaction; BEGIN carries nothing that the events and END do not.
            }
            case END -> end(e);
            case DDL -> {
                if (e.lanes() != null) {
                    lanesEvent(e);
                    return;
                }
                closeSnapshotChunk();
                closeBeforeAnother(e);
                emit(new AssembledTransaction(e.transactionId(), List.of(e.change()), e.offset(), e.offset() + 1, e.source(),
                        false, true, e.sizeBytes(), null));
            }
            case ROW -> row(e);
            default -> throw new IllegalStateException(e.kind().toString());
        }
    }

    /**
     * The open transaction's events in source order: by binlog position and row when every event has them (what the
     * source logged, whatever numbering it gave), else by {@code total_order}.
     */
    private List<ChangeEvent> sortedOpen() {
        List<ChangeEvent> events = new ArrayList<>(open.values());
        boolean positioned = events.stream().allMatch(ev -> ev.source().isKnown() && ev.row() >= 0);
        events.sort(positioned ? Comparator.comparing(ChangeEvent::source).thenComparingInt(ChangeEvent::row)
                .thenComparingLong(ChangeEvent::order) : Comparator.comparingLong(ChangeEvent::order));
        return events;
    }

    /** A change event of a transaction already handed on: its source position is at or below the highest handed on. */
    private boolean isRepeat(ChangeEvent e) {
        return e.source().isKnown() && highest.isKnown() && e.source().compareTo(highest) <= 0;
    }

    /** Whether records of an incomplete transaction or snapshot chunk are held. */
    public boolean holdsIncomplete() {
        return openId != null || endless != null || !snapshotRows.isEmpty();
    }

    private void row(ChangeEvent e) {
        if (e.lanes() != null) {
            lanesEvent(e);
            return;
        }
        if (e.snapshot() && e.transactionId() == null) {
            closeBeforeAnother(e);
            snapshotRows.add(e);
            if (e.lastInSnapshot() || snapshotRows.size() >= snapshotChunk) {
                closeSnapshotChunk();
            }
            return;
        }
        closeSnapshotChunk();
        if (e.transactionId() == null) {
            throw error(e, "a change event without transaction metadata: configure the Debezium source with"
                    + " provide.transaction.metadata=true (Lanes applies whole transactions only)");
        }
        if (!e.transactionId().equals(openId) && isRepeat(e)) {
            // The source restarted and sends a transaction again that was handed on already (its events are at or below
            // the highest position handed on): what is open was cut by that restart and will be sent again.
            if (openId != null) {
                LOG.info("{}@{}: the source sends transaction {} again (at {}, not above {}): dropping it and the {} events"
                        + " of the open transaction {}, which the source will send again", partition, e.offset(),
                        e.transactionId(), e.source(), highest, open.size(), openId);
                clearOpen();
                openId = null;
            }
            droppingId = e.transactionId();
            return;
        }
        if (openId != null && !openId.equals(e.transactionId())) {
            if (end == End.MARKER) {
                holdOpenUntilTheNextEnd(e);
            } else {
                completeOpen(0, e.offset());
            }
        }
        if (openId == null) {
            if (e.transactionId().equals(lastCompletedId)) {
                return; // a late repeat of a transaction already handed on (restarted source)
            }
            openId = e.transactionId();
            openFirstOffset = e.offset();
        }
        if (e.order() <= 0) {
            throw error(e, "transaction " + e.transactionId() + ": event without total_order");
        }
        ChangeEvent known = open.putIfAbsent(e.identity(), e);
        if (known == null) {
            held(e);
        }
        if (known != null && !known.change().equals(e.change())) {
            throw error(e, "transaction " + e.transactionId() + " has two different events at " + e.identity()
                    + " (offsets " + known.offset() + " and " + e.offset() + ")");
        }
        openLastOffset = e.offset();
    }

    private void end(ChangeEvent e) {
        closeSnapshotChunk();
        if (openId == null) {
            if (e.transactionId().equals(lastCompletedId) || e.transactionId().equals(droppingId) || e.eventCount() == 0) {
                return;
            }
            throw error(e, "END of transaction " + e.transactionId() + " (" + e.eventCount() + " events) but none of its"
                    + " events is in this partition before it");
        }
        if (!openId.equals(e.transactionId())) {
            if (e.transactionId().equals(droppingId) || e.transactionId().equals(lastCompletedId)) {
                return; // the END of a repeat
            }
            throw error(e, "END of transaction " + e.transactionId() + " while transaction " + openId + " is open");
        }
        openLastOffset = e.offset();
        completeOpen(e.eventCount(), e.offset() + 1);
    }

    private void lanesEvent(ChangeEvent e) {
        closeSnapshotChunk();
        if (openId != null && e.order() == 1) {
            ChangeEvent first = sortedOpen().get(0);
            if (first.source().equals(e.source())) {
                clearOpen(); // the source restarted and sends the same transaction again, from its start
                openId = null;
            } else {
                throw error(e, "transaction " + e.transactionId() + " starts while transaction " + openId + " has "
                        + open.size() + " of its " + openLanesCount + " events");
            }
        }
        if (openId == null) {
            if (e.order() != 1) {
                throw error(e, "Lanes-format record " + e.order() + " of " + e.eventCount() + " of transaction "
                        + e.transactionId() + " without its first record (offsets may have been altered to the middle of a"
                        + " transaction)");
            }
            openId = e.transactionId();
            openFirstOffset = e.offset();
            openLanesCount = e.eventCount();
        } else if (!openId.equals(e.transactionId()) || e.order() != open.size() + 1) {
            throw error(e, "Lanes-format record " + e.order() + " of transaction " + e.transactionId() + " where record "
                    + (open.size() + 1) + " of transaction " + openId + " was due");
        }
        open.put("#" + e.order(), e);
        held(e);
        openLastOffset = e.offset();
        if (e.order() == e.eventCount()) {
            completeOpen(e.eventCount(), e.offset() + 1);
        }
    }

    /**
     * Marker mode: transaction {@code e} starts while the open one has had no END. A Debezium task that resumes from
     * offsets committed after a transaction's last event but before its END skips every event of that transaction and,
     * having begun no transaction, sends no END for it either (its transaction monitor ends only a transaction in
     * progress): the open transaction is whole, and its END will never come. A partition that carries no END records at
     * all, or one whose transactions interleave, looks the same for one transaction, so the open one is held, not
     * handed on: it goes on, before the new one, when the new one's END arrives (proof that the partition carries END
     * records), and the task stops if the new one also ends without an END. Held only when its events are numbered
     * 1..k without a gap (in runs, when the source resumed inside it) and the new transaction starts above its
     * highest source position.
     */
    private void holdOpenUntilTheNextEnd(ChangeEvent e) {
        String problem = null;
        List<ChangeEvent> events = sortedOpen();
        ChangeEvent top = events.get(events.size() - 1);
        if (endless != null) {
            problem = "transaction " + endless.id() + " before it had no END either: the partition lacks the transaction"
                    + " topic's END records";
        } else if (runsInArrivalOrder() == null) {
            problem = "its events are not numbered 1..n";
        } else if (e.source().isKnown() && top.source().isKnown() && e.source().compareTo(top.source()) <= 0) {
            problem = "the new transaction starts at " + e.source() + ", not above " + top.source();
        }
        if (problem != null) {
            throw error(e, "transaction " + e.transactionId() + " starts before the END of transaction " + openId
                    + " (events since offset " + openFirstOffset + ") and " + problem + ": the partition interleaves"
                    + " transactions or lacks the transaction topic's END records (route them with SchemaGroupRouter,"
                    + " or set lanes.transaction.end=next)");
        }
        LOG.warn("{}@{}: transaction {} starts before the END of transaction {} (offsets {} to {}, {} events numbered"
                + " without a gap): taken as whole, its END lost where the source resumed after its last event; it is"
                + " applied when the END of {} arrives", partition, e.offset(), e.transactionId(), openId, openFirstOffset,
                openLastOffset, events.size(), e.transactionId());
        endless = assemble(events, e.offset());
        clearOpen();
        openId = null;
    }


    private void closeBeforeAnother(ChangeEvent e) {
        if (openId == null) {
            return;
        }
        if (end == End.MARKER || sortedOpen().get(0).lanes() != null) {
            throw error(e, "a " + (e.kind() == ChangeEvent.Kind.DDL ? "schema change" : "snapshot read") + " inside"
                    + " transaction " + openId + " (events since offset " + openFirstOffset + ", no END yet)");
        }
        completeOpen(0, e.offset());
    }

    /**
     * Hands the open transaction on after checking it is whole: {@code total_order} 1..n without a gap, and n equal to
     * {@code expected} when known.
     */
    private void completeOpen(long expected, long nextOffset) {
        List<ChangeEvent> events = sortedOpen();
        long n = events.size();
        long first = events.stream().mapToLong(ChangeEvent::order).min().orElse(0);
        long last = events.stream().mapToLong(ChangeEvent::order).max().orElse(0);
        long distinctOrders = events.stream().mapToLong(ChangeEvent::order).distinct().count();
        // With an END the count decides (events are identified by their binlog position, whatever their numbering);
        // without one, the numbering must run 1..n without a gap.
        boolean whole = expected > 0 ? n == expected : first == 1 && last == n && distinctOrders == n;
        if (!whole && expected > 0 && n > expected && endCountsOnlyTheResumedTail(expected)) {
            LOG.info("{}: transaction {} (offsets {} to {}): its END counts {} events, the source's numbering restarted"
                    + " inside it: {} events before the restart (1..n without a gap) and {} after, {} in all", partition,
                    openId, openFirstOffset, openLastOffset, expected, n - expected, expected, n);
            whole = true;
        }
        if (!whole) {
            throw new DataException("transaction " + openId + " in " + partition + " (offsets " + openFirstOffset + " to "
                    + openLastOffset + ") is incomplete: it has " + n + " events with total_order " + first
                    + ".." + last + (expected > 0 ? " but its END says " + expected : "") + "; a transaction split across"
                    + " partitions cannot be applied whole (route every table a transaction writes to one partition)");
        }
        AssembledTransaction assembled = assemble(events, nextOffset);
        droppingId = null;
        if (endless != null) {
            emit(endless);
            endless = null;
            endsInferred++;
        }
        emit(assembled);
        lastCompletedId = openId;
        openId = null;
        clearOpen();
    }

    /** The open transaction, whose events are {@code events} in source order, as one handed on. */
    private AssembledTransaction assemble(List<ChangeEvent> events, long nextOffset) {
        List<Change> changes = new ArrayList<>(events.size());
        long size = 64;
        for (ChangeEvent ev : events) {
            changes.add(ev.change());
            size += ev.sizeBytes();
        }
        ChangeEvent firstEvent = events.get(0);
        boolean ddl = events.stream().anyMatch(ev -> ev.kind() == ChangeEvent.Kind.DDL);
        SourceOrder top = firstEvent.source();
        for (ChangeEvent ev : events) {
            if (ev.source().isKnown() && ev.source().compareTo(top) > 0) {
                top = ev.source();
            }
        }
        return new AssembledTransaction(openId, changes, openFirstOffset, nextOffset, top, false, ddl, size,
                firstEvent.lanes());
    }

    /** Transactions handed on without their END record (see {@link #holdOpenUntilTheNextEnd}). */
    public long endsInferred() {
        return endsInferred;
    }

    /**
     * Debezium's task resumed inside the open transaction (its worker left, a rebalance moved it): the resumed task skips
     * the events its committed offset says were sent, numbers the rest from 1 again and its END counts only those. In
     * arrival order the events then form runs, each numbered 1..k without a gap, a new run starting where the numbering
     * falls back; the transaction is whole when there are several runs and the last one holds exactly the END's count
     * (distinct binlog places: a change sent twice was already kept once). Anything else stays incomplete.
     */
    private boolean endCountsOnlyTheResumedTail(long expected) {
        long[] runs = runsInArrivalOrder();
        return runs != null && runs.length >= 2 && runs[runs.length - 1] == expected;
    }

    /**
     * The lengths of the runs that the open transaction's events form in arrival order, each numbered 1..k without a
     * gap, a new run starting where the numbering falls back to 1; null when they do not form such runs.
     */
    private long[] runsInArrivalOrder() {
        List<ChangeEvent> arrival = new ArrayList<>(open.values());
        arrival.sort(Comparator.comparingLong(ChangeEvent::offset));
        List<Long> runs = new ArrayList<>();
        long next = 1;
        for (ChangeEvent ev : arrival) {
            if (ev.order() == 1) {
                if (!runs.isEmpty() && next == 1) {
                    return null;
                }
                runs.add(0L);
                next = 1;
            }
            if (ev.order() != next || runs.isEmpty()) {
                return null;
            }
            next++;
            runs.set(runs.size() - 1, runs.get(runs.size() - 1) + 1);
        }
        return runs.isEmpty() ? null : runs.stream().mapToLong(Long::longValue).toArray();
    }

    private void closeSnapshotChunk() {
        if (snapshotRows.isEmpty()) {
            return;
        }
        List<Change> changes = new ArrayList<>(snapshotRows.size());
        long size = 64;
        for (ChangeEvent ev : snapshotRows) {
            changes.add(ev.change());
            size += ev.sizeBytes();
        }
        ChangeEvent first = snapshotRows.get(0);
        ChangeEvent last = snapshotRows.get(snapshotRows.size() - 1);
        snapshotRows.clear();
        emit(new AssembledTransaction(null, changes, first.offset(), last.offset() + 1, first.source(), true, false, size,
                null));
    }

    private void emit(AssembledTransaction t) {
        if (!t.snapshot() && t.source().isKnown() && t.source().compareTo(highest) > 0) {
            highest = t.source();
        }
        out.accept(t);
    }

    /** Counts a new event of the open transaction against {@link #limitOpenBytes}. */
    private void held(ChangeEvent e) {
        openBytes += e.sizeBytes();
        if (maxOpenBytes > 0 && openBytes > maxOpenBytes) {
            throw error(e, "transaction " + e.transactionId() + " has reached " + open.size() + " events of about "
                    + openBytes + " bytes, more than " + LanesSinkConfig.MAX_TRANSACTION_BYTES + " ("
                    + maxOpenBytes + "): a transaction is applied whole, so raise that limit and the worker's heap");
        }
    }

    private void clearOpen() {
        open.clear();
        openBytes = 0;
    }

    private DataException error(ChangeEvent e, String message) {
        return new DataException(partition + "@" + e.offset() + ": " + message);
    }
}
