package io.lanes.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessorHeadroomTest {
    @Test
    void readsTheLoadAtMostOncePerPeriodAndComparesItWithBusy() {
        ArrayDeque<Double> loads = new ArrayDeque<>(List.of(0.5, 0.95, 0.2, -1.0));
        int[] reads = {0};
        ProcessorHeadroom h = new ProcessorHeadroom(() -> {
            reads[0]++;
            return loads.poll();
        });
        long t = 1_000;
        assertTrue(h.spare(t), "half busy");
        assertTrue(h.spare(t + ProcessorHeadroom.PERIOD_NANOS - 1), "within the period: the last answer, not read");
        assertEquals(1, reads[0]);
        assertFalse(h.spare(t + ProcessorHeadroom.PERIOD_NANOS), "95% busy: nothing to spare");
        assertFalse(h.spare(t + ProcessorHeadroom.PERIOD_NANOS + 5));
        assertTrue(h.spare(t + 2 * ProcessorHeadroom.PERIOD_NANOS), "20% busy");
        assertTrue(h.spare(t + 3 * ProcessorHeadroom.PERIOD_NANOS), "load unknown: spread, as without the check");
        assertEquals(4, reads[0]);
    }

    @Test
    void thisMachinesLoadIsReadable() throws InterruptedException {
        java.util.function.DoubleSupplier load = ProcessorHeadroom.systemLoad();
        Thread.sleep(150);
        double l = load.getAsDouble();
        assertTrue(l >= 0 && l <= 1, "the JDK's management bean reads this machine's load (0 to 1), got " + l);
    }
}
