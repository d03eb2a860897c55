package io.lanes.jmh.core;

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
import java.util.Arrays;
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
        Map<String, String> o = options(args);
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
                all.addAll(probe(am, model, r, warmup, new Random(seed)));
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

    static List<Measurement> probe(ApplyModel am, String model, int rounds, int warmup, Random shuffle)
            throws InterruptedException {
        Transaction<Object>[] txns = Workloads.build(model, am.batch(), am.streams());
        Map<Integer, Stream> engines = new LinkedHashMap<>();
        List<Measurement> kept = new ArrayList<>();
        try {
            for (int w : am.workers()) {
                Engine<Object> e = Engine.builder(x -> new ParkingApplier(am.applyNanos()))
                        .scheduler(Workloads.scheduler(model)).workers(w).commitOrder(CommitOrder.NONE)
                        .name("probe-" + w).build();
                e.start();
                engines.put(w, new Stream(e, txns));
            }
            List<Integer> order = new ArrayList<>(engines.keySet());
            for (int round = 0; round < warmup + rounds; round++) {
                Collections.shuffle(order, shuffle);
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s %s round %d%s:", am.name(),
                        model, round, round < warmup ? " (warm-up)" : ""));
                for (int i = 0; i < order.size(); i++) {
                    int w = order.get(i);
                    Stream stream = engines.get(w);
                    double tps = stream.measure(am.millis());
                    line.append(String.format(Locale.ROOT, " %d=%.0f", w, tps));
                    if (round >= warmup) {
                        kept.add(new Measurement(am.name(), model, w, round - warmup, i, tps, stream.workersUsed()));
                    }
                }
                System.out.println(line);
            }
        } finally {
            for (Stream s : engines.values()) {
                s.engine.close();
            }
        }
        Map<Integer, Double> medians = new LinkedHashMap<>();
        for (int w : am.workers()) {
            medians.put(w, median(kept.stream().filter(m -> m.workers() == w).mapToDouble(Measurement::tps).toArray()));
        }
        System.out.println(am.name() + " " + model + " medians: " + medians);
        return kept;
    }

    /** One engine fed a continuous stream: two batches in flight, as from a binlog. */
    static final class Stream {
        final Engine<Object> engine;
        final Transaction<Object>[] txns;
        private int lastUsed;

        Stream(Engine<Object> engine, Transaction<Object>[] txns) {
            this.engine = engine;
            this.txns = txns;
        }

        /** Streams for about {@code millis} and returns the low-water mark's advance per second; drains after. */
        double measure(long millis) throws InterruptedException {
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

        /** Workers that applied at least one transaction during the last measurement. */
        int workersUsed() {
            return lastUsed;
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
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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
