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
}
