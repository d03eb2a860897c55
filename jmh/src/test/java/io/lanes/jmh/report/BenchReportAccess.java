package io.lanes.jmh.report;

import java.util.List;

/** Test access to the report's package-private goal checks. */
public final class BenchReportAccess {
    private BenchReportAccess() {
    }

    public static String render(java.nio.file.Path benchDir, java.nio.file.Path markdownDir) throws java.io.IOException {
        return BenchReport.render(benchDir, markdownDir);
    }

    public static List<String[]> goals(String jmhJson) {
        return BenchReport.goals(BenchReport.parse(jmhJson, "test.json"));
    }

    /** The goals with the checkpoint cost probe's JSON (null: none) next to the JMH results. */
    public static List<String[]> goals(String jmhJson, String probeJson) {
        return BenchReport.goals(BenchReport.parse(jmhJson, "test.json"), List.of(),
                probeJson == null ? null : BenchReport.parseProbe(probeJson));
    }

    /** A probe's per-count fields for test JSON: {@code "median": M, "rounds": [a, b, ...]}, rounds in the order given. */
    public static String medianAndRounds(double... tps) {
        double[] sorted = tps.clone();
        java.util.Arrays.sort(sorted);
        StringBuilder r = new StringBuilder();
        for (double t : tps) {
            r.append(r.length() == 0 ? "" : ", ").append(String.format(java.util.Locale.ROOT, "%.1f", t));
        }
        return String.format(java.util.Locale.ROOT, "\"median\": %.1f, \"rounds\": [%s]", sorted[sorted.length / 2], r);
    }
}
