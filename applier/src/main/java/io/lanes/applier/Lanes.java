package io.lanes.applier;

import io.lanes.applier.internal.FailureMessages;
import io.lanes.core.RecoveryPoint;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Lanes pipeline: reads MySQL/MariaDB binlog files or follows a live server, turns their transactions into work for the parallel engine and
 * applies them to a JDBC target (H2, PostgreSQL, MySQL/MariaDB) or a user sink, resuming from the target's checkpoint.
 *
 * <pre>{@code
 * try (Lanes lanes = Lanes.builder()
 *         .source(Path.of("binlog.000001"), Path.of("binlog.000002.gz"))
 *         .target("jdbc:postgresql://127.0.0.1:5432/replica").targetUser("lanes").targetPassword(passwordSupplier)
 *         .scheduler("writeset").workers(8).commitOrder(CommitOrder.STRICT).blockCommit(32)
 *         .build()) {
 *     lanes.start();                                   // resumes after the target's checkpoint
 *     lanes.awaitCaughtUp(Duration.ofHours(1));        // every transaction of the files is committed
 *     System.out.println(lanes.stats().transactions());
 * }                                                    // close(): graceful stop
 * }</pre>
 *
 * <h2>Lifecycle</h2>
 * {@link #start()} reads the checkpoint, starts the workers and one reading thread, and returns; the reading thread reads
 * the files from their beginning, passes over the transactions the checkpoint already covers, and hands the rest to the
 * engine in source order. {@link #stop()} is graceful: reading stops after the current transaction, every transaction
 * already read is applied and committed, the final checkpoint is saved. {@link #abort()} is the hard stop (nothing more
 * is committed; the checkpoints still make a restart exact). A pipeline runs once: to resume, build a new one with the
 * same configuration.
 *
 * <p>A live source ({@link LanesBuilder#sourceServer}) is followed until {@link #stop()}: the replication stream starts
 * after the checkpoint (by GTID state when the checkpoint has one, else by file and offset), reconnects by itself after a
 * lost connection, and {@link #awaitCaughtUp} tells when the target has caught up.
 *
 * <h2>Threads</h2>
 * <ul>
 *   <li>Every public method is thread-safe. {@link #start()}, {@link #stop()} and {@link #close()} are serialised with
 *       each other; {@link #stats()}, {@link #awaitCaughtUp}, {@link #state()} and {@link #abort()} may be called from
 *       any thread at any time, also while another thread is inside {@link #stop()}.</li>
 *   <li>The reading thread ({@code lanes-reader-<pipeline>}) is the engine's dispatching thread: it alone reads the
 *       source, converts transactions (with the {@link BinlogBridge}) and submits them. Each worker runs on a thread of
 *       its own with its own target connection; see {@link io.lanes.core.Engine} for what happens-before what.</li>
 *   <li>A user sink's appliers are called on worker threads only, one applier per worker.</li>
 * </ul>
 *
 * <h2>Failures</h2>
 * A transaction the target refuses after the configured retries, undecodable input, or a row that does not fit its target
 * table stops the pipeline cleanly: what was committed stays checkpointed, {@link #awaitCaughtUp} and {@link #stop()}
 * throw a {@link LanesException} naming the position. Running again resumes after the last committed transaction, so
 * nothing is applied twice and nothing is lost (exactly-once needs a transactional target; a sink with a file checkpoint
 * store is at-least-once).
 */
public final class Lanes implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Lanes.class);

    /** The states of a pipeline. */
    public enum State {
        /** Built, not started. */
        NEW,
        /** Reading and applying. */
        RUNNING,
        /** Every transaction of the input is committed (file sources). Still running until stopped. */
        CAUGHT_UP,
        /** Stopped gracefully. */
        STOPPED,
        /** Stopped after a failure. */
        FAILED
    }

    private final LanesConfig config;
    private final Object lifecycle = new Object();
    private volatile State state = State.NEW;
    /** What start() opened; null before, and after a start that failed. */
    private volatile PipelineRun run;
    /** A failure of start() or of the final stop; the reading thread's own is {@link PipelineRun#failure()}. */
    private volatile Throwable ownFailure;
    /** Whether a caller was already thrown this pipeline's failure (close() then logs rather than throws it). */
    private volatile boolean failureReported;
    private volatile long startNanos;
    private volatile long stopNanos;
    private volatile LanesStats finalStats;
    /** An abort() before start(): the run that start() opens then reads nothing. */
    private volatile boolean abortRequested;

    Lanes(LanesConfig config) {
        this.config = config;
    }

    /** Starts configuring a pipeline. */
    public static LanesBuilder builder() {
        return new LanesBuilder();
    }

    /** A pipeline from a configuration (e.g. {@link LanesConfig#fromProperties}). */
    public static Lanes create(LanesConfig config) {
        return new Lanes(java.util.Objects.requireNonNull(config, "config"));
    }

    public LanesConfig config() {
        return config;
    }

    public State state() {
        return state;
    }

    /**
     * Loads the checkpoint, starts workers and the reading thread.
     *
     * @return where this run resumes: {@link RecoveryPoint#position()} is null on a fresh target
     * @throws LanesException when a source file is missing, or the target cannot be reached or its checkpoint cannot be
     *     read (a live source connects on the reading thread: its failure is reported by {@link #awaitCaughtUp} and
     *     {@link #stop()})
     * @throws IllegalStateException when already started
     */
    public RecoveryPoint start() {
        synchronized (lifecycle) {
            if (state != State.NEW) {
                throw new IllegalStateException("a pipeline starts once (state " + state + "); build a new one to resume");
            }
            PipelineRun opened;
            try {
                opened = PipelineRun.open(config);
            } catch (LanesException refused) {
                ownFailure = refused;
                failureReported = true;
                state = State.FAILED;
                throw refused;
            }
            RecoveryPoint rp = opened.recoveryPoint();
            run = opened;
            if (abortRequested) {
                opened.abort();
            }
            startNanos = System.nanoTime();
            state = State.RUNNING;
            opened.startReading(() -> moveState(State.RUNNING, State.CAUGHT_UP),
                    () -> moveState(State.CAUGHT_UP, State.RUNNING));
            return rp;
        }
    }

    /**
     * Waits until the target has caught up with the source. Files: every transaction of the files is committed. A live
     * server: everything the server had written when the client connected (its binlog end position, and on GTID
     * streams its GTID state, recorded at connect) is committed; after that first catch-up, at some moment after this
     * call the stream was idle between transactions and everything read from it was committed.
     *
     * @return true when caught up; false on timeout, or when the pipeline was stopped or aborted first
     * @throws LanesException when the pipeline failed (naming the position)
     * @throws IllegalStateException when not started
     */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        if (state == State.NEW) {
            throw new IllegalStateException("not started");
        }
        PipelineRun r = run;
        if (r == null) { // the start failed
            failureReported = true;
            throw asLanesException(ownFailure);
        }
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        long seen = r.caughtUpCount();
        boolean live = config.sourceClient != null;
        while (true) {
            Throwable f = failure();
            if (f != null && r.readerFinished()) {
                failureReported = true;
                throw asLanesException(f);
            }
            if (live ? r.caughtUpCount() > seen : r.caughtUp()) {
                return true;
            }
            if (r.readerFinished() && failure() == null) {
                // The reader is done: it marked the pipeline caught up (or not) before it finished, so look again.
                // Returning false here straight away lost a race with the reader's last steps (seen in a benchmark:
                // false, with the statistics printed next saying CAUGHT_UP).
                return live ? r.caughtUpCount() > seen : r.caughtUp();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            r.awaitReader(Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)));
        }
    }

    /**
     * Graceful stop: reading stops after the current transaction, everything read is applied and committed, the final
     * checkpoint is saved, connections are closed. Idempotent. Blocks until done.
     *
     * @return the final statistics
     * @throws LanesException when the pipeline failed (the stop itself still completed)
     */
    public LanesStats stop() throws InterruptedException {
        synchronized (lifecycle) {
            if (state == State.NEW) {
                state = State.STOPPED;
                finalStats = snapshot(State.STOPPED);
                return finalStats;
            }
            PipelineRun r = run;
            if (finalStats == null) {
                if (r != null) {
                    Throwable stopFailure = r.finish();
                    if (stopFailure != null && ownFailure == null) {
                        ownFailure = stopFailure;
                    }
                }
                stopNanos = System.nanoTime();
                State end = failure() == null ? State.STOPPED : State.FAILED;
                finalStats = snapshot(end);
                state = end;
                LOG.info("lanes pipeline '{}' {}: {}", config.pipeline, end == State.STOPPED ? "stopped" : "failed",
                        finalStats.summary());
            }
            Throwable f = failure();
            if (f != null) {
                throw asLanesException(f);
            }
            return finalStats;
        }
    }

    /**
     * Hard stop from any thread: workers roll back their open batches and exit, nothing more is committed. The target's
     * checkpoints still describe exactly what was committed, so a new pipeline resumes exactly. Call {@link #stop()} or
     * {@link #close()} afterwards to release connections.
     */
    public void abort() {
        abortRequested = true;
        PipelineRun r = run;
        if (r != null) {
            r.abort();
        }
    }

    /** A snapshot of the counters; cheap, from any thread. */
    public LanesStats stats() {
        return finalStats != null ? finalStats : snapshot(state); // set once, never cleared: two reads are safe
    }

    /** Where this run resumed (null before start). */
    public RecoveryPoint recoveryPoint() {
        PipelineRun r = run;
        return r == null ? null : r.recoveryPoint();
    }

    /**
     * {@link #stop()}, not throwing a failure already thrown to the caller by {@link #start()}, {@link #awaitCaughtUp}
     * or {@link #stop()} (so that a try-with-resources block reports it once).
     */
    @Override
    public void close() throws InterruptedException {
        boolean reported;
        synchronized (lifecycle) {
            // Reported already by awaitCaughtUp or stop(): thrown again here, a try-with-resources would add it as
            // suppressed to the first report, whose cause it shares, and the trace would print [CIRCULAR REFERENCE].
            reported = finalStats != null || failureReported;
        }
        try {
            stop();
        } catch (LanesException e) {
            if (!reported) {
                throw e;
            }
        }
    }

    /** The reading thread's failure first (it names the transaction), else the start's or the stop's. */
    private Throwable failure() {
        PipelineRun r = run;
        Throwable reading = r == null ? null : r.failure();
        return reading != null ? reading : ownFailure;
    }

    private void moveState(State from, State to) {
        if (state == from) {
            state = to;
        }
    }

    private LanesStats snapshot(State s) {
        PipelineRun r = run;
        if (r == null) {
            return LanesStats.notStarted(s, config);
        }
        long end = stopNanos != 0 ? stopNanos : System.nanoTime();
        return r.stats(s, (end - startNanos) / 1e9);
    }

    /** The failure as the one {@link LanesException} callers see (see {@link FailureMessages#asLanesException}). */
    private LanesException asLanesException(Throwable f) {
        PipelineRun r = run;
        return FailureMessages.asLanesException(config.pipeline, f, r == null ? null : r.failurePosition());
    }
}
