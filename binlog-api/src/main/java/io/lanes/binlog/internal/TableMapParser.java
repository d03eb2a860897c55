package io.lanes.binlog.internal;

import static io.lanes.binlog.TableMapEvent.COLUMN_CHARSET;
import static io.lanes.binlog.TableMapEvent.COLUMN_NAME;
import static io.lanes.binlog.TableMapEvent.DEFAULT_CHARSET;
import static io.lanes.binlog.TableMapEvent.ENUM_STR_VALUE;
import static io.lanes.binlog.TableMapEvent.SET_STR_VALUE;
import static io.lanes.binlog.TableMapEvent.SIGNEDNESS;

import io.lanes.binlog.ColumnDef;
import io.lanes.binlog.ColumnType;
import io.lanes.binlog.EventHeader;
import io.lanes.binlog.TableMapEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Decodes TABLE_MAP events: the fixed part (table id, names, column types, per-type metadata, null bitmap) and the
 * optional metadata TLVs of binlog_row_metadata (SIGNEDNESS ... VECTOR_DIMENSIONALITY). Unknown optional metadata types
 * are skipped by their length. Stateless.
 */
public final class TableMapParser {
    // Types 1 to 6 are TableMapEvent's public constants (they name the bits of its optionalFields); the rest only the
    // parser uses.
    public static final int GEOMETRY_TYPE = 7;
    public static final int SIMPLE_PRIMARY_KEY = 8;
    public static final int PRIMARY_KEY_WITH_PREFIX = 9;
    public static final int ENUM_AND_SET_DEFAULT_CHARSET = 10;
    public static final int ENUM_AND_SET_COLUMN_CHARSET = 11;
    public static final int COLUMN_VISIBILITY = 12;
    public static final int VECTOR_DIMENSIONALITY = 13;

    private TableMapParser() {
    }

    /**
     * Parses the event body; {@code in} starts at the post-header and ends before the checksum.
     *
     * @param mariaDb whether a MariaDB server wrote the log: it counts GEOMETRY columns among the character columns of
     *     the charset metadata, MySQL counts VECTOR columns instead
     */
    public static TableMapEvent parse(ByteReader in, EventHeader header, int postHeaderLength, boolean mariaDb) {
        int bodyStart = in.position();
        long tableId = postHeaderLength == 6 ? in.u32() : in.u48();
        int flags = in.u16();
        if (in.position() < bodyStart + postHeaderLength) {
            in.skip(bodyStart + postHeaderLength - in.position());
        }
        String schema = in.string(in.u8(), StandardCharsets.UTF_8);
        in.skip(1);
        String table = in.string(in.u8(), StandardCharsets.UTF_8);
        in.skip(1);
        long count = in.packedLength();
        if (count <= 0 || count > 0xffff || count > in.remaining()) {
            throw in.error("TABLE_MAP column count " + count);
        }
        int n = (int) count;
        int[] types = new int[n];
        for (int i = 0; i < n; i++) {
            types[i] = in.u8();
            if (ColumnType.of(types[i]) == null) {
                throw in.error("unknown column type " + types[i] + " for column " + i);
            }
        }
        ByteReader meta = in.slice(in.packedSize());
        int[] metas = new int[n];
        for (int i = 0; i < n; i++) {
            metas[i] = readMeta(meta, types[i]);
        }
        if (meta.hasRemaining()) {
            throw meta.error("column metadata has " + meta.remaining() + " bytes left over");
        }
        BitSet nullable = in.bitmap(n);

        Columns c = new Columns(n, types, metas, nullable, mariaDb);
        while (in.hasRemaining()) {
            int fieldType = in.u8();
            ByteReader f = in.slice(in.packedSize());
            c.apply(fieldType, f);
        }
        return c.build(header, tableId, flags, schema, table);
    }

    private static int readMeta(ByteReader m, int type) {
        switch (type) {
            case 4: case 5: case 17: case 18: case 19: case 242: case 245: case 249: case 250: case 251: case 252:
            case 255: case 140: // 140: MariaDB BLOB_COMPRESSED
                return m.u8();
            case 15: case 253: case 16: case 141: // 141: MariaDB VARCHAR_COMPRESSED
                return m.u16();
            case 246: case 254: case 247: case 248: {
                int hi = m.u8();
                return hi << 8 | m.u8();
            }
            case 20: { // TYPED_ARRAY: the element type, then that type's metadata
                int element = m.u8();
                return element << 16 | readMeta(m, element);
            }
            default:
                return 0;
        }
    }

    /** The type a column really has: STRING columns may be ENUM or SET (real type in the metadata's high byte). */
    private static int realType(int type, int meta) {
        if (type == 254) {
            int real = meta >>> 8;
            if (real == 247 || real == 248) {
                return real;
            }
        }
        return type;
    }

