package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.json.JsonBinary;
import io.lanes.binlog.json.JsonDiff;
import io.lanes.binlog.json.JsonDiff.Operation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link JsonDiff}: the partial JSON diff format and applying diffs with the server's semantics and printing. */
class JsonDiffTest {

    private static byte[] diff(int op, String path, Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(op);
        byte[] p = path.getBytes(StandardCharsets.UTF_8);
        out.write(p.length); // lengths below 251 are one byte
        out.write(p, 0, p.length);
        if (op != 2) {
            byte[] v = JsonTestEncoder.document(value);
            out.write(v.length);
            out.write(v, 0, v.length);
        }
        return out.toByteArray();
    }

    @Test
    void decodeListReadsEveryOperation() {
        Map<String, Object> obj = new LinkedHashMap<>();
        obj.put("x", (short) 1);
        byte[] bytes = ValueTestSupport.concat(diff(0, "$.a", "new"), diff(1, "$.b[2]", obj), diff(2, "$.\"c d\"", null));
        byte[] withTrailer = ValueTestSupport.concat(bytes, new byte[] {9});
        ByteReader in = new ByteReader(withTrailer, "t", 0);
        List<JsonDiff> list = JsonDiff.decodeList(in, bytes.length);
        assertEquals(bytes.length, in.position());
        assertEquals(List.of(new JsonDiff(Operation.REPLACE, "$.a", "\"new\""),
                new JsonDiff(Operation.INSERT, "$.b[2]", "{\"x\": 1}"),
                new JsonDiff(Operation.REMOVE, "$.\"c d\"", null)), list);
    }

    @Test
    void decodeListRefusesBadInput() {
        assertThrows(BinlogFormatException.class, () -> JsonDiff.decodeList(new ByteReader(new byte[] {3, 1, '$'}, "t", 0), 3));
        // path length past the diff list
        assertThrows(BinlogFormatException.class, () -> JsonDiff.decodeList(new ByteReader(new byte[] {2, 9, '$'}, "t", 0), 3));
        // list length past the input
        assertThrows(BinlogFormatException.class, () -> JsonDiff.decodeList(new ByteReader(new byte[] {2, 1, '$'}, "t", 0), 4));
        // a value length that runs past the list
        byte[] d = diff(0, "$.a", (short) 5);
        assertThrows(BinlogFormatException.class, () -> JsonDiff.decodeList(new ByteReader(d, "t", 0), d.length - 1));
    }

    @Test
    void applyReplaceInsertRemoveAsTheServerWould() {
        String before = "{\"a\": 1, \"b\": [1, 2, 3], \"cc\": {\"d\": \"e\"}}";
        assertEquals("{\"a\": \"x\", \"b\": [1, 2, 3], \"cc\": {\"d\": \"e\"}}",
                JsonDiff.apply(before, List.of(new JsonDiff(Operation.REPLACE, "$.a", "\"x\""))));
        assertEquals("{\"a\": 1, \"b\": [1, 2, 9, 3], \"cc\": {\"d\": \"e\"}}",
                JsonDiff.apply(before, List.of(new JsonDiff(Operation.INSERT, "$.b[2]", "9"))));
        // JSON_ARRAY_APPEND and JSON_SET past the end append
        assertEquals("{\"a\": 1, \"b\": [1, 2, 3, 4], \"cc\": {\"d\": \"e\"}}",
                JsonDiff.apply(before, List.of(new JsonDiff(Operation.INSERT, "$.b[7]", "4"))));
        assertEquals("{\"a\": 1, \"b\": [1, 3], \"cc\": {\"d\": \"e\"}}",
                JsonDiff.apply(before, List.of(new JsonDiff(Operation.REMOVE, "$.b[1]", null))));
        assertEquals("{\"a\": 1, \"b\": [1, 2, 0], \"cc\": {\"d\": \"e\"}}",
                JsonDiff.apply(before, List.of(new JsonDiff(Operation.REPLACE, "$.b[last]", "0"))));
        // a new member goes where the server stores it: shorter keys first, then bytewise
        assertEquals("{\"a\": 1, \"b\": [1, 2, 3], \"z\": true, \"cc\": {\"d\": \"e\", \"ee\": null}}",
                JsonDiff.apply(before, List.of(new JsonDiff(Operation.INSERT, "$.z", "true"),
                        new JsonDiff(Operation.INSERT, "$.cc.ee", "null"))));
        assertEquals("{\"b\": [1, 2, 3], \"cc\": {\"d\": \"e\"}}",
                JsonDiff.apply(before, List.of(new JsonDiff(Operation.REMOVE, "$.a", null))));
        assertEquals("[1.50, \"k\"]", JsonDiff.apply("null", List.of(new JsonDiff(Operation.REPLACE, "$", "[1.50, \"k\"]"))));
        assertEquals("{\"key with space\": 2}", JsonDiff.apply("{\"key with space\": 1}",
                List.of(new JsonDiff(Operation.REPLACE, "$.\"key with space\"", "2"))));
    }

