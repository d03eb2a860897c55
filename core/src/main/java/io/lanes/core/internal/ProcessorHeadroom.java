package io.lanes.core.internal;

import java.lang.management.ManagementFactory;
import java.util.function.DoubleSupplier;

/**
 * Whether this machine's processors had time to spare lately: the share of all processors busy (every process, a target
 * database on the same machine included, as the operating system and the container's limits report it) over the last
 * sampling period, compared with {@link #BUSY}. A scheduler asks before it spreads work that could also stay where it
 * is: with every processor busy another worker cannot apply sooner, it only takes processor time from the others and
 * splits their block commits (issue 19: on 2 processors shared with the target, runs kept on their worker applied the
 * mixed log recorded ten times longer 13-24% faster than runs moved to a free worker). With a remote target the
 * workers mostly wait for it and the processors have time to spare, so work spreads as before.
 *
 * <p>Not thread-safe: one caller thread (the dispatching thread). A sample is taken at most once per
 * {@link #PERIOD_NANOS}; between samples the last answer stands. Where the load cannot be read the answer is always
 * true (spread, as without this check).
 */
public final class ProcessorHeadroom {
    /** The share of all processors busy from which there is no time to spare. */
    public static final double BUSY = 0.85;
    /** How often the load is read (reading it costs a read of the operating system's counters). */
    public static final long PERIOD_NANOS = 100_000_000L;

    private final DoubleSupplier load;
    private long sampledAt;
    private boolean spare = true;
    private boolean sampled;

    /**
     * Reads the machine's load: from {@code /proc/stat}, or through the platform's management bean (as containers
     * limit it).
     */
    public static ProcessorHeadroom ofThisMachine() {
        return new ProcessorHeadroom(systemLoad());
    }

    /** @param load the share of all processors busy since its previous call, 0 to 1; negative when not known */
    public ProcessorHeadroom(DoubleSupplier load) {
        this.load = load;
    }

    /** True unless the processors were at least {@link #BUSY} busy in the last sampling period. */
    public boolean spare(long nowNanos) {
        if (!sampled || nowNanos - sampledAt >= PERIOD_NANOS) {
            double l = load.getAsDouble();
            spare = l < BUSY; // unknown (negative): spare, as without the check
            sampledAt = nowNanos;
            sampled = true;
        }
        return spare;
    }

    /**
     * Where the JVM sees every processor of a Linux machine, {@code /proc/stat} (see {@link ProcStatLoad}: the
     * management bean reads the control group's files on every call); elsewhere the platform's management bean.
     */
    static DoubleSupplier systemLoad() {
        DoubleSupplier wholeMachine = ProcStatLoad.ifWholeMachine();
        if (wholeMachine != null) {
            return wholeMachine;
        }
        try {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                os.getCpuLoad(); // the first reading has no previous one to compare with
                return () -> {
                    double l = os.getCpuLoad();
                    return Double.isNaN(l) ? -1 : l;
                };
            }
        } catch (RuntimeException | LinkageError e) {
            // no management bean on this runtime: spread as if there were time to spare
        }
        return () -> -1;
    }
}
