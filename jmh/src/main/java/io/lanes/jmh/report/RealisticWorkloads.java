package io.lanes.jmh.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The section "Realistic logs with the shipped defaults (issue 19)" of {@code docs/benchmarks.md}, drawn from every
 * {@code issue19/*.tsv} of the bench directory (one file per target, written by
 * {@code scripts/bench/realistic-workloads.sh}): per target and workload a table per setting and variant, the ratios
 * issue 19's goals name, and a bar chart ({@code issue19/TARGET-WORKLOAD.png}).
 *
 * <p>A TSV line is {@code ROUND WORKLOAD VARIANT SETTING SECONDS TX/S WAIT_S DEADLOCKS_BROKEN TIMEOUTS EXACT}, the last
 * seven being what {@code scripts/bench/mixed-workload.sh} prints per run; lines starting with {@code #} describe the
 * run and are shown as they are; header lines, {@code DONE} and blank lines are skipped. A run the script could not
 * read a result for ({@code SETTING failed: ...}) counts as a run that is not exact and has no throughput.
 *
 * <p>Stateless; the output depends only on the files' contents and names (listed in name order), so the same inputs
 * give the same page and charts.
 */
final class RealisticWorkloads {
    /** The directory under the bench directory holding the TSV files and the charts. */
    static final String DIR = "issue19";

    /** The settings the script runs, in the order the tables and charts list them; others follow in name order. */
    static final List<String> SETTINGS = List.of("schema:4:partition", "writeset:4:none", "writeset:4:partition",
            "writeset:4:strict", "writeset:16:partition", "writeset:16:none");

    /** The variant that runs the shipped defaults (no options file); listed first. */
    static final String DEFAULT_VARIANT = "default";

    private static final Map<String, String> WORKLOADS = new LinkedHashMap<>();

    static {
        WORKLOADS.put("w1", "the mixed log");
        WORKLOADS.put("w2", "sysbench oltp_write_only, 16 threads, one schema");
        WORKLOADS.put("w2-rw", "sysbench oltp_read_write, 16 threads, one schema (3,025 transactions)");
        WORKLOADS.put("w3", "TPC-C-like with foreign keys");
        WORKLOADS.put("w1-long", "the mixed log recorded ten times longer (24,520 transactions)");
        WORKLOADS.put("w2-long", "sysbench oltp_write_only, 30,000 events (30,016 transactions)");
        WORKLOADS.put("w3-long", "TPC-C-like, 8 sessions x 2,500 (20,665 transactions)");
    }

    /** A ratio of issue 19's goals: the numerator setting's tx/s over the denominator's, within one round. */
    record Ratio(String name, String numerator, String denominator) {
    }

    static final List<Ratio> RATIOS = List.of(
            new Ratio("default / none", "writeset:4:partition", "writeset:4:none"),
            new Ratio("default / schema", "writeset:4:partition", "schema:4:partition"),
            new Ratio("strict / none", "writeset:4:strict", "writeset:4:none"));

    /**
     * One run of one setting. {@code tps} is NaN for a failed run; {@code deadlocksBroken} and {@code timeouts} are -1
     * when the run did not report them ({@code -}).
     */
    record Run(int round, String workload, String variant, String setting, double seconds, double tps,
            double waitSeconds, long deadlocksBroken, long timeouts, String exact) {
        boolean failed() {
            return Double.isNaN(tps);
        }

        int workers() {
            return Integer.parseInt(setting.split(":")[1]);
        }

        /** The workers' time waiting for commit order as a share of their time: wait / (workers x seconds). */
        double waitShare() {
            return seconds > 0 ? waitSeconds / (workers() * seconds) : Double.NaN;
        }

        /**
         * Whether the target matched the source: {@code yes} (MariaDB's checksums), {@code rows} (PostgreSQL: every
         * table's rows as text, against a copy whose checksums match the source's) or {@code counts} (PostgreSQL files
         * written before that: row counts only).
         */
        boolean exactState() {
            return exact.equals("yes") || exact.equals("rows") || exact.equals("counts");
        }
    }

    /** One file's content: its comment lines (without the {@code #}), its runs, and how many lines it did not read. */
    record Data(List<String> comments, List<Run> runs, int notUnderstood) {
    }

    /** The runs of one setting and variant, summarised. Wait share and tx/s are over the runs that did not fail. */
    record Summary(int runs, int failed, double medianTps, double minTps, double maxTps, double medianWaitShare,
            long deadlocksBroken, long timeouts, String exact) {
    }

    private RealisticWorkloads() {
    }

    static Data parse(List<String> lines) {
        List<String> comments = new ArrayList<>();
        List<Run> runs = new ArrayList<>();
        int notUnderstood = 0;
        for (String line : lines) {
            if (line.isBlank() || line.strip().equals("DONE")) {
                continue;
            }
            if (line.startsWith("#")) {
                comments.add(line.substring(1).strip());
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length >= 4 && f[3].equals("setting")) {
                continue; // mixed-workload.sh's header, once per invocation
            }
            Run run = parseRun(f);
            if (run == null) {
                notUnderstood++;
            } else {
                runs.add(run);
            }
        }
        return new Data(comments, runs, notUnderstood);
    }

    private static Run parseRun(String[] f) {
        try {
            if (f.length < 5 || !f[3].matches("[a-z-]+:\\d+:[a-z]+")) {
                return null;
            }
            int round = Integer.parseInt(f[0].strip());
            if (f[4].startsWith("failed")) {
                return new Run(round, f[1], f[2], f[3], Double.NaN, Double.NaN, Double.NaN, -1, -1, "failed");
            }
            if (f.length < 10) {
                return null;
            }
            return new Run(round, f[1], f[2], f[3], Double.parseDouble(f[4]), Double.parseDouble(f[5]),
                    Double.parseDouble(f[6]), count(f[7]), count(f[8]), f[9].strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static long count(String field) {
        return field.strip().equals("-") ? -1 : Long.parseLong(field.strip());
    }

    static Summary summarize(List<Run> runs) {
        List<Run> measured = runs.stream().filter(r -> !r.failed()).toList();
        double[] tps = measured.stream().mapToDouble(Run::tps).toArray();
        double[] wait = measured.stream().mapToDouble(Run::waitShare).toArray();
        long notExact = runs.stream().filter(r -> !r.exactState()).count();
        String exact;
        if (notExact > 0) {
            exact = "no (" + notExact + " of " + runs.size() + ")";
        } else if (runs.stream().anyMatch(r -> r.exact().equals("counts"))) {
            exact = "yes (row counts)";
        } else {
            exact = "yes";
        }
        return new Summary(runs.size(), runs.size() - measured.size(), BenchReport.median(tps),
                measured.stream().mapToDouble(Run::tps).min().orElse(Double.NaN),
                measured.stream().mapToDouble(Run::tps).max().orElse(Double.NaN), BenchReport.median(wait),
                total(measured, Run::deadlocksBroken), total(measured, Run::timeouts), exact);
    }

    /** The sum over the runs that reported the figure; -1 when none did. */
    private static long total(List<Run> runs, java.util.function.ToLongFunction<Run> figure) {
        long[] known = runs.stream().mapToLong(figure).filter(v -> v >= 0).toArray();
        return known.length == 0 ? -1 : java.util.Arrays.stream(known).sum();
    }

    /**
     * The ratio per round, in round order, over the runs of one workload and variant: the median tx/s of the
     * numerator's runs in that round over the denominator's. Rounds lacking either side (or only failed runs) are
     * left out.
     */
    static double[] roundRatios(List<Run> runs, Ratio ratio) {
        Map<Integer, List<Run>> byRound = new TreeMap<>();
        runs.stream().filter(r -> !r.failed())
                .forEach(r -> byRound.computeIfAbsent(r.round(), k -> new ArrayList<>()).add(r));
        List<Double> ratios = new ArrayList<>();
        for (List<Run> round : byRound.values()) {
            double num = medianTps(round, ratio.numerator());
            double den = medianTps(round, ratio.denominator());
            if (!Double.isNaN(num) && den > 0) {
                ratios.add(num / den);
            }
        }
        return ratios.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double medianTps(List<Run> runs, String setting) {
        return BenchReport.median(runs.stream().filter(r -> r.setting().equals(setting)).mapToDouble(Run::tps)
                .toArray());
    }

    /** Appends the section's body (its heading is the caller's) from {@code benchDir/issue19/*.tsv}. */
    static void append(StringBuilder md, Path benchDir, Path mdDir) throws IOException {
        md.append("Issue 19: the three recorded logs applied into a real target with the settings a user picks, ")
                .append("to judge the shipped defaults (`writeset`, 4 workers, commit order `partition`). ")
                .append("Workloads: w1 ").append(WORKLOADS.get("w1")).append(" (committed fixture), w2 ")
                .append(WORKLOADS.get("w2")).append(", w3 ").append(WORKLOADS.get("w3"))
                .append("; w2-rw, workload 2's other test, ").append(WORKLOADS.get("w2-rw"))
                .append(", runs with `WORKLOADS=w2-rw`")
                .append(". A setting is SCHEDULER:WORKERS:COMMIT_ORDER; a variant is an options file given to every ")
                .append("run (`default`: none, the shipped defaults). Rounds are interleaved: each round runs every ")
                .append("workload, variant and setting once. Commit-order wait is the workers' time waiting for their ")
                .append("turn to commit, as a share of their time (wait / (workers x seconds)). Exact: every table ")
                .append("matched the source (CHECKSUM TABLE; on PostgreSQL every table's rows as text against a MariaDB copy ")
                .append("whose checksums match the source's, or, in files written before 2026-12-02, row counts only: ")
                .append("`yes (row counts)`). The ratios of issue 19's ")
                .append("goals (default = writeset:4:partition, none = writeset:4:none, schema = schema:4:partition, ")
                .append("strict = writeset:4:strict) are taken on tx/s within each round and variant, then given as ")
                .append("median (min-max) over the rounds (a variant with none of them is left out of that table). ")
                .append("Each chart: median tx/s per setting (bars) and median commit-order wait (dots, right ")
                .append("axis).\n\n");
        md.append("```\n")
                .append("scripts/bench/realistic-workloads.sh --rounds 3                    # MariaDB target: ")
                .append("docs/bench/issue19/mariadb.tsv, then this page\n")
                .append("scripts/bench/realistic-workloads.sh --rounds 3 --target postgres  # PostgreSQL at ")
                .append("127.0.0.1:5432 (database test, user postgres)\n")
                .append("scripts/bench/realistic-workloads.sh --rounds 3 run1=run1.properties   # also a variant ")
                .append("run1 (e.g. lanes.scheduler.writeset-run=1)\n")
                .append("```\n\n");
        Path dir = benchDir.resolve(DIR);
        List<Path> files = List.of();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                files = s.filter(p -> p.getFileName().toString().endsWith(".tsv") && Files.isRegularFile(p))
                        .sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
            }
        }
        if (files.isEmpty()) {
            md.append("No data yet: run the commands above (they write `docs/bench/").append(DIR)
                    .append("/TARGET.tsv` and regenerate this page).\n\n");
        }
        for (Path f : files) {
            String name = f.getFileName().toString();
            String target = name.substring(0, name.length() - ".tsv".length());
            Data data = parse(Files.readAllLines(f));
            target(md, target, name, data, dir, mdDir);
        }
        // Workload 4 (the seed workload at 1,000,000 transactions, against MariaDB's own replica) is measured by
        // scripts/bench/peer-mariadb.sh and written up by hand, profile included: folded in as it is.
        Path workload4 = dir.resolve("workload4.md");
        if (Files.isRegularFile(workload4)) {
            md.append(Files.readString(workload4).strip()).append("\n\n");
        }
    }

    private static void target(StringBuilder md, String target, String file, Data data, Path dir, Path mdDir)
            throws IOException {
        md.append("### Target ").append(target).append("\n\n");
        md.append("From `").append(DIR).append('/').append(file).append("`");
        if (data.notUnderstood() > 0) {
            md.append(" (").append(data.notUnderstood()).append(" line(s) not understood, left out)");
        }
        md.append(".\n\n");
        if (!data.comments().isEmpty()) {
            md.append("```\n").append(String.join("\n", data.comments())).append("\n```\n\n");
        }
        Map<String, List<Run>> byWorkload = new TreeMap<>(Comparator.comparing(RealisticWorkloads::workloadOrder)
                .thenComparing(Comparator.naturalOrder()));
        data.runs().forEach(r -> byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r));
        if (byWorkload.isEmpty()) {
            md.append("No runs in this file.\n\n");
        }
        for (Map.Entry<String, List<Run>> e : byWorkload.entrySet()) {
            workload(md, target, e.getKey(), e.getValue(), dir, mdDir);
        }
    }

    private static int workloadOrder(String workload) {
        List<String> known = new ArrayList<>(WORKLOADS.keySet());
        return known.contains(workload) ? known.indexOf(workload) : known.size();
    }

    private static void workload(StringBuilder md, String target, String workload, List<Run> runs, Path dir,
            Path mdDir) throws IOException {
        String description = WORKLOADS.get(workload);
        md.append("#### ").append(target).append(" / ").append(workload)
                .append(description == null ? "" : ": " + description).append("\n\n");
        List<String> variants = variants(runs);
        Map<String, Map<String, List<Run>>> rows = rows(runs, variants);
        md.append("| setting | variant | runs | median tx/s (min-max) | median commit-order wait, % of worker time | ")
                .append("deadlocks broken (all runs) | commit-order timeouts (all runs) | all runs exact |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        DefaultCategoryDataset tps = new DefaultCategoryDataset();
        DefaultCategoryDataset wait = new DefaultCategoryDataset();
        for (Map.Entry<String, Map<String, List<Run>>> bySetting : rows.entrySet()) {
            for (Map.Entry<String, List<Run>> byVariant : bySetting.getValue().entrySet()) {
                Summary s = summarize(byVariant.getValue());
                md.append("| ").append(bySetting.getKey()).append(" | ").append(byVariant.getKey()).append(" | ")
                        .append(s.runs()).append(s.failed() > 0 ? " (" + s.failed() + " failed)" : "").append(" | ")
                        .append(range(s)).append(" | ").append(percent(s.medianWaitShare())).append(" | ")
                        .append(s.deadlocksBroken() < 0 ? "-" : s.deadlocksBroken()).append(" | ")
                        .append(s.timeouts() < 0 ? "-" : s.timeouts()).append(" | ").append(s.exact()).append(" |\n");
                String category = variants.size() == 1 ? bySetting.getKey()
                        : bySetting.getKey() + " " + byVariant.getKey();
                tps.addValue(Double.isNaN(s.medianTps()) ? null : s.medianTps(), "median tx/s", category);
                wait.addValue(Double.isNaN(s.medianWaitShare()) ? null : 100 * s.medianWaitShare(),
                        "median commit-order wait (% of worker time)", category);
            }
        }
        md.append('\n');
        StringBuilder ratios = new StringBuilder("| variant |");
        RATIOS.forEach(r -> ratios.append(' ').append(r.name()).append(" |"));
        ratios.append("\n|---|");
        RATIOS.forEach(r -> ratios.append("---|"));
        ratios.append('\n');
        boolean anyRatio = false;
        for (String variant : variants) {
            List<Run> ofVariant = runs.stream().filter(r -> r.variant().equals(variant)).toList();
            List<String> cells = RATIOS.stream().map(ratio -> ratioCell(roundRatios(ofVariant, ratio))).toList();
            if (cells.stream().allMatch("-"::equals)) {
                continue; // a variant run with too few settings for any ratio
            }
            anyRatio = true;
            ratios.append("| ").append(variant).append(" | ").append(String.join(" | ", cells)).append(" |\n");
        }
        md.append(anyRatio ? ratios.append('\n') : "No variant ran both settings of a ratio in one round.\n\n");
        Path png = dir.resolve(fileName(target) + "-" + fileName(workload) + ".png");
        chart(target + " / " + workload + (description == null ? "" : ": " + description), tps, wait, png);
        md.append("![").append(target).append(' ').append(workload).append("](")
                .append(mdDir.relativize(png.toAbsolutePath().normalize()).toString().replace('\\', '/'))
                .append(")\n\n");
    }

    /** The variants in the order the tables list them: the shipped defaults first, then in order of appearance. */
    private static List<String> variants(List<Run> runs) {
        List<String> variants = new ArrayList<>();
        runs.stream().map(Run::variant).filter(DEFAULT_VARIANT::equals).findFirst().ifPresent(variants::add);
        runs.stream().map(Run::variant).distinct().filter(v -> !v.equals(DEFAULT_VARIANT)).forEach(variants::add);
        return variants;
    }

    /** Setting (in {@code SETTINGS} order, others after by name) to variant (in {@code variants} order) to runs. */
    private static Map<String, Map<String, List<Run>>> rows(List<Run> runs, List<String> variants) {
        Map<String, Map<String, List<Run>>> rows = new TreeMap<>(Comparator
                .comparing((String s) -> SETTINGS.contains(s) ? SETTINGS.indexOf(s) : SETTINGS.size())
                .thenComparing(Comparator.naturalOrder()));
        for (Run r : runs) {
            rows.computeIfAbsent(r.setting(), k -> new TreeMap<>(Comparator.comparing(variants::indexOf)))
                    .computeIfAbsent(r.variant(), k -> new ArrayList<>()).add(r);
        }
        return rows;
    }

    private static String range(Summary s) {
        if (Double.isNaN(s.medianTps())) {
            return "-";
        }
        return s.minTps() == s.maxTps() ? BenchReport.fmt(s.medianTps())
                : BenchReport.fmt(s.medianTps()) + " (" + BenchReport.fmt(s.minTps()) + "-"
                        + BenchReport.fmt(s.maxTps()) + ")";
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    /** {@code 0.71x (0.67-0.75, 2 rounds)}, {@code 0.71x (1 round)}; {@code -} when no round had both settings. */
    static String ratioCell(double[] ratios) {
        if (ratios.length == 0) {
            return "-";
        }
        if (ratios.length == 1) {
            return String.format(Locale.ROOT, "%.2fx (1 round)", ratios[0]);
        }
        double min = java.util.Arrays.stream(ratios).min().getAsDouble();
        double max = java.util.Arrays.stream(ratios).max().getAsDouble();
        return String.format(Locale.ROOT, "%.2fx (%.2f-%.2f, %d round%s)", BenchReport.median(ratios), min, max,
                ratios.length, ratios.length == 1 ? "" : "s");
    }

    private static String fileName(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** Bars: median tx/s per setting (left axis); markers: the median commit-order wait % (right axis). */
    private static void chart(String title, DefaultCategoryDataset tps, DefaultCategoryDataset wait, Path png)
            throws IOException {
        JFreeChart c = ChartFactory.createBarChart(title, null, "median transactions / s", tps,
                PlotOrientation.VERTICAL, true, false, false);
        c.setBackgroundPaint(Color.WHITE);
        CategoryPlot plot = c.getCategoryPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        BarRenderer bars = (BarRenderer) plot.getRenderer();
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setSeriesPaint(0, new Color(0x1f, 0x77, 0xb4));
        NumberAxis tpsAxis = (NumberAxis) plot.getRangeAxis();
        tpsAxis.setNumberFormatOverride(java.text.NumberFormat.getIntegerInstance(Locale.ROOT));
        NumberAxis waitAxis = new NumberAxis("median commit-order wait, % of worker time");
        waitAxis.setRange(0, 100);
        plot.setRangeAxis(1, waitAxis);
        plot.setDataset(1, wait);
        plot.mapDatasetToRangeAxis(1, 1);
        LineAndShapeRenderer markers = new LineAndShapeRenderer(false, true);
        markers.setSeriesPaint(0, new Color(0xd6, 0x27, 0x28));
        markers.setSeriesShape(0, new java.awt.geom.Ellipse2D.Double(-5, -5, 10, 10));
        markers.setSeriesItemLabelGenerator(0, new StandardCategoryItemLabelGenerator("{2}%",
                new java.text.DecimalFormat("0", java.text.DecimalFormatSymbols.getInstance(Locale.ROOT))));
        markers.setSeriesItemLabelsVisible(0, true);
        plot.setRenderer(1, markers);
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD); // the markers over the bars
        CategoryAxis domain = plot.getDomainAxis();
        domain.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        ChartUtils.saveChartAsPNG(png.toFile(), c, 900, 500);
    }
}
