package io.lanes.core.internal;

import java.lang.management.ManagementFactory;
import java.util.function.DoubleSupplier;

/**
 * Whether this machine's processors had time to spare lately: the share of all processors busy (every process, a target
 * database on the same machine included, as the operating system and the container's limits report it) over the last
 * sampling period, compared with a bar: {@link #BUSY}, or on a machine of few processors the share at which less than
 * one whole processor is left idle ({@link #barFor}). A scheduler asks before it spreads work that could also stay
 * where it is: another worker can apply sooner only on a processor nobody else needs, and otherwise it only takes
 * processor time from the others and splits their block commits (issue 19: on 2 processors shared with the target,
 * runs kept on their worker applied the mixed log recorded ten times longer 13-24% faster than runs moved to a free
 * worker; round 18: with the C1 compiler only, as the launcher runs on 2 processors, the machine was about 75% busy,
 * under the 85% bar, and moving runs cost 8.6%). With a remote target the workers mostly wait for it and the processors
 * have time to spare, so work spreads as before.
 *
 * <p>Not thread-safe: one caller thread (the dispatching thread). A sample is taken at most once per
 * {@link #PERIOD_NANOS}; between samples the last answer stands. Where the load cannot be read the answer is always
 * true (spread, as without this check).
 */
public final class ProcessorHeadroom {
    /** The share of all processors busy from which there is no time to spare, on 7 processors or more. */
    public static final double BUSY = 0.85;
    /** How often the load is read (reading it costs a read of the operating system's counters). */
    public static final long PERIOD_NANOS = 100_000_000L;

    private final DoubleSupplier load;
    private final double busy;
    private long sampledAt;
    private boolean spare = true;
    private boolean sampled;

    /**
     * Reads the machine's load: from {@code /proc/stat}, or through the platform's management bean (as containers
     * limit it).
     */
    public static ProcessorHeadroom ofThisMachine() {
        return new ProcessorHeadroom(systemLoad(), barFor(Runtime.getRuntime().availableProcessors()));
    }

    /**
     * The share of {@code processors} busy from which there is no time to spare: {@link #BUSY}, or lower where less
     * than one whole processor would be left idle ((processors - 1) / processors: 50% on 2 processors, 75% on 4), so that
     * work spreads only when a processor is free for it. 0 on one processor: nothing ever spreads there.
     */
    public static double barFor(int processors) {
        return processors <= 1 ? 0 : Math.min(BUSY, (processors - 1) / (double) processors);
    }

    /** @param load the share of all processors busy since its previous call, 0 to 1; negative when not known */
    public ProcessorHeadroom(DoubleSupplier load) {
        this(load, BUSY);
    }

    /**
     * @param load the share of all processors busy since its previous call, 0 to 1; negative when not known
     * @param busy the share from which there is no time to spare
     */
    public ProcessorHeadroom(DoubleSupplier load, double busy) {
        this.load = load;
        this.busy = busy;
    }

    /** True unless the processors were at least the bar's share busy in the last sampling period. */
    public boolean spare(long nowNanos) {
        if (!sampled || nowNanos - sampledAt >= PERIOD_NANOS) {
            double l = load.getAsDouble();
            spare = l < busy; // unknown (negative): spare, as without the check
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
