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
}
