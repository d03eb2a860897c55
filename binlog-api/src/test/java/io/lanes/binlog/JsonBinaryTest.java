package io.lanes.binlog;

import static io.lanes.binlog.JsonTestEncoder.document;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.JsonTestEncoder.Opaque;
import io.lanes.binlog.internal.ByteReader;
import io.lanes.binlog.json.JsonBinary;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link JsonBinary}: binary JSON documents to the server's JSON text. */
class JsonBinaryTest {

    private static String text(Object model) {
        return JsonBinary.toJsonText(document(model));
    }

    private static Map<String, Object> obj(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void fromJsonTextWritesWhatTheServerStores() {
        // Compared byte for byte with the independent test encoder's documents (json_binary.h read separately).
        assertArrayEquals(document(null), JsonBinary.fromJsonText(" null "));
        assertArrayEquals(document((short) -32768), JsonBinary.fromJsonText("-32768"));
        assertArrayEquals(document(70000), JsonBinary.fromJsonText("70000"));
        assertArrayEquals(document(Long.MIN_VALUE), JsonBinary.fromJsonText("-9223372036854775808"));
        assertArrayEquals(document(new BigInteger("18446744073709551615")),
                JsonBinary.fromJsonText("18446744073709551615"));
        assertArrayEquals(document(1.5e300), JsonBinary.fromJsonText("1.5e300"));
        assertArrayEquals(document("a\"\u00e9\n"), JsonBinary.fromJsonText("\"a\\\"\\u00e9\\n\""));
        // Keys in the server's order (shorter first, then bytewise); the last of duplicate keys wins.
        assertArrayEquals(document(obj("b", (short) 1, "aa", List.of(true, false, "x"), "ab", obj())),
                JsonBinary.fromJsonText("{\"ab\": {}, \"aa\": [true, false, \"x\"], \"b\": 0, \"b\": 1}"));
        String big = "[" + "\"0123456789\",".repeat(7000) + "1]";
        byte[] large = JsonBinary.fromJsonText(big);
        assertEquals(0x03, large[0], "over 64 KiB an array takes the large format");
        assertEquals(JsonBinary.toJsonText(large), big.replace(",", ", "));
        assertThrows(IllegalArgumentException.class, () -> JsonBinary.fromJsonText("{\"a\": }"));
        assertThrows(IllegalArgumentException.class, () -> JsonBinary.fromJsonText("1e999"));
        assertThrows(IllegalArgumentException.class, () -> JsonBinary.fromJsonText("[".repeat(200) + "]".repeat(200)));
    }

    @Test
    void scalarsAndLiterals() {
        assertEquals("null", text(null));
        assertEquals("true", text(true));
        assertEquals("false", text(false));
        assertEquals("-32768", text((short) -32768));
        assertEquals("65535", text((char) 65535));
        assertEquals("-2147483648", text(Integer.MIN_VALUE));
        assertEquals("-9223372036854775808", text(Long.MIN_VALUE));
        assertEquals("18446744073709551615", text(new BigInteger("18446744073709551615")));
        assertEquals("\"str\"", text("str"));
        assertEquals("\"\"", text(""));
        assertEquals("null", JsonBinary.toJsonText(new byte[0]));
    }

    @Test
    void objectsPrintKeysInStoredOrderWithServerSeparators() {
        // the server stores keys by length, then bytewise: "k" before "arr"
        assertEquals("{\"k\": \"v\", \"arr\": [true, false, 15000000000.0]}",
                text(obj("arr", List.of(true, false, 1.5e10), "k", "v")));
        assertEquals("{\"k\": [1, 2, {\"z\": null}]}",
                text(obj("k", Arrays.asList((short) 1, (short) 2, obj("z", null)))));
        assertEquals("{}", text(new LinkedHashMap<>()));
        assertEquals("[]", text(List.of()));
        assertEquals("{\"b\": 1, \"aa\": 2, \"ab\": 3}", text(obj("ab", (short) 3, "b", (short) 1, "aa", (short) 2)));
    }

    @Test
    void stringEscapesAsTheServerPrintsThem() {
        assertEquals("\"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0001\\u001f é🚀\"",
                text("q\"b\\s/\b\f\n\r\t\u0001\u001f é🚀"));
        assertEquals("{\"k\\\"ey\": 1}", text(obj("k\"ey", (short) 1)));
    }

    @Test
    void doublesAsTheServerPrintsThem() {
        String[][] cases = {
            {"1.0", "1.0"}, {"-2.5", "-2.5"}, {"0.1", "0.1"}, {"3.14159", "3.14159"}, {"1.5e10", "15000000000.0"},
            {"1e14", "100000000000000.0"}, {"1e15", "1e15"}, {"1.5e15", "1.5e15"}, {"123456789012345678", "1.2345678901234568e17"},
            {"1234567890123456.7", "1234567890123456.8"}, {"1e-5", "0.00001"}, {"1e-15", "0.000000000000001"},
            {"1e-16", "1e-16"}, {"1.25e-20", "1.25e-20"}, {"1e308", "1e308"}, {"-1e308", "-1e308"},
            {"1.7976931348623157e308", "1.7976931348623157e308"}, {"4.9e-324", "5e-324"}, {"0.0", "0.0"},
            {"-0.0", "-0.0"}, {"100", "100.0"}, {"0.30000000000000004", "0.30000000000000004"},
            {"2.2250738585072014e-308", "2.2250738585072014e-308"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], JsonBinary.formatDouble(Double.parseDouble(c[0])), c[0]);
            assertEquals(c[1], text(Double.parseDouble(c[0])), c[0]);
        }
    }

