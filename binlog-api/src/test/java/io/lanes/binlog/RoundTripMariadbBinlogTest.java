package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.lanes.binlog.encode.BinlogFlavor;
import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.binlog.encode.Table;
import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.binlog.value.BinlogValueText;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MariaDB's own {@code mariadb-binlog} reads what the encoder writes in the MariaDB flavour: exit code 0, no "ERROR" in
 * its output, CRC32s verified by it ({@code --verify-binlog-checksum}), every row image it prints equal to the values
 * written (through {@link BinlogValueText}, which the fixture cross-checks validate against the same tool), and a few
 * values checked literally. A missing {@code mariadb-binlog} is a failure (MariaDB is part of the test environment).
 */
class RoundTripMariadbBinlogTest {
    @TempDir
    Path tmp;

    private static final Table LITERAL = Table.builder("shop", "items")
            .integer("id").notNull().primaryKey()
            .bigint("big").unsigned()
            .varchar("name", 200, Table.UTF8MB4)
            .decimal("price", 10, 2)
            .datetime("at", 3)
            .time("dur", 0)
            .date("day")
            .timestamp("ts", 6)
            .build();

    @Test
    void literalValuesAsMariadbPrintsThem() throws Exception {
        Path file = tmp.resolve("literal.000001");
        try (BinlogWriter w = BinlogWriter.mariadb(Files.newOutputStream(file))) {
            w.ddl("shop", "CREATE TABLE items (id INT PRIMARY KEY)");
            w.beginTransaction();
            w.insert(LITERAL, new Object[] {7, new BigInteger("18446744073709551615"), "h\u00e9llo", new BigDecimal("-12.34"),
                LocalDateTime.of(2020, 1, 2, 3, 4, 5, 123_000_000), LocalTime.of(12, 30, 1), LocalDate.of(2021, 2, 3),
                Instant.ofEpochSecond(1_600_000_000, 123_456_000)});
            w.update(LITERAL, new Object[] {7, null, null, null, null, null, null, null},
                    new Object[] {8, 5L, "", BigDecimal.ZERO.setScale(2), null, null, null, null});
            w.commit();
        }
        Output out = run(file, true);
        String text = new String(out.stdout, StandardCharsets.UTF_8);
        assertTrue(text.contains("GTID 0-1-1 ddl"), text);
        assertTrue(text.contains("GTID 0-1-2 trans"), text);
        assertTrue(text.contains("### INSERT INTO `shop`.`items`"), text);
        for (String line : List.of("###   @1=7", "###   @2=-1 (18446744073709551615)", "###   @3='h\u00e9llo'",
                "###   @4=-12.34", "###   @5='2020-01-02 03:04:05.123'", "###   @6='12:30:01'", "###   @7='2021:02:03'",
                "###   @8=1600000000.123456", "###   @1=8", "###   @2=5", "###   @3=''", "###   @4=0.00")) {
            assertTrue(text.contains(line + "\n"), "mariadb-binlog printed " + line + "\n" + text);
        }
        assertTrue(text.contains("Xid = 1000"), text);
    }

