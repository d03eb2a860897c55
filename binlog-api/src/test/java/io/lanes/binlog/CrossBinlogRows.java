package io.lanes.binlog;

import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.internal.ColumnValueDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The row images of a binlog file, decoded with {@link ColumnValueDecoder}, for the cross-check tests.
 *
 * <p>The cross-checks compare values, so they need the row images of a file in order: {@link #read(Path)} returns them
 * as {@link RowImage}s, read through the project's {@link BinlogReader} and {@link RowCursor}. {@link #walk(Path)}
 * produces the same from a deliberately minimal TABLE_MAP and ROWS (v1/v2) walker written from the format description
 * alone (no compressed or encrypted events); {@code CrossReaderTest} checks the two agree, which cross-checks the
 * reader's TABLE_MAP metadata handling (signedness, charsets, ENUM/SET names) that the values depend on. Both skip
 * PARTIAL_UPDATE_ROWS events; only {@link #read} opens TRANSACTION_PAYLOAD events.
 */
final class CrossBinlogRows {
    private CrossBinlogRows() {
    }

    /** One table as a TABLE_MAP describes it. */
    record Table(String schema, String name, List<ColumnDef> columns) {
    }

    /**
     * One row image: {@code kind} is INSERT, DELETE, UPDATE_BEFORE or UPDATE_AFTER; {@code values[i]} is the decoded value
     * of column i, {@code present} the columns the image carries; {@code offset} the file offset of its event.
     */
    record RowImage(String kind, Table table, BitSet present, Object[] values, long offset) {
    }

    static byte[] load(Path file) throws IOException {
        if (file.toString().endsWith(".gz")) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
                return in.readAllBytes();
            }
        }
        return Files.readAllBytes(file);
    }

    /**
     * The row images of a file, through {@link BinlogReader}; the events inside TRANSACTION_PAYLOAD events are read in
     * place.
     */
    static List<RowImage> read(Path file) {
        List<RowImage> out = new ArrayList<>();
        try (BinlogReader reader = BinlogReader.open(file)) {
            for (BinlogEvent e; (e = reader.next()) != null; ) {
                add(e, out);
            }
        }
        return out;
    }

    private static void add(BinlogEvent e, List<RowImage> out) {
        if (e instanceof TransactionPayloadEvent) {
            try (TransactionPayloadEvent.PayloadEvents inner = ((TransactionPayloadEvent) e).events()) {
                while (inner.hasNext()) {
                    add(inner.next(), out);
                }
            }
            return;
        }
        if (!(e instanceof RowsEvent) || ((RowsEvent) e).kind() == RowsEvent.Kind.PARTIAL_UPDATE) {
            return;
        }
        RowsEvent rows = (RowsEvent) e;
        TableMapEvent tm = rows.tableMap();
        Table t = new Table(tm.schema(), tm.table(), tm.columns());
        BitSet before = rows.includedColumns();
        BitSet after = rows.includedColumnsAfter();
        long at = rows.header().position();
        RowCursor c = rows.cursor();
        while (c.next()) {
            switch (rows.kind()) {
                case WRITE:
                    out.add(new RowImage("INSERT", t, before, values(c, before, false), at));
                    break;
                case DELETE:
                    out.add(new RowImage("DELETE", t, before, values(c, before, true), at));
                    break;
                default:
                    out.add(new RowImage("UPDATE_BEFORE", t, before, values(c, before, true), at));
                    out.add(new RowImage("UPDATE_AFTER", t, after, values(c, after, false), at));
            }
        }
    }

    private static Object[] values(RowCursor c, BitSet present, boolean before) {
        Object[] v = new Object[c.columnCount()];
        for (int i = present.nextSetBit(0); i >= 0; i = present.nextSetBit(i + 1)) {
            v[i] = before ? c.before(i) : c.after(i);
        }
        return v;
    }

    /** The row images of a file, through the minimal walker of this class. */
    static List<RowImage> walk(Path file) throws IOException {
        byte[] data = load(file);
        String source = file.getFileName().toString();
        if (data.length < 4 || (data[0] & 0xff) != 0xfe || data[1] != 'b' || data[2] != 'i' || data[3] != 'n') {
            throw new IOException(source + " is not a binlog");
        }
        List<RowImage> out = new ArrayList<>();
        Map<Long, Table> tables = new HashMap<>();
        boolean crc = false;
        boolean mariadb = false;
        int pos = 4;
        while (pos + 19 <= data.length) {
            ByteReader h = new ByteReader(data, pos, data.length, source, pos);
            h.skip(4);
            int type = h.u8();
            h.skip(4);
            long size = h.u32();
            if (size < 19 || pos + size > data.length) {
                break; // a file still being written ends with a partial event
            }
            int end = (int) (pos + size);
            int bodyEnd = end;
            if (type == 15) { // FORMAT_DESCRIPTION: checksum algorithm is the byte before the trailing CRC (5.6.1+)
                String version = new String(data, pos + 19 + 2, 50, StandardCharsets.US_ASCII).trim();
                mariadb = version.contains("MariaDB");
                crc = data[end - 5] == 1;
            } else if (crc) {
                bodyEnd -= 4;
            }
            ByteReader b = new ByteReader(data, pos + 19, bodyEnd, source, pos + 19);
            if (type == 19) {
                Table t = tableMap(b, mariadb);
                tables.put(lastTableId, t);
            } else if (type >= 23 && type <= 25 || type >= 30 && type <= 32) {
                rows(b, type, tables, out, pos);
            }
            pos = end;
        }
        return out;
    }

    private static long lastTableId;

    private static Table tableMap(ByteReader b, boolean mariadb) {
        lastTableId = b.u48();
        b.skip(2);
        String schema = b.string(b.u8(), StandardCharsets.UTF_8);
        b.skip(1);
        String name = b.string(b.u8(), StandardCharsets.UTF_8);
        b.skip(1);
        int n = (int) b.packedLength();
        int[] types = new int[n];
        for (int i = 0; i < n; i++) {
            types[i] = b.u8();
        }
        ByteReader m = b.slice(b.packedSize());
        int[] meta = new int[n];
        for (int i = 0; i < n; i++) {
            switch (types[i]) {
                case 4: case 5: case 249: case 250: case 251: case 252: case 255: case 245: case 242:
                case 17: case 18: case 19:
                    meta[i] = m.u8();
                    break;
                case 15: case 253:
                    meta[i] = m.u16();
                    break;
                case 16: // BIT: bits, then bytes
                    meta[i] = m.u8();
                    meta[i] |= m.u8() << 8;
                    break;
                case 246: case 247: case 248: case 254: // first byte high
                    meta[i] = m.u8() << 8;
                    meta[i] |= m.u8();
                    break;
                default:
                    meta[i] = 0;
            }
        }
        BitSet nullable = b.bitmap(n);
        boolean[] unsigned = new boolean[n];
        int[] charset = new int[n];
        java.util.Arrays.fill(charset, -1);
        List<List<String>> enums = new ArrayList<>();
        List<List<String>> sets = new ArrayList<>();
        String[] names = new String[n];
        while (b.hasRemaining()) {
            int t = b.u8();
            ByteReader v = b.slice(b.packedSize());
            switch (t) {
                case 1: { // SIGNEDNESS: one bit per numeric column, most significant bit first
                    int k = 0;
                    for (int i = 0; i < n; i++) {
                        if (isNumeric(types[i], mariadb)) {
                            int byteAt = v.position() + k / 8;
                            unsigned[i] = (v.array()[byteAt] & (0x80 >> (k % 8))) != 0;
                            k++;
                        }
                    }
                    break;
                }
                case 2: case 10: { // DEFAULT_CHARSET / ENUM_AND_SET_DEFAULT_CHARSET: default, then (index, collation)
                    int def = (int) v.packedLength();
                    List<Integer> cols = charColumns(types, meta, mariadb, t == 10);
                    for (int c : cols) {
                        charset[c] = def;
                    }
                    while (v.hasRemaining()) {
                        int idx = (int) v.packedLength();
                        charset[cols.get(idx)] = (int) v.packedLength();
                    }
                    break;
                }
                case 3: case 11: { // COLUMN_CHARSET / ENUM_AND_SET_COLUMN_CHARSET: one collation per column
                    for (int c : charColumns(types, meta, mariadb, t == 11)) {
                        charset[c] = (int) v.packedLength();
                    }
                    break;
                }
                case 4:
                    for (int i = 0; i < n; i++) {
                        names[i] = v.string(v.packedSize(), StandardCharsets.UTF_8);
                    }
                    break;
                case 5: case 6: {
                    while (v.hasRemaining()) {
                        int count = (int) v.packedLength();
                        List<String> values = new ArrayList<>();
                        for (int i = 0; i < count; i++) {
                            values.add(v.string(v.packedSize(), StandardCharsets.UTF_8));
                        }
                        (t == 5 ? sets : enums).add(values);
                    }
                    break;
                }
                default:
                    break;
            }
        }
        List<ColumnDef> cols = new ArrayList<>();
        int enumIdx = 0;
        int setIdx = 0;
        for (int i = 0; i < n; i++) {
            int real = realType(types[i], meta[i]);
            List<String> e = real == 247 && enumIdx < enums.size() ? enums.get(enumIdx++) : null;
            List<String> s = real == 248 && setIdx < sets.size() ? sets.get(setIdx++) : null;
            cols.add(new ColumnDef(i, ColumnType.of(types[i]), meta[i], nullable.get(i), unsigned[i], charset[i], names[i],
                    e, s, -1, -1, true));
        }
        return new Table(schema, name, cols);
    }

    private static int realType(int type, int meta) {
        return type == 254 && meta >= 256 ? ColumnValueDecoder.stringRealType(meta) : type;
    }

    /** MariaDB gives YEAR a signedness bit (it is a Field_num there); MySQL does not. */
    private static boolean isNumeric(int type, boolean mariadb) {
        switch (type) {
            case 1: case 2: case 3: case 8: case 9: case 4: case 5: case 246:
                return true;
            case 13:
                return mariadb;
            default:
                return false;
        }
    }

    /** The columns COLUMN_CHARSET covers (character columns), or ENUM_AND_SET_COLUMN_CHARSET (enum/set columns). */
    private static List<Integer> charColumns(int[] types, int[] meta, boolean mariadb, boolean enumSet) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            int real = realType(types[i], meta[i]);
            boolean isEnumSet = real == 247 || real == 248;
            boolean isChar = real == 254 || real == 253 || real == 15 || real == 252 || real == 242 || (mariadb && real == 255);
            if (enumSet ? isEnumSet : isChar) {
                out.add(i);
            }
        }
        return out;
    }

    private static void rows(ByteReader b, int type, Map<Long, Table> tables, List<RowImage> out, long offset) {
        long tableId = b.u48();
        b.skip(2);
        if (type >= 30) {
            int extra = b.u16();
            b.skip(extra - 2);
        }
        int n = (int) b.packedLength();
        BitSet before = b.bitmap(n);
        boolean update = type == 24 || type == 31;
        BitSet after = update ? b.bitmap(n) : before;
        Table t = tables.get(tableId);
        while (b.hasRemaining()) {
            String first = update ? "UPDATE_BEFORE" : (type == 23 || type == 30) ? "INSERT" : "DELETE";
            out.add(image(b, t, before, first, offset));
            if (update) {
                out.add(image(b, t, after, "UPDATE_AFTER", offset));
            }
        }
    }

    private static RowImage image(ByteReader b, Table t, BitSet present, String kind, long offset) {
        BitSet nulls = b.bitmap(present.cardinality());
        Object[] values = new Object[t.columns().size()];
        int k = 0;
        for (int i = present.nextSetBit(0); i >= 0; i = present.nextSetBit(i + 1)) {
            if (!nulls.get(k++)) {
                values[i] = ColumnValueDecoder.decode(b, t.columns().get(i));
            }
        }
        return new RowImage(kind, t, present, values, offset);
    }
}
