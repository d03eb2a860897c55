package io.lanes.jmh.stream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Lanes' replication client against mysql-binlog-connector-java's BinaryLogClient on {@link StreamThroughputBenchmark}'s
 * operations, judged by ratios paired within rounds: every round runs each operation (for each {@code copies} setting)
 * once, in a shuffled order, and the ratio of the connector's time to a Lanes operation's time is taken within the
 * round. On a shared machine whose speed drifts by half within a minute (CPU steal), a JMH run, which measures one
 * benchmark after the other, can put one client in a slow minute and the other in a fast one; a ratio within a round
 * compares them under the same conditions, and the median over rounds drops the rounds a burst of steal spoiled.
 *
 * <pre>{@code java -cp jmh/target/benchmarks.jar io.lanes.jmh.stream.StreamRatioProbe \
 *     [--rounds 11] [--warmup 2] [--copies 1,10] [--ops raw,rawUnverified,dec,decUnverified,con] \
 *     [-o docs/bench/stream-ratios.json]}</pre>
 *
 * An operation with {@code copies} 1 is one connection streaming the 9.8 MB fixture (repeated 10 times per round, so
 * that a round's share of each setting is alike); with 10, one connection streaming it ten times over as rotated files.
 */
public final class StreamRatioProbe {
    private static final String CONNECTOR = "con";

    private StreamRatioProbe() {
    }

    public static void main(String[] args) throws Exception {
        run(args);
        System.exit(0); // the fake sources' and clients' event loops
    }

    /** Runs the rounds and writes the report; the arguments as {@link #main}. */
    static void run(String[] args) throws Exception {
        StreamThroughputBenchmark.quietConnectionLogs(); // before any logger of either client is made
        int rounds = 11;
        int warmup = 2;
        List<Integer> copiesList = List.of(1, 10);
        List<String> ops = List.of("raw", "rawUnverified", "dec", "decUnverified", CONNECTOR);
        Path out = Path.of("docs/bench/stream-ratios.json");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--copies" -> copiesList = Arrays.stream(args[++i].split(",")).map(Integer::valueOf).toList();
                case "--ops" -> ops = List.of(args[++i].split(","));
                case "-o" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (!ops.contains(CONNECTOR)) {
            throw new IllegalArgumentException("--ops must include " + CONNECTOR + ", the reference");
        }
        Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
        Map<Integer, StreamThroughputBenchmark> benches = new LinkedHashMap<>();
        for (int copies : copiesList) {
            StreamThroughputBenchmark b = new StreamThroughputBenchmark();
            b.copies = copies;
            b.start();
            benches.put(copies, b);
        }
        // per copies setting, per operation: milliseconds per operation in each measured round
        Map<Integer, Map<String, List<Double>>> millis = new LinkedHashMap<>();
        Random shuffle = new Random(7);
        long[] cpuAtStart = cpuTimes();
        try {
            for (int round = 1; round <= warmup + rounds; round++) {
                List<String[]> order = new ArrayList<>();
                for (int copies : copiesList) {
                    for (String op : ops) {
                        order.add(new String[] {String.valueOf(copies), op});
                    }
                }
                Collections.shuffle(order, shuffle);
                StringBuilder line = new StringBuilder(round <= warmup ? "warm-up " + round + ":" : "round "
                        + (round - warmup) + ":");
                for (String[] run : order) {
                    int copies = Integer.parseInt(run[0]);
                    StreamThroughputBenchmark b = benches.get(copies);
                    int passes = Math.max(1, 10 / copies);
                    StreamThroughputBenchmark.Counters c = new StreamThroughputBenchmark.Counters();
                    long t0 = System.nanoTime();
                    for (int p = 0; p < passes; p++) {
                        run(b, run[1], c, bh);
                    }
                    double ms = (System.nanoTime() - t0) / 1e6 / passes;
                    if (round > warmup) {
                        millis.computeIfAbsent(copies, k -> new LinkedHashMap<>())
                                .computeIfAbsent(run[1], k -> new ArrayList<>()).add(ms);
                    }
                    line.append(String.format(Locale.ROOT, " %s/%d=%.1fms", run[1], copies, ms));
                }
                System.out.println(line);
            }
            double steal = stealShare(cpuAtStart, cpuTimes());
            if (steal >= 0) {
                System.out.printf(Locale.ROOT, "%nCPU stolen by the hypervisor during the run: %.0f%% (/proc/stat)%n",
                        steal * 100);
            }
            String json = report(millis, benches, ops, steal);
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, json);
            System.out.println("wrote " + out);
        } finally {
            for (StreamThroughputBenchmark b : benches.values()) {
                b.stop();
            }
        }
    }

    private static void run(StreamThroughputBenchmark b, String op, StreamThroughputBenchmark.Counters c, Blackhole bh)
            throws Exception {
        switch (op) {
            case "raw" -> b.lanesRaw(c, bh);
            case "rawUnverified" -> b.lanesRawUnverified(c, bh);
            case "dec" -> b.lanesDecoded(c, bh);
            case "decUnverified" -> b.lanesDecodedUnverified(c, bh);
            case "rawInline" -> b.lanesRawInline(c, bh);
            case "decInline" -> b.lanesDecodedInline(c, bh);
            case CONNECTOR -> b.connectorDecoded(c, bh);
            default -> throw new IllegalArgumentException("raw, rawUnverified, dec, decUnverified, rawInline, decInline or con: " + op);
        }
    }

    /** Prints the table and returns the JSON: per setting and operation, the rounds' times and the paired ratios. */
    static String report(Map<Integer, Map<String, List<Double>>> millis, Map<Integer, StreamThroughputBenchmark> benches,
            List<String> ops, double steal) throws IOException {
        StringBuilder json = new StringBuilder("{\n  \"unit\": \"ms per operation\",\n  \"cpuStolenShare\": ")
                .append(steal < 0 ? "null" : String.format(Locale.ROOT, "%.3f", steal))
                .append(",\n  \"settings\": [\n");
        System.out.println();
        System.out.println("copies  operation       median ms   MB/s   events/s    vs BinaryLogClient: median  (quartiles)");
        boolean firstSetting = true;
        for (Map.Entry<Integer, Map<String, List<Double>>> setting : millis.entrySet()) {
            int copies = setting.getKey();
            StreamThroughputBenchmark b = benches.get(copies);
            List<Double> con = setting.getValue().get(CONNECTOR);
            json.append(firstSetting ? "" : ",\n").append("    {\"copies\": ").append(copies)
                    .append(", \"bytes\": ").append(b.streamBytes()).append(", \"events\": ").append(b.streamEvents())
                    .append(", \"operations\": [\n");
            firstSetting = false;
            boolean firstOp = true;
            for (String op : ops) {
                List<Double> ms = setting.getValue().get(op);
                double median = median(ms);
                List<Double> ratios = new ArrayList<>();
                for (int i = 0; i < ms.size(); i++) {
                    ratios.add(con.get(i) / ms.get(i));
                }
                double mbs = b.streamBytes() / (median / 1e3) / 1e6;
                double eps = b.streamEvents() / (median / 1e3);
                System.out.printf(Locale.ROOT, "%6d  %-14s %10.1f %6.0f %10.0f    %s%n", copies, op, median, mbs, eps,
                        op.equals(CONNECTOR) ? "1x" : String.format(Locale.ROOT, "%.2fx  (%.2f-%.2f)", median(ratios),
                                quantile(ratios, 0.25), quantile(ratios, 0.75)));
                json.append(firstOp ? "" : ",\n").append(String.format(Locale.ROOT,
                        "      {\"operation\": \"%s\", \"medianMs\": %.2f, \"mbPerSecond\": %.1f, \"eventsPerSecond\": %.0f,"
                                + " \"ratioToConnector\": {\"median\": %.3f, \"q1\": %.3f, \"q3\": %.3f}, \"roundsMs\": %s,"
                                + " \"roundRatios\": %s}", op, median, mbs, eps, median(ratios), quantile(ratios, 0.25),
                        quantile(ratios, 0.75), list(ms), list(ratios)));
                firstOp = false;
            }
            json.append("\n    ]}");
        }
        return json.append("\n  ]\n}\n").toString();
    }

    /**
     * The machine's CPU times from the first line of /proc/stat (user, nice, system, idle, iowait, irq, softirq, steal);
     * null where there is none.
     */
    static long[] cpuTimes() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long[] t = new long[8];
            for (int i = 0; i < t.length && i + 1 < f.length; i++) {
                t[i] = Long.parseLong(f[i + 1]);
            }
            return t;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The share of the machine's CPU time the hypervisor gave to other guests between two readings (steal): on a
     * virtual machine shared with others it swings from a few percent to half within minutes, and a client that needs
     * two cores loses more of its speed to it than one that needs one; -1 when unknown.
     */
    static double stealShare(long[] before, long[] after) {
        if (before == null || after == null) {
            return -1;
        }
        long total = 0;
        for (int i = 0; i < before.length; i++) {
            total += after[i] - before[i];
        }
        return total <= 0 ? -1 : (double) (after[7] - before[7]) / total;
    }

    private static String list(List<Double> values) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", values.get(i)));
        }
        return b.append(']').toString();
    }

    static double median(List<Double> values) {
        return quantile(values, 0.5);
    }

    /** The {@code q} quantile, interpolated between the two nearest ranks. */
    static double quantile(List<Double> values, double q) {
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        double at = q * (s.size() - 1);
        int lo = (int) Math.floor(at);
        int hi = (int) Math.ceil(at);
        return s.get(lo) + (s.get(hi) - s.get(lo)) * (at - lo);
    }
}