    @Test
    void randomWorkloadsReadBackByMariadbBinlog() throws Exception {
        for (long seed = 1; seed <= 6; seed++) {
            Random random = new Random(seed);
            RoundTripGenerators g = new RoundTripGenerators(random);
            boolean crc = seed % 2 == 1;
            Path file = tmp.resolve("random-" + seed + ".000001");
            List<Table> tables = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Table.Builder b = Table.builder("db" + t, "t" + t);
                for (ColumnDef c : g.columns(RoundTripGenerators.MARIADB_TYPES, 1 + random.nextInt(20), true, false, true)) {
                    b.column(c);
                }
                tables.add(b.build());
            }
            List<Image> written = new ArrayList<>();
            BinlogWriter.Options options = BinlogWriter.Options.builder(BinlogFlavor.MARIADB)
                    .checksum(crc ? ChecksumAlgorithm.CRC32 : ChecksumAlgorithm.OFF).serverId(7).domainId(seed)
                    .maxRowsEventBytes(1024).build();
            try (BinlogWriter w = BinlogWriter.open(file, options)) {
                for (int trx = 0; trx < 20; trx++) {
                    w.beginTransaction(io.lanes.binlog.encode.TransactionSpec.auto()
                            .withCommitId(trx % 3 == 0 ? trx : -1));
                    for (int s = 0; s < 3; s++) {
                        Table t = tables.get(random.nextInt(tables.size()));
                        List<Object[]> a = new ArrayList<>();
                        List<Object[]> b = new ArrayList<>();
                        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
                            a.add(row(g, t));
                            b.add(row(g, t));
                        }
                        switch (random.nextInt(3)) {
                            case 0 -> {
                                w.insert(t, a);
                                a.forEach(v -> written.add(new Image("INSERT", t, v)));
                            }
                            case 1 -> {
                                w.delete(t, a);
                                a.forEach(v -> written.add(new Image("DELETE", t, v)));
                            }
                            default -> {
                                w.update(t, a, b);
                                for (int i = 0; i < a.size(); i++) {
                                    written.add(new Image("UPDATE_BEFORE", t, a.get(i)));
                                    written.add(new Image("UPDATE_AFTER", t, b.get(i)));
                                }
                            }
                        }
                    }
                    w.commit();
                }
                w.rotate("random-" + seed + ".000002");
            }
            Output out = run(file, crc);
            List<Printed> printed = parse(out.stdout);
            assertEquals(written.size(), printed.size(), "seed " + seed + ": row images printed");
            for (int i = 0; i < written.size(); i++) {
                Image w = written.get(i);
                Printed p = printed.get(i);
                String where = "seed " + seed + ", image " + i + " (" + w.table.qualifiedName() + ")";
                assertEquals(w.kind, p.kind, where);
                assertEquals(w.values.length, p.values.size(), where + ": columns");
                for (int c = 0; c < w.values.length; c++) {
                    byte[] expected = BinlogValueText.mariadbBinlog(w.values[c], w.table.columns().get(c));
                    if (!Arrays.equals(expected, p.values.get(c))) {
                        fail(where + ", @" + (c + 1) + " " + w.table.columns().get(c) + "\n  mariadb-binlog: "
                                + new String(p.values.get(c), StandardCharsets.ISO_8859_1) + "\n  written:        "
                                + new String(expected, StandardCharsets.ISO_8859_1));
                    }
                }
            }
            // and our own reader agrees with what was written
            int images = 0;
            try (BinlogReader r = BinlogReader.open(file)) {
                for (BinlogEvent e; (e = r.next()) != null; ) {
                    if (e instanceof RowsEvent rows) {
                        for (Row row : rows.rows()) {
                            for (List<Object> img : row.before() != null && row.after() != null
                                    ? List.of(row.before(), row.after()) : List.of(row.before() != null ? row.before()
                                    : row.after())) {
                                assertArrayEquals(written.get(images).values, img.toArray(), "image " + images);
                                images++;
                            }
                        }
                    }
                }
            }
            assertEquals(written.size(), images);
        }
    }

    private static Object[] row(RoundTripGenerators g, Table t) {
        Object[] v = new Object[t.columns().size()];
        for (ColumnDef c : t.columns()) {
            Object x = c.nullable() && g.chance(10) ? null : g.value(c);
            // a server stores neither NaN nor infinities
            if (x instanceof Float f && (f.isNaN() || f.isInfinite())) {
                x = 1.5f;
            } else if (x instanceof Double d && (d.isNaN() || d.isInfinite())) {
                x = -2.25;
            }
            v[c.index()] = x;
        }
        return v;
    }

    private record Image(String kind, Table table, Object[] values) {
    }

    private record Printed(String kind, List<byte[]> values) {
    }

    private record Output(byte[] stdout, byte[] stderr) {
    }

    private Output run(Path file, boolean verifyChecksums) throws Exception {
        String tool = MariaDbServer.find("mariadb-binlog", "/usr/bin/mariadb-binlog", "/usr/local/bin/mariadb-binlog")
                .orElseThrow(() -> new AssertionError("mariadb-binlog not found: install the MariaDB client tools"));
        Path out = tmp.resolve(file.getFileName() + ".out");
        Path err = tmp.resolve(file.getFileName() + ".err");
        List<String> cmd = new ArrayList<>(List.of(tool, "--no-defaults", "-v", "--base64-output=DECODE-ROWS"));
        if (verifyChecksums) {
            cmd.add("--verify-binlog-checksum");
        }
        cmd.add(file.toString());
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("mariadb-binlog did not finish on " + file);
        }
        byte[] stdout = Files.readAllBytes(out);
        byte[] stderr = Files.readAllBytes(err);
        String all = new String(stdout, StandardCharsets.ISO_8859_1) + new String(stderr, StandardCharsets.ISO_8859_1);
        assertEquals(0, p.exitValue(), "mariadb-binlog exit code; stderr: " + new String(stderr, StandardCharsets.UTF_8));
        assertFalse(all.contains("ERROR"), "mariadb-binlog complained:\n" + all);
        assertTrue(all.contains("End of log file"), "mariadb-binlog read to the end");
        return new Output(stdout, stderr);
    }

    /** The row images of {@code ###} lines: statement kind, then {@code @N=value} values as raw bytes. */
    private static List<Printed> parse(byte[] text) {
        List<Printed> images = new ArrayList<>();
        String statement = null;
        Printed current = null;
        int start = 0;
        for (int i = 0; i <= text.length; i++) {
            if (i < text.length && text[i] != '\n') {
                continue;
            }
            byte[] line = Arrays.copyOfRange(text, start, i);
            start = i + 1;
            String head = new String(line, 0, Math.min(line.length, 20), StandardCharsets.ISO_8859_1);
            if (head.startsWith("### INSERT INTO ")) {
                statement = "INSERT";
            } else if (head.startsWith("### UPDATE ")) {
                statement = "UPDATE";
            } else if (head.startsWith("### DELETE FROM ")) {
                statement = "DELETE";
            } else if (head.startsWith("### SET")) {
                current = new Printed("UPDATE".equals(statement) ? "UPDATE_AFTER" : statement, new ArrayList<>());
                images.add(current);
            } else if (head.startsWith("### WHERE")) {
                current = new Printed("UPDATE".equals(statement) ? "UPDATE_BEFORE" : statement, new ArrayList<>());
                images.add(current);
            } else if (head.startsWith("###   @")) {
                int eq = 0;
                while (line[eq] != '=') {
                    eq++;
                }
                assertEquals(current.values.size() + 1, Integer.parseInt(new String(line, 7, eq - 7,
                        StandardCharsets.US_ASCII)), "column numbers in order");
                current.values.add(Arrays.copyOfRange(line, eq + 1, line.length));
            }
        }
        return images;
    }
}
