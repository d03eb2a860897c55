package io.lanes.jmh.apply;

import io.lanes.jmh.report.BenchReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Seed 001's judge, end to end: whole {@link io.lanes.applier.Lanes} pipelines (decode, bridge, schedule, apply, commit,
 * from start to caught up to stop, as {@link ApplyThroughput#applyFile} runs them) at each worker count of each curve
 * (apply model x workload x scheduler), every count measured once per round, all of a round's runs in one shuffled
 * order. JMH runs one configuration after another, so on a shared two-core machine a spell of other load lands on one
 * worker count and decides a ratio (its curves put identical work 15% apart); here it lands on one run of one round,
 * and the ratios are taken within rounds.
 *
 * <p>Runs are sized to measure throughput rather than a pipeline's start: the no-op model applies 20,000 transactions
 * a run (2,000 took 10 ms, half of it the start, the stop and the 120 serial preparation transactions), the CPU model
 * 10,000, the commit-latency model 2,000 (0.1-1.3 s) and H2 the recorded sysbench fixture (10,040).
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.lanes.jmh.apply.ApplyScalingProbe [--rounds 5] [--fast-rounds 15] [--warmup 1]
 *     [--workers 0,1,8,64,1024] [--models noop,cpu,latency,h2] [-o docs/bench/e2e-probe.json]
 * </pre>
 *
 * The commit-latency curves run {@code --rounds} rounds (a round of them takes about 35 s); the no-op, CPU and H2
 * curves, whose runs take 50-250 ms and whose ratios carry more of the machine's noise, run {@code --fast-rounds}: every
 * round holds them, the first {@code --rounds} rounds the latency curves too.
 *
 * <p>Writes one JSON object: the command, start and end times and load, and per curve and worker count the tps of every
 * round (in round order, so that ratios can be paired within a round) and their median.
 */
public final class ApplyScalingProbe {
    /** One curve: an apply model on a workload under a scheduler, with its run size. */
    record Curve(String model, String workload, String scheduler, int transactions) {
        String key() {
            return model + "/" + workload + "/" + scheduler;
        }
    }

    private ApplyScalingProbe() {
    }

    static List<Curve> curves(List<String> models) {
        List<Curve> c = new ArrayList<>();
        for (String model : models) {
            switch (model) {
                case "noop" -> BenchReport.SCHEDULERS.forEach(s -> c.add(new Curve(model, "uniform10", s, 20_000)));
                case "cpu" -> BenchReport.SCHEDULERS.forEach(s -> c.add(new Curve(model, "uniform10", s, 10_000)));
                case "latency" -> {
                    BenchReport.SCHEDULERS.forEach(s -> c.add(new Curve(model, "uniform10", s, 2_000)));
                    for (String w : List.of("skewed", "fkHeavy")) {
                        for (String s : List.of("schema", "writeset")) {
                            c.add(new Curve(model, w, s, 2_000));
                        }
                    }
                }
                case "h2" -> BenchReport.SCHEDULERS.forEach(s -> c.add(new Curve(model, "sysbenchFixture", s, 10_040)));
                default -> throw new IllegalArgumentException("unknown model " + model + " (noop, cpu, latency, h2)");
            }
        }
        return c;
    }

    /** One pipeline run of a curve at a worker count; committed source transactions per second. */
    static double run(Curve c, int workers) throws Exception {
        ApplyThroughput b = ApplyThroughput.configured(c.model(), c.workload(), c.scheduler(), workers,
                c.transactions(), "partition");
        b.freshDatabase();
        try {
            ApplyThroughput.Committed committed = new ApplyThroughput.Committed();
            long t0 = System.nanoTime();
            long n = b.applyFile(committed);
            long t1 = System.nanoTime();
            return n / ((t1 - t0) / 1e9);
        } finally {
            b.dropDatabase();
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("wrote " + write(args));
        System.exit(0); // the pipelines' and H2's threads are done; do not wait for stragglers
    }

    /** Parses the options, measures, writes the JSON; returns where. */
    static Path write(String[] args) throws Exception {
        int rounds = 5;
        int fastRounds = -1;
        int warmup = 1;
        int[] workers = {0, 1, 8, 64, 1024};
        List<String> models = List.of("noop", "cpu", "latency", "h2");
        Path out = Path.of("docs/bench/e2e-probe.json");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--fast-rounds" -> fastRounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--workers" -> workers = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--models" -> models = List.of(args[++i].split(","));
                case "-o" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String command = "java -cp jmh/target/benchmarks.jar " + ApplyScalingProbe.class.getName() + " "
                + String.join(" ", args);
        String json = measure(curves(models), workers, rounds, Math.max(rounds, fastRounds < 0 ? 3 * rounds : fastRounds),
                warmup, command);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, json);
        return out;
    }

    static String measure(List<Curve> curves, int[] workers, int rounds, int fastRounds, int warmup, String command)
            throws Exception {
        String started = Instant.now().toString();
        String loadBefore = uptime();
        double[][][] tps = new double[curves.size()][workers.length][];
        for (int c = 0; c < curves.size(); c++) {
            for (int w = 0; w < workers.length; w++) {
                tps[c][w] = new double[slow(curves.get(c)) ? rounds : fastRounds];
            }
        }
        List<int[]> runs = new ArrayList<>();
        for (int c = 0; c < curves.size(); c++) {
            for (int w = 0; w < workers.length; w++) {
                runs.add(new int[] {c, w});
            }
        }
        Random random = new Random(20261122);
        for (int round = -warmup; round < fastRounds; round++) {
            Collections.shuffle(runs, random);
            long t0 = System.nanoTime();
            for (int[] r : runs) {
                if ((round < 0 || round >= rounds) && slow(curves.get(r[0]))) {
                    // Warm-up is for the JIT, which the fast curves give the same code (a latency round takes
                    // 35 s of parked commits); after their rounds, the latency curves are done.
                    continue;
                }
                double v = run(curves.get(r[0]), workers[r[1]]);
                if (round >= 0) {
                    tps[r[0]][r[1]][round] = v;
                }
            }
            System.out.printf(Locale.ROOT, "%s round %d: %.1f s%n", round < 0 ? "warm-up" : "measured", round,
                    (System.nanoTime() - t0) / 1e9);
        }
        StringBuilder j = new StringBuilder("{\n  \"command\": ").append(quote(command))
                .append(",\n  \"started\": ").append(quote(started))
                .append(",\n  \"finished\": ").append(quote(Instant.now().toString()))
                .append(",\n  \"uptimeBefore\": ").append(quote(loadBefore))
                .append(",\n  \"uptimeAfter\": ").append(quote(uptime()))
                .append(",\n  \"rounds\": ").append(rounds)
                .append(",\n  \"fastRounds\": ").append(fastRounds)
                .append(",\n  \"curves\": [");
        for (int c = 0; c < curves.size(); c++) {
            Curve cv = curves.get(c);
            for (int w = 0; w < workers.length; w++) {
                double[] v = tps[c][w];
                j.append(c == 0 && w == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT,
                        "    {\"model\": \"%s\", \"workload\": \"%s\", \"scheduler\": \"%s\", \"transactions\": %d, "
                                + "\"commitOrder\": \"partition\", \"workers\": %d, \"median\": %.1f, \"rounds\": [%s]}",
                        cv.model(), cv.workload(), cv.scheduler(), cv.transactions(), workers[w],
                        BenchReport.median(v), join(v)));
                System.out.printf(Locale.ROOT, "%-40s %5d workers: %,12.0f tps%n", cv.key(), workers[w],
                        BenchReport.median(v));
            }
        }
        return j.append("\n  ]\n}\n").toString();
    }

    /** The commit-latency curves: a run takes 0.1-1.3 s, and their rounds are fewer. */
    private static boolean slow(Curve c) {
        return c.model().equals("latency");
    }

    private static String join(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double x : v) {
            b.append(b.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", x));
        }
        return b.toString();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ") + "\"";
    }

    private static String uptime() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
