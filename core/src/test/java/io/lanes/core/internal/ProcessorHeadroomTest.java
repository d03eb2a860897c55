package io.lanes.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void onFewProcessorsTimeIsSpareOnlyWithAWholeProcessorIdle() {
        assertEquals(0.0, ProcessorHeadroom.barFor(1), "one processor: never spare");
        assertEquals(0.5, ProcessorHeadroom.barFor(2), 1e-9);
        assertEquals(0.75, ProcessorHeadroom.barFor(4), 1e-9);
        assertEquals(5 / 6.0, ProcessorHeadroom.barFor(6), 1e-9);
        assertEquals(ProcessorHeadroom.BUSY, ProcessorHeadroom.barFor(7), 1e-9);
        assertEquals(ProcessorHeadroom.BUSY, ProcessorHeadroom.barFor(64), 1e-9);
        // Round 18: with the C1 compiler only on 2 processors the machine was about 75% busy while applying the mixed
        // log, under the 85% bar, and runs moved to a free worker that could not apply sooner.
        ArrayDeque<Double> loads = new ArrayDeque<>(List.of(0.75, 0.45, -1.0));
        ProcessorHeadroom two = new ProcessorHeadroom(loads::poll, ProcessorHeadroom.barFor(2));
        long t = 1_000;
        assertFalse(two.spare(t), "75% busy on 2 processors: half a processor idle is not one to spare");
        assertTrue(two.spare(t + ProcessorHeadroom.PERIOD_NANOS), "45% busy: a whole processor idle");
        assertTrue(two.spare(t + 2 * ProcessorHeadroom.PERIOD_NANOS), "load unknown: spread, as without the check");
    }

    @Test
    void thisMachinesLoadIsReadable() throws InterruptedException {
        java.util.function.DoubleSupplier load = ProcessorHeadroom.systemLoad();
        Thread.sleep(150);
        double l = load.getAsDouble();
        assertTrue(l >= 0 && l <= 1, "this machine's load (0 to 1), got " + l);
    }

    @Test
    void procStatsFirstLineGivesTheShareBusyBetweenTwoReadings(@TempDir Path dir) throws Exception {
        Path stat = dir.resolve("stat");
        // user nice system idle iowait irq softirq steal guest guest_nice
        Files.writeString(stat, "cpu  100 0 50 800 50 0 0 0 7 0\ncpu0 50 0 25 400 25 0 0 0 7 0\n"
                + "cpu1 50 0 25 400 25 0 0 0 0 0\nintr 12345 0\n");
        assertNull(ProcStatLoad.ifWholeMachine(stat, 4), "the JVM sees 4 of 2 processors: a limit, not this reader");
        ProcStatLoad load = ProcStatLoad.ifWholeMachine(stat, 2);
        assertNotNull(load);
        // 100 more jiffies: 60 user, 15 system, 20 idle, 5 iowait; guest (counted in user already) is not added
        Files.writeString(stat, "cpu  160 0 65 820 55 0 0 0 99 0\ncpu0 1 0 1 1 1 0 0 0 0 0\n");
        assertEquals(0.75, load.getAsDouble(), 1e-9);
        assertEquals(-1, load.getAsDouble(), "no time passed: not known");
        Files.writeString(stat, "cpu  160 0 65 920 55 0 0 0 99 0\n");
        assertEquals(0.0, load.getAsDouble(), 1e-9, "100 idle jiffies");
        Files.writeString(stat, "intr 1\n");
        assertEquals(-1, load.getAsDouble(), "not the expected format: not known");
        assertNull(ProcStatLoad.parseFirstLine("cpu  1 2 3\n".getBytes(), 11), "too few fields");
        assertNull(ProcStatLoad.parseFirstLine("cpu  1 x 3 4 5\n".getBytes(), 15), "not a number");
        assertArrayEquals(new long[] {1, 2, 3, 4, 5, 0, 0, 0},
                ProcStatLoad.parseFirstLine("cpu  1 2 3 4 5\n".getBytes(), 15), "an older kernel's five fields");
    }
}
