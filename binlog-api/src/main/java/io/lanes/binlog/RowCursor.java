package io.lanes.binlog;

import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.internal.ColumnValueDecoder;
import io.lanes.binlog.json.JsonDiff;
import java.util.List;

/**
 * Walks the rows of a {@link RowsEvent} without materialising them: {@link #next()} finds the next row's column
 * boundaries (skipping values without decoding them), and {@link #before(int)} / {@link #after(int)} decode only the
 * columns asked for. A hot loop that needs one column per row allocates only that column's value.
 *
 * <pre>{@code
 * RowCursor c = rowsEvent.cursor();
 * while (c.next()) {
 *     Object id = c.after(0);
 * }
 * }</pre>
 *
 * <p>Not thread-safe; a cursor belongs to one thread. Every decoding problem is a {@link BinlogFormatException}.
 */
public final class RowCursor {
    private static final int ABSENT = -1;
    private static final int NULL = -2;

    private final RowsEvent event;
    private final ByteReader in;
    /** Reads single values for {@link #before(int)} / {@link #after(int)}: made on first use (rows() never needs it). */
    private ByteReader valueReader;
    private final ColumnDef[] columns;
    private final boolean[] presentBefore;
    private final boolean[] presentAfter;
    private final int countBefore;
    private final int countAfter;
    private final int[] offsetsBefore;
    private final int[] offsetsAfter;
    private final boolean[] partialAfter;
    private final int jsonColumns;
    private final boolean hasBefore;
    private final boolean hasAfter;
    private int row = -1;

    /** Over the row images in {@code data[start, limit)}; {@code baseOffset} is the offset in the source of {@code start}. */
    RowCursor(RowsEvent event, byte[] data, int start, int limit, String source, long baseOffset, RowShape shape) {
        this.event = event;
        long base = baseOffset < 0 ? 0 : baseOffset;
        this.in = new ByteReader(data, start, limit, source, base);
        // shared with other cursors: read only
        this.columns = shape.columns;
        this.presentBefore = shape.presentBefore;
        this.presentAfter = shape.presentAfter;
        this.countBefore = shape.countBefore;
        this.countAfter = shape.countAfter;
        this.jsonColumns = shape.jsonColumns;
        int n = columns.length;
        this.hasBefore = event.hasBeforeImage();
        this.hasAfter = event.hasAfterImage();
        this.offsetsBefore = hasBefore ? new int[n] : null;
        this.offsetsAfter = hasAfter ? new int[n] : null;
        this.partialAfter = event.kind() == RowsEvent.Kind.PARTIAL_UPDATE ? new boolean[n] : null;
    }

    /** Advances to the next row; false when the event has no more rows. */
    public boolean next() {
        try {
            return advance();
        } catch (BinlogFormatException e) {
            throw relocate(e);
        }
    }

    /** Errors in a row event that came out of a TRANSACTION_PAYLOAD name the payload event's position. */
    private BinlogFormatException relocate(BinlogFormatException e) {
        if (!event.insidePayload()) {
            return e;
        }
        String m = e.getMessage();
        int i = m.indexOf(": ");
        return new BinlogFormatException(e.source(), event.position(), "in TRANSACTION_PAYLOAD, " + event
                + ", row data offset " + e.offset() + ": " + (i >= 0 ? m.substring(i + 2) : m), e);
    }

    private boolean advance() {
        if (!in.hasRemaining()) {
            return false;
        }
        row++;
        int rowStart = in.position();
        switch (event.kind()) {
            case WRITE:
                readImage(presentAfter, countAfter, offsetsAfter, false);
                break;
            case DELETE:
                readImage(presentBefore, countBefore, offsetsBefore, false);
                break;
            case UPDATE:
                readImage(presentBefore, countBefore, offsetsBefore, false);
                readImage(presentAfter, countAfter, offsetsAfter, false);
                break;
            default:
                readImage(presentBefore, countBefore, offsetsBefore, false);
                readImage(presentAfter, countAfter, offsetsAfter, true);
        }
        if (in.position() == rowStart) {
            // an image with no columns takes no bytes: the rest of the event could never be consumed
            throw in.error("row " + row + " of " + event + " is empty");
        }
        return true;
    }

    /**
     * Reads and decodes the next row whole in one pass, or returns null when the event has no more rows: what
     * {@link RowsEvent#rows()} needs, without skipping each value first and decoding it afterwards.
     */
    Row nextRow() {
        try {
            return readRow();
        } catch (BinlogFormatException e) {
            throw relocate(e);
        }
    }

    private Row readRow() {
        if (!in.hasRemaining()) {
            return null;
        }
        row++;
        int start = in.position();
        Object[] b = hasBefore ? new Object[columns.length] : null;
        Object[] a = hasAfter ? new Object[columns.length] : null;
        switch (event.kind()) {
            case WRITE:
                readImage(presentAfter, countAfter, offsetsAfter, false, a);
                break;
            case DELETE:
                readImage(presentBefore, countBefore, offsetsBefore, false, b);
                break;
            case UPDATE:
                readImage(presentBefore, countBefore, offsetsBefore, false, b);
                readImage(presentAfter, countAfter, offsetsAfter, false, a);
                break;
            default:
                readImage(presentBefore, countBefore, offsetsBefore, false, b);
                readImage(presentAfter, countAfter, offsetsAfter, true, a);
        }
        if (in.position() == start) {
            throw in.error("row " + row + " of " + event + " has no bytes (its column bitmaps include no column)");
        }
        return new Row(b, a);
    }

    private void readImage(boolean[] present, int presentCount, int[] offsets, boolean valueOptions) {
        readImage(present, presentCount, offsets, valueOptions, null);
    }

