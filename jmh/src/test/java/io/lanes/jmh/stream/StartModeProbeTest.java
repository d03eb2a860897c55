package io.lanes.jmh.stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The start-mode probe streams the whole fixture both ways (it fails on a short stream) and measures each. */
class StartModeProbeTest {
    @Test
    void streamsTheFixtureByFilePositionAndByGtidAndMeasuresBoth() throws Exception {
        System.setProperty("lanes.binlogs", "../binlog-api/src/test/resources/binlogs");
        try {
            double[] ms = StartModeProbe.run(2);
            assertTrue(ms[0] > 0 && ms[1] > 0, ms[0] + " / " + ms[1]);
        } finally {
            System.clearProperty("lanes.binlogs");
        }
    }
}
