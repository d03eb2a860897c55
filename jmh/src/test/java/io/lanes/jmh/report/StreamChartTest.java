package io.lanes.jmh.report;

import static org.junit.jupiter.api.Assertions.*;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streaming chart: drawn from a session's StreamRatioProbe runs, nothing without them. */
class StreamChartTest {
    private static String run(double steal, double rawPerConnection, double decodedSustained) {
        return "{\"unit\": \"ms per operation\", \"cpuStolenShare\": " + steal + ", \"settings\": ["
                + "{\"copies\": 10, \"bytes\": 98446800, \"events\": 503440, \"operations\": ["
                + "{\"operation\": \"raw\", \"medianMs\": 100, \"ratioToConnector\": {\"median\": 4.0, \"q1\": 3.5, \"q3\": 4.5}},"
                + "{\"operation\": \"dec\", \"medianMs\": 160, \"ratioToConnector\": {\"median\": " + decodedSustained
                + ", \"q1\": 2.0, \"q3\": 3.0}},"
                + "{\"operation\": \"con\", \"medianMs\": 420, \"ratioToConnector\": {\"median\": 1, \"q1\": 1, \"q3\": 1}}]},"
                + "{\"copies\": 1, \"bytes\": 9844680, \"events\": 50344, \"operations\": ["
                + "{\"operation\": \"raw\", \"medianMs\": 15, \"ratioToConnector\": {\"median\": " + rawPerConnection
                + ", \"q1\": 2.5, \"q3\": 3.5}},"
                + "{\"operation\": \"dec\", \"medianMs\": 21, \"ratioToConnector\": {\"median\": 2.1, \"q1\": 1.8, \"q3\": 2.3}},"
                + "{\"operation\": \"con\", \"medianMs\": 45, \"ratioToConnector\": {\"median\": 1, \"q1\": 1, \"q3\": 1}}]}]}";
    }

    @Test
    void drawsOnePointPerRunAndSeriesAndNothingWithoutRuns(@TempDir Path dir) throws Exception {
        BenchReport.streamChart(dir, "s9");
        assertFalse(Files.exists(dir.resolve("stream-ratios-s9.png")), "no runs, no chart");
        Files.writeString(dir.resolve("stream-ratios-s9-0.json"), run(0.09, 2.8, 2.5));
        Files.writeString(dir.resolve("stream-ratios-s9-1.json"), run(0.47, 2.7, 1.7));
        Files.writeString(dir.resolve("stream-ratios-s8-0.json"), run(0.01, 9.9, 9.9)); // another session's run
        BenchReport.streamChart(dir, "s9");
        Path png = dir.resolve("stream-ratios-s9.png");
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "a PNG");
        assertEquals(900, image.getWidth());
        assertEquals(450, image.getHeight());
        assertFalse(Files.exists(dir.resolve("stream-ratios-s8.png")));
        org.jfree.data.category.DefaultCategoryDataset data = BenchReport.streamRatios(dir, "s9");
        assertEquals(java.util.List.of("0 (9%)", "1 (47%)"), data.getColumnKeys(), "this session's runs, in order");
        assertEquals(2.8, data.getValue("raw, per connection", "0 (9%)").doubleValue(), 1e-9);
        assertEquals(4.0, data.getValue("raw, sustained", "1 (47%)").doubleValue(), 1e-9);
        assertEquals(2.1, data.getValue("decoded, per connection", "1 (47%)").doubleValue(), 1e-9);
        assertEquals(1.7, data.getValue("decoded, sustained", "1 (47%)").doubleValue(), 1e-9);
    }
}
