import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws a soak time series (the CSV SoakTest writes) as one PNG of four stacked panels sharing the time axis:
 * throughput, lag, memory and threads. A single-file program: run it with JFreeChart on the class path,
 *
 * <pre>java -cp jfreechart-1.5.5.jar scripts/soak/SoakChart.java soak-h2.csv soak-h2.png "title"</pre>
 *
 * (scripts/soak/run.sh does this). Values of -1 in the CSV mean "not measured" and are left out of the lines.
 */
public final class SoakChart {
    private static final double MIB = 1 << 20;
    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
        new Color(0x9467bd)};

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: SoakChart SOAK.csv OUT.png [title]");
            System.exit(2);
        }
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        List<String> header = Arrays.asList(lines.get(0).split(","));
        List<String[]> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isBlank()) {
                rows.add(line.split(","));
            }
        }
        Table t = new Table(header, rows);

        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("seconds since the workload started"));
        plot.setGap(8);
        plot.add(panel("transactions / s", t.series("source (binlogged)", "source_rate", 1),
                t.series("applied by Lanes", "apply_rate", 1)), 3);
        XYPlot lag = panel("lag, transactions", t.series("transactions behind", "lag_transactions", 1));
        NumberAxis seconds = new NumberAxis("lag, seconds");
        lag.setRangeAxis(1, seconds);
        lag.setDataset(1, new XYSeriesCollection(t.series("seconds behind (heartbeat)", "lag_seconds", 1)));
        lag.mapDatasetToRangeAxis(1, 1);
        XYLineAndShapeRenderer secondsRenderer = new XYLineAndShapeRenderer(true, false);
        secondsRenderer.setSeriesPaint(0, new Color(0xd62728));
        secondsRenderer.setSeriesStroke(0, new BasicStroke(1.2f));
        lag.setRenderer(1, secondsRenderer);
        plot.add(lag, 2);
        XYPlot memory = panel("heap, MiB", t.series("heap used", "heap_used", MIB),
                t.series("heap after last GC", "heap_after_gc", MIB), t.series("live heap (full GC probe)", "live_heap", MIB),
                t.series("engine queue", "queued_bytes", MIB));
        ((XYLineAndShapeRenderer) memory.getRenderer()).setSeriesShapesVisible(2, true);
        ((XYLineAndShapeRenderer) memory.getRenderer()).setSeriesLinesVisible(2, false);
        plot.add(memory, 3);
        plot.add(panel("threads", t.series("JVM threads", "threads", 1)), 1);

        String title = args.length > 2 ? args[2] : "Lanes soak";
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(Path.of(args[1]).toFile(), chart, 1200, 1000);
    }

    private static XYPlot panel(String label, XYSeries... series) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (XYSeries s : series) {
            data.addSeries(s);
        }
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < series.length; i++) {
            renderer.setSeriesStroke(i, new BasicStroke(1.2f));
            renderer.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
        }
        XYPlot p = new XYPlot(data, null, new NumberAxis(label), renderer);
        p.setBackgroundPaint(Color.WHITE);
        p.setDomainGridlinePaint(Color.LIGHT_GRAY);
        p.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return p;
    }

    /** The CSV by column name. */
    private record Table(List<String> header, List<String[]> rows) {
        XYSeries series(String name, String column, double divisor) {
            int x = header.indexOf("seconds");
            int y = header.indexOf(column);
            if (x < 0 || y < 0) {
                throw new IllegalArgumentException("the CSV has no column " + column + " (header: " + header + ")");
            }
            XYSeries s = new XYSeries(name, true, false);
            for (String[] r : rows) {
                double v = Double.parseDouble(r[y]);
                if (v >= 0) {
                    s.add(Double.parseDouble(r[x]), v / divisor);
                }
            }
            return s;
        }
    }
}