    /**
     * Whether a column of this logged type takes a bit in the SIGNEDNESS metadata, as the server that wrote the log
     * decides. MySQL counts the types its {@code is_numeric_type} names (TINY, SHORT, INT24, LONG, LONGLONG, FLOAT,
     * DOUBLE, NEWDECIMAL, and the pre-5.0 DECIMAL). MariaDB gives a bit to every {@code Field_num}, which includes
     * YEAR (a {@code Field_tiny}): a MariaDB 10.11 table {@code (BIGINT UNSIGNED, YEAR, BIGINT, ..)} logs the bits
     * {@code 1 1 0 ..}, the YEAR's bit set. Reading a MariaDB log by MySQL's rule shifts every later column's bit by
     * one (issue 18, defect 1). An encoder must use the same rule for the flavour it writes.
     */
    public static boolean isNumeric(int type, boolean mariaDb) {
        switch (type) {
            case 0: case 1: case 2: case 3: case 4: case 5: case 8: case 9: case 246:
                return true;
            case 13: // YEAR
                return mariaDb;
            default:
                return false;
        }
    }

    /**
     * Whether a column of this real type takes an entry in the COLUMN_CHARSET / DEFAULT_CHARSET metadata, as the server
     * that wrote the log decides ({@code is_character_type}): CHAR, VARCHAR, the BLOB/TEXT family, VECTOR (MySQL 9), and
     * MariaDB's compressed BLOB/TEXT and VARCHAR (140, 141); GEOMETRY only in MariaDB logs ("base class is blob for geom
     * type"), never in MySQL's. An encoder must use the same rule for the flavour it writes.
     */
    public static boolean isCharacter(int realType, boolean mariaDb) {
        switch (realType) {
            case 254: case 253: case 15: case 252: case 249: case 250: case 251:
            case 242: // MySQL 9 counts VECTOR (vector.binlog: the TEXT column after a VECTOR is utf8mb4)
            case 140: case 141: // MariaDB's compressed BLOB/TEXT and VARCHAR
                return true;
            case 255:
                return mariaDb; // checked against a live MariaDB 10.11 (ReaderMariaDbLiveTest)
            default:
                return false;
        }
    }

    /**
     * The rule of a MariaDB log (GEOMETRY counted). Prefer {@link #isCharacter(int, boolean)}: a MySQL log does not count
     * GEOMETRY columns.
     */
    public static boolean isCharacter(int realType) {
        return isCharacter(realType, true);
    }

    private static boolean isEnumOrSet(int realType) {
        return realType == 247 || realType == 248;
    }

    /** Column attributes accumulated from the optional metadata. */
    private static final class Columns {
        final int n;
        final int[] types;
        final int[] metas;
        final int[] real;
        final BitSet nullable;
        final boolean[] unsigned;
        final int[] charset;
        final String[] names;
        // Member names as logged: decoded in build(), once the ENUM_AND_SET charset metadata (logged after them) is known.
        final List<List<byte[]>> enumValues = new ArrayList<>();
        final List<List<byte[]>> setValues = new ArrayList<>();
        final int[] geometry;
        final int[] vector;
        final boolean[] visible;
        final List<Integer> pk = new ArrayList<>();
        final List<Integer> pkPrefix = new ArrayList<>();
        final boolean mariaDb;
        final BitSet present = new BitSet();
        boolean hasNames;

        Columns(int n, int[] types, int[] metas, BitSet nullable, boolean mariaDb) {
            this.n = n;
            this.mariaDb = mariaDb;
            this.types = types;
            this.metas = metas;
            this.nullable = nullable;
            this.real = new int[n];
            for (int i = 0; i < n; i++) {
                real[i] = realType(types[i], metas[i]);
            }
            unsigned = new boolean[n];
            charset = new int[n];
            java.util.Arrays.fill(charset, -1);
            names = new String[n];
            geometry = new int[n];
            java.util.Arrays.fill(geometry, -1);
            vector = new int[n];
            java.util.Arrays.fill(vector, -1);
            visible = new boolean[n];
            java.util.Arrays.fill(visible, true);
        }

