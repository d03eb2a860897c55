package io.lanes.binlog;

import java.util.BitSet;
import java.util.List;

/**
 * What a {@link RowCursor} derives from a table's columns and a ROWS event's column bitmaps, made once and shared by
 * the events that have the same (a server logs the same table map and bitmaps before every change to a table, so a
 * stream's events on one table nearly always do). Immutable.
 */
final class RowShape {
    private final List<ColumnDef> defs;
    private final BitSet before;
    private final BitSet after;
    private final byte[] beforeBytes;
    private final byte[] afterBytes;
    final ColumnDef[] columns;
    final boolean[] presentBefore;
    final boolean[] presentAfter;
    final int countBefore;
    final int countAfter;
    final int jsonColumns;

    private RowShape(List<ColumnDef> defs, BitSet before, BitSet after) {
        this.defs = defs;
        this.before = before;
        this.after = after;
        this.beforeBytes = before.toByteArray();
        this.afterBytes = after.toByteArray();
        int n = defs.size();
        this.columns = defs.toArray(new ColumnDef[0]);
        this.presentBefore = new boolean[n];
        this.presentAfter = new boolean[n];
        int json = 0;
        for (int i = 0; i < n; i++) {
            presentBefore[i] = before.get(i);
            presentAfter[i] = after.get(i);
            if (columns[i].type() == ColumnType.JSON) {
                json++;
            }
        }
        this.countBefore = before.cardinality();
        this.countAfter = after.cardinality();
        this.jsonColumns = json;
    }

    /** {@code shape} itself when it was made for these columns (the same list) and bitmaps, else a new one. */
    static RowShape of(RowShape shape, List<ColumnDef> defs, BitSet before, BitSet after) {
        if (shape != null && shape.defs == defs && shape.before.equals(before) && shape.after.equals(after)) {
            return shape;
        }
        return new RowShape(defs, before, after);
    }

    /** The columns it was made for. */
    List<ColumnDef> defs() {
        return defs;
    }

    /** The before-image column bitmap it was made for (shared: never to be changed). */
    BitSet before() {
        return before;
    }

    /** The after-image column bitmap it was made for (shared: never to be changed). */
    BitSet after() {
        return after;
    }

    /**
     * Whether the bitmaps a ROWS event logs at {@code at} of {@code bytes} (the before-image one, then the after-image one
     * when {@code twoBitmaps}; bit i in byte i/8) are exactly this shape's over its columns: the test a decoder makes to
     * reuse the shape's bitmaps for the next event on the same table instead of parsing its own. Allocates nothing.
     */
    boolean logsSameBitmaps(byte[] bytes, int at, boolean twoBitmaps) {
        int n = (defs.size() + 7) >>> 3;
        return sameBytes(beforeBytes, bytes, at, n)
                && (twoBitmaps ? sameBytes(afterBytes, bytes, at + n, n) : before == after);
    }

    /** {@code bitmap} (trailing zero bytes trimmed, as BitSet.toByteArray gives it) against {@code n} logged bytes. */
    private static boolean sameBytes(byte[] bitmap, byte[] bytes, int at, int n) {
        for (int i = 0; i < n; i++) {
            if (bytes[at + i] != (i < bitmap.length ? bitmap[i] : 0)) {
                return false;
            }
        }
        return true;
    }
}
