package io.lanes.core.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.DoubleSupplier;

/**
 * The share of all of this machine's processors busy since the previous reading, from the first line of Linux's
 * {@code /proc/stat} (one read of a few hundred bytes). The JDK's {@code OperatingSystemMXBean.getCpuLoad} answers
 * the same question where no container limits the processors, but reads the control group's quota, shares and
 * processor set files on every call first: about 0.7 ms per reading in a cold JVM on issue 19's one-schema sysbench
 * log on 2 processors, on the dispatching thread that a worker waits for (a scheduler asking every 100 ms of a 3 s
 * run paid about 21 ms). So this is used only where the JVM sees every processor the machine has
 * (as many {@code cpuN} lines as {@link Runtime#availableProcessors()}): a container's processor limit, where the
 * share of the limit is what counts, is left to the management bean.
 *
 * <p>Not thread-safe: one caller thread (the dispatching thread's {@link ProcessorHeadroom}).
 */
final class ProcStatLoad implements DoubleSupplier {
    private static final Path PROC_STAT = Path.of("/proc/stat");
    /** user, nice, system, idle, iowait, irq, softirq, steal: guest time is counted in user and nice already. */
    static final int FIELDS = 8;
    private static final int IDLE = 3;
    private static final int IOWAIT = 4;

    private final Path file;
    private final byte[] buffer = new byte[512];
    private long busy;
    private long total;

    private ProcStatLoad(Path file, long[] first) {
        this.file = file;
        remember(first);
    }

    /**
     * A reader of this machine's load from {@code /proc/stat}, or null where that is not the right measure or cannot
     * be read (not Linux, a container's processor limit, an unexpected format).
     */
    static ProcStatLoad ifWholeMachine() {
        return ifWholeMachine(PROC_STAT, Runtime.getRuntime().availableProcessors());
    }

    static ProcStatLoad ifWholeMachine(Path file, int availableProcessors) {
        try {
            String text = Files.readString(file);
            int processors = 0;
            for (String line : text.split("\n")) {
                if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                    processors++;
                }
            }
            if (processors != availableProcessors) {
                return null;
            }
            byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            long[] first = parseFirstLine(bytes, bytes.length);
            return first == null ? null : new ProcStatLoad(file, first);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The share busy since the previous reading, 0 to 1; -1 when the file cannot be read or no time has passed. */
    @Override
    public double getAsDouble() {
        long[] now;
        try (InputStream in = Files.newInputStream(file)) {
            now = parseFirstLine(buffer, in.readNBytes(buffer, 0, buffer.length));
        } catch (IOException e) {
            return -1;
        }
        if (now == null) {
            return -1;
        }
        long previousBusy = busy;
        long previousTotal = total;
        remember(now);
        long elapsed = total - previousTotal;
        return elapsed <= 0 ? -1 : Math.min(1, Math.max(0, (busy - previousBusy) / (double) elapsed));
    }

    private void remember(long[] counters) {
        long sum = 0;
        for (long c : counters) {
            sum += c;
        }
        total = sum;
        busy = sum - counters[IDLE] - counters[IOWAIT];
    }

    /**
     * The first {@link #FIELDS} counters of the aggregate {@code cpu} line that opens the text, or null when it does
     * not open with one (older kernels print fewer fields: those missing count as 0).
     */
    static long[] parseFirstLine(byte[] text, int length) {
        if (length < 4 || text[0] != 'c' || text[1] != 'p' || text[2] != 'u' || text[3] != ' ') {
            return null;
        }
        long[] counters = new long[FIELDS];
        int field = -1;
        boolean inNumber = false;
        for (int i = 3; i < length && text[i] != '\n'; i++) {
            byte b = text[i];
            if (b >= '0' && b <= '9') {
                if (!inNumber) {
                    inNumber = true;
                    if (++field >= FIELDS) {
                        break;
                    }
                }
                counters[field] = counters[field] * 10 + (b - '0');
            } else if (b == ' ') {
                inNumber = false;
            } else {
                return null;
            }
        }
        return field >= IOWAIT ? counters : null;
    }
}
