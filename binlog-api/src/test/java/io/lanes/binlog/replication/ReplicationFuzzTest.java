package io.lanes.binlog.replication;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Hostile input for the replication client (issue 8): a scripted server replays what a real MariaDB sent over one
 * replication session (the seed in {@code src/test/resources/replication/fuzz-seeds}, see PROVENANCE.md there), one
 * answer per client packet, with mutations: the stream truncated or stalled at any byte (a server that stops
 * mid-packet), flipped bytes, packet lengths that claim up to 16 MiB per part, wrong sequence ids, garbage packets
 * in place of the greeting, authentication, OK, ERR, EOF and result-set packets, event headers claiming gigabytes, and
 * corrupt event checksums.
 *
 * <p>Every case must end, within a bounded time, in a {@link ReplicationException} that names the connection (the
 * scripted server takes one connection; the reconnect that follows a lost one is refused, so the client gives up with
 * a typed error rather than retrying forever). Anything else (another exception type, an error such as
 * OutOfMemoryError, a case that does not end) fails the test. Cases run for about 15 s, or 5 minutes with
 * {@code -Dlanes.long=true}; the seed of the random sequence is printed and can be fixed with
 * {@code -Dlanes.fuzz.seed=N}.
 */
class ReplicationFuzzTest {
    private static final long BUDGET_MILLIS = Boolean.getBoolean("lanes.long") ? 300_000 : 15_000;
    private static final long CASE_LIMIT_MILLIS = 20_000;

    enum Mutation {
        NONE, TRUNCATE, STALL, FLIP_BYTES, ABSURD_LENGTH, WRONG_SEQUENCE, GARBAGE_PACKET, GARBAGE_HEADER_BYTE,
        EVENT_SIZE_GIGABYTES, CORRUPT_CHECKSUM
    }

    /** The recorded server bytes and where each answer (turn) ends; turn 0 is the greeting. */
    record Script(byte[] bytes, int[] turnEnds, List<int[]> packets, int streamStart) {
        static Script load() throws IOException {
            byte[] b;
            try (InputStream in = ReplicationFuzzTest.class.getResourceAsStream(
                    "/replication/fuzz-seeds/mariadb-session.server.bin")) {
                b = in.readAllBytes();
            }
            // a new answer starts where the sequence id does not follow the previous packet's
            List<Integer> ends = new ArrayList<>();
            List<int[]> packets = new ArrayList<>();
            int at = 0;
            int prev = -1;
            int lastTurnStart = 0;
            while (at + 4 <= b.length) {
                int len = (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16;
                int seq = b[at + 3] & 0xff;
                if (prev >= 0 && seq != ((prev + 1) & 0xff)) {
                    ends.add(at);
                    lastTurnStart = at;
                }
                packets.add(new int[] {at, len});
                prev = seq;
                at += 4 + len;
            }
            ends.add(b.length);
            return new Script(b, ends.stream().mapToInt(Integer::intValue).toArray(), packets, lastTurnStart);
        }

        /** The stream's event packets (OK byte then an event of at least a header): offset and length. */
        List<int[]> eventPackets() {
            List<int[]> out = new ArrayList<>();
            for (int[] p : packets) {
                if (p[0] >= streamStart && p[1] >= 20 && bytes[p[0] + 4] == 0) {
                    out.add(p);
                }
            }
            return out;
        }
    }

    @Test
    void malformedServersEndInATypedErrorNamingTheConnection() throws Exception {
        Script script = Script.load();
        long seed = Long.getLong("lanes.fuzz.seed", System.nanoTime());
        System.out.println("ReplicationFuzzTest seed " + seed + " (-Dlanes.fuzz.seed=" + seed + " repeats it)");
        Random random = new Random(seed);
        Map<Mutation, Integer> tried = new EnumMap<>(Mutation.class);
        Map<String, Integer> outcomes = new TreeMap<>();
        long deadline = System.currentTimeMillis() + BUDGET_MILLIS;
        int n = 0;
        // every mutation at least once, then random ones until the time budget is spent
        while (n < Mutation.values().length || System.currentTimeMillis() < deadline) {
            Mutation m = n < Mutation.values().length ? Mutation.values()[n] : Mutation.values()[1
                    + random.nextInt(Mutation.values().length - 1)];
            long caseSeed = random.nextLong();
            String kind = runCase(script, m, caseSeed);
            tried.merge(m, 1, Integer::sum);
            outcomes.merge(kind, 1, Integer::sum);
            n++;
        }
        System.out.println("ReplicationFuzzTest: " + n + " cases " + tried + ", outcomes " + outcomes);
    }

