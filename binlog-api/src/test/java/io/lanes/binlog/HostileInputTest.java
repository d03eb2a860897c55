package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Truncated, corrupted and lying input: the only failure a caller may see is a {@link BinlogFormatException} (no other
 * exception, no hang, no huge allocation). Every row event is decoded to its last value and every payload to its last
 * inner event, so the whole decoding path is exercised. Set {@code -Dlanes.long=true} to run over every fixture with
 * more random mutations.
 */
class HostileInputTest {
    private static final boolean LONG = Boolean.getBoolean("lanes.long");
    private static final Duration LIMIT = Duration.ofSeconds(LONG ? 600 : 60);

    static Stream<String> small() {
        List<String> files = new ArrayList<>(List.of("rust-mysql-binlog/bin-log.000001",
                "mysql-binlog-connector-java/mysql-bin.compressed", "rust_mysql_common/mariadb-bin.000001",
                "rust_mysql_common/binlog_transaction_with_GTID_TAG.000001", "rust_mysql_common/json.binlog.000001"));
        if (LONG) {
            for (Path p : FixtureSupport.allBinlogs()) {
                if (FixtureSupport.bytes(p).length < 200_000) {
                    files.add(FixtureSupport.DIR.relativize(p).toString().replace(".gz", ""));
                }
            }
        }
        return files.stream().distinct();
    }

