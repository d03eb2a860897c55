package io.lanes.binlog;

import io.lanes.binlog.encode.BinlogFlavor;
import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.binlog.encode.Table;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;

/**
 * Reads arbitrary bytes the way applications do, through every decoding path: {@link BinlogReader#next()},
 * {@link BinlogReader#nextHeader()}, {@link TransactionReader}, each row event's {@link RowsEvent#rows()} and every column
 * of its {@link RowsEvent#cursor()}, and the inner events of TRANSACTION_PAYLOAD events. A {@link BinlogFormatException}
 * ends a pass (that is the contract for bad input); any other exception escapes to the caller as a bug.
 */
final class FuzzHarness {
    private FuzzHarness() {
    }

    /** Feeds {@code bytes} through every path, with checksum verification on or off. */
    static void consume(byte[] bytes, boolean verifyChecksums) {
        BinlogReaderOptions options = BinlogReaderOptions.builder().verifyChecksums(verifyChecksums)
                .maxEventLength(64L << 20).build();
        try (BinlogReader r = BinlogReader.open(new ByteArrayInputStream(bytes), "fuzz", options)) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                exercise(e);
            }
        } catch (BinlogFormatException expected) {
            // bad input, reported as promised
        }
        try (BinlogReader r = BinlogReader.open(new ByteArrayInputStream(bytes), "fuzz", options)) {
            while (r.nextHeader() != null) {
                // headers only
            }
        } catch (BinlogFormatException expected) {
            // bad input
        }
        try (TransactionReader t = new TransactionReader(BinlogReader.open(new ByteArrayInputStream(bytes), "fuzz",
                options))) {
            for (BinlogTransaction trx; (trx = t.next()) != null; ) {
                trx.schemas();
                trx.isDdl();
                trx.toString();
                for (BinlogEvent e : trx.events()) {
                    exercise(e);
                }
            }
        } catch (BinlogFormatException expected) {
            // bad input
        }
    }

    private static void exercise(BinlogEvent e) {
        e.toString();
        try {
            if (e instanceof RowsEvent rows) {
                for (Row row : rows.rows()) {
                    row.toString();
                }
                RowCursor c = rows.cursor();
                while (c.next()) {
                    for (int i = 0; i < c.columnCount(); i++) {
                        c.before(i);
                        c.after(i);
                        c.isPresent(i);
                        c.isNull(i);
                    }
                }
            } else if (e instanceof TransactionPayloadEvent p) {
                try (TransactionPayloadEvent.PayloadEvents inner = p.events()) {
                    while (inner.hasNext()) {
                        exercise(inner.next());
                    }
                }
            }
        } catch (BinlogFormatException expected) {
            // a bad row image or payload; the next event may still be fine
        }
    }

    // ------------------------------------------------------------------------------------------------- mutations

    /** Event boundaries of a binlog (offsets of events that lie within the file), after the magic. */
    static List<int[]> events(byte[] file) {
        List<int[]> out = new ArrayList<>();
        int pos = 4;
        while (pos + 19 <= file.length) {
            long len = (file[pos + 9] & 0xffL) | (file[pos + 10] & 0xffL) << 8 | (file[pos + 11] & 0xffL) << 16
                    | (file[pos + 12] & 0xffL) << 24;
            if (len < 19 || pos + len > file.length) {
                break;
            }
            out.add(new int[] {pos, (int) len});
            pos += (int) len;
        }
        return out;
    }

    private static boolean hasValidCrc(byte[] b, int off, int len) {
        if (len < 23) {
            return false;
        }
        CRC32 crc = new CRC32();
        crc.update(b, off, len - 4);
        long stored = (b[off + len - 4] & 0xffL) | (b[off + len - 3] & 0xffL) << 8 | (b[off + len - 2] & 0xffL) << 16
                | (b[off + len - 1] & 0xffL) << 24;
        return crc.getValue() == stored;
    }

    private static void writeCrc(byte[] b, int off, int len) {
        CRC32 crc = new CRC32();
        crc.update(b, off, len - 4);
        long v = crc.getValue();
        for (int i = 0; i < 4; i++) {
            b[off + len - 4 + i] = (byte) (v >>> (8 * i));
        }
    }

    private static final long[] EXTREMES = {0, 1, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff, 0x7f, 0x80, 0xffff, 0x7fff_ffffL,
        0x8000_0000L, 0xffff_ffffL, -1L, Long.MAX_VALUE, Long.MIN_VALUE, 19, 18, 20, 255, 256, 65535, 65536};

    /**
     * A mutated copy of {@code file}: bit flips, overwritten fields (extreme integers, MySQL length-encoded prefixes),
     * absurd event lengths, truncation, spliced, duplicated or dropped events, inserted garbage. Events whose checksum was
     * valid get a recomputed one half of the time, so that mutations reach the decoder even with verification on.
     */
    static byte[] mutate(byte[] file, byte[] other, Random r) {
        byte[] b = file.clone();
        int rounds = 1 + r.nextInt(3);
        for (int k = 0; k < rounds; k++) {
            List<int[]> events = events(b);
            if (events.isEmpty()) {
                return b;
            }
            int[] ev = events.get(r.nextInt(events.size()));
            boolean crcOk = hasValidCrc(b, ev[0], ev[1]);
            switch (r.nextInt(9)) {
                case 0: { // bit flips inside one event
                    for (int i = 0, n = 1 + r.nextInt(4); i < n; i++) {
                        int at = ev[0] + r.nextInt(ev[1]);
                        b[at] ^= (byte) (1 << r.nextInt(8));
                    }
                    break;
                }
                case 1: case 2: { // an extreme value over 1, 2, 3, 4 or 8 bytes of a body
                    int width = new int[] {1, 2, 3, 4, 8}[r.nextInt(5)];
                    if (ev[1] > 19 + width) {
                        int at = ev[0] + 19 + r.nextInt(ev[1] - 19 - width);
                        long v = EXTREMES[r.nextInt(EXTREMES.length)];
                        for (int i = 0; i < width; i++) {
                            b[at + i] = (byte) (v >>> (8 * i));
                        }
                    }
                    break;
                }
                case 3: { // event_length set to something absurd
                    long v = new long[] {0, 18, 19, 0xffff_ffffL, 0x7fff_ffffL, ev[1] + 1, ev[1] - 1, ev[1] * 2L,
                        1 << 30}[r.nextInt(9)];
                    for (int i = 0; i < 4; i++) {
                        b[ev[0] + 9 + i] = (byte) (v >>> (8 * i));
                    }
                    break;
                }
                case 4: // truncation
                    return java.util.Arrays.copyOf(b, 4 + r.nextInt(Math.max(1, b.length - 4)));
                case 5: { // splice an event of another file in front of this one
                    List<int[]> others = events(other);
                    if (!others.isEmpty()) {
                        int[] o = others.get(r.nextInt(others.size()));
                        b = splice(b, ev[0], ev[0], other, o[0], o[1]);
                    }
                    continue;
                }
                case 6: { // duplicate or drop an event
                    b = r.nextBoolean() ? splice(b, ev[0], ev[0], b, ev[0], ev[1])
                            : splice(b, ev[0], ev[0] + ev[1], b, 0, 0);
                    continue;
                }
                case 7: { // garbage inside an event, length field kept
                    int at = ev[0] + 19 + r.nextInt(Math.max(1, ev[1] - 19));
                    byte[] junk = new byte[1 + r.nextInt(16)];
                    r.nextBytes(junk);
                    System.arraycopy(junk, 0, b, Math.min(at, b.length - junk.length), junk.length);
                    break;
                }
                default: { // a type byte changed to another known or unknown type
                    int[] types = {2, 4, 15, 16, 19, 23, 24, 25, 30, 31, 32, 33, 34, 35, 39, 40, 41, 42, 160, 161, 162,
                        163, 164, 165, 166, 169, 171, 100, 0, 255};
                    b[ev[0] + 4] = (byte) types[r.nextInt(types.length)];
                }
            }
            int len = (int) Math.min(ev[1], b.length - ev[0]);
            if (crcOk && len == ev[1] && r.nextBoolean()) {
                writeCrc(b, ev[0], ev[1]);
            }
        }
        return b;
    }

    private static byte[] splice(byte[] b, int from, int to, byte[] src, int srcOff, int srcLen) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + srcLen);
        out.write(b, 0, from);
        out.write(src, srcOff, srcLen);
        out.write(b, to, b.length - to);
        return out.toByteArray();
    }

    /** A synthesized log of every column type the encoder writes, in both flavours: rich seeds for mutation. */
    static byte[] synthesized(BinlogFlavor flavor, long seed) {
        Random random = new Random(seed);
        RoundTripGenerators g = new RoundTripGenerators(random);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ColumnType[] types = flavor == BinlogFlavor.MARIADB ? RoundTripGenerators.MARIADB_TYPES
                : RoundTripGenerators.ALL_TYPES;
        try (BinlogWriter w = BinlogWriter.open(out, BinlogWriter.Options.builder(flavor).maxRowsEventBytes(512)
                .build())) {
            Table.Builder tb = Table.builder("fz", "t");
            for (ColumnDef c : g.columns(types, 12, true, false, flavor == BinlogFlavor.MARIADB)) {
                tb.column(c);
            }
            Table t = tb.build();
            w.ddl("fz", "CREATE TABLE t (a INT)");
            for (int trx = 0; trx < 3; trx++) {
                w.beginTransaction();
                List<Object[]> rows = new ArrayList<>();
                List<Object[]> rows2 = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    rows.add(RoundTripEventsTest.image(g, new TableMapEvent(new EventHeader(0, 0, 19, 0, 0, 0, 0), 1, 0,
                            "fz", "t", t.columns(), List.of(), List.of())));
                    rows2.add(RoundTripEventsTest.image(g, new TableMapEvent(new EventHeader(0, 0, 19, 0, 0, 0, 0), 1,
                            0, "fz", "t", t.columns(), List.of(), List.of())));
                }
                w.insert(t, rows);
                w.update(t, rows, rows2);
                w.delete(t, rows2);
                w.commit();
            }
            w.stop();
        }
        return out.toByteArray();
    }
}