    @Test
    void shortestDoubleDigitsReadBack() {
        Random rnd = new Random(99);
        for (int i = 0; i < 4_000; i++) {
            double d = Double.longBitsToDouble(rnd.nextLong());
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            String s = JsonBinary.formatDouble(d);
            assertEquals(d, Double.parseDouble(s), s);
            String digits = s.replaceAll("[-.]|e.*", "").replaceAll("^0+", "").replaceAll("0+$", "");
            assertTrue(digits.length() <= 17, s);
            if (digits.length() > 1 && d != 0) {
                // nothing shorter reads back: neither decimal of one digit less next to the exact value does
                BigDecimal exact = new BigDecimal(Math.abs(d));
                for (java.math.RoundingMode mode : new java.math.RoundingMode[] {java.math.RoundingMode.FLOOR,
                    java.math.RoundingMode.CEILING}) {
                    BigDecimal shorter = exact.round(new java.math.MathContext(digits.length() - 1, mode));
                    assertTrue(Double.parseDouble(shorter.toString()) != Math.abs(d), s + " vs " + shorter);
                }
            }
        }
    }

    @Test
    void opaqueValues() {
        byte[] dec = ValueTestSupport.concat(new byte[] {4, 2}, ValueTestSupport.encodeDecimal(new BigDecimal("1.50"), 4, 2));
        assertEquals("[1.50]", text(List.of(new Opaque(246, dec))));
        byte[] negDec = ValueTestSupport.concat(new byte[] {10, 3}, ValueTestSupport.encodeDecimal(new BigDecimal("-1234.005"), 10, 3));
        assertEquals("-1234.005", text(new Opaque(246, negDec)));
        // packed DATETIME: ((ymd << 17 | hms) << 24) + micros, as a little-endian int64
        long ymd = ((2015L * 13 + 1) << 5) | 15;
        long hms = 23L << 12 | 24 << 6 | 25;
        long datetime = (ymd << 17 | hms) << 24;
        assertEquals("\"2015-01-15 23:24:25.000000\"", text(new Opaque(12, JsonTestEncoder.le(datetime, 8))));
        assertEquals("\"2015-01-15 23:24:25.123456\"", text(new Opaque(7, JsonTestEncoder.le(datetime + 123456, 8))));
        assertEquals("\"2015-01-15\"", text(new Opaque(10, JsonTestEncoder.le(ymd << 17 << 24, 8))));
        long time = -((12L << 12 | 34 << 6 | 56) << 24 | 500_000);
        assertEquals("\"-12:34:56.500000\"", text(new Opaque(11, JsonTestEncoder.le(time, 8))));
        assertEquals("\"hi\"", text(new Opaque(253, "hi".getBytes())));
        assertEquals("\"base64:type15:AQ==\"", text(new Opaque(15, new byte[] {1})));
        byte[] sixty = new byte[60];
        Arrays.fill(sixty, (byte) 0xff);
        String b64 = "/".repeat(76) + "\\n" + "////";
        assertEquals("\"base64:type252:" + b64 + "\"", text(new Opaque(252, sixty)));
    }

