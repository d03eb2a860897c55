package io.lanes.jmh.stream;

import io.lanes.testkit.FakeBinlogServer;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ReplicationException;
import io.lanes.binlog.replication.ReplicationListener;
import io.lanes.binlog.replication.StartPosition;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * What the way a stream starts costs while it runs: the sysbench fixture (MariaDB 10.11, 9.8 MB, 10,000 transactions)
 * streamed raw from the fake source, started by file position or by MariaDB GTID position, and the CPU the client's
 * network threads spend per stream. A GTID stream keeps a GTID position per transaction (each event's
 * {@link ReplicationEvent#resumePosition()}), a file stream a file and offset; this shows what that bookkeeping adds.
 * The two kinds alternate stream by stream, so both see the same machine.
 *
 * <pre>{@code java -cp jmh/target/benchmarks.jar io.lanes.jmh.stream.StartModeProbe [streams per kind, default 40]}</pre>
 */
public final class StartModeProbe {
    private StartModeProbe() {
    }

    public static void main(String[] args) throws Exception {
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        double[] ms = run(streams);
        System.out.printf(Locale.ROOT, "network threads' CPU per stream, mean of %d after %d warm-up streams each:%n"
                + "  by file position:        %.1f ms%n  by MariaDB GTID position: %.1f ms (%.2fx)%n", streams,
                streams / 2, ms[0], ms[1], ms[1] / ms[0]);
        System.exit(0); // the shared event loops
    }

    /** Milliseconds of network-thread CPU per stream: {by file position, by MariaDB GTID position}. */
    static double[] run(int streams) throws Exception {
        Path dir = Path.of(System.getProperty("lanes.binlogs", "binlog-api/src/test/resources/binlogs"));
        byte[] bytes;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(
                dir.resolve("mariadb-10.11/sysbench-10schemas-update-index.000001.gz")))) {
            bytes = in.readAllBytes();
        }
        Path files = Files.createTempDirectory("lanes-start-mode");
        Path file = Files.write(files.resolve("fx2-bin.000001"), bytes);
        ExecutorService delivery = Executors.newCachedThreadPool();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] total = new double[2];
        int warmup = streams / 2;
        try (FakeBinlogServer server = FakeBinlogServer.builder().binlogFiles(List.of(file)).user("bench")
                .password("bench-pw".toCharArray()).authMethod(FakeBinlogServer.AuthMethod.MYSQL_NATIVE_PASSWORD)
                .build().start()) {
            for (int i = 0; i < 2 * (warmup + streams); i++) {
                int kind = i % 2;
                long before = networkCpu(threads);
                stream(server, kind == 0 ? StartPosition.file("fx2-bin.000001", 4) : StartPosition.mariaDbGtid(""),
                        1000 + i, delivery);
                if (i >= 2 * warmup) {
                    total[kind] += (networkCpu(threads) - before) / 1e6;
                }
            }
        } finally {
            delivery.shutdownNow();
            Files.delete(file);
            Files.delete(files);
        }
        return new double[] {total[0] / streams, total[1] / streams};
    }

    /** Streams the file to its last event, a ROTATE (the artificial one a stream starts with does not count). */
    private static void stream(FakeBinlogServer server, StartPosition start, long serverId, ExecutorService delivery)
            throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        try (ReplicationClient client = ReplicationClient.builder().host(server.host()).port(server.port())
                .user("bench").password("bench-pw".toCharArray()).serverId(serverId).startPosition(start).build()) {
            client.start();
            client.deliverTo(new ReplicationListener() {
                long events;

                @Override
                public void onEvent(ReplicationEvent e) {
                    events++;
                    if (e.eventType() == 4 && !e.isSynthetic()) {
                        done.complete(events);
                    }
                }

                @Override
                public void onError(ReplicationException error) {
                    done.completeExceptionally(error);
                }
            }, delivery);
            long events = done.get(2, TimeUnit.MINUTES);
            if (events < 50_000) {
                throw new IllegalStateException("a stream from " + start + " ended after " + events + " events");
            }
        }
    }

    /** CPU nanoseconds the client's network threads (the shared event loops) have used so far. */
    private static long networkCpu(ThreadMXBean threads) {
        long sum = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("lanes-replication-io")) {
                long cpu = threads.getThreadCpuTime(t.getThreadId());
                sum += Math.max(0, cpu);
            }
        }
        return sum;
    }
}