        void apply(int fieldType, ByteReader f) {
            if (fieldType < 64) {
                present.set(fieldType);
            }
            switch (fieldType) {
                case SIGNEDNESS: {
                    int bit = 0;
                    for (int i = 0; i < n; i++) {
                        if (isNumeric(types[i], mariaDb)) {
                            unsigned[i] = msbBit(f, bit++);
                        }
                    }
                    break;
                }
                case DEFAULT_CHARSET:
                    defaultCharset(f, false);
                    break;
                case COLUMN_CHARSET:
                    columnCharset(f, false);
                    break;
                case ENUM_AND_SET_DEFAULT_CHARSET:
                    defaultCharset(f, true);
                    break;
                case ENUM_AND_SET_COLUMN_CHARSET:
                    columnCharset(f, true);
                    break;
                case COLUMN_NAME:
                    for (int i = 0; i < n && f.hasRemaining(); i++) {
                        names[i] = f.string(f.packedSize(), StandardCharsets.UTF_8);
                    }
                    hasNames = true;
                    break;
                case SET_STR_VALUE:
                    strValues(f, setValues);
                    break;
                case ENUM_STR_VALUE:
                    strValues(f, enumValues);
                    break;
                case GEOMETRY_TYPE:
                    for (int i = 0; i < n && f.hasRemaining(); i++) {
                        if (types[i] == 255) {
                            geometry[i] = (int) f.packedLength();
                        }
                    }
                    break;
                case SIMPLE_PRIMARY_KEY:
                    while (f.hasRemaining()) {
                        pk.add(columnIndex(f));
                        pkPrefix.add(0);
                    }
                    break;
                case PRIMARY_KEY_WITH_PREFIX:
                    while (f.hasRemaining()) {
                        pk.add(columnIndex(f));
                        pkPrefix.add((int) f.packedLength());
                    }
                    break;
                case COLUMN_VISIBILITY:
                    for (int i = 0; i < n; i++) {
                        visible[i] = msbBit(f, i);
                    }
                    break;
                case VECTOR_DIMENSIONALITY:
                    for (int i = 0; i < n && f.hasRemaining(); i++) {
                        if (types[i] == 242) {
                            vector[i] = (int) f.packedLength();
                        }
                    }
                    break;
                default:
                    break; // a newer server's metadata: its length let us skip it
            }
        }

        private int columnIndex(ByteReader f) {
            long idx = f.packedLength();
            if (idx < 0 || idx >= n) {
                throw f.error("primary key column " + idx + " outside 0.." + (n - 1));
            }
            return (int) idx;
        }

        private static boolean msbBit(ByteReader f, int bit) {
            int index = f.start() + bit / 8;
            if (index >= f.limit()) {
                throw f.error("bitmap too short for bit " + bit);
            }
            return (f.array()[index] & (0x80 >>> (bit % 8))) != 0;
        }

        private boolean selected(int i, boolean enumSet) {
            return enumSet ? isEnumOrSet(real[i]) : isCharacter(real[i], mariaDb);
        }

        private void defaultCharset(ByteReader f, boolean enumSet) {
            int def = (int) f.packedLength();
            for (int i = 0; i < n; i++) {
                if (selected(i, enumSet)) {
                    charset[i] = def;
                }
            }
            while (f.hasRemaining()) {
                long idx = f.packedLength();
                int cs = (int) f.packedLength();
                int seen = 0;
                for (int i = 0; i < n; i++) {
                    if (selected(i, enumSet)) {
                        if (seen == idx) {
                            charset[i] = cs;
                            break;
                        }
                        seen++;
                    }
                }
            }
        }

        private void columnCharset(ByteReader f, boolean enumSet) {
            for (int i = 0; i < n && f.hasRemaining(); i++) {
                if (selected(i, enumSet)) {
                    charset[i] = (int) f.packedLength();
                }
            }
        }

        private static void strValues(ByteReader f, List<List<byte[]>> out) {
            while (f.hasRemaining()) {
                long count = f.packedLength();
                if (count < 0 || count > f.remaining()) {
                    throw f.error("value list claims " + count + " values in " + f.remaining() + " bytes");
                }
                List<byte[]> values = new ArrayList<>((int) count);
                for (long k = 0; k < count; k++) {
                    values.add(f.bytes(f.packedSize()));
                }
                out.add(values);
            }
        }

        /**
         * Member names in the column's ENUM/SET character set (ENUM_AND_SET_*_CHARSET): the server logs them in it, so a
         * latin1 member 'é' is the one byte E9, which read as UTF-8 became U+FFFD. UTF-8 when no charset is logged.
         */
        private static List<String> names(List<byte[]> raw, int collationId) {
            java.nio.charset.Charset cs = io.lanes.binlog.value.MysqlCharsets.javaCharset(collationId);
            List<String> out = new ArrayList<>(raw.size());
            for (byte[] b : raw) {
                Object text = cs == null ? null : io.lanes.binlog.value.MysqlCharsets.decode(b, 0, b.length, collationId);
                out.add(text instanceof String str ? str : new String(b, StandardCharsets.UTF_8));
            }
            return out;
        }

        TableMapEvent build(EventHeader header, long tableId, int flags, String schema, String table) {
            List<ColumnDef> cols = new ArrayList<>(n);
            int enumIdx = 0;
            int setIdx = 0;
            for (int i = 0; i < n; i++) {
                List<String> enums = null;
                List<String> sets = null;
                if (real[i] == 247 && enumIdx < enumValues.size()) {
                    enums = names(enumValues.get(enumIdx++), charset[i]);
                } else if (real[i] == 248 && setIdx < setValues.size()) {
                    sets = names(setValues.get(setIdx++), charset[i]);
                }
                cols.add(new ColumnDef(i, ColumnType.of(types[i]), metas[i], nullable.get(i), unsigned[i], charset[i],
                        hasNames ? names[i] : null, enums, sets, geometry[i], vector[i], visible[i]));
            }
            long fields = present.isEmpty() ? 0 : present.toLongArray()[0];
            return new TableMapEvent(header, tableId, flags, schema, table, cols, pk, pkPrefix, fields);
        }
    }
}
