package io.lanes.binlog.replication;

import static io.lanes.binlog.replication.ReplicationTestSupport.readEvents;

import io.lanes.binlog.replication.ReplicationTestSupport.FileEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Binlogs with several tagged transactions, made from the one real MySQL 9.6 binlog with a GTID_TAGGED event
 * ({@code rust_mysql_common/binlog_transaction_with_GTID_TAG.000001}, see PROVENANCE.md): its transaction (an INSERT of
 * one row into {@code test.orders (INT, INT, DECIMAL(10,2))}, GTID {@code UUID:mytag:3}) repeated with the next GNOs.
 * The copies differ from the original only in the GNO byte of the GTID_TAGGED event, their log positions and checksums.
 */
public final class TaggedGtidBinlogs {
    /** The source UUID of the fixture's GTIDs. */
    public static final String UUID = "55778904-0299-11f1-b1b8-4ef0c4956feb";
    /** The fixture, as a class path resource (this class is used from other modules' tests too). */
    static final String TAGGED = "/binlogs/rust_mysql_common/binlog_transaction_with_GTID_TAG.000001";

    private TaggedGtidBinlogs() {
    }

    /**
     * A binlog {@code binlog.000004} in {@code dir}: the fixture's FORMAT_DESCRIPTION and PREVIOUS_GTIDS
     * ({@code UUID:1-13:mytag:1-2}), its transaction as {@code mytag:3}, {@code mytag:4}, ... ({@code count} of them),
     * then its ROTATE.
     */
    public static Path taggedTransactions(Path dir, int count) throws IOException {
        if (count < 1 || count > 60) {
            throw new IllegalArgumentException("1..60 transactions (the GNO stays one variable-length byte)");
        }
        byte[] fixture;
        try (InputStream in = TaggedGtidBinlogs.class.getResourceAsStream(TAGGED)) {
            if (in == null) {
                throw new IOException("no resource " + TAGGED);
            }
            fixture = in.readAllBytes();
        }
        Path copy = dir.resolve("fixture-" + System.nanoTime());
        Files.write(copy, fixture);
        List<FileEvent> src = readEvents(copy);
        Files.delete(copy);
        int gtid = -1;
        int rotate = -1;
        for (int i = 0; i < src.size(); i++) {
            gtid = src.get(i).type() == 42 && gtid < 0 ? i : gtid;
            rotate = src.get(i).type() == 4 ? i : rotate;
        }
        if (!List.of(42, 2, 19, 30, 16).equals(src.subList(gtid, rotate).stream().map(FileEvent::type).toList())) {
            throw new IllegalStateException("expected GTID_TAGGED, BEGIN, TABLE_MAP, WRITE_ROWS, XID in " + TAGGED);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(fixture, 0, 4);
        for (int i = 0; i < gtid; i++) {
            append(out, src.get(i).bytes());
        }
        for (long gno = 3; gno < 3 + count; gno++) {
            byte[] g = src.get(gtid).bytes().clone();
            // field 2 (the GNO, zig-zag, one variable-length byte: 3 -> 0x0c) right before field 3 (the 5-byte tag)
            int at = indexOf(g, new byte[] {0x04, 0x0c, 0x06, 0x0a});
            g[at + 1] = (byte) (4 * gno);
            append(out, g);
            for (int i = gtid + 1; i < rotate; i++) {
                append(out, src.get(i).bytes());
            }
        }
        append(out, src.get(rotate).bytes());
        Path file = dir.resolve("binlog.000004");
        Files.write(file, out.toByteArray());
        return file;
    }

    /** Appends an event with its end position and checksum set for where it lands. */
    private static void append(ByteArrayOutputStream out, byte[] event) {
        byte[] ev = event.clone();
        long end = out.size() + ev.length;
        for (int i = 0; i < 4; i++) {
            ev[13 + i] = (byte) (end >>> (8 * i));
        }
        CRC32 crc = new CRC32();
        crc.update(ev, 0, ev.length - 4);
        for (int i = 0; i < 4; i++) {
            ev[ev.length - 4 + i] = (byte) (crc.getValue() >>> (8 * i));
        }
        out.writeBytes(ev);
    }

    static int indexOf(byte[] b, byte[] what) {
        int found = -1;
        for (int i = 0; i + what.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + what.length, what, 0, what.length)) {
                if (found >= 0) {
                    throw new IllegalStateException("the pattern is found twice");
                }
                found = i;
            }
        }
        if (found < 0) {
            throw new IllegalStateException("the pattern is not found");
        }
        return found;
    }
}