    /** Decodes everything there is to decode; returns the number of top-level events. */
    static int consumeAll(byte[] bytes, BinlogReaderOptions options) {
        int n = 0;
        try (BinlogReader r = BinlogReader.open(new ByteArrayInputStream(bytes), "hostile", options)) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                deepDecode(e);
                n++;
            }
        }
        return n;
    }

    static void deepDecode(BinlogEvent e) {
        if (e instanceof RowsEvent rows && rows.tableMap() != null) {
            RowCursor c = rows.cursor();
            while (c.next()) {
                for (int i = 0; i < c.columnCount(); i++) {
                    c.before(i);
                    c.after(i);
                }
            }
        } else if (e instanceof TransactionPayloadEvent p) {
            try (TransactionPayloadEvent.PayloadEvents it = p.events()) {
                while (it.hasNext()) {
                    deepDecode(it.next());
                }
            }
        }
    }

    /** Runs {@code body}; fails on anything but success or a BinlogFormatException. Returns the exception or null. */
    static BinlogFormatException onlyFormatErrors(String what, Runnable body) {
        try {
            body.run();
            return null;
        } catch (BinlogFormatException e) {
            assertTrue(e.offset() >= 0, what + ": offset " + e.offset());
            return e;
        } catch (Throwable t) {
            throw new AssertionError(what + ": unexpected " + t, t);
        }
    }

    static Set<Long> eventBoundaries(byte[] bytes) {
        Set<Long> out = new HashSet<>();
        out.add(4L);
        try (BinlogReader r = BinlogReader.open(new ByteArrayInputStream(bytes), "good", BinlogReaderOptions.defaults())) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                out.add(e.header().endPosition());
            }
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("small")
    void truncationAtEveryOffset(String fixture) {
        byte[] all = FixtureSupport.bytes(FixtureSupport.path(fixture));
        Set<Long> boundaries = eventBoundaries(all);
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int len = 0; len < all.length; len++) {
                byte[] cut = Arrays.copyOf(all, len);
                BinlogFormatException e = onlyFormatErrors(fixture + " cut at " + len,
                        () -> consumeAll(cut, BinlogReaderOptions.defaults()));
                if (boundaries.contains((long) len)) {
                    if (e != null) {
                        fail(fixture + " cut at event boundary " + len + " must read cleanly: " + e);
                    }
                } else if (e == null) {
                    fail(fixture + " cut at " + len + " inside an event must fail");
                } else {
                    assertEquals("hostile", e.source());
                    assertTrue(e.offset() <= len, "error offset " + e.offset() + " within the " + len + " bytes");
                }
                // the transaction reader sees the same input and must fail or end the same way
                onlyFormatErrors(fixture + " transactions cut at " + len, () -> {
                    try (TransactionReader t = new TransactionReader(BinlogReader.open(new ByteArrayInputStream(cut),
                            "hostile", BinlogReaderOptions.defaults()))) {
                        while (t.next() != null) {
                            // drain
                        }
                    }
                });
            }
        });
    }

    @ParameterizedTest
    @MethodSource("small")
    void singleByteFlipsAreCaughtByTheChecksum(String fixture) {
        byte[] all = FixtureSupport.bytes(FixtureSupport.path(fixture));
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int i = 4; i < all.length; i++) {
                for (int mask : new int[] {0x01, 0x80}) {
                    byte[] bad = all.clone();
                    bad[i] ^= (byte) mask;
                    BinlogFormatException e = onlyFormatErrors(fixture + " flip " + mask + " at " + i,
                            () -> consumeAll(bad, BinlogReaderOptions.defaults()));
                    boolean fdeInUseFlag = i == 4 + 17 && mask == 0x01;
                    if (e == null && !fdeInUseFlag) {
                        fail(fixture + ": flip of 0x" + Integer.toHexString(mask) + " at " + i + " went unnoticed");
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @MethodSource("small")
    void singleByteFlipsWithoutChecksumsDecodeOrFailTyped(String fixture) {
        byte[] all = FixtureSupport.bytes(FixtureSupport.path(fixture));
        BinlogReaderOptions noCrc = BinlogReaderOptions.builder().verifyChecksums(false).build();
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int i = 0; i < all.length; i++) {
                for (int mask : LONG ? new int[] {0x01, 0x10, 0x80, 0xff} : new int[] {0x01, 0xff}) {
                    byte[] bad = all.clone();
                    bad[i] ^= (byte) mask;
                    onlyFormatErrors(fixture + " flip " + mask + " at " + i, () -> consumeAll(bad, noCrc));
                }
            }
        });
    }

    @Test
    void randomMutationsWithoutChecksums() {
        BinlogReaderOptions noCrc = BinlogReaderOptions.builder().verifyChecksums(false).build();
        Random random = new Random(20261121);
        List<byte[]> sources = small().map(f -> FixtureSupport.bytes(FixtureSupport.path(f))).toList();
        int rounds = LONG ? 200_000 : 1_500;
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int round = 0; round < rounds; round++) {
                byte[] bad = sources.get(round % sources.size()).clone();
                int edits = 1 + random.nextInt(8);
                for (int k = 0; k < edits; k++) {
                    int at = 4 + random.nextInt(bad.length - 4);
                    bad[at] = (byte) random.nextInt(256);
                }
                int r = round;
                onlyFormatErrors("round " + r, () -> consumeAll(bad, noCrc));
            }
        });
    }

    @Test
    void garbageAfterTheMagic() {
        Random random = new Random(7);
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int round = 0; round < 2_000; round++) {
                byte[] bytes = new byte[4 + random.nextInt(400)];
                random.nextBytes(bytes);
                bytes[0] = (byte) 0xfe;
                bytes[1] = 'b';
                bytes[2] = 'i';
                bytes[3] = 'n';
                int r = round;
                BinlogFormatException e = onlyFormatErrors("garbage " + r,
                        () -> consumeAll(bytes, BinlogReaderOptions.builder().verifyChecksums(false).build()));
                if (bytes.length > 4 && e == null) {
                    fail("random bytes decoded as a binlog in round " + r);
                }
            }
        });
    }

    @Test
    void notABinlog() {
        BinlogFormatException e = assertThrows(BinlogFormatException.class,
                () -> consumeAll("hello world".getBytes(), BinlogReaderOptions.defaults()));
        assertEquals(0, e.offset());
        assertThrows(BinlogFormatException.class, () -> consumeAll(new byte[0], BinlogReaderOptions.defaults()));
    }

    private static byte[] withLength(byte[] all, int eventStart, long length) {
        byte[] bad = all.clone();
        for (int k = 0; k < 4; k++) {
            bad[eventStart + 9 + k] = (byte) (length >>> (8 * k));
        }
        return bad;
    }

    @ParameterizedTest
    @MethodSource("small")
    void absurdLengthFieldsAreRefusedBeforeAllocating(String fixture, @TempDir Path dir) throws Exception {
        byte[] all = FixtureSupport.bytes(FixtureSupport.path(fixture));
        List<Long> starts = new ArrayList<>(eventBoundaries(all));
        starts.removeIf(s -> s >= all.length);
        long[] lengths = {0, 1, 18, 0x7fffffffL, 0xffffffffL, (1L << 30) + 1, 1L << 30, all.length};
        BinlogReaderOptions noCrc = BinlogReaderOptions.builder().verifyChecksums(false).build();
        assertTimeoutPreemptively(LIMIT, () -> {
            for (long start : starts) {
                for (long len : lengths) {
                    byte[] bad = withLength(all, (int) start, len);
                    BinlogFormatException e = onlyFormatErrors(fixture + " length " + len + " at " + start,
                            () -> consumeAll(bad, noCrc));
                    if (e == null) {
                        fail(fixture + ": event_length " + len + " at " + start + " was accepted");
                    }
                    // the same through a file, whose size is known up front
                    Path f = dir.resolve("bad");
                    Files.write(f, bad);
                    onlyFormatErrors(fixture + " file length " + len + " at " + start, () -> {
                        try (BinlogReader r = BinlogReader.open(f, noCrc)) {
                            for (BinlogEvent ev; (ev = r.next()) != null; ) {
                                deepDecode(ev);
                            }
                        }
                    });
                }
            }
        });
    }

    @Test
    void lengthLimitOptionIsEnforced() {
        byte[] all = FixtureSupport.bytes(FixtureSupport.path("mysql-binlog-connector-java/mysql-bin.compressed"));
        BinlogFormatException e = assertThrows(BinlogFormatException.class,
                () -> consumeAll(all, BinlogReaderOptions.builder().maxEventLength(200).build()));
        assertEquals(236, e.offset(), "the 488-byte TRANSACTION_PAYLOAD");
        assertTrue(e.getMessage().contains("exceeds the limit of 200"), e.getMessage());
    }

    @Test
    void corruptPayloadIsATypedError() {
        byte[] all = FixtureSupport.bytes(FixtureSupport.path("mysql-binlog-connector-java/mysql-bin.compressed"));
        BinlogReaderOptions noCrc = BinlogReaderOptions.builder().verifyChecksums(false).build();
        int payloadData = 236 + 19 + 10; // after the payload event's header and its TLV fields
        for (int i = payloadData; i < 236 + 488 - 4; i++) {
            byte[] bad = all.clone();
            bad[i] ^= 0x5a;
            int at = i;
            BinlogFormatException e = onlyFormatErrors("payload flip at " + at, () -> consumeAll(bad, noCrc));
            if (e != null) {
                assertTrue(e.offset() >= 236 && e.offset() < 236 + 488, "errors inside the payload name the payload: " + e);
            }
        }
    }

    /** A START_ENCRYPTION event after a real MariaDB FORMAT_DESCRIPTION: what follows cannot be read. */
    @Test
    void encryptedLogWithoutKeyStops() {
        byte[] maria = FixtureSupport.bytes(FixtureSupport.path("rust_mysql_common/mariadb-bin.000001"));
        int fdeEnd = 256;
        byte[] start = event(164, fdeEnd, new byte[] {1, 1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        byte[] next = event(162, fdeEnd + start.length, new byte[19]);
        byte[] all = concat(Arrays.copyOf(maria, fdeEnd), start, next);
        List<BinlogEvent> seen = new ArrayList<>();
        BinlogFormatException e = assertThrows(BinlogFormatException.class, () -> {
            try (BinlogReader r = BinlogReader.open(new ByteArrayInputStream(all), "enc", BinlogReaderOptions.defaults())) {
                for (BinlogEvent ev; (ev = r.next()) != null; ) {
                    seen.add(ev);
                }
            }
        });
        assertEquals(2, seen.size());
        assertEquals(1, ((MariaStartEncryptionEvent) seen.get(1)).scheme());
        assertEquals(fdeEnd + start.length, e.offset());
        assertTrue(e.getMessage().contains("encrypted"));
    }

    /** An unknown event type is an error unless flagged ignorable. */
    @Test
    void unknownTypesNeedTheIgnorableFlag() {
        byte[] base = FixtureSupport.bytes(FixtureSupport.path("rust_mysql_common/mariadb-bin.000001"));
        int fdeEnd = 256;
        byte[] unknown = event(200, fdeEnd, new byte[8]);
        BinlogFormatException e = assertThrows(BinlogFormatException.class,
                () -> consumeAll(concat(Arrays.copyOf(base, fdeEnd), unknown), BinlogReaderOptions.defaults()));
        assertEquals(fdeEnd, e.offset());
        assertTrue(e.getMessage().contains("unknown event type 200"), e.getMessage());

        byte[] ignorable = event(200, fdeEnd, new byte[8]);
        ignorable[17] = (byte) EventHeader.FLAG_IGNORABLE;
        fixCrc(ignorable);
        assertEquals(2, consumeAll(concat(Arrays.copyOf(base, fdeEnd), ignorable), BinlogReaderOptions.defaults()));
    }

    static byte[] event(int type, long position, byte[] body) {
        byte[] e = new byte[19 + body.length + 4];
        e[4] = (byte) type;
        e[5] = 1;
        int len = e.length;
        for (int k = 0; k < 4; k++) {
            e[9 + k] = (byte) (len >>> (8 * k));
            e[13 + k] = (byte) ((position + len) >>> (8 * k));
        }
        System.arraycopy(body, 0, e, 19, body.length);
        fixCrc(e);
        return e;
    }

    static void fixCrc(byte[] e) {
        CRC32 crc = new CRC32();
        crc.update(e, 0, e.length - 4);
        long v = crc.getValue();
        for (int k = 0; k < 4; k++) {
            e[e.length - 4 + k] = (byte) (v >>> (8 * k));
        }
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    @Test
    void truncatedAndCorruptGzipFiles(@TempDir Path dir) throws Exception {
        byte[] gz = Files.readAllBytes(FixtureSupport.path("mariadb-poc/domain_id_0/mariadb-repl-bin.000002"));
        assertTrue(FixtureSupport.path("mariadb-poc/domain_id_0/mariadb-repl-bin.000002").toString().endsWith(".gz"));
        Random random = new Random(3);
        for (int round = 0; round < 6; round++) {
            byte[] bad = round < 3 ? Arrays.copyOf(gz, 100 + random.nextInt(gz.length - 200)) : gz.clone();
            if (round >= 3) {
                bad[20 + random.nextInt(gz.length - 40)] ^= 0x10;
            }
            Path f = dir.resolve("bad-" + round + ".gz");
            Files.write(f, bad);
            int r = round;
            BinlogFormatException e = onlyFormatErrors("gz round " + r, () -> {
                try (BinlogReader reader = BinlogReader.open(f)) {
                    while (reader.next() != null) {
                        // drain
                    }
                }
            });
            assertTrue(e != null, "damaged gzip file " + round + " must fail");
            assertEquals(f.toString(), e.source());
            onlyFormatErrors("gz header scan round " + r, () -> {
                try (BinlogReader reader = BinlogReader.open(f, BinlogReaderOptions.builder().verifyChecksums(false).build())) {
                    while (reader.nextHeader() != null) {
                        // drain
                    }
                }
            });
        }
    }
}
