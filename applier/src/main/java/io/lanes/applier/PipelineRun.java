package io.lanes.applier;

import io.lanes.applier.internal.FailureMessages;
import io.lanes.applier.internal.StatementCounters;
import io.lanes.applier.schema.SchemaHistory;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.core.ApplierFailedException;
import io.lanes.core.Engine;
import io.lanes.core.EngineStats;
import io.lanes.core.RecoveryPoint;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a configured pipeline, as {@link Lanes#start()} opens it: the checked source, the opened target, the
 * started engine, the schema history in force at the checkpoint, and the reading thread ({@code lanes-reader-<name>},
 * the engine's dispatching thread) that runs the {@link Pipeline} over the {@link Source}.
 *
 * <p>Threads: {@link #open} and {@link #finish} run on the thread that starts and stops the pipeline (serialised by
 * {@link Lanes}); the reading thread writes {@link #failure()} before it counts down {@link #awaitReader}; the
 * queries may be called from any thread.
 */
final class PipelineRun {
    private static final Logger LOG = LoggerFactory.getLogger(Lanes.class);

    private final LanesConfig config;
    private final PipelineTarget target;
    private final Engine<SourceTransaction> engine;
    private final RecoveryPoint recoveryPoint;
    private final SchemaHistory history;
    private final boolean historyRestored;
    private final Source source;
    private final StatementCounters statementCounters = new StatementCounters();
    private final PipelineProgress progress = new PipelineProgress();
    private final CountDownLatch readerFinished = new CountDownLatch(1);
    private volatile Pipeline pipeline;
    private volatile Throwable failure;
    private volatile boolean stopRequested;
    private volatile boolean aborted;
    private Thread reader;

    private PipelineRun(LanesConfig config, PipelineTarget target, Engine<SourceTransaction> engine, RecoveryPoint rp,
            SchemaHistory history, boolean historyRestored) {
        this.config = config;
        this.target = target;
        this.engine = engine;
        this.recoveryPoint = rp;
        this.history = history;
        this.historyRestored = historyRestored;
        BinlogReaderOptions options = BinlogReaderOptions.builder().verifyChecksums(config.verifyChecksums)
                .spillThresholdBytes(config.spillThresholdBytes(Runtime.getRuntime().maxMemory()))
                .spillDirectory(config.spillDirectory).build();
        this.source = config.sourceClient == null ? new FileSource(config.sourceFiles, options)
                : new LiveSource(config.sourceClient, config.sourceStart, options, config.sourceStatusInterval,
                        target.mapping(), !historyRestored);
    }

    /**
     * Checks the sources, opens the target, starts the engine (which loads the checkpoint) and restores the schema
     * history saved with it; nothing is read yet.
     *
     * @throws LanesException naming what stops the start; whatever was opened is closed again and nothing was applied
     */
    static PipelineRun open(LanesConfig config) {
        SchemaHistory history = new SchemaHistory();
        LanesException unusable = StartChecks.sources(config, history);
        if (unusable != null) {
            throw unusable;
        }
        PipelineTarget target = PipelineTarget.open(config);
        Engine<SourceTransaction> e = target.newEngine(config);
        RecoveryPoint rp;
        try {
            rp = e.start();
        } catch (RuntimeException ex) {
            target.close();
            throw StartChecks.cannotStart(config, ex);
        }
        try {
            boolean restored = target.restoreHistory(config.pipeline, rp.position(), history);
            LanesException noStart = StartChecks.liveStart(config, rp);
            if (noStart != null) {
                throw noStart;
            }
            return new PipelineRun(config, target, e, rp, history, restored);
        } catch (LanesException refused) {
            StartChecks.stopQuietly(e);
            target.close();
            throw refused;
        }
    }

    /**
     * Starts the reading thread.
     *
     * @param onCaughtUp called on the reading thread when everything read is committed and the source has no more now
     * @param onRunning called on the reading thread when a live source delivers again after that
     */
    void startReading(Runnable onCaughtUp, Runnable onRunning) {
        LOG.info("lanes pipeline '{}' started: {} -> {}, scheduler {}, {} workers, resuming after {}", config.pipeline,
                config.sourceDescription(), config.targetDescription(), config.schedulerName(), config.engine.workers(),
                recoveryPoint().position() == null ? "(fresh start)" : recoveryPoint().position());
        reader = new Thread(() -> read(onCaughtUp, onRunning), "lanes-reader-" + config.pipeline);
        reader.setDaemon(true);
        reader.start();
    }

    private void read(Runnable onCaughtUp, Runnable onRunning) {
        Pipeline p = Pipeline.forTarget(config, engine, recoveryPoint, target, history, historyRestored,
                statementCounters).progress(progress).listener(onCaughtUp, onRunning).build();
        pipeline = p;
        if (stopRequested) {
            p.requestStop(); // a stop that came before the pipeline existed
        }
        try {
            source.run(p);
        } catch (Throwable ex) {
            if (aborted) {
                LOG.info("lanes pipeline '{}' aborted: {}", config.pipeline, FailureMessages.describe(ex));
                return;
            }
            failure = ex;
            LOG.error("lanes pipeline '{}' failed: {}", config.pipeline, FailureMessages.describe(ex));
            try {
                engine.stop(); // apply and checkpoint what was handed over before the failure
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

    /** Asks the reading thread to stop after the current transaction; from any thread. */
    void requestStop() {
        stopRequested = true;
        Pipeline p = pipeline;
        if (p != null) {
            p.requestStop();
        }
    }

    /** Hard stop: nothing more is read or committed; from any thread. */
    void abort() {
        aborted = true;
        requestStop();
        engine.abort();
    }

    /**
     * The graceful end: the reading thread stops after the current transaction and is joined, the engine drains and
     * saves its final checkpoint, the target's catalog connection is closed.
     *
     * @return the failure of the stop itself, when the run had none before (null otherwise)
     */
    Throwable finish() throws InterruptedException {
        requestStop();
        if (reader != null) {
            reader.join();
        }
        Throwable stopFailure = null;
        try {
            engine.stop(); // idempotent: the reading thread stopped it already after a failure
        } catch (RuntimeException ex) {
            if (failure == null && !aborted) {
                stopFailure = ex;
            }
        }
        target.close();
        return stopFailure;
    }

    /** Waits up to the given time for the reading thread to end; true when it has. */
    boolean awaitReader(long nanos) throws InterruptedException {
        return readerFinished.await(nanos, TimeUnit.NANOSECONDS);
    }

    boolean readerFinished() {
        return readerFinished.getCount() == 0;
    }

    /** What stopped the reading thread; null while it runs or when it ended normally. */
    Throwable failure() {
        return failure;
    }

    boolean caughtUp() {
        Pipeline p = pipeline;
        return p != null && p.caughtUp();
    }

    long caughtUpCount() {
        Pipeline p = pipeline;
        return p == null ? 0 : p.caughtUpCount();
    }

    RecoveryPoint recoveryPoint() {
        return recoveryPoint;
    }

    /** The position a failure is reported at: the transaction being submitted, else the last one submitted. */
    String failurePosition() {
        Pipeline p = pipeline;
        return p == null ? null : p.currentPosition() != null ? p.currentPosition() : p.sourcePosition();
    }

    /** The counters now, for a pipeline in {@code state} that has run for {@code seconds}. */
    LanesStats stats(Lanes.State state, double seconds) {
        EngineStats es = engine.stats();
        String resumedAfter = recoveryPoint.position();
        LiveSource live = source instanceof LiveSource l ? l : null;
        PipelineProgress.Snapshot now = progress.snapshot(es.lowWaterMark(), live != null, caughtUp(),
                live == null ? null : live.client(), live == null ? null : live.sourceEnd(), resumedAfter);
        return LanesStats.of(state, seconds, config.engine.workers() == 0, pipeline, es, resumedAfter, now,
                target.transactionsSkippedByErrorPolicy(), statementCounters.snapshot(target.jdbc()));
    }
}