    /**
     * Values and their text from the server's own test suite (mysql-test/suite/json/r/json_conversions.result, "select
     * c, json_type(j), j from t"), rebuilt here in the binary form the server stores them in.
     */
    @Test
    void textFromTheServersTestSuite() {
        byte[] cafebabe = {(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe};
        assertEquals("\"base64:type252:yv66vg==\"", text(new Opaque(252, cafebabe)));
        assertEquals("\"base64:type251:yv66vg==\"", text(new Opaque(251, cafebabe)));
        assertEquals("\"base64:type250:yv66vg==\"", text(new Opaque(250, cafebabe)));
        assertEquals("\"base64:type249:yv66vg==\"", text(new Opaque(249, cafebabe)));
        assertEquals("\"base64:type15:yv4=\"", text(new Opaque(15, new byte[] {(byte) 0xca, (byte) 0xfe})));
        assertEquals("\"base64:type13:MTk5Mg==\"", text(new Opaque(13, "1992".getBytes())));
        assertEquals("\"base64:type15:Zm9v\"", text(new Opaque(15, "foo".getBytes())));
        long time = (23L << 12 | 24 << 6 | 25) << 24;
        assertEquals("\"23:24:25.000000\"", text(new Opaque(11, JsonTestEncoder.le(time, 8))));
        byte[] dec = ValueTestSupport.concat(new byte[] {3, 2}, ValueTestSupport.encodeDecimal(new BigDecimal("3.14"), 3, 2));
        assertEquals("3.14", text(new Opaque(246, dec)));
        assertEquals("3.14", text(3.14));
        assertEquals("12", text((short) 12));
        assertEquals("{\"a\": 3}", text(obj("a", (short) 3)));
        assertEquals("[1, 2]", text(List.of((short) 1, (short) 2)));
    }

    @Test
    void largeFormatWhenOffsetsExceed64KiB() {
        List<Object> big = new ArrayList<>();
        String chunk = "x".repeat(1000);
        for (int i = 0; i < 70; i++) {
            big.add(chunk);
        }
        big.add(Integer.MAX_VALUE); // inlined in the large format
        Map<String, Object> o = obj("list", big, "n", (short) 7);
        byte[] doc = document(o);
        assertEquals(0x01, doc[0], "large object");
        StringBuilder expected = new StringBuilder("{\"n\": 7, \"list\": [");
        for (int i = 0; i < 70; i++) {
            expected.append('"').append(chunk).append("\", ");
        }
        expected.append(Integer.MAX_VALUE).append("]}");
        assertEquals(expected.toString(), JsonBinary.toJsonText(doc));
    }

    @Test
    void randomDocumentsMatchAnIndependentPrinter() {
        Random rnd = new Random(4242);
        for (int i = 0; i < 500; i++) {
            StringBuilder expected = new StringBuilder();
            Object model = randomValue(rnd, 0, expected);
            assertEquals(expected.toString(), text(model));
        }
    }

    private static Object randomValue(Random rnd, int depth, StringBuilder expected) {
        int kind = rnd.nextInt(depth > 4 ? 7 : 9);
        switch (kind) {
            case 0: expected.append("null"); return null;
            case 1: { boolean b = rnd.nextBoolean(); expected.append(b); return b; }
            case 2: { short s = (short) rnd.nextInt(); expected.append(s); return s; }
            case 3: { int v = rnd.nextInt(); expected.append(v); return v; }
            case 4: { long v = rnd.nextLong(); expected.append(v); return v; }
            case 5: { int k = rnd.nextInt(2000) - 1000; expected.append(k).append(".5"); return k + (k < 0 ? -0.5 : 0.5); }
            case 6: { String s = "s" + rnd.nextInt(1000) + (rnd.nextBoolean() ? "\n\"ü" : ""); expected.append('"')
                    .append(s.replace("\"", "\\\"").replace("\n", "\\n")).append('"'); return s; }
            case 7: {
                int n = rnd.nextInt(5);
                List<Object> l = new ArrayList<>();
                expected.append('[');
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        expected.append(", ");
                    }
                    l.add(randomValue(rnd, depth + 1, expected));
                }
                expected.append(']');
                return l;
            }
            default: {
                int n = rnd.nextInt(5);
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String k = "k".repeat(1 + rnd.nextInt(3)) + (char) ('a' + rnd.nextInt(26));
                    if (!keys.contains(k)) {
                        keys.add(k);
                    }
                }
                List<String> sorted = new ArrayList<>(keys);
                sorted.sort(JsonTestEncoder::compareKeys);
                Map<String, Object> m = new LinkedHashMap<>();
                Map<String, String> texts = new LinkedHashMap<>();
                for (String k : keys) {
                    StringBuilder sub = new StringBuilder();
                    m.put(k, randomValue(rnd, depth + 1, sub));
                    texts.put(k, sub.toString());
                }
                expected.append('{');
                for (int i = 0; i < sorted.size(); i++) {
                    if (i > 0) {
                        expected.append(", ");
                    }
                    expected.append('"').append(sorted.get(i)).append("\": ").append(texts.get(sorted.get(i)));
                }
                expected.append('}');
                return m;
            }
        }
    }

    @Test
    void depthIsBounded() {
        Object nested = List.of();
        for (int i = 1; i < 100; i++) {
            nested = List.of(nested);
        }
        assertEquals("[".repeat(100) + "]".repeat(100), text(nested));
        Object tooDeep = List.of(nested);
        BinlogFormatException e = assertThrows(BinlogFormatException.class, () -> text(tooDeep));
        assertTrue(e.getMessage().contains("deeper than 100"), e.getMessage());
    }

    @Test
    void corruptDocumentsAreRefusedWithOffsets() {
        byte[] good = document(Map.of("a", "bcd"));
        // truncated at every length
        for (int len = 1; len < good.length; len++) {
            byte[] cut = Arrays.copyOf(good, len);
            assertThrows(BinlogFormatException.class, () -> JsonBinary.toJsonText(new ByteReader(cut, "cut", 500)),
                    "length " + len);
        }
        // a value offset pointing past the container
        byte[] bad = good.clone();
        bad[1 + 2 + 2 + 4 + 1] = (byte) 0x7f;
        BinlogFormatException e = assertThrows(BinlogFormatException.class,
                () -> JsonBinary.toJsonText(new ByteReader(bad, "bad.json", 500)));
        assertEquals("bad.json", e.source());
        assertTrue(e.offset() >= 500, "offset " + e.offset());
        assertThrows(BinlogFormatException.class, () -> JsonBinary.toJsonText(new byte[] {0x0e, 0}));
        assertThrows(BinlogFormatException.class, () -> JsonBinary.toJsonText(new byte[] {0x04, 7}));
        // a string whose length claims more than the document holds
        assertThrows(BinlogFormatException.class, () -> JsonBinary.toJsonText(new byte[] {0x0c, (byte) 0xff, 0x7f, 'a'}));
        // variable length of six bytes
        assertThrows(BinlogFormatException.class, () -> JsonBinary.toJsonText(
                new byte[] {0x0c, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0}));
    }
}
