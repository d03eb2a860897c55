package io.lanes.jmh.stream;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.Row;
import io.lanes.binlog.RowsEvent;
import io.lanes.binlog.replication.DecodedEventListener;
import io.lanes.testkit.FakeBinlogServer;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ReplicationException;
import io.lanes.binlog.replication.ReplicationListener;
import io.lanes.binlog.replication.StartPosition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Streaming throughput of a replication client: the sysbench fixture (MariaDB 10.11, 10 schemas of sysbench
 * update_index, 9.8 MB, 50,344 events) served by an in-process {@link FakeBinlogServer} over loopback TCP, read from the
 * first file's position 4 to the last file's last event by a fresh connection per operation (connect, authenticate,
 * replica setup, dump, close). Lanes' {@link ReplicationClient} and mysql-binlog-connector-java's
 * {@link BinaryLogClient} read from the same fake source in the same run.
 *
 * <p>{@code copies}: how many times one operation streams the fixture. With 1, an operation is one connection for one
 * 9.8 MB file, and the connection's setup (a few round trips, about 5 ms on a 2-core machine for either client) is a
 * fifth to a third of it. With 10, the fake serves the fixture as ten consecutive binlog files ({@code fx2-bin.000001}
 * to {@code .000010}, each ending with a ROTATE to the next, as a server that rotated its log would) and one connection
 * streams all 98 MB: the sustained streaming rate, which is what a replica that stays connected sees.
 *
 * <ul>
 *   <li>{@code lanesRaw}: {@link ReplicationClient#deliverTo} (framed, checksum-verified event bytes, not decoded).
 *   <li>{@code lanesDecoded}: {@link ReplicationClient#deliverDecodedTo}, every row value materialised.
 *   <li>{@code lanesRawUnverified}, {@code lanesDecodedUnverified}: the same with CRC32 verification off, as
 *       connector-java reads (it never verifies checksums).
 *   <li>{@code lanesRawInline}, {@code lanesDecodedInline}: the same as lanesRaw and lanesDecoded, delivered on the
 *       network thread as events are read ({@link ReplicationClient#deliverInline},
 *       {@link ReplicationClient#deliverDecodedInline}): one thread reads, checks, decodes and delivers, as
 *       BinaryLogClient's does.
 *   <li>{@code connectorDecoded}: BinaryLogClient with its default deserializers (it decodes every event and row; it
 *       does not verify checksums).
 * </ul>
 *
 * <p>Secondary metrics: {@code bytes} and {@code events} per second (the files' bytes and events per operation, checked
 * against what the client delivered), and {@code cpuNanos} per second of the whole process (the fake server included,
 * the same for every client): on a shared machine, throughput per CPU second is the steadier comparison.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class StreamThroughputBenchmark {
    private static final int HEARTBEAT = 27;
    private static final String USER = "bench";
    private static final String PASSWORD = "bench-pw";

    /** Times one operation streams the fixture (as that many consecutive binlog files, over one connection). */
    @Param({"1", "10"})
    public int copies;

    private FakeBinlogServer server;
    private Path filesDir;
    private String firstFile;
    private long streamBytes;
    private long streamEvents;
    private ExecutorService delivery;
    private final AtomicLong serverIds = new AtomicLong(1000);

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    /**
     * Per-operation counters reported as rates: the fixture's bytes and events streamed per second, and the process CPU
     * nanoseconds used per second of wall time (1e9 = one core busy).
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        public long bytes;
        public long events;
        public long cpuNanos;
        private long startCpu;

        @Setup(Level.Invocation)
        public void begin() {
            startCpu = OS.getProcessCpuTime();
        }

        @TearDown(Level.Invocation)
        public void end() {
            cpuNanos += OS.getProcessCpuTime() - startCpu;
        }
    }

    @Setup(Level.Trial)
    public void start() throws IOException {
        quietConnectionLogs();
        Path dir = Path.of(System.getProperty("lanes.binlogs", "binlog-api/src/test/resources/binlogs"));
        Path gz = dir.resolve("mariadb-10.11/sysbench-10schemas-update-index.000001.gz");
        byte[] bytes;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            bytes = in.readAllBytes();
        }
        long n = 0;
        int lastEvent = 4;
        for (int at = 4; at < bytes.length; n++) {
            lastEvent = at;
            at += (bytes[at + 9] & 0xff) | (bytes[at + 10] & 0xff) << 8 | (bytes[at + 11] & 0xff) << 16
                    | (bytes[at + 12] & 0xff) << 24;
        }
        filesDir = Files.createTempDirectory("lanes-stream-bench");
        List<Path> files = new ArrayList<>();
        for (int i = 1; i <= copies; i++) {
            files.add(Files.write(filesDir.resolve(binlogName(i)), withRotateTo(bytes, lastEvent, binlogName(i + 1))));
        }
        firstFile = binlogName(1);
        streamBytes = (long) bytes.length * copies;
        streamEvents = n * copies;
        server = FakeBinlogServer.builder().binlogFiles(files).user(USER).password(PASSWORD.toCharArray())
                .authMethod(FakeBinlogServer.AuthMethod.MYSQL_NATIVE_PASSWORD).build().start();
        delivery = Executors.newCachedThreadPool();
    }

    /**
     * Neither client logs its connections while measured: BinaryLogClient logs every connection through JUL, Lanes
     * through SLF4J (slf4j-simple in the benchmarks jar, which reads its level when its first logger is made: Lanes's
     * are made after this, when the fake source and the clients start). Logging a line costs about as much for either,
     * and a connection of the {@code copies=1} operation is a few milliseconds. A level set on the command line wins.
     */
    static void quietConnectionLogs() {
        java.util.logging.LogManager.getLogManager().reset();
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
    }

    /** The fixture's server named its binlogs fx2-bin; the copies keep that name and number on. */
    private static String binlogName(int i) {
        return String.format("fx2-bin.%06d", i);
    }

    /** The file with its last event, a ROTATE (and its CRC32), naming {@code next} as the file that follows. */
    private static byte[] withRotateTo(byte[] file, int rotateAt, String next) {
        if (file[rotateAt + 4] != 4) {
            throw new IllegalStateException("the fixture does not end with a ROTATE event");
        }
        byte[] copy = file.clone();
        byte[] name = next.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int nameAt = rotateAt + 19 + 8;
        if (copy.length - 4 - nameAt != name.length) {
            throw new IllegalStateException("the fixture's ROTATE names a file of another length");
        }
        System.arraycopy(name, 0, copy, nameAt, name.length);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(copy, rotateAt, copy.length - 4 - rotateAt);
        long c = crc.getValue();
        for (int i = 0; i < 4; i++) {
            copy[copy.length - 4 + i] = (byte) (c >>> (8 * i));
        }
        return copy;
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        server.close();
        delivery.shutdownNow();
        try (java.util.stream.Stream<Path> files = Files.list(filesDir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.delete(f);
            }
        }
        Files.delete(filesDir);
    }

    /** The bytes one operation streams (after {@link #start()}). */
    long streamBytes() {
        return streamBytes;
    }

    /** The events one operation streams (after {@link #start()}). */
    long streamEvents() {
        return streamEvents;
    }

    private ReplicationClient lanesClient(boolean verify) {
        return ReplicationClient.builder().host(server.host()).port(server.port()).user(USER)
                .password(PASSWORD.toCharArray()).serverId(serverIds.incrementAndGet())
                .startPosition(StartPosition.file(firstFile, 4)).verifyChecksums(verify).build();
    }

    private void count(Counters c, long events) {
        if (events != streamEvents) {
            throw new IllegalStateException("streamed " + events + " events, the files have " + streamEvents);
        }
        c.bytes += streamBytes;
        c.events += events;
    }

    @Benchmark
    public void lanesRaw(Counters c, Blackhole bh) throws Exception {
        raw(c, bh, true);
    }

    @Benchmark
    public void lanesRawUnverified(Counters c, Blackhole bh) throws Exception {
        raw(c, bh, false);
    }

    @Benchmark
    public void lanesDecoded(Counters c, Blackhole bh) throws Exception {
        decoded(c, bh, true);
    }

    @Benchmark
    public void lanesDecodedUnverified(Counters c, Blackhole bh) throws Exception {
        decoded(c, bh, false);
    }

    @Benchmark
    public void lanesRawInline(Counters c, Blackhole bh) throws Exception {
        raw(c, bh, true, true);
    }

    @Benchmark
    public void lanesDecodedInline(Counters c, Blackhole bh) throws Exception {
        decoded(c, bh, true, true);
    }

    private void raw(Counters c, Blackhole bh, boolean verify) throws Exception {
        raw(c, bh, verify, false);
    }

    private void decoded(Counters c, Blackhole bh, boolean verify) throws Exception {
        decoded(c, bh, verify, false);
    }

    private void raw(Counters c, Blackhole bh, boolean verify, boolean inline) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        try (ReplicationClient client = lanesClient(verify)) {
            client.start();
            ReplicationListener listener = new ReplicationListener() {
                long events;

                @Override
                public void onEvent(ReplicationEvent e) {
                    if (e.isSynthetic() || e.eventType() == HEARTBEAT) {
                        return;
                    }
                    events++;
                    bh.consume(e.bytes());
                    if (events == streamEvents) {
                        done.complete(events);
                    }
                }

                @Override
                public void onError(ReplicationException error) {
                    done.completeExceptionally(error);
                }
            };
            if (inline) {
                client.deliverInline(listener);
            } else {
                client.deliverTo(listener, delivery);
            }
            count(c, done.get(5, TimeUnit.MINUTES));
        }
    }

    private void decoded(Counters c, Blackhole bh, boolean verify, boolean inline) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        try (ReplicationClient client = lanesClient(verify)) {
            client.start();
            DecodedEventListener listener = new DecodedEventListener() {
                long events;

                @Override
                public void onEvent(BinlogEvent event, ReplicationEvent raw) {
                    if (raw.isSynthetic()) {
                        return;
                    }
                    events++;
                    if (event instanceof RowsEvent rows) {
                        for (Row row : rows.rows()) {
                            bh.consume(row);
                        }
                    } else {
                        bh.consume(event);
                    }
                    if (events == streamEvents) {
                        done.complete(events);
                    }
                }

                @Override
                public void onError(ReplicationException error) {
                    done.completeExceptionally(error);
                }
            };
            BinlogReaderOptions options = BinlogReaderOptions.builder().verifyChecksums(verify).build();
            if (inline) {
                client.deliverDecodedInline(listener, options);
            } else {
                client.deliverDecodedTo(listener, options, delivery);
            }
            count(c, done.get(5, TimeUnit.MINUTES));
        }
    }

    @Benchmark
    public void connectorDecoded(Counters c, Blackhole bh) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        BinaryLogClient client = new BinaryLogClient(server.host(), server.port(), USER, PASSWORD);
        client.setServerId(serverIds.incrementAndGet());
        client.setBinlogFilename(firstFile);
        client.setBinlogPosition(4);
        client.setKeepAlive(false);
        client.setEventDeserializer(new EventDeserializer());
        long[] events = {0};
        client.registerEventListener(e -> {
            EventHeaderV4 h = e.getHeader();
            if (h.getEventType() == EventType.HEARTBEAT || h.getNextPosition() == 0) {
                return; // heartbeats, and the rotate a source sends first (next position 0)
            }
            events[0]++;
            bh.consume(e.getData());
            if (events[0] == streamEvents) {
                done.complete(events[0]);
            }
        });
        client.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onEventDeserializationFailure(BinaryLogClient client, Exception ex) {
                done.completeExceptionally(ex);
            }

            @Override
            public void onCommunicationFailure(BinaryLogClient client, Exception ex) {
                done.completeExceptionally(ex);
            }
        });
        try {
            client.connect(Duration.ofSeconds(30).toMillis());
            count(c, done.get(5, TimeUnit.MINUTES));
        } finally {
            client.disconnect();
        }
    }
}
