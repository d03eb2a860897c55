package io.lanes.jmh.stream;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Where the CPU goes when streaming: runs {@link StreamThroughputBenchmark}'s operations ({@code raw} = lanesRaw,
 * {@code dec} = lanesDecoded, {@code con} = connectorDecoded) in rounds and prints, per pass over the file, the wall
 * time and the CPU time of each group of threads: the fake server, Lanes' network thread, the consumer (the
 * delivery pool), BinaryLogClient's reading thread. On a machine with idle cores the slowest stage bounds the rate, so
 * this tells which stage to work on and what the ratio would be without other load, which the JMH rates on a busy
 * machine cannot.
 *
 * <pre>{@code java -cp jmh/target/benchmarks.jar io.lanes.jmh.stream.StreamCpuProbe raw,dec,con 20 3 1}</pre>
 *
 * Arguments: the operations, passes per round, rounds, and copies of the fixture per pass (as in the benchmark's
 * {@code copies} parameter; 1 when left out). Threads that end within a pass (Lanes' network thread, the
 * connector's reader) are sampled every 2 ms, so their last 2 ms may be missed.
 */
public final class StreamCpuProbe {
    private StreamCpuProbe() {
    }

    public static void main(String[] args) throws Exception {
        String[] ops = (args.length > 0 ? args[0] : "raw,dec,con").split(",");
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new ConcurrentHashMap<>();
        Map<Long, String> names = new ConcurrentHashMap<>();
        Thread sampler = new Thread(() -> {
            while (true) {
                for (long id : threads.getAllThreadIds()) {
                    long c = threads.getThreadCpuTime(id);
                    if (c > 0) {
                        cpu.put(id, c);
                        names.computeIfAbsent(id, k -> {
                            java.lang.management.ThreadInfo ti = threads.getThreadInfo(k);
                            return ti == null ? "?" : ti.getThreadName();
                        });
                    }
                }
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "cpu-sampler");
        sampler.setDaemon(true);
        sampler.start();
        StreamThroughputBenchmark bench = new StreamThroughputBenchmark();
        bench.copies = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        bench.start();
        Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
        try {
            for (int round = 1; round <= rounds; round++) {
                for (String op : ops) {
                    Map<Long, Long> before = new HashMap<>(cpu);
                    StreamThroughputBenchmark.Counters counters = new StreamThroughputBenchmark.Counters();
                    long t0 = System.nanoTime();
                    for (int i = 0; i < passes; i++) {
                        switch (op) {
                            case "raw" -> bench.lanesRaw(counters, bh);
                            case "dec" -> bench.lanesDecoded(counters, bh);
                            case "rawInline" -> bench.lanesRawInline(counters, bh);
                            case "decInline" -> bench.lanesDecodedInline(counters, bh);
                            case "con" -> bench.connectorDecoded(counters, bh);
                            default -> throw new IllegalArgumentException("raw, dec or con: " + op);
                        }
                    }
                    long wall = System.nanoTime() - t0;
                    Thread.sleep(20);
                    Map<String, Long> byGroup = new TreeMap<>();
                    cpu.forEach((id, c) -> {
                        long d = c - before.getOrDefault(id, 0L);
                        if (d > 0) {
                            byGroup.merge(group(names.getOrDefault(id, "?")), d, Long::sum);
                        }
                    });
                    StringBuilder line = new StringBuilder(String.format("round %d %s: %.1f ms/pass, %.0f MB/s; CPU ms/pass:",
                            round, op, wall / 1e6 / passes, counters.bytes / (wall / 1e9) / 1e6));
                    byGroup.forEach((g, d) -> {
                        if (d / 1e6 / passes >= 0.5) {
                            line.append(String.format(" %s=%.1f", g, d / 1e6 / passes));
                        }
                    });
                    System.out.println(line);
                }
            }
        } finally {
            bench.stop();
        }
        System.exit(0);
    }

    private static String group(String thread) {
        if (thread.startsWith("lanes-fake-source")) {
            return "fakeServer";
        }
        if (thread.startsWith("lanes-replication-io")) {
            return "lanesNetwork";
        }
        if (thread.startsWith("pool-")) {
            return "consumer";
        }
        if (thread.startsWith("blc-")) {
            return "connectorReader";
        }
        return "other";
    }
}
