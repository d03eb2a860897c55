package io.lanes.jmh.decode;

import com.github.shyiko.mysql.binlog.BinaryLogFileReader;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogReader;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.Row;
import io.lanes.binlog.RowsEvent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decode throughput of a whole binlog held in memory, Lanes side by side with mysql-binlog-connector-java on the same
 * bytes in the same run. One operation reads the whole fixture; the {@link Counters} report bytes/s and events/s of the
 * operations (JMH's secondary metrics {@code bytes} and {@code events}).
 *
 * <ul>
 *   <li>{@code *HeaderScan}: every event's header, nothing else (Lanes: {@link BinlogReader#nextHeader()} with checksums
 *       off; connector-java: its lightest configuration, a {@link NullEventDataDeserializer} for every type but
 *       FORMAT_DESCRIPTION, which it needs for the checksum length).
 *   <li>{@code *FullDecode}: every event decoded and every row value materialised (Lanes: {@link BinlogReader#next()}
 *       and {@link RowsEvent#rows()}; connector-java: its default deserializers, which materialise rows), checksums not
 *       verified on either side (connector-java never verifies them).
 *   <li>{@code lanesFullDecodeVerified}: the same with Lanes' default CRC32 verification on.
 * </ul>
 *
 * <p>Fixtures: {@code sakila} (MySQL 5.7 sakila load, 1.4 MB) and {@code sysbench} (MariaDB 10.11, 10 schemas of
 * sysbench update_index, 9.8 MB, decompressed at setup). The files are read from {@code -Dlanes.binlogs} (default
 * {@code binlog-api/src/test/resources/binlogs}, relative to the working directory) or the {@code path} parameter.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class DecodeThroughputBenchmark {
    @Param({"sakila", "sysbench"})
    public String fixture;

    /** A binlog file to use instead of the named fixture (plain or .gz). */
    @Param({""})
    public String path;

    private byte[] bytes;
    private int events;

    /**
     * Per-operation counters reported as rates: bytes/s, events/s, and {@code cpuNanos}/s, the CPU time the benchmark
     * thread got per second of wall time (1e9 = a whole core). On a loaded machine, bytes/s divided by the CPU share
     * ({@code cpuNanos}/1e9) estimates the throughput of one unshared core.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        public long bytes;
        public long events;
        public long cpuNanos;
        private long startCpu;

        @Setup(Level.Invocation)
        public void start() {
            startCpu = THREADS.getCurrentThreadCpuTime();
        }

        @org.openjdk.jmh.annotations.TearDown(Level.Invocation)
        public void stop() {
            cpuNanos += THREADS.getCurrentThreadCpuTime() - startCpu;
        }
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    @Setup(Level.Trial)
    public void load() throws IOException {
        Path file;
        if (!path.isEmpty()) {
            file = Path.of(path);
        } else {
            Path dir = Path.of(System.getProperty("lanes.binlogs", "binlog-api/src/test/resources/binlogs"));
            file = dir.resolve(fixture.equals("sakila") ? "mysql-binlog-connector-java/mysql-bin.sakila"
                    : "mariadb-10.11/sysbench-10schemas-update-index.000001.gz");
        }
        try (InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(file))
                : Files.newInputStream(file)) {
            bytes = in.readAllBytes();
        }
        int n = 0;
        try (BinlogReader r = lanesReader(false)) {
            while (r.nextHeader() != null) {
                n++;
            }
        }
        events = n;
        // both decoders must see the same events, and ours must decode every row of the fixture
        int theirs = 0;
        try (BinaryLogFileReader r = new BinaryLogFileReader(new ByteArrayInputStream(bytes), new EventDeserializer())) {
            while (r.readEvent() != null) {
                theirs++;
            }
        }
        if (theirs != events) {
            throw new IllegalStateException(file + ": connector-java read " + theirs + " events, Lanes " + events);
        }
    }

    private BinlogReader lanesReader(boolean verify) {
        return BinlogReader.open(new ByteArrayInputStream(bytes), fixture,
                BinlogReaderOptions.builder().verifyChecksums(verify).build());
    }

    private void count(Counters c, int n) {
        c.bytes += bytes.length;
        c.events += n;
    }

    @Benchmark
    public int lanesHeaderScan(Counters c) {
        int n = 0;
        try (BinlogReader r = lanesReader(false)) {
            while (r.nextHeader() != null) {
                n++;
            }
        }
        count(c, n);
        return n;
    }

    @Benchmark
    public void lanesFullDecode(Counters c, Blackhole bh) {
        count(c, fullDecode(lanesReader(false), bh));
    }

    @Benchmark
    public void lanesFullDecodeVerified(Counters c, Blackhole bh) {
        count(c, fullDecode(lanesReader(true), bh));
    }

    private static int fullDecode(BinlogReader reader, Blackhole bh) {
        int n = 0;
        try (BinlogReader r = reader) {
            for (BinlogEvent e; (e = r.next()) != null; ) {
                n++;
                if (e instanceof RowsEvent rows) {
                    for (Row row : rows.rows()) {
                        bh.consume(row);
                    }
                } else {
                    bh.consume(e);
                }
            }
        }
        return n;
    }

    @Benchmark
    public int connectorHeaderScan(Counters c) throws IOException {
        EventDeserializer d = new EventDeserializer();
        NullEventDataDeserializer none = new NullEventDataDeserializer();
        for (EventType t : EventType.values()) {
            if (t != EventType.FORMAT_DESCRIPTION) {
                d.setEventDataDeserializer(t, none);
            }
        }
        int n = 0;
        try (BinaryLogFileReader r = new BinaryLogFileReader(new ByteArrayInputStream(bytes), d)) {
            for (Event e; (e = r.readEvent()) != null; ) {
                n++;
            }
        }
        count(c, n);
        return n;
    }

    @Benchmark
    public void connectorFullDecode(Counters c, Blackhole bh) throws IOException {
        int n = 0;
        try (BinaryLogFileReader r = new BinaryLogFileReader(new ByteArrayInputStream(bytes), new EventDeserializer())) {
            for (Event e; (e = r.readEvent()) != null; ) {
                n++;
                EventData data = e.getData();
                if (data instanceof WriteRowsEventData w) {
                    bh.consume(w.getRows());
                } else if (data instanceof UpdateRowsEventData u) {
                    bh.consume(u.getRows());
                } else if (data instanceof DeleteRowsEventData del) {
                    bh.consume(del.getRows());
                } else {
                    bh.consume(e);
                }
            }
        }
        count(c, n);
    }

}
