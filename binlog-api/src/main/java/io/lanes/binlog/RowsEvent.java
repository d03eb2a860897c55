package io.lanes.binlog;

import io.lanes.binlog.internal.SpillFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;

/**
 * WRITE_ROWS, UPDATE_ROWS, DELETE_ROWS (v0 20-22, v1 23-25, v2 30-32), PARTIAL_UPDATE_ROWS (39) and MariaDB's compressed
 * row events (166-171, inflated when decoded): the row images of one statement on one table.
 *
 * <p>The event keeps its row images as the raw bytes they were logged in and decodes them only on demand:
 * {@link #rows()} materialises every image, {@link #cursor()} walks the rows one at a time and decodes only the columns
 * asked for. Both need the event's {@link #tableMap()}; an event whose TABLE_MAP was not seen (a stream started in the
 * middle of a transaction) still decodes, but reading its rows is a {@link BinlogFormatException}.
 *
 * <p>The row images of a large transaction's later events may live in a temporary file instead
 * ({@link #rowsOnDisk()}, {@link BinlogReaderOptions.Builder#spillThresholdBytes}): each cursor then reads the event's
 * bytes back, and the heap holds only the event's description while the transaction is queued.
 *
 * <p>Immutable and thread-safe; each {@link #cursor()} belongs to one thread.
 */
public final class RowsEvent implements BinlogEvent {
    /** What the statement did; PARTIAL_UPDATE is an UPDATE whose JSON after-values may be diffs. */
    public enum Kind { WRITE, UPDATE, DELETE, PARTIAL_UPDATE }

    /** STMT_END_F: the last row event of its statement (table maps may be released after it). */
    public static final int FLAG_STMT_END = 0x1;
    public static final int FLAG_NO_FOREIGN_KEY_CHECKS = 0x2;
    public static final int FLAG_RELAXED_UNIQUE_CHECKS = 0x4;
    /** COMPLETE_ROWS_F: the images hold every column. */
    public static final int FLAG_COMPLETE_ROWS = 0x8;

    private final EventHeader header;
    private final Kind kind;
    private final int version;
    private final boolean compressed;
    private final long tableId;
    private final int flags;
    private final byte[] extraData;
    private final int columnCount;
    private final BitSet columnsBefore;
    private final BitSet columnsAfter;
    private final TableMapEvent tableMap;
    private final byte[] rowData;
    /** The row images are {@link #rowDataLength} bytes of {@link #rowData} from this index. */
    private final int rowDataStart;
    private final int rowDataLength;
    private final String source;
    private final long rowDataOffset;
    /** What cursors derive from the columns and bitmaps: from the decoder (shared), or made on first use. */
    private RowShape shape;
    /** Where the row images are when {@link #rowData} is null. */
    private final SpillFile spill;
    private final long spillOffset;
    /** The rows counted before the images went to {@link #spill}; -1 when they could not be (reading them throws). */
    private final int spilledRowCount;

    /** For decoders; applications receive these from a {@link BinlogReader} or {@link BinlogEventDecoder}. */
    public RowsEvent(EventHeader header, Kind kind, int version, boolean compressed, long tableId, int flags,
            byte[] extraData, int columnCount, BitSet columnsBefore, BitSet columnsAfter, TableMapEvent tableMap,
            byte[] rowData, String source, long rowDataOffset) {
        this(header, kind, version, compressed, tableId, flags, extraData.clone(), columnCount,
                (BitSet) columnsBefore.clone(), (BitSet) columnsAfter.clone(), tableMap, rowData, 0, rowData.length,
                source, rowDataOffset, null);
    }

    /**
     * The decoder's constructor: it hands over objects it made for this event alone (no defensive copies), and the row
     * images as {@code rowDataLength} bytes of {@code rowData} from {@code rowDataStart}, which may be the event's own
     * array when its owner never changes it.
     */
    RowsEvent(EventHeader header, Kind kind, int version, boolean compressed, long tableId, int flags,
            byte[] extraData, int columnCount, BitSet columnsBefore, BitSet columnsAfter, TableMapEvent tableMap,
            byte[] rowData, int rowDataStart, int rowDataLength, String source, long rowDataOffset, RowShape shape) {
        this.shape = shape;
        this.header = header;
        this.kind = kind;
        this.version = version;
        this.compressed = compressed;
        this.tableId = tableId;
        this.flags = flags;
        this.extraData = extraData;
        this.columnCount = columnCount;
        this.columnsBefore = columnsBefore;
        this.columnsAfter = columnsAfter;
        this.tableMap = tableMap;
        this.rowData = rowData;
        this.rowDataStart = rowDataStart;
        this.rowDataLength = rowDataLength;
        this.source = source;
        this.rowDataOffset = rowDataOffset;
        this.spill = null;
        this.spillOffset = 0;
        this.spilledRowCount = -1;
    }

    /** {@code e} with its row images at {@code offset} of {@code spill}. */
    private RowsEvent(RowsEvent e, SpillFile spill, long offset, int rowCount) {
        this.shape = e.shape;
        this.header = e.header;
        this.kind = e.kind;
        this.version = e.version;
        this.compressed = e.compressed;
        this.tableId = e.tableId;
        this.flags = e.flags;
        this.extraData = e.extraData;
        this.columnCount = e.columnCount;
        this.columnsBefore = e.columnsBefore;
        this.columnsAfter = e.columnsAfter;
        this.tableMap = e.tableMap;
        this.rowData = null;
        this.rowDataStart = 0;
        this.rowDataLength = e.rowDataLength;
        this.source = e.source;
        this.rowDataOffset = e.rowDataOffset;
        this.spill = spill;
        this.spillOffset = offset;
        this.spilledRowCount = rowCount;
    }

