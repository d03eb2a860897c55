package io.lanes.connect.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class PartitionAssemblerTest {
    private final List<AssembledTransaction> out = new ArrayList<>();

    private static ChangeEvent row(long offset, String tx, long order, boolean snapshot) {
        return row(offset, tx, order, snapshot, 100 + offset);
    }

    /** A row event the source logged at binlog position {@code pos} (row 0 of its event). */
    private static ChangeEvent row(long offset, String tx, long order, boolean snapshot, long pos) {
        RowChange c = RowChange.insert(new TableRef("s", "t"), new RowImage(List.of("id"), new Object[] {pos}));
        return new ChangeEvent(ChangeEvent.Kind.ROW, offset, tx, order, 0, new SourceOrder("bin.000001", pos, ""),
                snapshot, false, c, 10, null, 0);
    }

    /** Row {@code row} of the rows event at {@code pos}, with value {@code id}. */
    private static ChangeEvent row(long offset, String tx, long order, long pos, int row, long id) {
        RowChange c = RowChange.insert(new TableRef("s", "t"), new RowImage(List.of("id"), new Object[] {id}));
        return new ChangeEvent(ChangeEvent.Kind.ROW, offset, tx, order, 0, new SourceOrder("bin.000001", pos, ""),
                false, false, c, 10, null, row);
    }

    private static ChangeEvent end(long offset, String tx, long count) {
        return new ChangeEvent(ChangeEvent.Kind.END, offset, tx, 0, count, SourceOrder.NONE, false, false, null, 0, null);
    }

    @Test
    void markerModeHandsOnATransactionOnlyAtItsEndWithEveryEvent() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, false));
        a.accept(row(1, "x", 2, false));
        assertTrue(out.isEmpty());
        assertTrue(a.holdsIncomplete());
        a.accept(end(2, "x", 2));
        assertEquals(1, out.size());
        assertEquals(2, out.get(0).changes().size());
        assertEquals(3, out.get(0).nextOffset());
        assertFalse(a.holdsIncomplete());
    }

    @Test
    void anEndThatCountsMoreEventsThanArrivedIsAnErrorNotAPartialApply() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, false));
        a.accept(row(1, "x", 3, false));
        DataException e = assertThrows(DataException.class, () -> a.accept(end(2, "x", 3)));
        assertTrue(e.getMessage().contains("incomplete"), e.getMessage());
        assertTrue(out.isEmpty());
    }

    @Test
    void aPartitionWithoutEndRecordsIsAnErrorInMarkerModeAtTheSecondTransactionAndNothingIsHandedOn() {
        PartitionAssembler marker = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        marker.accept(row(0, "x", 1, false));
        marker.accept(row(1, "y", 1, false));
        assertTrue(marker.holdsIncomplete());
        DataException e = assertThrows(DataException.class, () -> marker.accept(row(2, "z", 1, false)));
        assertTrue(e.getMessage().contains("lacks the transaction topic's END records"), e.getMessage());
        assertTrue(out.isEmpty());
    }

    @Test
    void aTransactionWhoseEndTheResumedSourceNeverSentIsAppliedBeforeTheNextOnceTheNextEnds() {
        // Debezium's task was abandoned after committing x's last event but not x's END; resumed, it skipped all of x's
        // events and sent no END for x (CI's SinkFaultTest failure of 2026-11-27: "0-1-966 starts before the END of
        // transaction 0-1-965").
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, false, 1000));
        a.accept(row(1, "x", 2, false, 1010));
        a.accept(row(2, "y", 1, false, 1100));
        assertTrue(out.isEmpty(), "x is held until the partition proves it carries END records");
        a.accept(row(3, "y", 2, false, 1110));
        a.accept(end(4, "y", 2));
        assertEquals(List.of("x", "y"), out.stream().map(AssembledTransaction::id).toList());
        assertEquals(2, out.get(0).changes().size());
        assertEquals(0, out.get(0).firstOffset());
        assertEquals(2, out.get(0).nextOffset());
        assertEquals(2, out.get(1).firstOffset());
        assertEquals(1, a.endsInferred());
        assertFalse(a.holdsIncomplete());
    }

    @Test
    void aTransactionWithoutEndIsNotHeldWhenItsNumberingHasAGapOrTheNextStartsBelowIt() {
        PartitionAssembler gap = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        gap.accept(row(0, "x", 1, false, 1000));
        gap.accept(row(1, "x", 3, false, 1010));
        DataException e = assertThrows(DataException.class, () -> gap.accept(row(2, "y", 1, false, 1100)));
        assertTrue(e.getMessage().contains("not numbered 1..n"), e.getMessage());

        PartitionAssembler below = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        below.accept(row(0, "x", 1, false, 1000));
        below.accept(row(1, "x", 2, false, 1010));
        e = assertThrows(DataException.class, () -> below.accept(row(2, "y", 1, false, 1005)));
        assertTrue(e.getMessage().contains("not above"), e.getMessage());
        assertTrue(out.isEmpty());
    }

    @Test
    void aHeldTransactionIsNotHandedOnWhenTheNextOneIsIncomplete() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, false, 1000));
        a.accept(row(1, "y", 1, false, 1100));
        assertThrows(DataException.class, () -> a.accept(end(2, "y", 2)));
        assertTrue(out.isEmpty());
    }

    @Test
    void anotherTransactionBeforeTheEndEndsItInNextMode() {

        PartitionAssembler next = new PartitionAssembler("t-0", PartitionAssembler.End.NEXT, 100, out::add);
        next.accept(row(0, "x", 1, false));
        next.accept(row(1, "x", 2, false));
        next.accept(row(2, "y", 1, false));
        assertEquals(1, out.size());
        assertEquals(2, out.get(0).nextOffset());
    }

    @Test
    void repeatedEventsOfARestartedSourceAreDroppedAndItsSecondEndIgnored() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, false));
        a.accept(row(1, "x", 2, false));
        a.accept(row(2, "x", 2, false, 101)); // the source restarted mid-transaction and sent event 2 again
        a.accept(row(3, "x", 3, false));
        a.accept(end(4, "x", 3));
        a.accept(end(5, "x", 3));
        assertEquals(1, out.size());
        assertEquals(3, out.get(0).changes().size());
    }

    @Test
    void aSourceThatRestartsInsideTheNextTransactionResendsTheTailOfATakenOneAndTheCutOneWhole() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, false, 1000));
        a.accept(row(1, "x", 2, false, 1010));
        a.accept(end(2, "x", 2));
        a.accept(row(3, "y", 1, false, 1100)); // y is cut here: the source restarts from inside x
        a.accept(row(4, "x", 2, false, 1010));
        a.accept(end(5, "x", 2));
        a.accept(row(6, "y", 1, false, 1100));
        a.accept(row(7, "y", 2, false, 1110));
        a.accept(end(8, "y", 2));
        assertEquals(List.of("x", "y"), out.stream().map(AssembledTransaction::id).toList());
        assertEquals(2, out.get(1).changes().size());
        assertEquals(new SourceOrder("bin.000001", 1110, ""), out.get(1).source(), "a transaction's highest event");
    }

    @Test
    void eventsAreIdentifiedByTheirBinlogPlaceSoARenumberedTailStillCompletesTheTransactionInBinlogOrder() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, 1000, 0, 11));
        a.accept(row(1, "x", 2, 1000, 1, 12));
        a.accept(row(2, "x", 1, 1000, 1, 12)); // the same change again, numbered anew by a restarted source
        a.accept(row(3, "x", 2, 1050, 0, 13)); // the tail, numbered anew
        a.accept(end(4, "x", 3));
        assertEquals(1, out.size());
        assertEquals(List.of(11L, 12L, 13L), out.get(0).changes().stream()
                .map(c -> (Long) ((RowChange) c).after().value("id")).toList());
    }

    /**
     * What Debezium 3.5 sent in SinkFaultTest's source round (its worker left while it was inside a transaction): the
     * first three events, then, from the resumed task, the fourth numbered 1 and an END counting 1. Before this the
     * task stopped on it ("4 events with total_order 1..3 but its END says 1"); the round-1 assembler, which keyed
     * events by total_order, dropped the tail as a repeat of event 1 and applied the transaction without it.
     */
    @Test
    void anEndThatCountsOnlyTheTailSentAfterTheSourceResumedInsideTheTransactionCompletesIt() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, 1000, 0, 11));
        a.accept(row(1, "x", 2, 1040, 0, 12));
        a.accept(row(2, "x", 3, 1080, 0, 13));
        a.accept(row(3, "x", 1, 1120, 0, 14)); // the resumed task's first event, numbered anew
        a.accept(end(4, "x", 1));
        assertEquals(1, out.size());
        assertEquals(List.of(11L, 12L, 13L, 14L), out.get(0).changes().stream()
                .map(c -> (Long) ((RowChange) c).after().value("id")).toList());
    }

    @Test
    void aTailWhoseEndCountDiffersOrAHeadWithAGapStaysIncomplete() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, 1000, 0, 11));
        a.accept(row(1, "x", 2, 1040, 0, 12));
        a.accept(row(2, "x", 1, 1120, 0, 14));
        assertThrows(DataException.class, () -> a.accept(end(3, "x", 2)), "the END counts more than the tail holds");
        PartitionAssembler b = new PartitionAssembler("t-1", PartitionAssembler.End.MARKER, 100, out::add);
        b.accept(row(0, "y", 1, 1000, 0, 11));
        b.accept(row(1, "y", 3, 1040, 0, 12)); // event 2 missing before the restart
        b.accept(row(2, "y", 1, 1120, 0, 14));
        assertThrows(DataException.class, () -> b.accept(end(3, "y", 1)), "a gap before the restart");
        assertTrue(out.isEmpty());
    }

    @Test
    void twoDifferentChangesAtTheSameBinlogPlaceAreRefused() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        a.accept(row(0, "x", 1, 1000, 0, 11));
        assertThrows(DataException.class, () -> a.accept(row(1, "x", 1, 1000, 0, 99)));
    }

    @Test
    void afterARestartFromTheCheckpointARepeatOfTheCheckpointedTransactionIsRecognised() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100,
                new SourceOrder("bin.000001", 1010, ""), out::add);
        a.accept(row(10, "x", 2, false, 1010)); // the tail of the checkpoint's transaction, sent again
        a.accept(end(11, "x", 2));
        a.accept(row(12, "y", 1, false, 1100));
        a.accept(end(13, "y", 1));
        assertEquals(List.of("y"), out.stream().map(AssembledTransaction::id).toList());
    }

    @Test
    void snapshotChunksAreTheSameWhenReReadFromAChunkEnd() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        int rows = 5 + r.nextInt(50);
        int chunk = 1 + r.nextInt(7);
        List<ChangeEvent> events = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            events.add(row(i, null, 0, true));
        }
        events.add(row(rows, "x", 1, false));
        events.add(end(rows + 1, "x", 1));
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, chunk, out::add);
        events.forEach(a::accept);
        List<AssembledTransaction> all = new ArrayList<>(out);
        assertEquals((rows + chunk - 1) / chunk + 1, all.size(), "seed " + seed);
        AssembledTransaction restartAfter = all.get(r.nextInt(all.size() - 1));
        out.clear();
        PartitionAssembler again = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, chunk, out::add);
        events.stream().filter(e -> e.offset() >= restartAfter.nextOffset()).forEach(again::accept);
        List<Long> ends = all.stream().map(AssembledTransaction::nextOffset).filter(o -> o > restartAfter.nextOffset()).toList();
        assertEquals(ends, out.stream().map(AssembledTransaction::nextOffset).toList(), "seed " + seed);
    }

    @Test
    void aChangeWithoutTransactionMetadataIsRefusedWithTheReason() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add);
        DataException e = assertThrows(DataException.class, () -> a.accept(row(7, null, 0, false)));
        assertTrue(e.getMessage().contains("provide.transaction.metadata=true") && e.getMessage().contains("t-0@7"),
                e.getMessage());
    }

    /** Record {@code order} of {@code count} of a Lanes-source transaction. */
    private static ChangeEvent lanesRow(long offset, String tx, long order, long count) {
        RowChange c = RowChange.insert(new TableRef("s", "t"), new RowImage(List.of("id"), new Object[] {order}));
        return new ChangeEvent(ChangeEvent.Kind.ROW, offset, tx, order, count, new SourceOrder("bin.000001", 500, ""),
                false, false, c, 10, new ChangeEvent.LanesMetadata(new long[0], null, false, false), (int) order);
    }

    @Test
    void aTransactionLargerThanTheLimitStopsNamingTheRecordAndHandsNothingOn() {
        PartitionAssembler a = new PartitionAssembler("t-0", PartitionAssembler.End.MARKER, 100, out::add)
                .limitOpenBytes(25);
        a.accept(row(0, "x", 1, false));
        a.accept(row(1, "x", 2, false));
        a.accept(end(2, "x", 2));
        assertEquals(1, out.size(), "20 bytes: within the limit");
        a.accept(row(3, "y", 1, false));
        a.accept(row(4, "y", 2, false));
        DataException e = assertThrows(DataException.class, () -> a.accept(row(5, "y", 3, false)));
        assertTrue(e.getMessage().contains("t-0@5") && e.getMessage().contains("lanes.max.transaction.bytes")
                && e.getMessage().contains("transaction y"), e.getMessage());
        assertEquals(1, out.size(), "nothing of y handed on");

        PartitionAssembler lanes = new PartitionAssembler("t-1", PartitionAssembler.End.MARKER, 100, out::add)
                .limitOpenBytes(25);
        lanes.accept(lanesRow(0, "a", 1, 2));
        lanes.accept(lanesRow(1, "a", 2, 2));
        assertEquals(2, out.size(), "a Lanes-source transaction within the limit, counted again from 0");
        lanes.accept(lanesRow(2, "b", 1, 3));
        lanes.accept(lanesRow(3, "b", 2, 3));
        e = assertThrows(DataException.class, () -> lanes.accept(lanesRow(4, "b", 3, 3)));
        assertTrue(e.getMessage().contains("t-1@4"), e.getMessage());
        assertEquals(2, out.size());
    }
}
