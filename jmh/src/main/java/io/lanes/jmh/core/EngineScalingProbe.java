package io.lanes.jmh.core;

import io.lanes.testkit.Workloads;
import io.lanes.core.CommitOrder;
import io.lanes.core.Engine;
import io.lanes.core.Transaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Issue 3's scaling goals measured so that a shared, noisy machine hurts every worker count alike. The JMH suites
 * ({@link EngineNoOpApplyThroughput}, {@link EngineFixedLatencyScaling}) run one worker count after another, so a burst
 * of other load (another process, a build) lands on whichever count is running then: in one run worker counts that do
 * exactly the same work (with a no-op apply, every count keeps all work on its first worker) differed by 3x. Here one
 * engine per worker count is started and kept running, and every round measures each of them once, in a shuffled
 * order (fixed seed); a count's figure is its median over rounds.
 *
 * <p>With {@code --fork true} each engine runs in a JVM of its own (a child process started by the probe, warmed up,
 * idle while another is measured), as JMH forks a JVM per configuration, so that no count runs code the JIT compiled
 * for another's profile. That is not the default: on these machines identical JVMs differ by up to a third, and that
 * difference stays with a count through every round (measured: the sequential scheduler, which does the same at every
 * count, at 7.5 M/s in one count's JVM and 10.2 M/s in another's), where in one JVM every count runs the same
 * compiled code.
 *
 * <p>One measurement streams the model's pre-built batches into an engine, two batches in flight (submit one, wait
 * for the one before it, as a continuous binlog would), for {@code --millis}; its figure is the low-water mark's
 * advance over that time: transactions committed per second in steady state, without a start or a final drain.
 *
 * <p>Two apply models: {@code noop} (the engine's own cost; 64 independent lanes, batches of 20,000) and
 * {@code latency} (each apply parks 1 ms, like a round trip to a database; 10 independent lanes, batches of 200).
 * Goals reported from the medians: 1024 workers at least 90% of the best count (both models, every scheduler), and 10
 * workers at least 9x one worker (latency model, partitions). Each count also records how many of its workers applied
 * anything during a measurement (median over rounds: {@code workersUsed}; a worker that seems stuck for a
 * moment, descheduled or in a GC pause, makes cheap work spread for that moment): with a no-op apply the engine should keep all work on its
 * first (processors - 1) workers whatever the count.
 *
 * <pre>{@code java -cp jmh/target/benchmarks.jar io.lanes.jmh.core.EngineScalingProbe [options]}</pre>
 *
 * Options (defaults in brackets): {@code --apply LIST} [noop,latency], {@code --models LIST}
 * [partition,logical-clock,writeset, plus sequential for noop], {@code --rounds N} [7], {@code --latency-rounds N}
 * [as --rounds; a round of the latency model takes about 9 s per scheduler], {@code --warmup N} rounds
 * discarded [2], {@code --millis N} per measurement [noop 400, latency 600], {@code --seed N} [3] (the shuffle),
 * {@code --fork true|false} [false] (a JVM per worker count, started with this JVM's options), {@code --fresh
 * true|false} [true] (in this JVM: a fresh engine for every measurement, see {@link FreshStream}; false: one engine per
 * count for the whole run),
 * {@code --child-warmup-millis N} [noop 10000, latency 3000] (each child's warm-up before the first round, at most 3
 * million transactions for noop, 5,000 for latency; the children of a model warm up side by side),
 * {@code -o FILE} [docs/bench/core-probe.json]. The JSON holds every measurement, the medians, the command line, the
 * times and {@code uptime} before and after.
 */
public final class EngineScalingProbe {
    /** Where the report ({@code io.lanes.jmh.report.BenchReport}) looks for the probe's result. */
    public static final String DEFAULT_OUTPUT = "docs/bench/core-probe.json";

    static final int[] NOOP_WORKERS = {1, 2, 4, 8, 16, 64, 256, 1024};
    static final int[] LATENCY_WORKERS = {1, 2, 4, 8, 10, 16, 64, 256, 1024};

    private EngineScalingProbe() {
    }

    /** One apply model's setup: lanes, batch size, per-apply park, worker counts. */
    record ApplyModel(String name, int streams, int batch, long applyNanos, int[] workers, long millis) {
    }

    /** One measurement. */
    record Measurement(String apply, String model, int workers, int round, int position, double tps,
            int workersUsed) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals(CHILD)) {
            child(args);
            return;
        }
        Map<String, String> o = options(args);
        Hosting hosting = Boolean.parseBoolean(o.getOrDefault("--fork", "false")) ? Hosting.FORKED
                : Boolean.parseBoolean(o.getOrDefault("--fresh", "true")) ? Hosting.FRESH : Hosting.LONG_LIVED;
        int rounds = Integer.parseInt(o.getOrDefault("--rounds", "7"));
        int warmup = Integer.parseInt(o.getOrDefault("--warmup", "2"));
        long seed = Long.parseLong(o.getOrDefault("--seed", "3"));
        Path out = Path.of(o.getOrDefault("-o", DEFAULT_OUTPUT));
        List<String> applies = List.of(o.getOrDefault("--apply", "noop,latency").split(","));
        String uptimeBefore = uptime();
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<Measurement> all = new ArrayList<>();
        for (String apply : applies) {
            ApplyModel am = switch (apply) {
                case "noop" -> new ApplyModel("noop", 64, 20_000, 0, NOOP_WORKERS,
                        Long.parseLong(o.getOrDefault("--millis", "400")));
                case "latency" -> new ApplyModel("latency", 10, 200, 1_000_000, LATENCY_WORKERS,
                        Long.parseLong(o.getOrDefault("--millis", "600")));
                default -> throw new IllegalArgumentException("--apply: noop or latency, not " + apply);
            };
            String defaultModels = apply.equals("noop") ? "partition,logical-clock,writeset,sequential"
                    : "partition,logical-clock,writeset";
            int r = apply.equals("latency") ? Integer.parseInt(o.getOrDefault("--latency-rounds", "" + rounds)) : rounds;
            for (String model : o.getOrDefault("--models", defaultModels).split(",")) {
                long childWarmup = o.containsKey("--child-warmup-millis")
                        ? Long.parseLong(o.get("--child-warmup-millis")) : am.applyNanos() == 0 ? 10_000 : 3_000;
                all.addAll(probe(am, model, r, warmup, new Random(seed), hosting, childWarmup));
            }
        }
        Instant finished = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String json = json(commandLine(args), started, finished, uptimeBefore, uptime(), all, warmup);
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, json, StandardCharsets.UTF_8);
        System.out.println("wrote " + out);
    }

    /** Where the engines of one probe run: see {@link Stream}, {@link FreshStream}, {@link ForkedStream}. */
    enum Hosting {
        /** One engine per count in this JVM, kept for the whole run. */
        LONG_LIVED,
        /** A fresh engine in this JVM for every measurement (the default). */
        FRESH,
        /** One child JVM per count, kept for the whole run. */
        FORKED
    }

    /** One model's rounds; a forked child warms up for up to {@code childWarmupMillis} (ignored otherwise). */
    static List<Measurement> probe(ApplyModel am, String model, int rounds, int warmup, Random shuffle, Hosting hosting,
            long childWarmupMillis) throws InterruptedException, IOException {
        boolean fork = hosting == Hosting.FORKED;
        Map<Integer, Probed> engines = new LinkedHashMap<>();
        List<Measurement> kept = new ArrayList<>();
        try {
            Transaction<Object>[] txns = fork ? null : Workloads.engineTransactions(model, am.batch(), am.streams());
            for (int w : am.workers()) {
                engines.put(w, fork ? new ForkedStream(am, model, w, childWarmupMillis)
                        : hosting == Hosting.FRESH ? new FreshStream(am, model, w, txns)
                        : new Stream(startEngine(am, model, w), txns));
            }
            for (Probed p : engines.values()) {
                if (p instanceof ForkedStream f) {
                    f.awaitReady();
                }
            }
            List<Integer> order = new ArrayList<>(engines.keySet());
            for (int round = 0; round < warmup + rounds; round++) {
                Collections.shuffle(order, shuffle);
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s %s round %d%s:", am.name(),
                        model, round, round < warmup ? " (warm-up)" : ""));
                for (int i = 0; i < order.size(); i++) {
                    int w = order.get(i);
                    Probed stream = engines.get(w);
                    double tps = stream.measure(am.millis());
                    line.append(String.format(Locale.ROOT, " %d=%.0f", w, tps));
                    if (round >= warmup) {
                        kept.add(new Measurement(am.name(), model, w, round - warmup, i, tps, stream.workersUsed()));
                    }
                }
                System.out.println(line);
            }
        } finally {
            for (Probed s : engines.values()) {
                s.close();
            }
        }
        Map<Integer, Double> medians = new LinkedHashMap<>();
        for (int w : am.workers()) {
            medians.put(w, median(kept.stream().filter(m -> m.workers() == w).mapToDouble(Measurement::tps).toArray()));
        }
        System.out.println(am.name() + " " + model + " medians: " + medians);
        return kept;
    }

    private static Engine<Object> startEngine(ApplyModel am, String model, int workers) {
        Engine<Object> e = Engine.builder(x -> new ParkingApplier(am.applyNanos()))
                .scheduler(Workloads.engineScheduler(model)).workers(workers).commitOrder(CommitOrder.NONE)
                .name("probe-" + workers).build();
        e.start();
        return e;
    }

    /** An engine of one worker count, measured on request. */
    interface Probed extends AutoCloseable {
        /** Streams for about {@code millis} and returns committed transactions per second. */
        double measure(long millis) throws InterruptedException, IOException;

        /** Workers that applied at least one transaction during the last measurement. */
        int workersUsed();

        @Override
        void close();
    }

    private static final String CHILD = "--child";

    /**
     * A fresh engine for every measurement: started, fed for {@link #SETTLE_MILLIS} unmeasured, measured, closed. Where
     * an engine's objects fall in memory decides which of them share cache lines, and with a no-op apply that is worth
     * a fifth of the throughput: an engine kept for every round keeps its luck in every round (in one run, counts that
     * do the same work came out 15-20% apart, each steady across rounds), while a fresh one draws again each round and
     * the median over rounds evens it out. The JIT's warm-up is the JVM's, shared by all counts.
     */
    static final class FreshStream implements Probed {
        static final long SETTLE_MILLIS = 150;
        private final ApplyModel am;
        private final String model;
        private final int workers;
        private final Transaction<Object>[] txns;
        private int lastUsed;

        FreshStream(ApplyModel am, String model, int workers, Transaction<Object>[] txns) {
            this.am = am;
            this.model = model;
            this.workers = workers;
            this.txns = txns;
        }

        @Override
        public double measure(long millis) throws InterruptedException {
            try (Stream s = new Stream(startEngine(am, model, workers), txns)) {
                s.measure(SETTLE_MILLIS);
                double tps = s.measure(millis);
                lastUsed = s.workersUsed();
                return tps;
            }
        }

        @Override
        public int workersUsed() {
            return lastUsed;
        }

        @Override
        public void close() {
        }
    }

    /**
     * A {@link Stream} in a child JVM. Protocol, one line each: the child prints {@code ready} once its engine
     * started; then for each {@code measure MILLIS} it reads, it prints {@code result TPS WORKERS_USED}; {@code quit}
     * closes the engine and ends it.
     */
    static final class ForkedStream implements Probed {
        private final Process process;
        private final java.io.BufferedReader out;
        private final java.io.PrintStream in;
        private int lastUsed;

        ForkedStream(ApplyModel am, String model, int workers, long warmupMillis) throws IOException {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                // The probe's own heap and compiler settings, not its debugger, agents or recordings.
                if (!a.startsWith("-agentlib") && !a.startsWith("-javaagent") && !a.startsWith("-Xrunjdwp")
                        && !a.contains("FlightRecord")) {
                    cmd.add(a);
                }
            }
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), EngineScalingProbe.class.getName(), CHILD,
                    model, Integer.toString(workers), Integer.toString(am.streams()), Integer.toString(am.batch()),
                    Long.toString(am.applyNanos()), Long.toString(warmupMillis)));
            process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            out = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            in = new java.io.PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
            this.model = model;
            this.workers = workers;
        }

        private final String model;
        private final int workers;

        /** Waits for the child's engine to start and warm up (children of one model warm up side by side). */
        ForkedStream awaitReady() throws IOException {
            String first = out.readLine();
            if (!"ready".equals(first)) {
                close();
                throw new IOException("the probe's child for " + model + " at " + workers + " workers did not start: "
                        + first);
            }
            return this;
        }

        @Override
        public double measure(long millis) throws IOException {
            in.println("measure " + millis);
            String line = out.readLine();
            String[] f = line == null ? new String[0] : line.split(" ");
            if (f.length != 3 || !f[0].equals("result")) {
                throw new IOException("the probe's child answered " + line);
            }
            lastUsed = Integer.parseInt(f[2]);
            return Double.parseDouble(f[1]);
        }

        @Override
        public int workersUsed() {
            return lastUsed;
        }

        @Override
        public void close() {
            in.println("quit");
            in.close();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The child JVM's side of {@link ForkedStream}. */
    private static void child(String[] args) throws Exception {
        String model = args[1];
        int workers = Integer.parseInt(args[2]);
        ApplyModel am = new ApplyModel("child", Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                Long.parseLong(args[5]), new int[] {workers}, 0);
        java.io.BufferedReader commands = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                StandardCharsets.UTF_8));
        try (Stream stream = new Stream(startEngine(am, model, workers), Workloads.engineTransactions(model, am.batch(),
                am.streams()))) {
            // Warm up before the first measurement, so the JIT compiled this JVM's code before any round counts: a
            // child is measured for a fraction of a second per round, and its first rounds ran at a third of its
            // later rate without this. All children of a model warm up at once, so the time bound is generous.
            long warmUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[6]));
            long warmTransactions = 0;
            while (System.nanoTime() < warmUntil && warmTransactions < (am.applyNanos() == 0 ? 3_000_000 : 5_000)) {
                warmTransactions += Math.round(stream.measure(200) * 0.2);
            }
            System.out.println("ready");
            System.out.flush();
            for (String line; (line = commands.readLine()) != null && !line.equals("quit");) {
                double tps = stream.measure(Long.parseLong(line.substring("measure ".length())));
                System.out.println("result " + tps + " " + stream.workersUsed());
                System.out.flush();
            }
        }
    }

    /** One engine fed a continuous stream: two batches in flight, as from a binlog. */
    static final class Stream implements Probed {
        final Engine<Object> engine;
        final Transaction<Object>[] txns;
        private int lastUsed;

        Stream(Engine<Object> engine, Transaction<Object>[] txns) {
            this.engine = engine;
            this.txns = txns;
        }

        /** Streams for about {@code millis} and returns the low-water mark's advance per second; drains after. */
        @Override
        public double measure(long millis) throws InterruptedException {
            long previous = submitBatch();
            // Let the pipeline fill before the clock starts: one batch applied with the next one queued.
            long current = submitBatch();
            await(previous);
            previous = current;
            io.lanes.core.EngineStats startStats = engine.stats();
            long startLwm = startStats.lowWaterMark();
            long start = System.nanoTime();
            long deadline = start + TimeUnit.MILLISECONDS.toNanos(millis);
            long endLwm;
            long end;
            while (true) {
                current = submitBatch();
                await(previous);
                previous = current;
                long now = System.nanoTime();
                if (now >= deadline) {
                    io.lanes.core.EngineStats endStats = engine.stats();
                    endLwm = endStats.lowWaterMark();
                    end = System.nanoTime();
                    lastUsed = 0;
                    for (int w = 0; w < endStats.workers().size(); w++) {
                        long before = w < startStats.workers().size() ? startStats.workers().get(w).transactions() : 0;
                        if (endStats.workers().get(w).transactions() > before) {
                            lastUsed++;
                        }
                    }
                    break;
                }
            }
            await(previous);
            return (endLwm - startLwm) * 1e9 / (end - start);
        }

        @Override
        public int workersUsed() {
            return lastUsed;
        }

        @Override
        public void close() {
            try {
                engine.close();
            } catch (InterruptedException e) {
                engine.abort();
                Thread.currentThread().interrupt();
            }
        }

        private long submitBatch() throws InterruptedException {
            long last = 0;
            for (Transaction<Object> t : txns) {
                last = engine.submit(t);
            }
            return last;
        }

        private void await(long seq) throws InterruptedException {
            if (!engine.awaitLowWaterMark(seq, Duration.ofMinutes(1))) {
                throw new IllegalStateException("engine stalled at " + engine.stats());
            }
        }
    }

    static double median(double[] values) {
        return io.lanes.jmh.report.BenchReport.median(values);
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("-") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected an option and its value at " + args[i]);
            }
            o.put(args[i], args[++i]);
        }
        return o;
    }

    private static String commandLine(String[] args) {
        return "java -cp jmh/target/benchmarks.jar " + EngineScalingProbe.class.getName()
                + (args.length == 0 ? "" : " " + String.join(" ", args));
    }

    private static String uptime() {
        try {
            Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            return s;
        } catch (IOException e) {
            return "(uptime unavailable: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    private static String json(String command, Instant started, Instant finished, String uptimeBefore,
            String uptimeAfter, List<Measurement> all, int warmup) {
        StringBuilder j = new StringBuilder("{\n");
        j.append("  \"command\": ").append(str(command)).append(",\n");
        j.append("  \"started\": ").append(str(started.toString())).append(",\n");
        j.append("  \"finished\": ").append(str(finished.toString())).append(",\n");
        j.append("  \"uptimeBefore\": ").append(str(uptimeBefore)).append(",\n");
        j.append("  \"uptimeAfter\": ").append(str(uptimeAfter)).append(",\n");
        j.append("  \"warmupRounds\": ").append(warmup).append(",\n");
        j.append("  \"medians\": [\n");
        Map<String, List<Measurement>> byKey = new LinkedHashMap<>();
        for (Measurement m : all) {
            byKey.computeIfAbsent(m.apply() + "\u0000" + m.model() + "\u0000" + m.workers(), k -> new ArrayList<>())
                    .add(m);
        }
        int i = 0;
        for (List<Measurement> ms : byKey.values()) {
            Measurement f = ms.get(0);
            double[] tps = ms.stream().mapToDouble(Measurement::tps).toArray();
            j.append("    {\"apply\": ").append(str(f.apply())).append(", \"model\": ").append(str(f.model()))
                    .append(", \"workers\": ").append(f.workers()).append(", \"median\": ").append(num(median(tps)))
                    .append(", \"workersUsed\": ").append(num(median(ms.stream().mapToDouble(Measurement::workersUsed).toArray())))
                    .append(", \"rounds\": [");
            for (int k = 0; k < tps.length; k++) {
                j.append(k == 0 ? "" : ", ").append(num(tps[k]));
            }
            j.append("]}").append(++i < byKey.size() ? ",\n" : "\n");
        }
        j.append("  ]\n}\n");
        return j.toString();
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f", v) : "null";
    }

    private static String str(String s) {
        return io.lanes.jmh.report.MiniJson.quote(s);
    }
}
