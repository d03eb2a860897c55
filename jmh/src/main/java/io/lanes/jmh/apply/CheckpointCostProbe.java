package io.lanes.jmh.apply;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * The cost of exactly-once checkpoint rows (seed 004), measured so that a shared, noisy machine hurts both sides alike:
 * {@link ApplyThroughput}'s h2 model (the JDBC applier into a fresh in-memory H2 per run) applies the same generated
 * workload with the worker's checkpoint row written in each target transaction ({@code table}) and with those writes
 * dropped ({@code none}). JMH runs one configuration after another, so a burst of other load lands on one side and the
 * cost it reports swung from -15% to +48% run to run; here every round runs every configuration once, in a shuffled
 * order (fixed seed), and the cost is the median over rounds of the paired ratio of the two sides of the same round.
 *
 * <p>Per run it records the wall time and the process CPU time ({@code OperatingSystemMXBean#getProcessCpuTime}: every
 * thread, GC and JIT included). Per (workers, block commit) it reports the median tps of each side, the wall-clock cost
 * {@code 1 - median(tps_table / tps_none)} and the CPU cost {@code 1 - median(cpu_none / cpu_table)} (CPU per
 * committed transaction: the throughput a CPU-bound apply would lose; less sensitive to other load than wall time).
 *
 * <p>Both are still noisy on a shared machine (a run is a fraction of a second; CPU time too grows under contention, and
 * on Linux it is counted in 10 ms ticks). So the probe also records JFR execution samples ({@code --jfr}, every millisecond)
 * and reports, per configuration, the share of the CPU samples whose stack holds checkpoint code (the checkpoint
 * package, the JDBC checkpoint store's load and low-water mark, the preparing of the upsert): a figure that other load
 * hardly moves. It leaves out what checkpoint rows cost indirectly (H2's commit of one more changed row, GC). The
 * {@code none} side is not free of checkpoint code either: {@link ApplyThroughput} drops the upsert at the JDBC
 * statement, so the row is still encoded and bound (into a proxy) at each commit; its share is reported too.
 *
 * <pre>{@code java -cp jmh/target/benchmarks.jar io.lanes.jmh.apply.CheckpointCostProbe [options]}</pre>
 *
 * Options (defaults in brackets): {@code --rounds N} [15], {@code --warmup N} rounds discarded [10: on 2 busy cores
 * the process CPU time of a round of the 8 configurations kept falling for about 10 rounds, JIT compilation
 * presumably], {@code --checkpoint
 * LIST} [table,none], {@code --workers LIST} [0,4], {@code --block-commit LIST} [1,256], {@code --workload NAME}
 * [uniform10], {@code --transactions N} [2000], {@code --scheduler NAME} [schema], {@code --commit-order NAME}
 * [partition], {@code --seed N} [4] (the shuffle), {@code --jfr MS} [1; 0: no JFR], {@code -o FILE}
 * [docs/bench/checkpoint-probe.json]. The JSON holds
 * the medians, every run's raw figures, the command line, the times and {@code uptime} before and after.
 */
public final class CheckpointCostProbe {
    /** Where the report ({@code io.lanes.jmh.report.BenchReport}) looks for the probe's result. */
    public static final String DEFAULT_OUTPUT = "docs/bench/checkpoint-probe.json";

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private CheckpointCostProbe() {
    }

    /** One configuration of the grid. */
    record Config(String checkpoint, int workers, int blockCommit) {
        String label() {
            return "checkpoint=" + checkpoint + " workers=" + workers + " blockCommit=" + blockCommit;
        }
    }

    /**
     * One measured run: committed source transactions, wall and process CPU nanoseconds, when it ran, and (with JFR) the
     * CPU samples taken in it, all and those in checkpoint code.
     */
    record Run(int round, int position, Config config, long transactions, long wallNanos, long cpuNanos, Instant start,
            Instant end, long[] samples) {
        Run(int round, int position, Config config, long transactions, long wallNanos, long cpuNanos) {
            this(round, position, config, transactions, wallNanos, cpuNanos, Instant.EPOCH, Instant.EPOCH, new long[2]);
        }

        double tps() {
            return transactions / (wallNanos / 1e9);
        }

        double cpuPerTransaction() {
            return (double) cpuNanos / transactions;
        }
    }

    /** The figures of one (workers, block commit) pair over the measured rounds. */
    record Summary(int workers, int blockCommit, double tpsWith, double tpsWithout, double wallCost,
            double wallCostQ1, double wallCostQ3, double cpuUsWith, double cpuUsWithout, double cpuCost, double cpuCostQ1,
            double cpuCostQ3, int rounds, double sampleShareWith, double sampleShareWithout, long samplesWith) {
    }

    public static void main(String[] args) throws Exception {
        run(args);
        System.exit(0); // H2's and the pipelines' leftover threads must not keep the JVM alive
    }

    /** Runs the probe with {@code args} (see the class comment), prints the table and writes the JSON; returns its path. */
    static Path run(String[] args) throws Exception {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"); // not a line per pipeline run
        }
        Map<String, String> opt = options(args);
        int rounds = Integer.parseInt(opt.get("--rounds"));
        int warmup = Integer.parseInt(opt.get("--warmup"));
        List<String> checkpoints = List.of(opt.get("--checkpoint").split(","));
        List<Integer> workers = ints(opt.get("--workers"));
        List<Integer> blockCommits = ints(opt.get("--block-commit"));
        Path out = Path.of(opt.get("-o"));
        long seed = Long.parseLong(opt.get("--seed"));
        if (rounds < 1 || warmup < 0) {
            throw new IllegalArgumentException("--rounds >= 1 and --warmup >= 0");
        }

        List<Config> grid = new ArrayList<>();
        Map<Config, ApplyThroughput> benches = new LinkedHashMap<>();
        for (String cp : checkpoints) {
            for (int w : workers) {
                for (int bc : blockCommits) {
                    Config c = new Config(cp, w, bc);
                    ApplyThroughput b = new ApplyThroughput();
                    b.model = "h2";
                    b.workload = opt.get("--workload");
                    b.transactions = Integer.parseInt(opt.get("--transactions"));
                    b.scheduler = opt.get("--scheduler");
                    b.commitOrder = opt.get("--commit-order");
                    b.checkpoint = cp;
                    b.workers = w;
                    b.blockCommit = bc;
                    b.prepare();
                    grid.add(c);
                    benches.put(c, b);
                }
            }
        }
        long cpuResolution = cpuTimeResolution();
        int jfrPeriodMs = Integer.parseInt(opt.get("--jfr"));
        Recording recording = null;
        if (jfrPeriodMs > 0) {
            recording = new Recording();
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(jfrPeriodMs));
            recording.setToDisk(true);
            recording.start();
        }
        String command = commandLine(args);
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String uptimeBefore = uptime();
        System.out.println("command: " + command);
        System.out.println("load before: " + uptimeBefore);
        System.out.printf(Locale.ROOT, "%d configurations, %d warmup + %d measured rounds, shuffled (seed %d); process"
                + " CPU time resolution %.1f ms%n", grid.size(), warmup, rounds, seed, cpuResolution / 1e6);

        Random shuffle = new Random(seed);
        List<Run> runs = new ArrayList<>();
        for (int round = 1 - warmup; round <= rounds; round++) {
            List<Config> order = new ArrayList<>(grid);
            Collections.shuffle(order, shuffle);
            long roundStart = System.nanoTime();
            for (int k = 0; k < order.size(); k++) {
                Run r = once(benches.get(order.get(k)), order.get(k), round, k);
                if (round >= 1) {
                    runs.add(r);
                }
            }
            System.out.printf(Locale.ROOT, "%s %d: %.1f s%n", round < 1 ? "warmup" : "round", round < 1
                    ? round + warmup : round, (System.nanoTime() - roundStart) / 1e9);
        }
        String uptimeAfter = uptime();
        Instant finished = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Map<Integer, Map<String, Long>> frames = new TreeMap<>();
        if (recording != null) {
            recording.stop();
            Path jfr = Files.createTempFile("lanes-checkpoint-probe", ".jfr");
            try {
                recording.dump(jfr);
                frames = countSamples(jfr, runs);
            } finally {
                recording.close();
                Files.deleteIfExists(jfr);
            }
        }

        List<Summary> summaries = summarise(runs, workers, blockCommits, rounds);
        System.out.println();
        System.out.println(table(summaries));
        frames.forEach((bc, byFrame) -> System.out.println("checkpoint CPU samples by outermost checkpoint frame, block"
                + " commit " + bc + " (checkpoint table runs): " + byFrame));
        System.out.println("load after: " + uptimeAfter);
        if (out.toAbsolutePath().getParent() != null) {
            Files.createDirectories(out.toAbsolutePath().getParent());
        }
        Files.writeString(out, json(command, started, finished, uptimeBefore, uptimeAfter, opt, rounds, warmup, seed,
                summaries, runs, cpuResolution, jfrPeriodMs, frames), StandardCharsets.UTF_8);
        System.out.println("wrote " + out);
        return out;
    }

    /**
     * The step of the process CPU clock (on Linux {@code getProcessCpuTime} counts clock ticks, 10 ms): a run's CPU
     * time is this coarse at each end, which the median over rounds evens out. Spins for at most a second.
     */
    private static long cpuTimeResolution() {
        long end = System.nanoTime() + 1_000_000_000L;
        long first = OS.getProcessCpuTime();
        long changed = first;
        while (changed == first && System.nanoTime() < end) {
            changed = OS.getProcessCpuTime();
        }
        long next = changed;
        while (next == changed && System.nanoTime() < end) {
            next = OS.getProcessCpuTime();
        }
        return next - changed;
    }

    private static Run once(ApplyThroughput bench, Config config, int round, int position) throws Exception {
        bench.freshDatabase();
        System.gc(); // the previous run's garbage (a dropped database) is not this run's cost
        ApplyThroughput.Committed committed = new ApplyThroughput.Committed();
        long cpu0 = OS.getProcessCpuTime();
        long t0 = System.nanoTime();
        bench.applyFile(committed);
        long wall = System.nanoTime() - t0;
        long cpu = OS.getProcessCpuTime() - cpu0;
        Instant end = Instant.now();
        bench.dropDatabase();
        if (committed.transactions <= 0) {
            throw new IllegalStateException(config.label() + ": nothing committed");
        }
        return new Run(round, position, config, committed.transactions, wall, cpu, end.minusNanos(wall), end,
                new long[2]);
    }

    /**
     * Counts the recording's execution samples into the runs they fell in ({@code samples[0]} all, {@code samples[1]}
     * those with a checkpoint frame on the stack) and returns, per block commit, the checkpoint samples of the
     * checkpoint table runs by their outermost checkpoint frame.
     */
    static Map<Integer, Map<String, Long>> countSamples(Path jfr, List<Run> runs) throws IOException {
        List<Run> byStart = new ArrayList<>(runs);
        byStart.sort(Comparator.comparing(Run::start));
        Map<Integer, Map<String, Long>> frames = new TreeMap<>();
        try (RecordingFile f = new RecordingFile(jfr)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
                    continue;
                }
                Run run = runAt(byStart, e.getStartTime());
                if (run == null) {
                    continue;
                }
                run.samples()[0]++;
                String outermost = null;
                for (RecordedFrame frame : e.getStackTrace().getFrames()) {
                    String frameName = checkpointFrame(frame);
                    if (frameName != null) {
                        outermost = frameName; // frames run from the leaf outwards: keep the last
                    }
                }
                if (outermost != null) {
                    run.samples()[1]++;
                    if (run.config().checkpoint().equals("table")) {
                        frames.computeIfAbsent(run.config().blockCommit(), k -> new TreeMap<>()).merge(outermost, 1L,
                                Long::sum);
                    }
                }
            }
        }
        return frames;
    }

    private static Run runAt(List<Run> byStart, Instant t) {
        int lo = 0;
        int hi = byStart.size() - 1;
        Run found = null;
        while (lo <= hi) { // the last run starting at or before t
            int mid = (lo + hi) >>> 1;
            if (!byStart.get(mid).start().isAfter(t)) {
                found = byStart.get(mid);
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found != null && !found.end().isBefore(t) ? found : null;
    }

    /**
     * "Type.method" when {@code frame} is checkpoint code: the checkpoint package (the table, the row encoding), the
     * JDBC checkpoint store (load at start, the low-water mark) and the applier's preparing of the checkpoint upsert.
     */
    static String checkpointFrame(RecordedFrame frame) {
        if (frame.getMethod() == null || frame.getMethod().getType() == null) {
            return null;
        }
        String type = frame.getMethod().getType().getName();
        String method = frame.getMethod().getName();
        boolean checkpoint = type.startsWith("io.lanes.applier.checkpoint.")
                || type.equals("io.lanes.applier.internal.JdbcCheckpointStore")
                || type.equals("io.lanes.applier.jdbc.JdbcApplier") && method.equals("checkpointStatement");
        return checkpoint ? type.substring(type.lastIndexOf('.') + 1) + "." + method : null;
    }

    static List<Summary> summarise(List<Run> runs, List<Integer> workers, List<Integer> blockCommits, int rounds) {
        List<Summary> out = new ArrayList<>();
        for (int w : workers) {
            for (int bc : blockCommits) {
                List<Double> tpsWith = new ArrayList<>();
                List<Double> tpsWithout = new ArrayList<>();
                List<Double> cpuWith = new ArrayList<>();
                List<Double> cpuWithout = new ArrayList<>();
                List<Double> wallCost = new ArrayList<>();
                List<Double> cpuCost = new ArrayList<>();
                long[] with = new long[2];
                long[] without = new long[2];
                for (int round = 1; round <= rounds; round++) {
                    Run t = find(runs, round, "table", w, bc);
                    Run n = find(runs, round, "none", w, bc);
                    if (t != null) {
                        tpsWith.add(t.tps());
                        cpuWith.add(t.cpuPerTransaction() / 1e3);
                        with[0] += t.samples()[0];
                        with[1] += t.samples()[1];
                    }
                    if (n != null) {
                        tpsWithout.add(n.tps());
                        cpuWithout.add(n.cpuPerTransaction() / 1e3);
                        without[0] += n.samples()[0];
                        without[1] += n.samples()[1];
                    }
                    if (t != null && n != null) {
                        wallCost.add(1 - t.tps() / n.tps());
                        cpuCost.add(1 - n.cpuPerTransaction() / t.cpuPerTransaction());
                    }
                }
                if (tpsWith.isEmpty() && tpsWithout.isEmpty()) {
                    continue;
                }
                // The median of 1 - x is 1 - the median of x: the cost is the median of the paired ratios.
                out.add(new Summary(w, bc, quantile(tpsWith, 0.5), quantile(tpsWithout, 0.5), quantile(wallCost, 0.5),
                        quantile(wallCost, 0.25), quantile(wallCost, 0.75), quantile(cpuWith, 0.5),
                        quantile(cpuWithout, 0.5), quantile(cpuCost, 0.5), quantile(cpuCost, 0.25),
                        quantile(cpuCost, 0.75), wallCost.size(), share(with), share(without), with[0]));
            }
        }
        return out;
    }

    private static double share(long[] samples) {
        return samples[0] == 0 ? Double.NaN : (double) samples[1] / samples[0];
    }

    private static Run find(List<Run> runs, int round, String checkpoint, int workers, int blockCommit) {
        for (Run r : runs) {
            if (r.round() == round && r.config().checkpoint().equals(checkpoint) && r.config().workers() == workers
                    && r.config().blockCommit() == blockCommit) {
                return r;
            }
        }
        return null;
    }

    /** Linear-interpolated quantile (q = 0.5: the median); NaN for no values. */
    static double quantile(List<Double> values, double q) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double pos = q * (v.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(lo + 1, v.length - 1);
        return v[lo] + (pos - lo) * (v[hi] - v[lo]);
    }

    static String table(List<Summary> summaries) {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT,
                "%7s %12s %10s %10s %20s %11s %11s %20s %6s %14s%n", "workers", "blockCommit", "tps with", "tps w/o",
                "wall cost [q1, q3]", "CPU us/tx w", "CPU us/tx o", "CPU cost [q1, q3]", "rounds", "ckpt samples"));
        for (Summary s : summaries) {
            t.append(String.format(Locale.ROOT, "%7d %12d %10.0f %10.0f %20s %11.1f %11.1f %20s %6d %5.1f%% of %d%n",
                    s.workers(), s.blockCommit(), s.tpsWith(), s.tpsWithout(),
                    pct(s.wallCost(), s.wallCostQ1(), s.wallCostQ3()), s.cpuUsWith(), s.cpuUsWithout(),
                    pct(s.cpuCost(), s.cpuCostQ1(), s.cpuCostQ3()), s.rounds(), 100 * s.sampleShareWith(),
                    s.samplesWith()));
        }
        return t.toString();
    }

    private static String pct(double median, double q1, double q3) {
        return String.format(Locale.ROOT, "%.1f%% [%.1f, %.1f]", 100 * median, 100 * q1, 100 * q3);
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("--rounds", "15");
        o.put("--warmup", "10");
        o.put("--checkpoint", "table,none");
        o.put("--workers", "0,4");
        o.put("--block-commit", "1,256");
        o.put("--workload", "uniform10");
        o.put("--transactions", "2000");
        o.put("--scheduler", "schema");
        o.put("--commit-order", "partition");
        o.put("--seed", "4");
        o.put("--jfr", "1");
        o.put("-o", DEFAULT_OUTPUT);
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("-h") || args[i].equals("--help")) {
                System.out.println("options (defaults): " + o);
                System.exit(0);
            }
            if (!o.containsKey(args[i]) || i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option or missing value: " + args[i] + "; options: "
                        + o.keySet());
            }
            o.put(args[i], args[++i]);
        }
        return o;
    }

    private static List<Integer> ints(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).map(Integer::valueOf).toList();
    }

    /** This JVM's command line as the OS reports it, or the probe's own form with the given arguments. */
    private static String commandLine(String[] args) {
        return ProcessHandle.current().info().commandLine()
                .orElse("java -cp jmh/target/benchmarks.jar " + CheckpointCostProbe.class.getName() + " "
                        + String.join(" ", args)).strip();
    }

    private static String uptime() {
        try {
            Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && !s.isEmpty()) {
                return s;
            }
        } catch (IOException e) {
            // fall through to /proc/loadavg
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            return "loadavg " + Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String json(String command, Instant started, Instant finished, String uptimeBefore,
            String uptimeAfter, Map<String, String> opt, int rounds, int warmup, long seed, List<Summary> summaries,
            List<Run> runs, long cpuResolution, int jfrPeriodMs, Map<Integer, Map<String, Long>> frames) {
        StringBuilder j = new StringBuilder("{\n");
        j.append("  \"probe\": ").append(str(CheckpointCostProbe.class.getName())).append(",\n");
        j.append("  \"command\": ").append(str(command)).append(",\n");
        j.append("  \"started\": ").append(str(started.toString())).append(",\n");
        j.append("  \"finished\": ").append(str(finished.toString())).append(",\n");
        j.append("  \"uptimeBefore\": ").append(str(uptimeBefore)).append(",\n");
        j.append("  \"uptimeAfter\": ").append(str(uptimeAfter)).append(",\n");
        j.append("  \"processors\": ").append(Runtime.getRuntime().availableProcessors()).append(",\n");
        j.append("  \"java\": ").append(str(System.getProperty("java.vm.name") + " " + System.getProperty("java.version")))
                .append(",\n");
        j.append("  \"cpuTimeResolutionNanos\": ").append(cpuResolution).append(",\n");
        j.append("  \"jfrSamplePeriodMillis\": ").append(jfrPeriodMs).append(",\n");
        j.append("  \"model\": \"h2\",\n");
        j.append("  \"workload\": ").append(str(opt.get("--workload"))).append(",\n");
        j.append("  \"transactions\": ").append(Integer.parseInt(opt.get("--transactions"))).append(",\n");
        j.append("  \"scheduler\": ").append(str(opt.get("--scheduler"))).append(",\n");
        j.append("  \"commitOrder\": ").append(str(opt.get("--commit-order"))).append(",\n");
        j.append("  \"rounds\": ").append(rounds).append(",\n");
        j.append("  \"warmupRounds\": ").append(warmup).append(",\n");
        j.append("  \"shuffleSeed\": ").append(seed).append(",\n");
        j.append("  \"costDefinition\": ").append(str("wallCost = 1 - median over rounds of tps(table) / tps(none) of the"
                + " same round; cpuCost = 1 - median of cpuPerTransaction(none) / cpuPerTransaction(table)")).append(",\n");
        j.append("  \"results\": [\n");
        for (int i = 0; i < summaries.size(); i++) {
            Summary s = summaries.get(i);
            j.append("    {\"workers\": ").append(s.workers()).append(", \"blockCommit\": ").append(s.blockCommit())
                    .append(", \"tpsWith\": ").append(num(s.tpsWith())).append(", \"tpsWithout\": ")
                    .append(num(s.tpsWithout())).append(", \"wallCost\": ").append(num(s.wallCost()))
                    .append(", \"wallCostQ1\": ").append(num(s.wallCostQ1())).append(", \"wallCostQ3\": ")
                    .append(num(s.wallCostQ3())).append(", \"cpuMicrosPerTransactionWith\": ").append(num(s.cpuUsWith()))
                    .append(", \"cpuMicrosPerTransactionWithout\": ").append(num(s.cpuUsWithout()))
                    .append(", \"cpuCost\": ").append(num(s.cpuCost())).append(", \"cpuCostQ1\": ")
                    .append(num(s.cpuCostQ1())).append(", \"cpuCostQ3\": ").append(num(s.cpuCostQ3()))
                    .append(", \"rounds\": ").append(s.rounds()).append(", \"checkpointSampleShareWith\": ")
                    .append(num(s.sampleShareWith())).append(", \"checkpointSampleShareWithout\": ")
                    .append(num(s.sampleShareWithout())).append(", \"samplesWith\": ").append(s.samplesWith())
                    .append('}')
                    .append(i + 1 < summaries.size() ? ",\n" : "\n");
        }
        j.append("  ],\n  \"checkpointSamplesByFrame\": {");
        int k = 0;
        for (Map.Entry<Integer, Map<String, Long>> e : frames.entrySet()) {
            j.append(k++ == 0 ? "\n" : ",\n").append("    ").append(str("blockCommit " + e.getKey())).append(": {");
            int m = 0;
            for (Map.Entry<String, Long> f : e.getValue().entrySet()) {
                j.append(m++ == 0 ? "" : ", ").append(str(f.getKey())).append(": ").append(f.getValue());
            }
            j.append('}');
        }
        j.append(k == 0 ? "},\n" : "\n  },\n");
        j.append("  \"runs\": [\n");
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            j.append("    {\"round\": ").append(r.round()).append(", \"position\": ").append(r.position())
                    .append(", \"checkpoint\": ").append(str(r.config().checkpoint())).append(", \"workers\": ")
                    .append(r.config().workers()).append(", \"blockCommit\": ").append(r.config().blockCommit())
                    .append(", \"transactions\": ").append(r.transactions()).append(", \"wallNanos\": ")
                    .append(r.wallNanos()).append(", \"cpuNanos\": ").append(r.cpuNanos()).append(", \"samples\": ")
                    .append(r.samples()[0]).append(", \"checkpointSamples\": ").append(r.samples()[1]).append('}')
                    .append(i + 1 < runs.size() ? ",\n" : "\n");
        }
        j.append("  ]\n}\n");
        return j.toString();
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "\"NaN\"";
    }

    static String str(String s) {
        return io.lanes.jmh.report.MiniJson.quote(s);
    }
}
