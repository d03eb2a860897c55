package io.lanes.jmh.core;

import java.lang.management.ManagementFactory;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Process CPU time, reported by JMH next to the throughput as {@code cpuNanos} per second: the number of cores the
 * engine kept busy (1e9 = one core). Divided by the throughput it gives the CPU cost of one transaction, which stays
 * comparable on a machine shared with other work, where wall-clock throughput does not.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class ProcessCpu {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** CPU nanoseconds used by the benchmark process during the iteration, normalised by JMH per second. */
    public long cpuNanos;
    private long start;

    @Setup(Level.Iteration)
    public void reset() {
        cpuNanos = 0;
        start = OS.getProcessCpuTime();
    }

    void sample() {
        long now = OS.getProcessCpuTime();
        cpuNanos += now - start;
        start = now;
    }
}