    @Test
    void applyKeepsTheServersTextOfUntouchedValues() {
        String before = "{\"d\": 1.50, \"s\": \"tab\\there \\u0001\", \"t\": \"2015-01-15 23:24:25.000000\", \"big\": 1e300}";
        assertEquals(before.replace("1.50", "2"), JsonDiff.apply(before, List.of(new JsonDiff(Operation.REPLACE, "$.d", "2"))));
    }

    @Test
    void applyRefusesPathsThatDoNotApply() {
        String before = "{\"a\": [1]}";
        assertThrows(IllegalArgumentException.class,
                () -> JsonDiff.apply(before, List.of(new JsonDiff(Operation.REPLACE, "$.missing", "1"))));
        assertThrows(IllegalArgumentException.class,
                () -> JsonDiff.apply(before, List.of(new JsonDiff(Operation.REMOVE, "$.a[3]", null))));
        assertThrows(IllegalArgumentException.class,
                () -> JsonDiff.apply(before, List.of(new JsonDiff(Operation.INSERT, "$.x.y", "1"))));
        assertThrows(IllegalArgumentException.class,
                () -> JsonDiff.apply(before, List.of(new JsonDiff(Operation.INSERT, "$.a.k", "1"))));
        assertThrows(IllegalArgumentException.class,
                () -> JsonDiff.apply(before, List.of(new JsonDiff(Operation.REPLACE, "$.a[*]", "1"))));
        assertThrows(IllegalArgumentException.class, () -> new JsonDiff(Operation.REMOVE, "$.a", "1"));
        assertThrows(IllegalArgumentException.class, () -> JsonDiff.apply("{\"a\": ", List.of()));
    }

    /**
     * The PARTIAL_UPDATE_ROWS event at offset 3750 of MySQL 8.0.22's json.binlog.000001 (rust_mysql_common fixture):
     * {@code UPDATE t SET json_col = JSON_SET(json_col, '$.age', ...)} for six rows. Its first row's after-image holds a
     * diff list of 11 bytes at file offset 3794 (length at 3790), and the generated column {@code age} (stored after the
     * virtual {@code name}) carries the new age. The before-document is the first row's after-image of the preceding
     * UPDATE_ROWS event (file offset 2612).
     */
    @Test
    void partialUpdateFromTheMysqlFixtureRoundTrips() throws IOException {
        byte[] file;
        try (InputStream s = getClass().getResourceAsStream("/binlogs/rust_mysql_common/json.binlog.000001")) {
            file = s.readAllBytes();
        }
        assertEquals(39, file[3750 + 4], "PARTIAL_UPDATE_ROWS at 3750");
        ByteReader in = new ByteReader(file, "json.binlog.000001", 0);
        in.position(3790);
        int length = (int) in.u32();
        assertEquals(11, length);
        List<JsonDiff> diffs = JsonDiff.decodeList(in, length);
        assertEquals(List.of(new JsonDiff(Operation.REPLACE, "$.age", "26")), diffs);
        // the row continues with name VARCHAR(100) utf8mb4 (two-byte length) 'Joe', then age INT = 26
        assertEquals(3, in.u16());
        in.skip(3);
        assertEquals(26, in.i32());

        // the preceding UPDATE_ROWS (2612): row 1's after-image (null bitmap, id = 1) starts at 2714,
        // its JSON length (0x34) is at 2719 and the document at 2723
        ByteReader prev = new ByteReader(file, "json.binlog.000001", 0);
        prev.position(2715);
        assertEquals(1, prev.i32());
        int docLength = (int) prev.u32();
        assertEquals(0x34, docLength);
        String before = JsonBinary.toJsonText(prev.slice(docLength));
        assertEquals("{\"age\": 25, \"data\": \"xxxxxxxxxx\", \"name\": \"Joe\"}", before);
        assertEquals("{\"age\": 26, \"data\": \"xxxxxxxxxx\", \"name\": \"Joe\"}", JsonDiff.apply(before, diffs));
    }

    @Test
    void removeHasNoValue() {
        assertNull(new JsonDiff(Operation.REMOVE, "$.a", null).value());
    }
}
