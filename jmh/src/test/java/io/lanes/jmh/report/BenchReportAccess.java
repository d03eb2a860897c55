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
}
