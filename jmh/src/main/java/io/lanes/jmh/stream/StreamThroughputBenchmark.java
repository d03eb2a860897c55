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
import io.lanes.binlog.replication.FakeBinlogServer;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Streaming throughput of a replication client: the sysbench fixture (MariaDB 10.11, 10 schemas of sysbench
 * update_index, 9.8 MB) served by an in-process {@link FakeBinlogServer} over loopback TCP, read from position 4 to the
 * file's last event by a fresh connection per operation (connect, authenticate, replica setup, dump, close).
 * Lanes' {@link ReplicationClient} and mysql-binlog-connector-java's {@link BinaryLogClient} read from the same fake
 * source in the same run.
 *
 * <ul>
 *   <li>{@code lanesRaw}: {@link ReplicationClient#deliverTo} (framed, checksum-verified event bytes, not decoded).
 *   <li>{@code lanesDecoded}: {@link ReplicationClient#deliverDecodedTo}, every row value materialised.
 *   <li>{@code lanesRawUnverified}, {@code lanesDecodedUnverified}: the same with CRC32 verification off, as
 *       connector-java reads (it never verifies checksums).
 *   <li>{@code connectorDecoded}: BinaryLogClient with its default deserializers (it decodes every event and row; it
 *       does not verify checksums).
 * </ul>
 *
 * <p>Secondary metrics: {@code bytes} and {@code events} per second (the file's bytes and events per operation, checked
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

    private FakeBinlogServer server;
    private String fileName;
    private long fileLength;
    private long fileEvents;
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
        Path dir = Path.of(System.getProperty("lanes.binlogs", "binlog-api/src/test/resources/binlogs"));
        Path gz = dir.resolve("mariadb-10.11/sysbench-10schemas-update-index.000001.gz");
        byte[] bytes;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            bytes = in.readAllBytes();
        }
        fileName = gz.getFileName().toString().replaceFirst("\\.gz$", "");
        fileLength = bytes.length;
        long n = 0;
        for (int at = 4; at < bytes.length; n++) {
            at += (bytes[at + 9] & 0xff) | (bytes[at + 10] & 0xff) << 8 | (bytes[at + 11] & 0xff) << 16
                    | (bytes[at + 12] & 0xff) << 24;
        }
        fileEvents = n;
        server = FakeBinlogServer.builder().binlogFile(gz).user(USER).password(PASSWORD.toCharArray())
                .authMethod(FakeBinlogServer.AuthMethod.MYSQL_NATIVE_PASSWORD).build().start();
        delivery = Executors.newCachedThreadPool();
    }

    @TearDown(Level.Trial)
    public void stop() {
        server.close();
        delivery.shutdownNow();
    }

    private ReplicationClient lanesClient(boolean verify) {
        return ReplicationClient.builder().host(server.host()).port(server.port()).user(USER)
                .password(PASSWORD.toCharArray()).serverId(serverIds.incrementAndGet())
                .startPosition(StartPosition.file(fileName, 4)).verifyChecksums(verify).build();
    }

    private void count(Counters c, long events) {
        if (events != fileEvents) {
            throw new IllegalStateException("streamed " + events + " events, the file has " + fileEvents);
        }
        c.bytes += fileLength;
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

    private void raw(Counters c, Blackhole bh, boolean verify) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        try (ReplicationClient client = lanesClient(verify)) {
            client.start();
            client.deliverTo(new ReplicationListener() {
                long events;

                @Override
                public void onEvent(ReplicationEvent e) {
                    if (e.isSynthetic() || e.eventType() == HEARTBEAT) {
                        return;
                    }
                    events++;
                    bh.consume(e.bytes());
                    if (e.nextPosition() == fileLength) {
                        done.complete(events);
                    }
                }

                @Override
                public void onError(ReplicationException error) {
                    done.completeExceptionally(error);
                }
            }, delivery);
            count(c, done.get(5, TimeUnit.MINUTES));
        }
    }

    private void decoded(Counters c, Blackhole bh, boolean verify) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        try (ReplicationClient client = lanesClient(verify)) {
            client.start();
            client.deliverDecodedTo(new DecodedEventListener() {
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
                    if (raw.nextPosition() == fileLength) {
                        done.complete(events);
                    }
                }

                @Override
                public void onError(ReplicationException error) {
                    done.completeExceptionally(error);
                }
            }, BinlogReaderOptions.builder().verifyChecksums(verify).build(), delivery);
            count(c, done.get(5, TimeUnit.MINUTES));
        }
    }

    @Benchmark
    public void connectorDecoded(Counters c, Blackhole bh) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        BinaryLogClient client = new BinaryLogClient(server.host(), server.port(), USER, PASSWORD);
        client.setServerId(serverIds.incrementAndGet());
        client.setBinlogFilename(fileName);
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
            if (h.getNextPosition() == fileLength) {
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
