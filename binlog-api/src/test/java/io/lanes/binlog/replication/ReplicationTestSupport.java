package io.lanes.binlog.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.lanes.binlog.testing.MariaDbServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Shared helpers of the replication tests: reading binlog files event by event and comparing a stream with them. */
final class ReplicationTestSupport {
    private ReplicationTestSupport() {
    }

    /** One event of a binlog file. */
    record FileEvent(String file, long position, byte[] bytes) {
        int type() {
            return bytes[4] & 0xff;
        }

        String key() {
            return file + ":" + position;
        }
    }

    /** Every complete event of the file, walking the headers from offset 4 (19-byte header, length at offset 9). */
    static List<FileEvent> readEvents(Path file) {
        try {
            byte[] b = Files.readAllBytes(file);
            List<FileEvent> out = new ArrayList<>();
            int pos = 4;
            while (pos + 19 <= b.length) {
                long size = u32(b, pos + 9);
                if (size < 19 || pos + size > b.length) {
                    break;
                }
                out.add(new FileEvent(file.getFileName().toString(), pos, Arrays.copyOfRange(b, pos, (int) (pos + size))));
                pos += (int) size;
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<FileEvent> readAll(List<Path> files) {
        List<FileEvent> out = new ArrayList<>();
        files.forEach(f -> out.addAll(readEvents(f)));
        return out;
    }

    static long u32(byte[] b, int off) {
        return (b[off] & 0xffL) | (b[off + 1] & 0xffL) << 8 | (b[off + 2] & 0xffL) << 16 | (b[off + 3] & 0xffL) << 24;
    }

    static long u64(byte[] b, int off) {
        return u32(b, off) | u32(b, off + 4) << 32;
    }

    /** Non-transactional events a server may send again after a reconnect. */
    static boolean repeatable(int type) {
        return type == 15 || type == 4 || type == 163 || type == 161 || type == 35 || type == 3;
    }

    /**
     * Checks the stream against the files: every real streamed event's bytes equal the file's bytes at its position
     * (the FORMAT_DESCRIPTION's in-use flag, create timestamp and so checksum aside: the server may clear them), no event of a transaction comes
     * twice, and the real events, in order and without repeats, are exactly the files' events from {@code fromKey} on.
     */
    static void assertStreamMatchesFiles(List<ReplicationEvent> stream, List<FileEvent> files, String fromKey) {
        Map<String, FileEvent> byKey = new HashMap<>();
        files.forEach(f -> byKey.put(f.key(), f));
        Set<String> seen = new HashSet<>();
        List<String> order = new ArrayList<>();
        for (ReplicationEvent e : stream) {
            if (e.isSynthetic()) {
                continue;
            }
            String key = e.binlogFile() + ":" + e.position();
            FileEvent f = byKey.get(key);
            if (f == null) {
                fail("streamed " + e + " is not an event of the files");
            }
            byte[] expected = f.bytes().clone();
            byte[] actual = e.bytes().clone();
            if (f.type() == 15 && actual.length == expected.length) {
                // The server clears the in-use flag when sending a FORMAT_DESCRIPTION, and when the stream does not
                // start at it (a GTID start) also its create timestamp, recomputing the checksum.
                for (byte[] b : new byte[][] {expected, actual}) {
                    b[17] &= ~1;
                    Arrays.fill(b, 19 + 2 + 50, 19 + 2 + 50 + 4, (byte) 0);
                    Arrays.fill(b, b.length - 4, b.length, (byte) 0);
                }
            }
            assertArrayEquals(expected, actual, "bytes of " + e);
            if (!seen.add(key)) {
                assertTrue(repeatable(e.eventType()), "event of a transaction delivered twice: " + e);
                continue;
            }
            order.add(key);
        }
        List<String> expectedOrder = new ArrayList<>();
        boolean started = fromKey == null;
        for (FileEvent f : files) {
            if (!started && f.key().equals(fromKey)) {
                started = true;
            }
            if (started) {
                expectedOrder.add(f.key());
            }
        }
        for (int i = 0; i < Math.min(expectedOrder.size(), order.size()); i++) {
            if (!expectedOrder.get(i).equals(order.get(i))) {
                fail("real event #" + i + " streamed is " + order.get(i) + ", the files have " + expectedOrder.get(i)
                        + " (streamed around it: " + order.subList(Math.max(0, i - 3), Math.min(order.size(), i + 3))
                        + ", files: " + expectedOrder.subList(Math.max(0, i - 3), Math.min(expectedOrder.size(), i + 3))
                        + ")");
            }
        }
        assertEquals(expectedOrder.size(), order.size(), "real events streamed (files have "
                + (expectedOrder.isEmpty() ? "none" : "up to " + expectedOrder.get(expectedOrder.size() - 1)) + ")");
    }

    /** The MariaDB GTIDs (domain-server-seq) of the stream's transactions, in stream order. */
    static List<String> mariaDbGtids(List<? extends Object> events) {
        List<String> out = new ArrayList<>();
        for (Object o : events) {
            byte[] b = o instanceof ReplicationEvent e ? e.bytes() : ((FileEvent) o).bytes();
            if ((b[4] & 0xff) == 162) {
                out.add(u32(b, 27) + "-" + u32(b, 5) + "-" + u64(b, 19));
            }
        }
        return out;
    }

    static void createReplicationUser(MariaDbServer db, String user, String password) {
        db.sql("CREATE USER " + user + "@'%' IDENTIFIED BY '" + password + "'; GRANT REPLICATION SLAVE,"
                + " REPLICATION CLIENT, BINLOG MONITOR ON *.* TO " + user + "@'%';");
    }

    static ReplicationClient.Builder client(MariaDbServer db, String user, String password) {
        return ReplicationClient.builder().host("127.0.0.1").port(db.port()).user(user)
                .password(password.toCharArray()).serverId(4242).tls(TlsSettings.disabled());
    }

    /** The server's current binlog end (file, position). */
    static StartPosition.FilePosition masterStatus(MariaDbServer db) {
        String[] f = db.sql("SHOW MASTER STATUS").trim().split("\t");
        return StartPosition.file(f[0], Long.parseLong(f[1]));
    }

    static boolean reached(ReplicationEvent e, StartPosition.FilePosition end) {
        return !e.isSynthetic() && e.binlogFile().compareTo(end.file()) >= 0
                && (e.binlogFile().compareTo(end.file()) > 0 || e.nextPosition() >= end.position());
    }

    /** Purges the binlogs before {@code file}, retrying while the server still needs them for crash recovery. */
    static void purgeTo(MariaDbServer db, String file) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (true) {
            db.sql("PURGE BINARY LOGS TO '" + file + "'");
            if (!db.sql("SHOW BINARY LOGS").contains("bin.000001")) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                fail("the server kept bin.000001: " + db.sql("SHOW BINARY LOGS"));
            }
            Thread.sleep(200);
        }
    }

    /** Polls until an event ending at or after {@code end} arrived; returns everything polled. */
    static void pollUntil(ReplicationClient c, List<ReplicationEvent> into, StartPosition.FilePosition end,
            long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        if (!into.isEmpty() && reached(into.get(into.size() - 1), end)) {
            return;
        }
        while (System.currentTimeMillis() < deadline) {
            ReplicationEvent e = c.poll(java.time.Duration.ofMillis(200));
            if (e == null) {
                continue;
            }
            into.add(e);
            if (reached(e, end)) {
                return;
            }
        }
        fail("the stream did not reach " + end + " within " + timeoutMillis + " ms; got " + into.size()
                + " events, last " + (into.isEmpty() ? null : into.get(into.size() - 1)));
    }

    /**
     * Takes decoded events (or a {@link ReplicationException}, thrown) from {@code out} until every event of
     * {@code files} came, skipping the stream's synthetic ones: each at its file's position, in order, and as many ROWS
     * events as the files hold. Returns how many ROWS events came.
     */
    static int assertDecodedStreamMatchesFiles(java.util.concurrent.BlockingQueue<Object> out, List<FileEvent> files)
            throws InterruptedException {
        int rowsEvents = 0;
        int real = 0;
        while (real < files.size()) {
            Object o = out.poll(10, java.util.concurrent.TimeUnit.SECONDS);
            assertNotNull(o, "decoded events stopped after " + real);
            if (o instanceof ReplicationException e) {
                throw e;
            }
            io.lanes.binlog.BinlogEvent ev = (io.lanes.binlog.BinlogEvent) o;
            if (ev.header().hasFlag(io.lanes.binlog.EventHeader.FLAG_ARTIFICIAL) || ev.header().nextPosition() == 0) {
                continue;
            }
            assertEquals(files.get(real).position(), ev.position());
            if (ev instanceof io.lanes.binlog.RowsEvent) {
                rowsEvents++;
            }
            real++;
        }
        long expectedRows = files.stream().filter(e -> Set.of(23, 24, 25, 30, 31, 32).contains(e.type())).count();
        assertTrue(expectedRows > 5);
        assertEquals(expectedRows, rowsEvents);
        return rowsEvents;
    }
}
