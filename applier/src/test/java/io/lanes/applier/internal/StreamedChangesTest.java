package io.lanes.applier.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Change;
import io.lanes.applier.ConstraintChecks;
import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableRef;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StreamedChangesTest {
    private static final TableRef T = new TableRef("s", "t");
    private static final ConstraintChecks OFF = new ConstraintChecks(false, true);

    /** A segment of {@code rows} inserts numbered from {@code first}, counting its conversions. */
    private record Inserts(Change first, int from, int rowCount, AtomicInteger converted, int failAt)
            implements StreamedChanges.Segment {
        @Override
        public String schema() {
            return T.schema();
        }

        @Override
        public Iterator<? extends Change> rows() {
            List<RowChange> out = new ArrayList<>();
            for (int i = 0; i < rowCount; i++) {
                int id = from + i;
                out.add(id == failAt ? null : RowChange.insert(T, new RowImage(List.of("id"), new Object[] {id})));
            }
            return new Iterator<>() {
                int next;

                @Override
                public boolean hasNext() {
                    return next < out.size();
                }

                @Override
                public RowChange next() {
                    RowChange c = out.get(next++);
                    if (c == null) {
                        throw new IllegalStateException("row " + (from + next - 1) + " at bin.000001:4 is bad");
                    }
                    converted.incrementAndGet();
                    return c;
                }
            };
        }
    }

    private static int id(Change c) {
        return (Integer) ((RowChange) c).after().values()[0];
    }

    @Test
    void convertsWhileIteratedAndAgainOnEveryIteration() {
        AtomicInteger converted = new AtomicInteger();
        StreamedChanges changes = new StreamedChanges("bin.000001:4", List.of(new Inserts(null, 1, 3, converted, -1),
                new Inserts(OFF, 4, 2, converted, -1), new Inserts(null, 6, 0, converted, -1)));
        assertEquals(6, changes.size()); // five rows and the change of checks before the second event's
        assertEquals(5, changes.rowCount());
        assertEquals(5, StreamedChanges.rowCount(changes));
        assertEquals(0, converted.get(), "nothing converted before it is iterated");
        List<Object> seen = new ArrayList<>();
        for (Change c : changes) {
            seen.add(c instanceof RowChange ? id(c) : c);
        }
        assertEquals(List.of(1, 2, 3, OFF, 4, 5), seen);
        assertEquals(5, converted.get());
        List<Change> again = new ArrayList<>();
        changes.forEach(again::add);
        assertEquals(6, again.size());
        assertEquals(10, converted.get(), "a retry converts them again, from the row events");
    }

    @Test
    void indexedAccessWalksForwardAndRestartsWhenAskedForAnEarlierIndex() {
        AtomicInteger converted = new AtomicInteger();
        StreamedChanges changes = new StreamedChanges("p", List.of(new Inserts(null, 1, 100, converted, -1)));
        for (int i = 0; i < changes.size(); i++) {
            assertEquals(i + 1, id(changes.get(i)));
        }
        assertEquals(100, converted.get(), "a loop over the indexes converts each row once");
        assertEquals(3, id(changes.get(2)));
        assertEquals(103, converted.get());
        assertThrows(IndexOutOfBoundsException.class, () -> changes.get(100));
    }

    @Test
    void aRowThatCannotBeConvertedNamesTheTransaction() {
        StreamedChanges changes = new StreamedChanges("bin.000001:4 gtid=0-1-9",
                List.of(new Inserts(null, 1, 5, new AtomicInteger(), 3)));
        Iterator<Change> it = changes.iterator();
        assertEquals(1, id(it.next()));
        assertEquals(2, id(it.next()));
        StreamedChanges.ConversionFailedException e = assertThrows(StreamedChanges.ConversionFailedException.class,
                it::next);
        assertTrue(e.getMessage().contains("bin.000001:4 gtid=0-1-9"), e.getMessage());
        assertTrue(e.getMessage().contains("row 3 at bin.000001:4 is bad"), e.getMessage());
    }

    @Test
    void aSourceTransactionKeepsTheListUnconvertedAndCopiesAnyOther() {
        AtomicInteger converted = new AtomicInteger();
        StreamedChanges changes = new StreamedChanges("p", List.of(new Inserts(null, 1, 3, converted, -1)));
        SourceTransaction t = new SourceTransaction("p", null, null, changes);
        assertSame(changes, t.changes());
        assertEquals(0, converted.get());
        List<Change> plain = new ArrayList<>(List.of(OFF));
        SourceTransaction copied = new SourceTransaction("p", null, null, plain);
        plain.clear();
        assertEquals(List.of(OFF), copied.changes());
    }

    @Test
    void rowsAreCountedBySchemaWithoutConvertingAndAsAnyListWouldCountThem() {
        AtomicInteger converted = new AtomicInteger();
        StreamedChanges changes = new StreamedChanges("p", List.of(new Inserts(null, 1, 3, converted, -1),
                new Inserts(OFF, 4, 2, converted, -1), new Inserts(null, 6, 0, converted, -1)));
        SourceTransaction streamed = new SourceTransaction("p", null, null, changes);
        assertTrue(streamed.convertedAsIterated());
        assertEquals(java.util.Map.of("s", 5L), streamed.rowCountBySchema());
        assertEquals(0, converted.get(), "counted from the events");
        SourceTransaction whole = new SourceTransaction("p", null, null, new ArrayList<>(changes));
        assertFalse(whole.convertedAsIterated());
        assertEquals(streamed.rowCountBySchema(), whole.rowCountBySchema(), "the same count from converted rows");
    }
}
