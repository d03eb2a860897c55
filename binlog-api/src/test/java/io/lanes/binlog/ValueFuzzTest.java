package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.internal.ColumnValueDecoder;
import io.lanes.binlog.json.JsonBinary;
import io.lanes.binlog.json.JsonDiff;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated input never escapes as anything but {@link BinlogFormatException}: no index, arithmetic,
 * date-time or allocation failure from the value, JSON and JSON-diff decoders; and whenever {@code decode} succeeds,
 * {@code skip} consumes exactly the same bytes. Bounded for the normal build; {@code -Dlanes.long=true} runs 50 times
 * longer.
 */
class ValueFuzzTest {
    private static final int ROUNDS = Boolean.getBoolean("lanes.long") ? 1_000_000 : 20_000;

    private static final int[][] TYPES_AND_METAS = {
        {1, 0}, {2, 0}, {9, 0}, {3, 0}, {8, 0}, {4, 4}, {5, 8}, {13, 0}, {10, 0}, {14, 0},
        {11, 0}, {11, 3}, {11, 6}, {12, 0}, {12, 2}, {12, 6}, {7, 0}, {7, 4},
        {19, 0}, {19, 2}, {19, 4}, {19, 6}, {18, 0}, {18, 3}, {18, 6}, {17, 0}, {17, 1}, {17, 6}, {17, 7},
        {246, 10 << 8 | 2}, {246, 65 << 8 | 30}, {246, 1 << 8}, {246, 0}, {246, 30 << 8 | 31},
        {16, 1}, {16, 8 << 8}, {16, 1 << 8 | 7}, {16, 0}, {16, 9 << 8},
        {254, 247 << 8 | 1}, {254, 247 << 8 | 2}, {254, 248 << 8 | 8}, {254, 248 << 8 | 5}, {254, 254 << 8 | 40},
        {254, 0xce << 8 | 0xfc}, {247, 247 << 8 | 2}, {248, 248 << 8 | 3},
        {15, 10}, {15, 300}, {253, 255}, {252, 1}, {252, 2}, {252, 3}, {252, 4}, {252, 5}, {249, 0}, {250, 0}, {251, 0},
        {245, 4}, {245, 2}, {255, 4}, {242, 4}, {6, 0}, {20, 0}, {0, 0},
    };

    @Test
    void columnValuesOnRandomBytes() {
        Random rnd = new Random(31337);
        int decoded = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int[] tm = TYPES_AND_METAS[rnd.nextInt(TYPES_AND_METAS.length)];
            int charset = new int[] {-1, 63, 45, 8, 35, 28}[rnd.nextInt(6)];
            List<String> enums = rnd.nextBoolean() ? List.of("a", "b", "c") : null;
            ColumnDef c = new ColumnDef(0, ColumnType.of(tm[0]), tm[1], true, rnd.nextBoolean(), charset, null, enums, enums,
                    -1, -1, true);
            byte[] data = new byte[rnd.nextInt(rnd.nextInt(10) == 0 ? 80 : 12)];
            rnd.nextBytes(data);
            if (tm[0] == 245 && data.length > 4 && rnd.nextBoolean()) { // a plausible length prefix
                int len = data.length - 4;
                data[0] = (byte) len;
                data[1] = data[2] = data[3] = 0;
            }
            ByteReader r = new ByteReader(data, "fuzz", 100);
            int end;
            try {
                ColumnValueDecoder.decode(r, c);
                end = r.position();
                decoded++;
            } catch (BinlogFormatException e) {
                continue;
            }
            ByteReader s = new ByteReader(data, "fuzz", 100);
            ColumnValueDecoder.skip(s, c);
            assertEquals(end, s.position(), c.toString());
        }
        // the fuzzing reaches successful decodes, not only errors
        assertEquals(true, decoded > ROUNDS / 10, "decoded " + decoded);
    }

    @Test
    void jsonOnRandomAndMutatedDocuments() {
        Random rnd = new Random(4711);
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("x", List.of((short) 1, "two", 3.5, true));
        inner.put("yy", null);
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("a", inner);
        outer.put("bb", List.of(Long.MAX_VALUE, new JsonTestEncoder.Opaque(12, new byte[8])));
        byte[] good = JsonTestEncoder.document(outer);
        int ok = 0;
        for (int round = 0; round < ROUNDS / 4; round++) {
            byte[] doc;
            if (rnd.nextBoolean()) {
                doc = good.clone();
                for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                    doc[rnd.nextInt(doc.length)] = (byte) rnd.nextInt(256);
                }
                if (rnd.nextInt(4) == 0) {
                    doc = java.util.Arrays.copyOf(doc, rnd.nextInt(doc.length));
                }
            } else {
                doc = new byte[rnd.nextInt(24)];
                rnd.nextBytes(doc);
                if (doc.length > 0) {
                    doc[0] = (byte) rnd.nextInt(16);
                }
            }
            try {
                JsonBinary.toJsonText(new ByteReader(doc, "fuzz.json", 0));
                ok++;
            } catch (BinlogFormatException e) {
                // expected for most
            }
        }
        assertEquals(true, ok > 0);
    }

    @Test
    void jsonDiffListsOnRandomBytes() {
        Random rnd = new Random(99);
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(new byte[] {0, 3, '$', '.', 'a', 3, 0x05, 0x01, 0x00});
        seeds.add(new byte[] {2, 6, '$', '.', 'a', '[', '1', ']'});
        for (int round = 0; round < ROUNDS / 4; round++) {
            byte[] d = seeds.get(rnd.nextInt(seeds.size())).clone();
            d[rnd.nextInt(d.length)] = (byte) rnd.nextInt(256);
            try {
                JsonDiff.decodeList(new ByteReader(d, "fuzz.diff", 0), rnd.nextInt(d.length + 1));
            } catch (BinlogFormatException e) {
                // expected for many
            }
        }
    }
}
