package io.lanes.binlog.encode;

import io.lanes.binlog.RowsEvent;
import io.lanes.binlog.TableMapEvent;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * What a WRITE/UPDATE/DELETE_ROWS event carries, as Java values, for {@link BinlogEventEncoder#encodeRows}: the table
 * (whose {@link TableMapEvent#tableId()} the event refers to and whose column definitions say how each value is written),
 * the row images, and the event's flags, extra data and column bitmaps.
 *
 * <p>Each image is an array of the table's width, values in column order as {@code ColumnValueDecoder} returns them
 * ({@code null} for SQL NULL); entries of columns the image does not include are ignored. {@code before} holds the before
 * images (updates and deletes; {@code null} for writes), {@code after} the after images (writes and updates; {@code null}
 * for deletes); for updates the two lists pair up by index. Immutable apart from the arrays, which are copied.
 *
 * @param kind WRITE, UPDATE or DELETE (PARTIAL_UPDATE is not encoded)
 * @param version 1 or 2 (2 adds the extra-data header)
 * @param flags STMT_END_F and friends ({@link RowsEvent#FLAG_STMT_END})
 * @param extraData v2 extra data (empty for none; must be empty for v1)
 * @param columnsBefore the columns the before image (or the only image) includes
 * @param columnsAfter the columns the after image of an update includes (ignored for writes and deletes)
 */
public record RowImages(RowsEvent.Kind kind, int version, TableMapEvent table, int flags, byte[] extraData,
        BitSet columnsBefore, BitSet columnsAfter, List<Object[]> before, List<Object[]> after) {

    public RowImages {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(table, "table");
        if (kind == RowsEvent.Kind.PARTIAL_UPDATE) {
            throw new IllegalArgumentException("PARTIAL_UPDATE_ROWS is not encoded");
        }
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("rows event version " + version + " (1 or 2)");
        }
        extraData = extraData == null ? new byte[0] : extraData.clone();
        if (version == 1 && extraData.length > 0) {
            throw new IllegalArgumentException("v1 rows events have no extra data");
        }
        columnsBefore = (BitSet) columnsBefore.clone();
        columnsAfter = columnsAfter == null ? (BitSet) columnsBefore.clone() : (BitSet) columnsAfter.clone();
        before = copy(before);
        after = copy(after);
        if ((kind == RowsEvent.Kind.WRITE) != (before == null) || (kind == RowsEvent.Kind.DELETE) != (after == null)) {
            throw new IllegalArgumentException(kind + " rows need " + (kind == RowsEvent.Kind.WRITE ? "only after"
                    : kind == RowsEvent.Kind.DELETE ? "only before" : "before and after") + " images");
        }
        if (before != null && after != null && before.size() != after.size()) {
            throw new IllegalArgumentException(before.size() + " before images but " + after.size() + " after images");
        }
    }

    private static List<Object[]> copy(List<Object[]> images) {
        if (images == null) {
            return null;
        }
        List<Object[]> out = new ArrayList<>(images.size());
        for (Object[] row : images) {
            out.add(row.clone());
        }
        return List.copyOf(out);
    }

    /** Images whose rows include every column of the table. */
    public static RowImages complete(RowsEvent.Kind kind, int version, TableMapEvent table, int flags,
            List<Object[]> before, List<Object[]> after) {
        BitSet all = new BitSet();
        all.set(0, table.columns().size());
        return new RowImages(kind, version, table, flags, new byte[0], all, all, before, after);
    }

    @Override
    public byte[] extraData() {
        return extraData.clone();
    }

    @Override
    public BitSet columnsBefore() {
        return (BitSet) columnsBefore.clone();
    }

    @Override
    public BitSet columnsAfter() {
        return (BitSet) columnsAfter.clone();
    }

    /** The number of rows. */
    public int rowCount() {
        return before != null ? before.size() : after.size();
    }
}