    /** Runs one case; returns the kind of the ReplicationException it ended with. */
    static String runCase(Script script, Mutation m, long caseSeed) throws Exception {
        Random r = new Random(caseSeed);
        byte[] b = script.bytes().clone();
        int cut = b.length;
        boolean stall = false;
        switch (m) {
            case NONE -> {
            }
            case TRUNCATE -> cut = r.nextInt(b.length);
            case STALL -> {
                cut = r.nextInt(b.length);
                stall = true;
            }
            case FLIP_BYTES -> {
                for (int i = 1 + r.nextInt(8); i > 0; i--) {
                    b[r.nextInt(b.length)] ^= (byte) (1 + r.nextInt(255));
                }
            }
            case ABSURD_LENGTH -> {
                int[] p = script.packets().get(r.nextInt(script.packets().size()));
                int len = r.nextBoolean() ? 0xFFFFFF : r.nextInt(0x1000000);
                b[p[0]] = (byte) len;
                b[p[0] + 1] = (byte) (len >> 8);
                b[p[0] + 2] = (byte) (len >> 16);
            }
            case WRONG_SEQUENCE -> {
                int[] p = script.packets().get(r.nextInt(script.packets().size()));
                b[p[0] + 3] = (byte) (b[p[0] + 3] + 1 + r.nextInt(254));
            }
            case GARBAGE_PACKET -> {
                int[] p = script.packets().get(r.nextInt(script.packets().size()));
                for (int i = 0; i < p[1]; i++) {
                    b[p[0] + 4 + i] = (byte) r.nextInt(256);
                }
            }
            case GARBAGE_HEADER_BYTE -> {
                // an OK, ERR or EOF marker (or the greeting's protocol byte) where another packet was, body unchanged
                int[] p = script.packets().get(r.nextInt(script.packets().size()));
                if (p[1] > 0) {
                    byte[] markers = {0x00, (byte) 0xff, (byte) 0xfe, 0x0a, 0x01, (byte) 0xfb};
                    b[p[0] + 4] = markers[r.nextInt(markers.length)];
                }
            }
            case EVENT_SIZE_GIGABYTES -> {
                List<int[]> events = script.eventPackets();
                int[] p = events.get(r.nextInt(events.size()));
                int size = p[0] + 4 + 1 + 9;
                long claim = 0x40000000L + (r.nextLong() & 0x7FFFFFFFL) % 0xBFFFFFFFL;
                for (int i = 0; i < 4; i++) {
                    b[size + i] = (byte) (claim >> (8 * i));
                }
            }
            case CORRUPT_CHECKSUM -> {
                List<int[]> events = script.eventPackets();
                int[] p = events.get(r.nextInt(events.size()));
                b[p[0] + 4 + p[1] - 1 - r.nextInt(4)] ^= (byte) (1 + r.nextInt(255));
            }
        }
        long started = System.currentTimeMillis();
        try (ScriptedServer server = new ScriptedServer(b, script.turnEnds(), cut, stall)) {
            String address = "127.0.0.1:" + server.port();
            ReplicationClient c = ReplicationClient.builder().host("127.0.0.1").port(server.port()).user("repl")
                    .password("pw".toCharArray()).serverId(4321).tls(TlsSettings.disabled())
                    .startPosition(StartPosition.file("bin.000001", 4)).heartbeatPeriod(Duration.ofMillis(250))
                    .connectTimeout(Duration.ofSeconds(1)).reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
                    .maxReconnectAttempts(1).bufferBytes(1 << 20).build();
            try (c) {
                c.start();
                while (true) {
                    c.poll(Duration.ofMillis(100));
                    if (System.currentTimeMillis() - started > CASE_LIMIT_MILLIS) {
                        fail(describe(m, caseSeed) + ": no end after " + CASE_LIMIT_MILLIS + " ms (a hang)");
                    }
                }
            } catch (ReplicationException e) {
                assertTrue(e.getMessage() != null && e.getMessage().contains(address), describe(m, caseSeed)
                        + ": the error does not name the connection " + address + ": " + e.getMessage());
                assertTrue(!e.getMessage().contains("pw\"") && !e.getMessage().contains("password=pw"),
                        "no password in errors");
                return e.kind().name();
            } catch (Throwable t) {
                throw new AssertionError(describe(m, caseSeed) + ": ended in " + t + " instead of a"
                        + " ReplicationException", t);
            }
        }
    }

    static String describe(Mutation m, long caseSeed) {
        return "case " + m + " (case seed " + caseSeed + ")";
    }

    /**
     * Serves one connection: the greeting, then one recorded answer per client packet, stopping at {@code cut} (closing
     * the connection there, or with {@code stall} keeping it open and silent). Further connections are refused.
     */
    static final class ScriptedServer implements AutoCloseable {
        private final ServerSocket listener;
        private final Thread thread;
        private volatile Socket socket;

        ScriptedServer(byte[] bytes, int[] turnEnds, int cut, boolean stall) throws IOException {
            listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            thread = new Thread(() -> serve(bytes, turnEnds, cut, stall), "scripted-server");
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        private void serve(byte[] bytes, int[] turnEnds, int cut, boolean stall) {
            try (Socket s = listener.accept()) {
                socket = s;
                listener.close(); // one connection only: the client's reconnect is refused
                s.setSoTimeout(30_000);
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                int sent = 0;
                for (int turn = 0; turn < turnEnds.length; turn++) {
                    if (turn > 0) {
                        skipPacket(in);
                    }
                    int end = Math.min(turnEnds[turn], cut);
                    out.write(bytes, sent, end - sent);
                    out.flush();
                    sent = end;
                    if (sent == cut) {
                        break;
                    }
                }
                if (stall) {
                    while (in.read() >= 0) {
                        // silent until the client gives up
                    }
                }
            } catch (IOException e) {
                // the client closed, or the test ended
            }
        }

        private static void skipPacket(InputStream in) throws IOException {
            byte[] h = in.readNBytes(4);
            if (h.length < 4) {
                throw new EOFException();
            }
            int len = (h[0] & 0xff) | (h[1] & 0xff) << 8 | (h[2] & 0xff) << 16;
            in.skipNBytes(len);
        }

        @Override
        public void close() throws IOException {
            listener.close();
            Socket s = socket;
            if (s != null) {
                s.close();
            }
        }
    }
}
