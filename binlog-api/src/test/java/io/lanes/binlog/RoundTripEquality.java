package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;

/**
 * What "the decoder gives back an equal event" means for the round-trip tests: the same type and the same decoded fields
 * (byte arrays by content), header fields as given (timestamp, type, server id, flags), and for row events the same
 * layout fields and the same row values ({@link Arrays#deepEquals} so that {@code byte[]} and {@code float[]} values
 * compare by content). Position, length and {@code log_pos} are the writer's and are checked for consistency instead.
 */
final class RoundTripEquality {
    private RoundTripEquality() {
    }

    static void assertHeader(EventHeader expected, EventHeader actual, String where) {
        assertEquals(expected.timestamp(), actual.timestamp(), where + ": timestamp");
        assertEquals(expected.typeCode(), actual.typeCode(), where + ": type");
        assertEquals(expected.serverId(), actual.serverId(), where + ": server id");
        assertEquals(expected.flags(), actual.flags(), where + ": flags");
        assertEquals(actual.position() + actual.eventLength(), actual.nextPosition(), where + ": log_pos");
    }

    static void assertEvent(BinlogEvent expected, BinlogEvent actual, String where) {
        assertEquals(expected.getClass(), actual.getClass(), where + ": event class");
        assertHeader(expected.header(), actual.header(), where);
        if (expected instanceof RowsEvent) {
            fail("compare row events with assertRows");
        }
        for (RecordComponent c : expected.getClass().getRecordComponents()) {
            if (c.getName().equals("header") || c.getName().equals("optionalFields")) {
                // optionalFields says which metadata fields the bytes carry: a built event can only imply it from its
                // columns (an encoder writes the charset fields for every character column, for instance)
                continue;
            }
            Object e = get(c, expected);
            Object a = get(c, actual);
            if (!Arrays.deepEquals(new Object[] {e}, new Object[] {a})) {
                fail(where + ": " + expected.getClass().getSimpleName() + "." + c.getName() + " expected <" + show(e)
                        + "> but was <" + show(a) + ">");
            }
        }
    }

    private static Object get(RecordComponent c, Object record) {
        try {
            return c.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static String show(Object v) {
        if (v instanceof byte[] b) {
            return "byte[]" + Arrays.toString(b);
        }
        if (v instanceof float[] f) {
            return "float[]" + Arrays.toString(f);
        }
        if (v instanceof Object[] a) {
            return Arrays.deepToString(a);
        }
        return v == null ? "null" : v.getClass().getSimpleName() + " " + v;
    }

    /**
     * Asserts a decoded row event against what was encoded: kind, version, table id, flags, extra data, bitmaps, and every
     * row image value ({@code null} for columns an image does not include).
     */
    static void assertRows(io.lanes.binlog.encode.RowImages expected, RowsEvent actual, String where) {
        assertEquals(expected.kind(), actual.kind(), where + ": kind");
        assertEquals(expected.version(), actual.version(), where + ": version");
        assertEquals(expected.table().tableId(), actual.tableId(), where + ": table id");
        assertEquals(expected.flags(), actual.flags(), where + ": flags");
        assertTrue(Arrays.equals(expected.extraData(), actual.extraData()), where + ": extra data");
        assertEquals(expected.columnsBefore(), actual.includedColumns(), where + ": columns");
        if (expected.kind() == RowsEvent.Kind.UPDATE) {
            assertEquals(expected.columnsAfter(), actual.includedColumnsAfter(), where + ": after columns");
        }
        List<Row> rows = actual.rows();
        assertEquals(expected.rowCount(), rows.size(), where + ": rows");
        for (int i = 0; i < rows.size(); i++) {
            if (expected.before() != null) {
                compareImage(masked(expected.before().get(i), expected.columnsBefore()), rows.get(i).before(),
                        where + " row " + i + " before");
            }
            if (expected.after() != null) {
                java.util.BitSet cols = expected.kind() == RowsEvent.Kind.UPDATE ? expected.columnsAfter()
                        : expected.columnsBefore();
                compareImage(masked(expected.after().get(i), cols), rows.get(i).after(), where + " row " + i + " after");
            }
        }
    }

    private static Object[] masked(Object[] values, java.util.BitSet present) {
        Object[] out = values.clone();
        for (int i = 0; i < out.length; i++) {
            if (!present.get(i)) {
                out[i] = null;
            }
        }
        return out;
    }

    static void compareImage(Object[] expected, List<Object> actual, String where) {
        Object[] a = actual.toArray();
        if (!Arrays.deepEquals(expected, a)) {
            for (int i = 0; i < expected.length; i++) {
                if (!Arrays.deepEquals(new Object[] {expected[i]}, new Object[] {a[i]})) {
                    fail(where + ", column " + i + ": expected <" + show(expected[i]) + "> but was <" + show(a[i]) + ">");
                }
            }
            fail(where + ": " + Arrays.deepToString(expected) + " vs " + Arrays.deepToString(a));
        }
    }
}
