package io.lanes.applier.internal;

import io.lanes.applier.Change;
import java.util.AbstractList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The changes of a large transaction, converted from its row events while they are iterated rather than all before the
 * transaction is queued. Converted rows take about twelve times the bytes of their row events (a 41 MB transaction of 2
 * million rows needed more than 512 MiB of heap converted whole, and 3.6 GB of memory with a 6 GiB heap), and a worker
 * waits idle while a dispatching thread converts a whole transaction; iterated, a transaction holds its row events and
 * the rows of one event at a time, and its worker applies each event's rows as they are converted.
 *
 * <p>Every iteration converts the rows again from the row events, which do not change: a retried apply sees the same
 * changes. {@link #get} walks from the last index asked for (so a loop over the indexes is linear) or from the start.
 * A conversion that fails throws {@link ConversionFailedException}, naming the transaction's position.
 *
 * <p>Immutable as a list; thread-safe (iterators are independent; {@link #get} is synchronized).
 */
public final class StreamedChanges extends AbstractList<Change> {

    /** One row event's share of the changes: a change that goes before its rows, or null, and its rows. */
    public interface Segment {
        /** A change to put before the rows (a change of constraint checks), or null. */
        Change first();

        /** How many rows the event holds (counted when the transaction was read). */
        int rowCount();

        /** The schema its rows' changes name (their table's), or null when it has no rows to convert. */
        String schema();

        /** The event's rows, converted now. */
        Iterator<? extends Change> rows();
    }

    private final String position;
    private final List<Segment> segments;
    private final int size;
    private final long rowCount;
    private Iterator<Change> cursor;
    private int cursorIndex = -1;

    /**
     * @param position the transaction's position, for messages
     * @param segments its row events' shares, in log order
     */
    public StreamedChanges(String position, List<? extends Segment> segments) {
        this.position = position;
        this.segments = List.copyOf(segments);
        long rows = 0;
        long all = 0;
        for (Segment s : this.segments) {
            rows += s.rowCount();
            all += s.rowCount() + (s.first() == null ? 0 : 1);
        }
        if (all > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("transaction at " + position + " has " + all + " changes, more than a "
                    + "list holds");
        }
        this.rowCount = rows;
        this.size = (int) all;
    }

    /** How many row changes there are, without converting any. */
    public long rowCount() {
        return rowCount;
    }

    /** How many row changes each schema has, in the order the schemas first appear, without converting any. */
    public Map<String, Long> rowCountBySchema() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Segment s : segments) {
            if (s.rowCount() > 0) {
                counts.merge(s.schema(), (long) s.rowCount(), Long::sum);
            }
        }
        return counts;
    }

    /** The row changes of {@code changes}: counted without converting when they are streamed. */
    public static long rowCount(List<? extends Change> changes) {
        if (changes instanceof StreamedChanges s) {
            return s.rowCount;
        }
        long n = 0;
        for (Change c : changes) {
            if (c instanceof io.lanes.applier.RowChange) {
                n++;
            }
        }
        return n;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Iterator<Change> iterator() {
        return new Converting();
    }

    @Override
    public synchronized Change get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + ", size " + size);
        }
        if (cursor == null || index <= cursorIndex) {
            cursor = iterator();
            cursorIndex = -1;
        }
        Change c = null;
        while (cursorIndex < index) {
            c = cursor.next();
            cursorIndex++;
        }
        return c;
    }

    /** Walks the segments, converting one event's rows at a time. */
    private final class Converting implements Iterator<Change> {
        private int segment;
        private Iterator<? extends Change> rows;
        private Change pending;

        @Override
        public boolean hasNext() {
            while (pending == null && (rows == null || !rows.hasNext())) {
                if (segment == segments.size()) {
                    return false;
                }
                Segment s = segments.get(segment++);
                pending = s.first();
                try {
                    rows = s.rows();
                } catch (RuntimeException e) {
                    throw new ConversionFailedException(position, e);
                }
            }
            return true;
        }

        @Override
        public Change next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            if (pending != null) {
                Change c = pending;
                pending = null;
                return c;
            }
            try {
                return rows.next();
            } catch (RuntimeException e) {
                throw new ConversionFailedException(position, e);
            }
        }
    }

    /** A row of a streamed transaction could not be converted: nothing of the transaction is committed. */
    public static final class ConversionFailedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        ConversionFailedException(String position, RuntimeException cause) {
            super("the rows of the large transaction at " + position + ", converted as they are applied: "
                    + cause.getMessage(), cause);
        }
    }
}
