package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.lanes.binlog.CrossBinlogRows.RowImage;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.binlog.value.BinlogValueText;
import io.lanes.binlog.value.MysqlDate;
import io.lanes.binlog.value.MysqlDateTime;
import io.lanes.binlog.value.MysqlTime;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every row value of the MariaDB-written binlogs, decoded by {@code ColumnValueDecoder} and printed with
 * {@link BinlogValueText#mariadbBinlog}, must equal byte for byte what {@code mariadb-binlog -v
 * --base64-output=DECODE-ROWS} prints for it ({@code ###   @N=value} lines), row image by row image, in file order.
 * A missing {@code mariadb-binlog} fails the test (it is part of the MariaDB install the project's tests need).
 */
class CrossMariadbBinlogTest {
    private static final Path FIXTURES = Paths.get("src/test/resources/binlogs");

    @TempDir
    Path tmp;

    @Test
    void typesFullMetadataFixture() throws Exception {
        int images = check(FIXTURES.resolve("mariadb-10.11/types-full-metadata.000001"));
        assertEquals(17, images, "row images in the fixture");
    }

    @Test
    void sysbenchFixtureWithMinimalMetadata() throws Exception {
        int images = check(FIXTURES.resolve("mariadb-10.11/sysbench-10schemas-update-index.000001.gz"));
        assertTrue(images >= 20_000, "images " + images);
    }

    @Test
    void mariadb105Fixture() throws Exception {
        int images = check(FIXTURES.resolve("rust_mysql_common/mariadb-bin.000001"));
        assertTrue(images >= 2, "images " + images);
    }

    /**
     * Values at the edges of every type, written by a throwaway MariaDB server with full row metadata and cross-checked
     * the same way: signed and unsigned extremes, all fractional precisions, negative and zero temporals, wide BIT, SET
     * and ENUM, CHAR longer than 255 bytes, latin1 and ucs2 text, control characters; and again without any optional metadata.
     */
    @Test
    void edgeValuesFromAFreshServer() throws Exception {
        for (String metadata : List.of("FULL", "NO_LOG")) {
            try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-metadata=" + metadata,
                    "--sql-mode=ALLOW_INVALID_DATES", "--default-time-zone=+00:00")) {
                server.sql(EDGE_SQL);
                server.sql("FLUSH BINARY LOGS");
                int images = 0;
                List<RowImage> all = new ArrayList<>();
                for (Path f : closedBinlogs(server)) {
                    images += check(f);
                    all.addAll(CrossBinlogRows.read(f));
                }
                assertEquals(13, images, metadata + ": row images");
                // the values themselves, not only their printed form
                Object[] ints = all.get(0).values();
                Object[] times = all.get(6).values();
                Object[] strs = all.get(8).values();
                assertEquals("times", all.get(6).table().name());
                if (metadata.equals("FULL")) {
                    assertEquals(new BigInteger("18446744073709551615"), ints[9]);
                    assertEquals(4294967295L, ints[7]);
                    assertEquals("z", strs[3]);
                    assertEquals("a,i", strs[4]);
                    assertEquals("\u00e9".repeat(255), strs[5]);
                    assertEquals("caf\u00e9 \u20ac", strs[6]);
                    assertEquals("\u00fcber", strs[7]);
                } else {
                    assertEquals(-1L, ints[9]);
                    assertEquals(-1, ints[7]);
                    assertEquals(3, strs[3]);
                    assertEquals(0x101L, strs[4]);
                    assertArrayEquals("\u00e9".repeat(255).getBytes(StandardCharsets.UTF_8), (byte[]) strs[5]);
                }
                assertEquals(new MysqlTime(true, 838, 59, 59, 0, 0), times[0]);
                assertEquals(new MysqlTime(true, 0, 0, 0, 100_000, 1), times[1]);
                assertEquals(MysqlDateTime.zero(0), times[4]);
                assertEquals(new MysqlDateTime(2020, 0, 0, 10, 11, 12, 340_000, 2), times[5]);
                assertEquals(MysqlDate.ZERO, times[10]);
                assertEquals(-1L, strs[2]);
            }
        }
    }

    /**
     * The pre-5.6 temporal formats (types 11, 12, 7 with no metadata), which MariaDB still writes for TIME, DATETIME and
     * TIMESTAMP without fractions when {@code mysql56_temporal_format=OFF}.
     */
    @Test
    void oldTemporalFormats() throws Exception {
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-metadata=FULL",
                "--mysql56-temporal-format=OFF", "--default-time-zone=+00:00")) {
            server.sql("CREATE DATABASE o; USE o; CREATE TABLE t (id INT, t TIME, dt DATETIME, ts TIMESTAMP NULL, d DATE);"
                    + " INSERT INTO t VALUES (1, '-838:59:59', '0000-00-00 00:00:00', '1970-01-01 00:00:01', '0000-00-00'),"
                    + " (2, '838:59:59', '9999-12-31 23:59:59', '2038-01-19 03:14:07', '9999-12-31'),"
                    + " (3, '-00:00:01', '1000-01-01 00:00:00', NULL, '1000-01-01'), (4, '12:34:56', '2020-00-00 10:00:00',"
                    + " '0000-00-00 00:00:00', '2020-02-00');"
                    + " FLUSH BINARY LOGS;");
            List<RowImage> rows = new ArrayList<>();
            for (Path f : closedBinlogs(server)) {
                check(f);
                rows.addAll(CrossBinlogRows.read(f));
            }
            assertEquals(4, rows.size());
            ColumnDef timeColumn = rows.get(0).table().columns().get(1);
            assertEquals(ColumnType.TIME, timeColumn.type(), "the old TIME format is logged");
            assertEquals(new MysqlTime(true, 838, 59, 59, 0, 0), rows.get(0).values()[1]);
            assertEquals(MysqlDateTime.zero(0), rows.get(0).values()[2]);
            assertEquals(java.time.Instant.ofEpochSecond(1), rows.get(0).values()[3]);
            assertEquals(MysqlDate.ZERO, rows.get(0).values()[4]);
            assertEquals(new MysqlTime(true, 0, 0, 1, 0, 0), rows.get(2).values()[1]);
            assertEquals(new MysqlDateTime(2020, 0, 0, 10, 0, 0, 0, 0), rows.get(3).values()[2]);
            assertEquals(MysqlDateTime.zero(0), rows.get(3).values()[3]);
        }
    }

    /**
     * MariaDB's COMPRESSED columns: the values decode to exactly what was inserted (mariadb-binlog only prints their
     * compressed bytes, so everything else in the rows is cross-checked as usual).
     */
    @Test
    void compressedColumns() throws Exception {
        try (MariaDbServer server = MariaDbServer.startWithBinlog("--binlog-row-metadata=FULL")) {
            server.sql("CREATE DATABASE c; USE c;"
                    + " CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(1000) COMPRESSED CHARACTER SET utf8mb4,"
                    + " l VARCHAR(100) COMPRESSED CHARACTER SET latin1, b BLOB COMPRESSED, tx LONGTEXT COMPRESSED);"
                    + " INSERT INTO t VALUES (1, REPEAT('abc', 300), 'caf\u00e9', REPEAT(x'00ff', 500), REPEAT('\u00fc', 70000)),"
                    + " (2, 'short', '', x'01', 'x'), (3, '', NULL, x'', NULL);"
                    + " UPDATE t SET v = CONCAT(v, '!') WHERE id = 2;"
                    + " FLUSH BINARY LOGS;");
            List<RowImage> rows = new ArrayList<>();
            for (Path f : closedBinlogs(server)) {
                check(f);
                rows.addAll(CrossBinlogRows.read(f));
            }
            assertEquals(5, rows.size());
            Object[] r1 = rows.get(0).values();
            assertEquals("abc".repeat(300), r1[1]);
            assertEquals("caf\u00e9", r1[2]);
            byte[] pattern = new byte[1000];
            for (int i = 0; i < 1000; i += 2) {
                pattern[i + 1] = (byte) 0xff;
            }
            assertArrayEquals(pattern, (byte[]) r1[3]);
            assertEquals("\u00fc".repeat(70000), r1[4]);
            Object[] r2 = rows.get(1).values();
            assertEquals("short", r2[1]);
            assertEquals("", r2[2]);
            assertArrayEquals(new byte[] {1}, (byte[]) r2[3]);
            Object[] r3 = rows.get(2).values();
            assertEquals("", r3[1]);
            assertEquals(null, r3[2]);
            assertArrayEquals(new byte[0], (byte[]) r3[3]);
            assertEquals("UPDATE_AFTER", rows.get(4).kind());
            assertEquals("short!", rows.get(4).values()[1]);
        }
    }

    /** Tables and rows at the edges of every type; the last two statements update and delete. */
    static final String EDGE_SQL = String.join("\n",
            "CREATE DATABASE e;",
            "USE e;",
            "CREATE TABLE ints (ti TINYINT, tu TINYINT UNSIGNED, si SMALLINT, su SMALLINT UNSIGNED, mi MEDIUMINT,"
                    + " mu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED, bi BIGINT, bu BIGINT UNSIGNED, y YEAR);",
            "INSERT INTO ints VALUES (-128, 255, -32768, 65535, -8388608, 16777215, -2147483648, 4294967295,"
                    + " -9223372036854775808, 18446744073709551615, 1901),"
                    + " (127, 0, 32767, 0, 8388607, 0, 2147483647, 0, 9223372036854775807, 0, 0),"
                    + " (-1, 128, -1, 32768, -1, 8388608, -1, 2147483648, -1, 9223372036854775808, 2155);",
            "CREATE TABLE nums (d1 DECIMAL(1,0), d2 DECIMAL(65,30), d3 DECIMAL(18,9), d4 DECIMAL(10,10), d5 DECIMAL(27,9),"
                    + " f FLOAT, d DOUBLE);",
            "INSERT INTO nums VALUES (9, 99999999999999999999999999999999999.999999999999999999999999999999,"
                    + " -123456789.123456789, 0.0000000001, -1.5, 3.4028234e38, 2.2250738585072014e-308),"
                    + " (-9, -0.000000000000000000000000000001, 0, -0.9999999999, 999999999999999999.000000001,"
                    + " -1.17549435e-38, -1.7976931348623157e308), (0, 0, 0, 0, 0, 0.1, 0.1);",
            "CREATE TABLE times (t0 TIME, t1 TIME(1), t3 TIME(3), t6 TIME(6), dt0 DATETIME, dt2 DATETIME(2),"
                    + " dt6 DATETIME(6), ts0 TIMESTAMP NULL, ts4 TIMESTAMP(4) NULL, ts6 TIMESTAMP(6) NULL, d DATE);",
            "INSERT INTO times VALUES ('-838:59:59', '-00:00:00.1', '-12:34:56.789', '838:59:58.999999',"
                    + " '0000-00-00 00:00:00', '2020-00-00 10:11:12.34', '9999-12-31 23:59:59.999999', '1970-01-01 00:00:01',"
                    + " '2038-01-19 03:14:07.9999', '2001-02-03 04:05:06.000001', '0000-00-00'),"
                    + " ('00:00:00', '23:59:59.9', '100:00:00.001', '-00:00:00.000001', '1000-01-01 00:00:00',"
                    + " '2021-02-30 00:00:00', '0001-01-01 00:00:00.000001', '0000-00-00 00:00:00', NULL, NULL, '2020-02-30');",
            "CREATE TABLE strs (b1 BIT(1), b9 BIT(9), b64 BIT(64), e ENUM('x','y','z'), s SET('a','b','c','d','e','f','g',"
                    + "'h','i'), c255 CHAR(255) CHARACTER SET utf8mb4, l1 VARCHAR(10) CHARACTER SET latin1,"
                    + " u2 VARCHAR(10) CHARACTER SET ucs2, vb VARBINARY(300), bn BINARY(4), tx TEXT, bl BLOB);",
            "INSERT INTO strs VALUES (b'1', b'100000001', 18446744073709551615, 'z', 'a,i', REPEAT('é', 255),"
                    + " 'caf\u00e9 \u20ac', '\u00fcber', x'00010a0d1f202722275c7f80ff', x'ff', CONCAT('tab\\there', CHAR(0)),"
                    + " x''),"
                    + " (b'0', b'0', 0, 'x', '', '', '', '', '', x'00000000', '', NULL);",
            "UPDATE ints SET bu = bu - 1, iu = 7 WHERE ti = -128;",
            "DELETE FROM times WHERE t0 = '00:00:00';");

    /** Cross-checks one file; returns the number of row images compared. */
    private int check(Path file) throws Exception {
        Path plain = file;
        if (file.toString().endsWith(".gz")) {
            plain = tmp.resolve(file.getFileName().toString().replace(".gz", ""));
            Files.write(plain, CrossBinlogRows.load(file));
        }
        List<Image> expected = mariadbBinlog(plain);
        List<RowImage> ours = CrossBinlogRows.read(plain);
        assertEquals(expected.size(), ours.size(), file + ": number of row images");
        for (int r = 0; r < ours.size(); r++) {
            RowImage mine = ours.get(r);
            Image theirs = expected.get(r);
            String where = file.getFileName() + " event at " + mine.offset() + ", image " + r + " ("
                    + mine.table().schema() + "." + mine.table().name() + ")";
            assertEquals(theirs.kind, mine.kind(), where);
            List<Integer> cols = new ArrayList<>();
            for (int i = mine.present().nextSetBit(0); i >= 0; i = mine.present().nextSetBit(i + 1)) {
                cols.add(i);
            }
            assertEquals(theirs.columns, cols.stream().map(i -> i + 1).toList(), where + ": columns");
            for (int k = 0; k < cols.size(); k++) {
                int i = cols.get(k);
                ColumnDef c = mine.table().columns().get(i);
                if ((c.type() == ColumnType.BLOB_COMPRESSED || c.type() == ColumnType.VARCHAR_COMPRESSED)
                        && mine.values()[i] != null) {
                    // mariadb-binlog prints the compressed bytes; the decoded text is checked in compressedColumns
                    continue;
                }
                byte[] got = BinlogValueText.mariadbBinlog(mine.values()[i], c);
                if (!Arrays.equals(theirs.values.get(k), got)) {
                    fail(where + ", column @" + (i + 1) + " " + c + "\n  mariadb-binlog: "
                            + latin1(theirs.values.get(k)) + "\n  ours:           " + latin1(got) + "\n  value: "
                            + describe(mine.values()[i]));
                }
            }
        }
        return ours.size();
    }

    private static String latin1(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static String describe(Object v) {
        if (v instanceof byte[]) {
            return "byte[] " + Arrays.toString((byte[]) v);
        }
        return v == null ? "null" : v.getClass().getSimpleName() + " " + v;
    }

    private static final class Image {
        final String kind;
        final List<Integer> columns = new ArrayList<>();
        final List<byte[]> values = new ArrayList<>();

        Image(String kind) {
            this.kind = kind;
        }
    }

    /** Runs mariadb-binlog and collects its row images from the {@code ###} lines, values as raw bytes. */
    private List<Image> mariadbBinlog(Path file) throws Exception {
        String tool = MariaDbServer.find("mariadb-binlog", "/usr/bin/mariadb-binlog", "/usr/local/bin/mariadb-binlog")
                .orElseThrow(() -> new AssertionError("mariadb-binlog not found: install MariaDB client tools"));
        Path out = tmp.resolve(file.getFileName() + ".txt");
        Path err = tmp.resolve(file.getFileName() + ".err");
        Process p = new ProcessBuilder(tool, "--no-defaults", "-v", "--base64-output=DECODE-ROWS", file.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("mariadb-binlog did not finish on " + file);
        }
        assertEquals(0, p.exitValue(), "mariadb-binlog failed: " + Files.readString(err));
        byte[] text = Files.readAllBytes(out);
        List<Image> images = new ArrayList<>();
        String statement = null;
        Image current = null;
        int lineStart = 0;
        for (int i = 0; i <= text.length; i++) {
            if (i < text.length && text[i] != '\n') {
                continue;
            }
            byte[] line = Arrays.copyOfRange(text, lineStart, i);
            lineStart = i + 1;
            if (!startsWith(line, "### ")) {
                continue;
            }
            if (startsWith(line, "### INSERT INTO ")) {
                statement = "INSERT";
            } else if (startsWith(line, "### UPDATE ")) {
                statement = "UPDATE";
            } else if (startsWith(line, "### DELETE FROM ")) {
                statement = "DELETE";
            } else if (startsWith(line, "### SET")) {
                current = new Image("UPDATE".equals(statement) ? "UPDATE_AFTER" : statement);
                images.add(current);
            } else if (startsWith(line, "### WHERE")) {
                current = new Image("UPDATE".equals(statement) ? "UPDATE_BEFORE" : statement);
                images.add(current);
            } else if (startsWith(line, "###   @")) {
                int eq = indexOf(line, (byte) '=');
                current.columns.add(Integer.parseInt(new String(line, 7, eq - 7, StandardCharsets.US_ASCII)));
                current.values.add(Arrays.copyOfRange(line, eq + 1, line.length));
            }
        }
        return images;
    }

    private static boolean startsWith(byte[] line, String prefix) {
        byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
        return line.length >= p.length && Arrays.equals(line, 0, p.length, p, 0, p.length);
    }

    private static int indexOf(byte[] line, byte b) {
        for (int i = 0; i < line.length; i++) {
            if (line[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The binlog files a FLUSH BINARY LOGS has closed: the newest file is still being written by the server (its first
     * events may be half on disk), so reading it would race with the server.
     */
    private static java.util.List<Path> closedBinlogs(io.lanes.binlog.testing.MariaDbServer server) {
        java.util.List<Path> files = server.binlogFiles();
        return files.subList(0, Math.max(0, files.size() - 1));
    }
}
