package io.lanes.jmh.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StackedXYAreaRenderer2;
import org.jfree.data.xy.DefaultTableXYDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws the panels of a Grafana dashboard (docs/ops/lanes-dashboard.json) from series scraped during a real run (the
 * TSV of examples' DashboardCapture, plain or .gz), without Grafana: each panel's PromQL is evaluated here for the few forms the
 * dashboard uses (a selector, {@code rate}/{@code increase} over {@code $__rate_interval}, {@code sum by (label)}),
 * with {@code $__rate_interval} taken as four scrape intervals, as Grafana does. One PNG, the panels laid out in two
 * columns in the dashboard's order.
 *
 * <pre>java -cp ... io.lanes.jmh.report.DashboardChart docs/ops/lanes-dashboard.json capture.tsv docs/ops/dashboard.png</pre>
 */
public final class DashboardChart {
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern FUNCTION = Pattern.compile("^(rate|increase)\\((.*)\\[\\$__rate_interval]\\)$");
    private static final Pattern SUM_BY = Pattern.compile("^sum by \\((\\w+)\\) \\((.*)\\)$");

    private DashboardChart() {
    }

    /** One series: its labels (with __name__) and its samples, milliseconds to value. */
    record Series(Map<String, String> labels, TreeMap<Long, Double> samples) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: DashboardChart DASHBOARD.json CAPTURE.tsv OUT.png");
            System.exit(2);
        }
        List<Series> scraped = readCapture(Path.of(args[1]));
        @SuppressWarnings("unchecked")
        Map<String, Object> dashboard = (Map<String, Object>) MiniJson.parse(Files.readString(Path.of(args[0])));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> panels = (List<Map<String, Object>>) dashboard.get("panels");
        long window = 4 * scrapeIntervalMillis(scraped);
        int width = 700;
        int height = 300;
        int top = 40;
        BufferedImage image = new BufferedImage(2 * width, top + height * ((panels.size() + 1) / 2),
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        g.setColor(Color.DARK_GRAY);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(dashboard.get("title") + " dashboard, drawn from a real run's scrapes (x: seconds since the first"
                + " scrape; rates over " + window / 1000.0 + " s)", 12, 26);
        for (int i = 0; i < panels.size(); i++) {
            JFreeChart chart = panel(panels.get(i), scraped, window);
            chart.draw(g, new Rectangle2D.Double((i % 2) * width, top + (i / 2) * height, width, height));
        }
        g.dispose();
        ImageIO.write(image, "png", Path.of(args[2]).toFile());
        System.out.println("wrote " + args[2] + " (" + panels.size() + " panels, " + scraped.size() + " series)");
    }

    @SuppressWarnings("unchecked")
    private static JFreeChart panel(Map<String, Object> panel, List<Series> scraped, long window) {
        String title = (String) panel.get("title");
        Map<String, Object> defaults = (Map<String, Object>) ((Map<String, Object>) panel.get("fieldConfig"))
                .get("defaults");
        String unit = (String) defaults.get("unit");
        Map<String, Object> stacking = (Map<String, Object>) ((Map<String, Object>) defaults.get("custom"))
                .get("stacking");
        boolean stacked = "normal".equals(stacking.get("mode"));
        Map<String, TreeMap<Long, Double>> lines = new TreeMap<>();
        for (Map<String, Object> target : (List<Map<String, Object>>) panel.get("targets")) {
            for (Series s : evaluate((String) target.get("expr"), scraped, window)) {
                lines.put(legend((String) target.get("legendFormat"), s.labels()), s.samples());
            }
        }
        String axis = switch (unit) {
            case "s" -> "seconds";
            case "bytes" -> "bytes";
            case "ops" -> "per second";
            default -> "";
        };
        JFreeChart chart;
        if (stacked) {
            DefaultTableXYDataset data = new DefaultTableXYDataset();
            for (Map.Entry<String, TreeMap<Long, Double>> l : lines.entrySet()) {
                XYSeries xy = new XYSeries(l.getKey(), true, false);
                l.getValue().forEach((t, v) -> xy.add(t / 1000.0, Double.isNaN(v) ? 0 : v));
                data.addSeries(xy);
            }
            chart = ChartFactory.createStackedXYAreaChart(title, "s", axis, data, PlotOrientation.VERTICAL, true, false,
                    false);
            ((XYPlot) chart.getPlot()).setRenderer(new StackedXYAreaRenderer2());
        } else {
            XYSeriesCollection data = new XYSeriesCollection();
            for (Map.Entry<String, TreeMap<Long, Double>> l : lines.entrySet()) {
                XYSeries xy = new XYSeries(l.getKey(), true, true);
                l.getValue().forEach((t, v) -> {
                    if (!Double.isNaN(v)) {
                        xy.add(t / 1000.0, v);
                    }
                });
                data.addSeries(xy);
            }
            chart = ChartFactory.createXYLineChart(title, "s", axis, data, PlotOrientation.VERTICAL, true, false, false);
        }
        org.jfree.chart.axis.NumberAxis range = (org.jfree.chart.axis.NumberAxis) ((XYPlot) chart.getPlot()).getRangeAxis();
        range.setAutoRangeIncludesZero(true);
        if (range.getUpperBound() < 1) {
            range.setRange(0, 1); // an all-zero panel shows 0 on a readable scale
        }
        chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        chart.setBackgroundPaint(Color.WHITE);
        ((XYPlot) chart.getPlot()).setBackgroundPaint(new Color(0xF4F5F5));
        return chart;
    }

    /** Evaluates the dashboard's PromQL forms over the scraped series. */
    static List<Series> evaluate(String expr, List<Series> scraped, long window) {
        String e = expr.trim();
        Matcher sum = SUM_BY.matcher(e);
        if (sum.matches()) {
            String by = sum.group(1);
            Map<String, TreeMap<Long, Double>> groups = new TreeMap<>();
            for (Series s : evaluate(sum.group(2), scraped, window)) {
                TreeMap<Long, Double> g = groups.computeIfAbsent(s.labels().getOrDefault(by, ""), k -> new TreeMap<>());
                s.samples().forEach((t, v) -> g.merge(t, v, Double::sum));
            }
            List<Series> out = new ArrayList<>();
            groups.forEach((k, v) -> out.add(new Series(Map.of(by, k), v)));
            return out;
        }
        Matcher f = FUNCTION.matcher(e);
        if (f.matches()) {
            boolean rate = f.group(1).equals("rate");
            List<Series> out = new ArrayList<>();
            for (Series s : evaluate(f.group(2), scraped, window)) {
                TreeMap<Long, Double> r = new TreeMap<>();
                for (Map.Entry<Long, Double> p : s.samples().entrySet()) {
                    Map.Entry<Long, Double> from = s.samples().ceilingEntry(p.getKey() - window);
                    long dt = p.getKey() - from.getKey();
                    if (dt > 0) {
                        double d = Math.max(0, p.getValue() - from.getValue());
                        r.put(p.getKey(), rate ? d / (dt / 1000.0) : d * window / dt);
                    }
                }
                out.add(new Series(s.labels(), r));
            }
            return out;
        }
        int brace = e.indexOf('{');
        String name = brace < 0 ? e : e.substring(0, brace);
        Map<String, String> exact = new TreeMap<>();
        if (brace >= 0) {
            Matcher m = LABEL.matcher(e.substring(brace));
            while (m.find()) {
                exact.put(m.group(1), m.group(2));
            }
        }
        List<Series> out = new ArrayList<>();
        for (Series s : scraped) {
            if (s.labels().get("__name__").equals(name) && exact.entrySet().stream()
                    .allMatch(x -> x.getValue().startsWith("$") || x.getValue().equals(s.labels().get(x.getKey())))) {
                out.add(s);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no scraped series for " + e);
        }
        return out;
    }

    private static String legend(String format, Map<String, String> labels) {
        String out = format == null ? "" : format;
        for (Map.Entry<String, String> l : labels.entrySet()) {
            out = out.replace("{{" + l.getKey() + "}}", l.getValue());
        }
        return out;
    }

    static List<Series> readCapture(Path tsv) throws IOException {
        Map<String, Series> byKey = new TreeMap<>();
        byte[] raw = Files.readAllBytes(tsv);
        if (tsv.toString().endsWith(".gz")) {
            try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(
                    new java.io.ByteArrayInputStream(raw))) {
                raw = in.readAllBytes();
            }
        }
        for (String line : new String(raw, StandardCharsets.UTF_8).split("\n")) {
            String[] f = line.split("\t");
            if (f.length != 3) {
                continue;
            }
            Series s = byKey.computeIfAbsent(f[1], k -> {
                Map<String, String> labels = new TreeMap<>();
                int brace = k.indexOf('{');
                labels.put("__name__", brace < 0 ? k : k.substring(0, brace));
                if (brace >= 0) {
                    Matcher m = LABEL.matcher(k.substring(brace));
                    while (m.find()) {
                        labels.put(m.group(1), m.group(2));
                    }
                }
                return new Series(labels, new TreeMap<>());
            });
            s.samples().put(Long.parseLong(f[0]), Double.parseDouble(f[2]));
        }
        return new ArrayList<>(byKey.values());
    }

    private static long scrapeIntervalMillis(List<Series> scraped) {
        List<Long> gaps = new ArrayList<>();
        Long previous = null;
        for (Long t : scraped.get(0).samples().keySet()) {
            if (previous != null) {
                gaps.add(t - previous);
            }
            previous = t;
        }
        gaps.sort(null);
        return gaps.isEmpty() ? 1000 : Math.max(1, gaps.get(gaps.size() / 2));
    }
}
