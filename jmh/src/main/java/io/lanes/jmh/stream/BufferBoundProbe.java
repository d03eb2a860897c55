package io.lanes.jmh.stream;

import io.lanes.testkit.FakeBinlogServer;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.StartPosition;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.GZIPInputStream;

/**
 * Prints how many bytes the replication client buffered at most (its {@code maxBufferedBytes()}) while a slow consumer
 * (2 ms pause every 500 events) reads the sysbench fixture from the fake source, for several byte budgets. The bound
 * itself is asserted by {@code FakeSourceTest.slowConsumerKeepsTheBufferWithinItsBudget}; this prints the figures for
 * docs/replication.md.
 *
 * <p>Run: {@code java -cp jmh/target/benchmarks.jar io.lanes.jmh.stream.BufferBoundProbe [BUDGET_BYTES...]} from the
 * repository root (or {@code -Dlanes.binlogs=DIR}).
 */
public final class BufferBoundProbe {
    private static final int HEARTBEAT = 27;

    private BufferBoundProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(System.getProperty("lanes.binlogs", "binlog-api/src/test/resources/binlogs"));
        Path gz = dir.resolve("mariadb-10.11/sysbench-10schemas-update-index.000001.gz");
        Path file = Files.createTempDirectory("lanes-probe").resolve("sysbench.000001");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            Files.copy(in, file);
        }
        long size = Files.size(file);
        long[] budgets = args.length == 0 ? new long[] {256 * 1024, 1024 * 1024}
                : java.util.Arrays.stream(args).mapToLong(Long::parseLong).toArray();
        try {
            for (long budget : budgets) {
                probe(file, size, budget);
            }
        } finally {
            Files.delete(file);
            Files.delete(file.getParent());
        }
    }

    private static void probe(Path file, long size, long budget) throws Exception {
        try (FakeBinlogServer fake = FakeBinlogServer.builder().binlogFile(file).password("pw".toCharArray()).build()
                .start();
                ReplicationClient c = ReplicationClient.builder().host(fake.host()).port(fake.port()).user("repl")
                        .password("pw".toCharArray()).serverId(77)
                        .startPosition(StartPosition.file(file.getFileName().toString(), 4)).bufferBytes(budget)
                        .build()) {
            c.start();
            long consumed = 0;
            long events = 0;
            int maxEvent = 0;
            while (true) {
                ReplicationEvent e = c.poll(Duration.ofSeconds(10));
                if (e == null) {
                    throw new IllegalStateException("no event for 10 s");
                }
                if (e.isSynthetic() || e.eventType() == HEARTBEAT) {
                    continue;
                }
                consumed += e.bytes().length;
                maxEvent = Math.max(maxEvent, e.bytes().length);
                if (++events % 500 == 0) {
                    Thread.sleep(2); // the slow consumer
                }
                if (e.nextPosition() == size) {
                    break;
                }
            }
            System.out.printf("budget %,d B: consumed %,d B in %,d events; largest event %,d B; max buffered %,d B"
                    + " (budget + 64 KiB + largest event = %,d B)%n", budget, consumed, events, maxEvent,
                    c.maxBufferedBytes(), budget + 65536 + maxEvent);
        }
    }
}