    /** Finds the image's column boundaries; with {@code values}, also decodes each value into it. */
    private void readImage(boolean[] present, int presentCount, int[] offsets, boolean valueOptions, Object[] values) {
        int partialBits = -1;
        if (valueOptions) {
            java.util.Arrays.fill(partialAfter, false);
            long options = in.packedLength();
            if ((options & 1) != 0) { // PARTIAL_JSON_UPDATES
                partialBits = in.position();
                in.skip((jsonColumns + 7) / 8);
            }
        }
        int nullBits = in.position();
        in.skip((presentCount + 7) / 8);
        byte[] buf = in.array();
        int bit = 0;
        int jsonIndex = 0;
        for (int c = 0; c < columns.length; c++) {
            boolean partial = false;
            if (partialBits >= 0 && columns[c].type() == ColumnType.JSON) {
                // one bit per JSON column of the table, whether or not the image includes it
                partial = (buf[partialBits + (jsonIndex >>> 3)] & (1 << (jsonIndex & 7))) != 0;
                jsonIndex++;
            }
            if (!present[c]) {
                offsets[c] = ABSENT;
                continue;
            }
            boolean isNull = (buf[nullBits + (bit >>> 3)] & (1 << (bit & 7))) != 0;
            bit++;
            if (isNull) {
                offsets[c] = NULL;
                continue;
            }
            offsets[c] = in.position();
            if (partial) {
                partialAfter[c] = true;
                long len = jsonLength(in, columns[c]);
                if (values != null) {
                    in.checkAvailable(len);
                    int start = in.position();
                    List<JsonDiff> diffs = JsonDiff.decodeList(in, (int) len);
                    in.position(start + (int) len);
                    values[c] = new PartialJsonValue(java.util.Arrays.copyOfRange(in.array(), start, start + (int) len),
                            diffs);
                } else {
                    in.skip(len);
                }
            } else {
                try {
                    if (values != null) {
                        values[c] = ColumnValueDecoder.decode(in, columns[c]);
                    } else {
                        ColumnValueDecoder.skip(in, columns[c]);
                    }
                } catch (BinlogFormatException e) {
                    throw e;
                } catch (RuntimeException e) {
                    throw columnError(in, offsets[c], c, e);
                }
            }
        }
    }

    private static long jsonLength(ByteReader r, ColumnDef column) {
        int lengthBytes = column.meta();
        if (lengthBytes < 1 || lengthBytes > 4) {
            throw r.error("JSON column " + column.index() + " has length size " + lengthBytes);
        }
        return r.uint(lengthBytes);
    }

    /** 0-based index of the current row. */
    public int rowIndex() {
        return row;
    }

    public int columnCount() {
        return columns.length;
    }

    /** The current row's before-image value of a column: {@code null} for NULL, absent, or no before image. */
    public Object before(int column) {
        return hasBefore ? value(offsetsBefore, column, false) : null;
    }

    /** The current row's after-image value of a column: {@code null} for NULL, absent, or no after image. */
    public Object after(int column) {
        return hasAfter ? value(offsetsAfter, column, partialAfter != null && partialAfter[column]) : null;
    }

    /** The value in the row's main image: the after image of writes and updates, the before image of deletes. */
    public Object value(int column) {
        return hasAfter ? after(column) : before(column);
    }

    /** Whether the main image includes the column. */
    public boolean isPresent(int column) {
        checkRow();
        return (hasAfter ? offsetsAfter : offsetsBefore)[column] != ABSENT;
    }

    /** Whether the main image holds SQL NULL for the column. */
    public boolean isNull(int column) {
        checkRow();
        return (hasAfter ? offsetsAfter : offsetsBefore)[column] == NULL;
    }

    /** Whether the after value of a JSON column is a partial update ({@link PartialJsonValue}). */
    public boolean isPartialJson(int column) {
        checkRow();
        return partialAfter != null && partialAfter[column];
    }

    private void checkRow() {
        if (row < 0) {
            throw new IllegalStateException("call next() first");
        }
    }

    private Object value(int[] offsets, int column, boolean partial) {
        try {
            return decodeValue(offsets, column, partial);
        } catch (BinlogFormatException e) {
            throw relocate(e);
        }
    }

    private Object decodeValue(int[] offsets, int column, boolean partial) {
        checkRow();
        int at = offsets[column];
        if (at < 0) {
            return null;
        }
        if (valueReader == null) {
            valueReader = in.view(in.start(), in.limit());
        }
        valueReader.position(at);
        if (partial) {
            long len = jsonLength(valueReader, columns[column]);
            valueReader.checkAvailable(len);
            int start = valueReader.position();
            List<JsonDiff> diffs = JsonDiff.decodeList(valueReader, (int) len);
            return new PartialJsonValue(java.util.Arrays.copyOfRange(valueReader.array(), start, start + (int) len), diffs);
        }
        try {
            return ColumnValueDecoder.decode(valueReader, columns[column]);
        } catch (BinlogFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw columnError(valueReader, at, column, e);
        }
    }

    private BinlogFormatException columnError(ByteReader r, int at, int column, RuntimeException cause) {
        return new BinlogFormatException(r.source(), r.absoluteOffset(at), "cannot decode column " + column + " ("
                + columns[column].type() + ") of row " + row + " in " + event + ": " + cause, cause);
    }

    /** Materialises the current row. */
    public Row toRow() {
        checkRow();
        Object[] b = null;
        Object[] a = null;
        if (hasBefore) {
            b = new Object[columns.length];
            for (int i = 0; i < b.length; i++) {
                b[i] = before(i);
            }
        }
        if (hasAfter) {
            a = new Object[columns.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = after(i);
            }
        }
        return new Row(b, a);
    }
}
