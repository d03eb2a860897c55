package io.lanes.applier.internal;

import io.lanes.binlog.replication.BinlogStatus;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.ReplicationException;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a live source every interval where its binlog ends ({@link ReplicationClient#binlogStatus()}, a short
 * connection of its own), so that a pipeline can tell how far behind the server it is even while its reading thread
 * waits for the target. One daemon thread, {@code lanes-source-status-<pipeline>}, from {@link #start} to
 * {@link #close}. A failed or refused question is logged at WARN once (and again when the reason changes), and the
 * distance reads unknown until an answer comes: never a stale figure passed off as current.
 *
 * <p>Thread-safe: {@link #latest()} from any thread.
 */
public final class SourceEndMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SourceEndMonitor.class);

    private final ReplicationClient client;
    private final Duration interval;
    private final String pipeline;
    private final Thread thread;
    private volatile BinlogStatus latest;
    private volatile boolean closed;
    private String lastProblem;

    private SourceEndMonitor(ReplicationClient client, Duration interval, String pipeline) {
        this.client = client;
        this.interval = interval;
        this.pipeline = pipeline;
        this.thread = new Thread(this::run, "lanes-source-status-" + pipeline);
        thread.setDaemon(true);
    }

    /** Starts asking {@code client}'s server every {@code interval}; the first question goes at once. */
    public static SourceEndMonitor start(ReplicationClient client, Duration interval, String pipeline) {
        Objects.requireNonNull(client, "client");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("interval must be positive: " + interval);
        }
        SourceEndMonitor m = new SourceEndMonitor(client, interval, pipeline);
        m.thread.start();
        return m;
    }

    /** The last answer that named the binlog's end, or null (none yet, or the last question failed or was refused). */
    public BinlogStatus latest() {
        return latest;
    }

    private void run() {
        while (!closed) {
            askOnce();
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    void askOnce() {
        String problem;
        BinlogStatus s = null;
        try {
            s = client.binlogStatus();
            problem = s.end() == null ? (s.problem() != null ? s.problem() : "the server reports no binlog end")
                    : s.files().isEmpty() && s.problem() != null ? s.problem() : null;
        } catch (ReplicationException e) {
            problem = e.getMessage();
        }
        if (closed) {
            return;
        }
        latest = s != null && s.end() != null ? s : null;
        if (problem != null && !problem.equals(lastProblem)) {
            LOG.warn("lanes pipeline '{}': cannot tell how far behind the source it is (the distance reads unknown): {}",
                    pipeline, problem);
        } else if (problem == null && lastProblem != null) {
            LOG.info("lanes pipeline '{}': the source's binlog status is readable again", pipeline);
        }
        lastProblem = problem;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
