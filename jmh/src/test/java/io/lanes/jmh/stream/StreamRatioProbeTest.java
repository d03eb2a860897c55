package io.lanes.jmh.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stream probe's arithmetic, and one real round: both clients stream the sysbench fixture from the fake source
 * over one connection, in full (the benchmark checks every event arrived), and the probe pairs their times.
 */
class StreamRatioProbeTest {
    @Test
    void quantilesInterpolateBetweenRanks() {
        List<Double> v = List.of(4.0, 1.0, 3.0, 2.0);
        assertEquals(2.5, StreamRatioProbe.median(v), 1e-9);
        assertEquals(1.75, StreamRatioProbe.quantile(v, 0.25), 1e-9);
        assertEquals(4.0, StreamRatioProbe.quantile(v, 1.0), 1e-9);
    }

    @Test
    void stealIsTheStolenShareOfAllCpuTime() {
        long[] before = {100, 0, 50, 800, 0, 0, 0, 50};
        long[] after = {200, 0, 100, 1000, 0, 0, 0, 150};
        assertEquals(100.0 / 450, StreamRatioProbe.stealShare(before, after), 1e-9);
        assertEquals(-1, StreamRatioProbe.stealShare(null, after));
    }

    @Test
    void oneRoundStreamsTheFixtureWithBothClientsAndPairsTheirTimes() throws Exception {
        java.nio.file.Path out = java.nio.file.Files.createTempFile("stream-ratios", ".json");
        System.setProperty("lanes.binlogs", "../binlog-api/src/test/resources/binlogs");
        try {
            StreamRatioProbe.run(new String[] {"--rounds", "1", "--warmup", "0", "--copies", "1", "--ops", "raw,con",
                "-o", out.toString()});
            String json = java.nio.file.Files.readString(out);
            assertTrue(json.contains("\"operation\": \"raw\"") && json.contains("\"operation\": \"con\""), json);
            assertTrue(json.contains("\"events\": 50344"), json);
            assertTrue(json.matches("(?s).*\"ratioToConnector\": \\{\"median\": [0-9.]+.*"), json);
        } finally {
            System.clearProperty("lanes.binlogs");
            java.nio.file.Files.deleteIfExists(out);
        }
    }
}
