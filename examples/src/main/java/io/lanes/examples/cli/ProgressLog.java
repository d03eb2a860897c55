package io.lanes.examples.cli;

import io.lanes.applier.LanesStats;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line of progress per interval (rate since the last line, totals, lag, queue, position), as long-running
 * services log when no terminal shows a progress bar. Called from the command's waiting loop; not thread-safe.
 */
final class ProgressLog {
    private static final Logger LOG = LoggerFactory.getLogger("io.lanes.progress");

    private final long intervalNanos;
    private long lastAt;
    private long lastTransactions;

    private ProgressLog(Duration interval) {
        this.intervalNanos = interval.toNanos();
        this.lastAt = System.nanoTime();
    }

    /** A progress log, or null when the interval is zero or a terminal shows the progress bar instead. */
    static ProgressLog whenNoTerminal(Duration interval, boolean terminal) {
        return interval.isZero() || terminal ? null : new ProgressLog(interval);
    }

    /** Logs a line when the interval has passed since the last one. */
    void tick(LanesStats s) {
        long now = System.nanoTime();
        if (now - lastAt < intervalNanos) {
            return;
        }
        double rate = (s.transactions() - lastTransactions) / ((now - lastAt) / 1e9);
        lastAt = now;
        lastTransactions = s.transactions();
        LOG.info(line(s, rate));
    }

    static String line(LanesStats s, double rate) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "progress: %s, %,d transactions applied (%,.0f/s now, %,.0f/s overall), %,d rows; lag %s", s.state(),
                s.transactions(), rate, s.transactionsPerSecond(), s.rowsApplied(), lag(s.sourceLagSeconds())));
        if (s.sourceBehindBytes() >= 0) {
            b.append(String.format(Locale.ROOT, ", %,d binlog bytes behind %s", s.sourceBehindBytes(),
                    s.sourceEndPosition()));
        }
        if (s.engine() != null) {
            b.append(String.format(Locale.ROOT, "; queued %,d transactions, %,d bytes", s.engine().queuedTransactions(),
                    s.engine().queuedBytes()));
        }
        b.append("; applied up to ").append(s.appliedPosition() == null ? "(nothing yet)" : s.appliedPosition());
        return b.toString();
    }

    private static String lag(double seconds) {
        return Double.isNaN(seconds) ? "unknown" : String.format(Locale.ROOT, "%.1f s", seconds);
    }
}
