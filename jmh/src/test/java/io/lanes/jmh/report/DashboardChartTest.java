package io.lanes.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard renderer's PromQL subset: selectors, rate and increase over a window, sum by a label. */
class DashboardChartTest {
    @TempDir
    Path temp;

    @Test
    void rateIncreaseAndSumByFollowPrometheusArithmetic() throws Exception {
        Path tsv = temp.resolve("c.tsv");
        Files.writeString(tsv, String.join("\n",
                "0\tc_total{pipeline=\"p\",state=\"a\"}\t0",
                "1000\tc_total{pipeline=\"p\",state=\"a\"}\t10",
                "2000\tc_total{pipeline=\"p\",state=\"a\"}\t30",
                "0\tc_total{pipeline=\"p\",state=\"b\"}\t0",
                "1000\tc_total{pipeline=\"p\",state=\"b\"}\t1",
                "2000\tc_total{pipeline=\"p\",state=\"b\"}\t2",
                "0\tg{pipeline=\"q\"}\t5") + "\n");
        List<DashboardChart.Series> s = DashboardChart.readCapture(tsv);
        List<DashboardChart.Series> rate = DashboardChart.evaluate(
                "rate(c_total{pipeline=~\"$pipeline\",state=\"a\"}[$__rate_interval])", s, 1000);
        assertEquals(1, rate.size());
        assertEquals(10.0, rate.get(0).samples().get(1000L));
        assertEquals(20.0, rate.get(0).samples().get(2000L));
        List<DashboardChart.Series> summed = DashboardChart.evaluate(
                "sum by (pipeline) (increase(c_total{pipeline=~\"$pipeline\"}[$__rate_interval]))", s, 2000);
        assertEquals(1, summed.size());
        assertEquals(32.0, summed.get(0).samples().get(2000L), "30 + 2 over the whole window");
        assertEquals("p", summed.get(0).labels().get("pipeline"));
        assertThrows(IllegalArgumentException.class, () -> DashboardChart.evaluate("absent_metric", s, 1000));
    }
}
