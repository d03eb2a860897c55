package io.lanes.applier;

import io.lanes.applier.internal.FailureMessages;
import io.lanes.applier.internal.StatementCounters;
import io.lanes.applier.schema.SchemaHistory;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.core.ApplierFailedException;
import io.lanes.core.Engine;
import io.lanes.core.EngineStats;
import io.lanes.core.RecoveryPoint;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
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
 *       its own with its own target connection; see {@link Engine} for what happens-before what.</li>
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
    private final CountDownLatch readerFinished = new CountDownLatch(1);
    private volatile State state = State.NEW;
    private volatile boolean stopRequested;
    private volatile boolean aborted;
    private volatile Engine<SourceTransaction> engine;
    private volatile RecoveryPoint recoveryPoint;
    private volatile Throwable failure;
    /** Whether a caller was already thrown this pipeline's failure (close() then logs rather than throws it). */
    private volatile boolean failureReported;
    private volatile long startNanos;
    private volatile long stopNanos;
    private volatile LanesStats finalStats;
    private Thread reader;
    /** The target as opened by start(); closed by stop(). */
    private PipelineTarget target;
    private volatile Source source;
    private volatile Pipeline pipeline;
    /** The source's table definitions; read and changed by the reading thread once started. */
    private final SchemaHistory history = new SchemaHistory();
    /** Whether the history was restored as in force at the checkpoint (skipped transactions then do not change it). */
    private boolean historyRestored;
    private final StatementCounters statementCounters = new StatementCounters();
    private final PipelineProgress progress = new PipelineProgress();

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
            LanesException unusable = StartChecks.sources(config, history);
            if (unusable != null) {
                throw failStart(unusable);
            }
            try {
                target = PipelineTarget.open(config);
            } catch (LanesException cannotOpen) {
                throw failStart(cannotOpen);
            }
            Engine<SourceTransaction> e = target.newEngine(config);
            RecoveryPoint rp;
            try {
                rp = e.start();
            } catch (RuntimeException ex) {
                closeTarget();
                throw failStart(StartChecks.cannotStart(config, ex));
            }
            try {
                historyRestored = target.restoreHistory(config.pipeline, rp.position(), history);
            } catch (LanesException unreadable) {
                StartChecks.stopQuietly(e);
                closeTarget();
                throw failStart(unreadable);
            }
            LanesException noStart = StartChecks.liveStart(config, rp);
            if (noStart != null) {
                StartChecks.stopQuietly(e);
                closeTarget();
                throw failStart(noStart);
            }
            engine = e;
            recoveryPoint = rp;
            source = config.sourceClient == null
                    ? new FileSource(config.sourceFiles, readerOptions())
                    : new LiveSource(config.sourceClient, config.sourceStart, readerOptions(), config.sourceStatusInterval,
                            target.mapping(), !historyRestored);
            startNanos = System.nanoTime();
            state = State.RUNNING;
            LOG.info("lanes pipeline '{}' started: {} -> {}, scheduler {}, {} workers, resuming after {}", config.pipeline,
                    config.sourceDescription(), config.targetDescription(), config.schedulerName(), config.workers,
                    rp.position() == null ? "(fresh start)" : rp.position());
            reader = new Thread(this::readLoop, "lanes-reader-" + config.pipeline);
            reader.setDaemon(true);
            reader.start();
            return rp;
        }
    }

    private LanesException failStart(LanesException e) {
        failure = e;
        failureReported = true;
        state = State.FAILED;
        readerFinished.countDown(); // no reading thread will run: waiters must not wait for it
        return e;
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
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        long seen = caughtUpCount();
        while (true) {
            Throwable f = failure;
            if (f != null && readerFinished.getCount() == 0) {
                failureReported = true;
                throw asLanesException(f);
            }
            if (config.sourceClient == null ? caughtUp() : caughtUpCount() > seen) {
                return true;
            }
            if (readerFinished.getCount() == 0 && failure == null) {
                // The reader is done: it marked the pipeline caught up (or not) before it finished, so look again.
                // Returning false here straight away lost a race with the reader's last steps (seen in a benchmark:
                // false, with the statistics printed next saying CAUGHT_UP).
                return config.sourceClient == null ? caughtUp() : caughtUpCount() > seen;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            readerFinished.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)), TimeUnit.NANOSECONDS);
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
            if (finalStats == null) {
                requestStop();
                if (reader != null) {
                    reader.join();
                }
                Engine<SourceTransaction> e = engine;
                if (e != null) {
                    try {
                        e.stop(); // idempotent: the reading thread stopped it already after a failure
                    } catch (RuntimeException ex) {
                        if (failure == null && !aborted) {
                            failure = ex;
                        }
                    }
                }
                closeTarget();
                stopNanos = System.nanoTime();
                State end = failure == null ? State.STOPPED : State.FAILED;
                finalStats = snapshot(end);
                state = end;
                LOG.info("lanes pipeline '{}' {}: {} transactions in {} s", config.pipeline,
                        end == State.STOPPED ? "stopped" : "failed", finalStats.transactions(),
                        String.format(Locale.ROOT, "%.3f", finalStats.seconds()));
            }
            if (failure != null) {
                throw asLanesException(failure);
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
        aborted = true;
        requestStop();
        Engine<SourceTransaction> e = engine;
        if (e != null) {
            e.abort();
        }
    }

    /** A snapshot of the counters; cheap, from any thread. */
    public LanesStats stats() {
        LanesStats f = finalStats;
        return f != null ? f : snapshot(state);
    }

    /** Where this run resumed (null before start). */
    public RecoveryPoint recoveryPoint() {
        return recoveryPoint;
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

    // ---------------------------------------------------------------------------------------------------------------

    private void requestStop() {
        stopRequested = true;
        Pipeline p = pipeline;
        if (p != null) {
            p.requestStop();
        }
    }

    private BinlogReaderOptions readerOptions() {
        return BinlogReaderOptions.builder().verifyChecksums(config.verifyChecksums).build();
    }

    /** The reading thread: the pipeline loop over the source, and the failure handling around it. */
    private void readLoop() {
        Engine<SourceTransaction> e = engine;
        Pipeline p = Pipeline.forTarget(config, e, recoveryPoint, target, history, historyRestored, statementCounters)
                .progress(progress).listener(() -> moveState(State.RUNNING, State.CAUGHT_UP),
                        () -> moveState(State.CAUGHT_UP, State.RUNNING)).build();
        pipeline = p;
        if (stopRequested) {
            p.requestStop(); // a stop that came before the pipeline existed
        }
        try {
            source.run(p);
        } catch (Throwable ex) {
            if (aborted) {
                LOG.info("lanes pipeline '{}' aborted: {}", config.pipeline, describe(ex));
                return;
            }
            failure = ex;
            LOG.error("lanes pipeline '{}' failed: {}", config.pipeline, describe(ex));
            try {
                e.stop(); // apply and checkpoint what was handed over before the failure
            } catch (Throwable stopFailure) {
                if (!(ex instanceof ApplierFailedException)) {
                    // The engine's own failure names the transaction the target refused: it is the more precise one.
                    failure = stopFailure instanceof ApplierFailedException ? stopFailure : ex;
                }
            }
        } finally {
            source.close();
            readerFinished.countDown();
        }
    }

    private boolean caughtUp() {
        Pipeline p = pipeline;
        return p != null && p.caughtUp();
    }

    private long caughtUpCount() {
        Pipeline p = pipeline;
        return p == null ? 0 : p.caughtUpCount();
    }

    private void moveState(State from, State to) {
        if (state == from) {
            state = to;
        }
    }

    private LanesStats snapshot(State s) {
        Engine<SourceTransaction> e = engine;
        long end = stopNanos != 0 ? stopNanos : System.nanoTime();
        EngineStats es = e == null ? null : e.stats();
        String resumedAfter = recoveryPoint == null ? null : recoveryPoint.position();
        LiveSource live = source instanceof LiveSource l ? l : null;
        PipelineProgress.Snapshot now = progress.snapshot(es == null ? 0 : es.lowWaterMark(),
                config.sourceClient != null, caughtUp(), live == null ? null : live.client(),
                live == null ? null : live.sourceEnd(), resumedAfter);
        PipelineTarget t = target;
        return LanesStats.of(s, startNanos == 0 ? 0 : (end - startNanos) / 1e9, config.workers == 0, pipeline, es,
                resumedAfter, now, t == null ? 0 : t.transactionsSkippedByErrorPolicy(),
                statementCounters.snapshot(t == null ? null : t.jdbc()));
    }

    private void closeTarget() {
        if (target != null) {
            target.close();
        }
    }

    /** The failure as the one {@link LanesException} callers see (see {@link FailureMessages#asLanesException}). */
    private LanesException asLanesException(Throwable f) {
        Pipeline p = pipeline;
        String at = p == null ? null : p.currentPosition() != null ? p.currentPosition() : p.sourcePosition();
        return FailureMessages.asLanesException(config.pipeline, f, at);
    }

    static String describe(Throwable t) {
        return FailureMessages.describe(t);
    }
}
