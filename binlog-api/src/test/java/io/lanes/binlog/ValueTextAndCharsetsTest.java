package io.lanes.binlog;

import static io.lanes.binlog.ValueTestSupport.col;
import static io.lanes.binlog.ValueTestSupport.enumCol;
import static io.lanes.binlog.ValueTestSupport.textCol;
import static io.lanes.binlog.ValueTestSupport.unsignedCol;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.value.BinlogValueText;
import io.lanes.binlog.value.MysqlCharsets;
import io.lanes.binlog.value.MysqlDate;
import io.lanes.binlog.value.MysqlDateTime;
import io.lanes.binlog.value.MysqlTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link BinlogValueText} (mariadb-binlog's value text), the value records' text, and {@link MysqlCharsets}. */
class ValueTextAndCharsetsTest {

    private static String text(Object v, ColumnDef c) {
        return BinlogValueText.mariadbBinlogString(v, c);
    }

    @Test
    void integersPrintSignedThenUnsigned() {
        assertEquals("-1 (255)", text(255, unsignedCol(ColumnType.TINY, 0)));
        assertEquals("-128 (128)", text(-128, col(ColumnType.TINY, 0)));
        assertEquals("127", text(127, col(ColumnType.TINY, 0)));
        assertEquals("-8388608 (8388608)", text(-8388608, col(ColumnType.INT24, 0)));
        assertEquals("-1 (4294967295)", text(4294967295L, unsignedCol(ColumnType.LONG, 0)));
        assertEquals("-1 (18446744073709551615)", text(new BigInteger("18446744073709551615"), unsignedCol(ColumnType.LONGLONG, 0)));
        assertEquals("9223372036854775807", text(Long.MAX_VALUE, col(ColumnType.LONGLONG, 0)));
        assertEquals("NULL", text(null, col(ColumnType.LONG, 0)));
    }

    @Test
    void floatingPointAsCPrintf() {
        assertEquals("2.5                 ", text(2.5f, col(ColumnType.FLOAT, 4)));
        assertEquals("1e-30               ", text(1e-30f, col(ColumnType.FLOAT, 4)));
        assertEquals("3.40282e+38         ", text(Float.MAX_VALUE, col(ColumnType.FLOAT, 4)));
        assertEquals("3.1415899999999998826", text(3.14159, col(ColumnType.DOUBLE, 8)));
        assertEquals("-1.000000000000000011e+308", text(-1e308, col(ColumnType.DOUBLE, 8)));
        assertEquals("0.10000000000000000555", text(0.1, col(ColumnType.DOUBLE, 8)));
        assertEquals("100", BinlogValueText.cFormatG(100, 6));
        assertEquals("1e+06", BinlogValueText.cFormatG(1e6, 6));
        assertEquals("0.0001", BinlogValueText.cFormatG(1e-4, 6));
        assertEquals("1e-05", BinlogValueText.cFormatG(1e-5, 6));
        assertEquals("2", BinlogValueText.cFormatG(2.5, 1)); // round half even on the exact binary value
        assertEquals("-0", BinlogValueText.cFormatG(-0.0, 6));
    }

    @Test
    void temporalsAsMariadbBinlogPrintsThem() {
        assertEquals("'1990:05:06'", text(LocalDate.of(1990, 5, 6), col(ColumnType.DATE, 0)));
        assertEquals("'0000:00:00'", text(MysqlDate.ZERO, col(ColumnType.DATE, 0)));
        assertEquals("'2024-01-02 03:04:05.123456'", text(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000),
                col(ColumnType.DATETIME2, 6)));
        assertEquals("'2000-02-29 00:00:00.000000'", text(LocalDateTime.of(2000, 2, 29, 0, 0), col(ColumnType.DATETIME2, 6)));
        assertEquals("'0000-00-00 00:00:00'", text(MysqlDateTime.zero(0), col(ColumnType.DATETIME2, 0)));
        assertEquals("'-838:59:59.000'", text(new MysqlTime(true, 838, 59, 59, 0, 3), col(ColumnType.TIME2, 3)));
        assertEquals("'07:08:09.123'", text(LocalTime.of(7, 8, 9, 123_000_000), col(ColumnType.TIME2, 3)));
        assertEquals("1706933106.789", text(Instant.parse("2024-02-03T04:05:06.789Z"), col(ColumnType.TIMESTAMP2, 3)));
        assertEquals("0.00", text(MysqlDateTime.zero(2), col(ColumnType.TIMESTAMP2, 2)));
        assertEquals("1900", text(0, col(ColumnType.YEAR, 0)));
        assertEquals("2155", text(2155, col(ColumnType.YEAR, 0)));
    }

    @Test
    void bitsEnumsSetsStringsAndDecimals() {
        assertEquals("b'10101'", text(0b10101L, col(ColumnType.BIT, 5)));
        assertEquals("b'000000101'", text(5L, col(ColumnType.BIT, 1 << 8 | 1)));
        List<String> tags = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i");
        int set2 = ColumnType.SET.code() << 8 | 2;
        // SET bytes print in storage (little-endian) order, each most significant bit first
        assertEquals("b'0000000100000001'", text("a,i", enumCol(ColumnType.STRING, set2, null, tags)));
        assertEquals("b'0000000100000001'", text(0x101L, col(ColumnType.STRING, set2)));
        assertEquals("2", text("pro", enumCol(ColumnType.STRING, ColumnType.ENUM.code() << 8 | 1,
                List.of("free", "pro"), null)));
        // quotes and backslashes are printed as they are; only bytes below 0x20 are escaped
        assertEquals("'it's \\ \\x00\\x0a\u00e9'",
                text("it's \\ \u0000\n\u00e9", textCol(ColumnType.VARCHAR, 40, 45)));
        assertArrayEquals(new byte[] {'\'', (byte) 0xe9, '\''},
                BinlogValueText.mariadbBinlog("\u00e9", textCol(ColumnType.VARCHAR, 40, 8)));
        assertEquals("12.50", text(new BigDecimal("12.50"), col(ColumnType.NEWDECIMAL, 12 << 8 | 2)));
        assertEquals("-5.000000", text(new BigDecimal("-5.000000"), col(ColumnType.NEWDECIMAL, 20 << 8 | 6)));
    }

    @Test
    void recordsPrintMysqlText() {
        assertEquals("0000-00-00", MysqlDate.ZERO.toString());
        assertEquals("2020-00-00 00:00:00.000000", new MysqlDateTime(2020, 0, 0, 0, 0, 0, 0, 6).toString());
        assertEquals("-00:00:00.000001", new MysqlTime(true, 0, 0, 0, 1, 6).toString());
        assertEquals("100:00:00.00", new MysqlTime(false, 100, 0, 0, 0, 2).toString());
        assertEquals("1023:59:59", new MysqlTime(false, 1023, 59, 59, 0, 0).toString());
    }

    @Test
    void collationIdsMapToCharsets() {
        int[] utf8 = {33, 83, 192, 223, 45, 46, 224, 247, 76, 255, 309, 323, 1057, 1069, 2048, 2304, 2503};
        for (int id : utf8) {
            assertEquals(StandardCharsets.UTF_8, MysqlCharsets.javaCharset(id), "id " + id);
        }
        assertEquals("latin1", MysqlCharsets.charsetName(8));
        assertEquals("binary", MysqlCharsets.charsetName(63));
        assertNull(MysqlCharsets.javaCharset(63));
        assertNull(MysqlCharsets.javaCharset(-1));
        assertNull(MysqlCharsets.javaCharset(100_000));
        assertNull(MysqlCharsets.javaCharset(3)); // dec8: no Java charset, values stay bytes
        assertEquals("GBK", MysqlCharsets.javaCharset(28).name());
        assertEquals("Big5", MysqlCharsets.javaCharset(1).name());
        assertEquals("Shift_JIS", MysqlCharsets.javaCharset(13).name());
        assertEquals("GB18030", MysqlCharsets.javaCharset(248).name());
        assertEquals("UTF-16BE", MysqlCharsets.javaCharset(35).name());
        assertEquals("UTF-32BE", MysqlCharsets.javaCharset(60).name());
        assertEquals("UTF-16LE", MysqlCharsets.javaCharset(56).name());
        assertEquals("US-ASCII", MysqlCharsets.javaCharset(11).name());
    }

    @Test
    void latin1IsLosslessForAllBytes() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        String s = (String) MysqlCharsets.decode(all, 0, 256, 8);
        assertEquals(256, s.length());
        assertEquals('\u20ac', s.charAt(0x80));
        assertEquals('\u0081', s.charAt(0x81));
        assertEquals('\u00ff', s.charAt(0xff));
        assertArrayEquals(all, MysqlCharsets.encode(s, 8));
        assertEquals(256, s.chars().distinct().count());
    }

    @Test
    void textThatIsNotValidInItsCharsetStaysBytes() {
        byte[] bad = {(byte) 0xc3, 0x28};
        assertArrayEquals(bad, (byte[]) MysqlCharsets.decode(bad, 0, 2, 45));
        byte[] ucs2 = {0x00, 'h', 0x00, 'i'};
        assertEquals("hi", MysqlCharsets.decode(ucs2, 0, 4, 35));
        byte[] odd = {0x00, 'h', 0x00};
        assertTrue(MysqlCharsets.decode(odd, 0, 3, 35) instanceof byte[]);
        // GBK text that round-trips stays text; every decoded legacy string encodes back to its bytes
        byte[] gbk = "\u4e2d\u6587".getBytes(java.nio.charset.Charset.forName("GBK"));
        assertEquals("\u4e2d\u6587", MysqlCharsets.decode(gbk, 0, gbk.length, 28));
        java.util.Random rnd = new java.util.Random(5);
        for (int id : new int[] {1, 13, 19, 24, 28, 95, 248, 14, 57}) {
            for (int i = 0; i < 300; i++) {
                byte[] b = new byte[1 + rnd.nextInt(6)];
                rnd.nextBytes(b);
                Object v = MysqlCharsets.decode(b, 0, b.length, id);
                if (v instanceof String) {
                    assertArrayEquals(b, MysqlCharsets.encode((String) v, id), "collation " + id);
                } else {
                    assertArrayEquals(b, (byte[]) v);
                }
            }
        }
    }

    @Test
    void sqlLiterals() {
        assertEquals("NULL", BinlogValueText.sqlLiteral(null, col(ColumnType.LONG, 0)));
        assertEquals("'it\\'s \\\\ \\0\\n\u00e9'", BinlogValueText.sqlLiteral("it's \\ \u0000\n\u00e9", textCol(ColumnType.VARCHAR, 40, 45)));
        assertEquals("X'00ff'", BinlogValueText.sqlLiteral(new byte[] {0, (byte) 0xff}, textCol(ColumnType.BLOB, 2, 63)));
        assertEquals("X''", BinlogValueText.sqlLiteral(new byte[0], textCol(ColumnType.BLOB, 2, 63)));
        assertEquals("b'000000101'", BinlogValueText.sqlLiteral(5L, col(ColumnType.BIT, 1 << 8 | 1)));
        assertEquals("18446744073709551615", BinlogValueText.sqlLiteral(new BigInteger("18446744073709551615"),
                unsignedCol(ColumnType.LONGLONG, 0)));
        assertEquals("-0.01", BinlogValueText.sqlLiteral(new BigDecimal("-0.01"), col(ColumnType.NEWDECIMAL, 12 << 8 | 2)));
        assertEquals("3.4028234663852886E38", BinlogValueText.sqlLiteral(Float.MAX_VALUE, col(ColumnType.FLOAT, 4)));
        assertEquals("'2024-01-02 03:04:05.120'", BinlogValueText.sqlLiteral(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 120_000_000),
                col(ColumnType.DATETIME2, 3)));
        assertEquals("'2024-02-03 04:05:06.78'", BinlogValueText.sqlLiteral(Instant.parse("2024-02-03T04:05:06.78Z"),
                col(ColumnType.TIMESTAMP2, 2)));
        assertEquals("'-838:59:59'", BinlogValueText.sqlLiteral(new MysqlTime(true, 838, 59, 59, 0, 0), col(ColumnType.TIME2, 0)));
        assertEquals("'0000-00-00'", BinlogValueText.sqlLiteral(MysqlDate.ZERO, col(ColumnType.DATE, 0)));
        assertEquals("'07:08:09'", BinlogValueText.sqlLiteral(LocalTime.of(7, 8, 9), col(ColumnType.TIME2, 0)));
    }
}
