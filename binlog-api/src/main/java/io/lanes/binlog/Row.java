package io.lanes.binlog;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One row of a {@link RowsEvent}: the before image (updates and deletes) and the after image (writes and updates), each a
 * list of values in column order with {@code null} for SQL NULL and for a column the image does not include. A JSON column
 * logged as a partial update holds a {@link PartialJsonValue}. Immutable.
 */
public final class Row {
    private final Object[] before;
    private final Object[] after;

    Row(Object[] before, Object[] after) {
        this.before = before;
        this.after = after;
    }

    /** The before image, or {@code null} for a write. */
    public List<Object> before() {
        return before == null ? null : Collections.unmodifiableList(Arrays.asList(before));
    }

    /** The after image, or {@code null} for a delete. */
    public List<Object> after() {
        return after == null ? null : Collections.unmodifiableList(Arrays.asList(after));
    }

    /** The before value of a column ({@code null} for NULL, absent, or no before image). */
    public Object before(int column) {
        return before == null ? null : before[column];
    }

    /** The after value of a column ({@code null} for NULL, absent, or no after image). */
    public Object after(int column) {
        return after == null ? null : after[column];
    }

    @Override
    public String toString() {
        return "Row[before=" + (before == null ? "-" : Arrays.deepToString(before)) + ", after="
                + (after == null ? "-" : Arrays.deepToString(after)) + "]";
    }
}