    /**
     * This event with its row images appended to {@code file} (by the assembling thread, before the event is handed on):
     * its rows are counted first, which walks their framing while the bytes are at hand.
     */
    RowsEvent spilledTo(SpillFile file) throws IOException {
        if (spill != null) {
            return this;
        }
        int rows;
        try {
            rows = rowCount();
        } catch (BinlogFormatException e) {
            rows = -1; // reading the rows throws again, where a caller asks for them
        }
        long at = file.append(rowData, rowDataStart, rowDataLength);
        return new RowsEvent(this, file, at, rows);
    }

    /** Closes the temporary file holding the images (those of every spilled event of the transaction), if any. */
    void releaseSpill() {
        if (spill != null) {
            spill.close();
        }
    }

    /** Whether the row images were moved to a temporary file while their transaction was assembled. */
    public boolean rowsOnDisk() {
        return spill != null;
    }

    @Override
    public EventHeader header() {
        return header;
    }

    public Kind kind() {
        return kind;
    }

    /** Row event format version: 0 (pre-GA 5.1), 1, or 2 (with extra data). */
    public int version() {
        return version;
    }

    /** Whether the event was a MariaDB *_ROWS_COMPRESSED event. */
    public boolean isCompressed() {
        return compressed;
    }

    public long tableId() {
        return tableId;
    }

    public int flags() {
        return flags;
    }

    public boolean isEndOfStatement() {
        return (flags & FLAG_STMT_END) != 0;
    }

    /** The v2 extra data as logged (NDB info, partition ids), empty when none. A copy. */
    public byte[] extraData() {
        return extraData.clone();
    }

    /** Number of columns the source table had when logged. */
    public int columnCount() {
        return columnCount;
    }

    /** Columns present in the before image (or the only image of a write/delete). A copy. */
    public BitSet includedColumns() {
        return (BitSet) columnsBefore.clone();
    }

    /** Columns present in the after image of an update (the same as {@link #includedColumns()} otherwise). A copy. */
    public BitSet includedColumnsAfter() {
        return (BitSet) columnsAfter.clone();
    }

    /** The TABLE_MAP this event refers to, or {@code null} if none was seen. */
    public TableMapEvent tableMap() {
        return tableMap;
    }

    /** The schema name, or {@code null} without a table map. */
    public String schema() {
        return tableMap == null ? null : tableMap.schema();
    }

    /** The table name, or {@code null} without a table map. */
    public String table() {
        return tableMap == null ? null : tableMap.table();
    }

    /** Bytes of row images (after inflating a compressed event). */
    public int rowDataLength() {
        return rowDataLength;
    }

    /** Whether the event has a before image per row (updates and deletes). */
    public boolean hasBeforeImage() {
        return kind != Kind.WRITE;
    }

    /** Whether the event has an after image per row (writes and updates). */
    public boolean hasAfterImage() {
        return kind != Kind.DELETE;
    }

    /** A new cursor positioned before the first row. */
    public RowCursor cursor() {
        if (tableMap == null) {
            throw new BinlogFormatException(source, header.position(), "no TABLE_MAP for table id " + tableId
                    + " (the stream started after it)");
        }
        if (version == 0) {
            throw new BinlogFormatException(source, header.position(), "pre-GA (MySQL 5.1.0-5.1.15) row images are not"
                    + " supported");
        }
        if (tableMap.columns().size() != columnCount) {
            throw new BinlogFormatException(source, header.position(), "row event has " + columnCount
                    + " columns but its TABLE_MAP " + tableMap.qualifiedName() + " has " + tableMap.columns().size());
        }
        RowShape s = shape;
        if (s == null) {
            s = RowShape.of(null, tableMap.columns(), columnsBefore, columnsAfter);
            shape = s;
        }
        byte[] data = rowData;
        int start = rowDataStart;
        if (data == null) {
            data = spilledBytes();
            start = 0;
        }
        return new RowCursor(this, data, start, start + rowDataLength, source, rowDataOffset, s);
    }

    private byte[] spilledBytes() {
        try {
            return spill.read(spillOffset, rowDataLength);
        } catch (UncheckedIOException e) {
            throw new BinlogFormatException(source, header.position(), "the row images held in the temporary file "
                    + spill.path() + " cannot be read back: " + e.getCause().getMessage(), e);
        }
    }

    /** Whether this event came out of a TRANSACTION_PAYLOAD (its errors then name the payload event's position). */
    boolean insidePayload() {
        return rowDataOffset < 0;
    }

    /** Decodes every row image. Values are lossless Java values, {@code null} for SQL NULL and for absent columns. */
    public List<Row> rows() {
        RowCursor c = cursor();
        Row first = c.nextRow();
        if (first == null) {
            return List.of();
        }
        Row second = c.nextRow();
        if (second == null) {
            return List.of(first); // most events change one row: no list to grow and wrap
        }
        List<Row> out = new ArrayList<>();
        out.add(first);
        out.add(second);
        for (Row r; (r = c.nextRow()) != null; ) {
            out.add(r);
        }
        return Collections.unmodifiableList(out);
    }

    /** Counts the rows without materialising values. */
    public int rowCount() {
        if (spilledRowCount >= 0) {
            return spilledRowCount;
        }
        RowCursor c = cursor();
        int n = 0;
        while (c.next()) {
            n++;
        }
        return n;
    }

    @Override
    public String toString() {
        return "RowsEvent[" + kind + " v" + version + " table " + (tableMap == null ? "#" + tableId
                : tableMap.qualifiedName()) + " at " + header.position() + "]";
    }
}
