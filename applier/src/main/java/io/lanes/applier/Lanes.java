package io.lanes.applier;

import io.lanes.binlog.gtid.GtidSet;
import io.lanes.binlog.gtid.MariaDbGtidPosition;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.applier.checkpoint.FileCheckpointStore;
import io.lanes.applier.internal.FailureMessages;
import io.lanes.applier.internal.StartPrefix;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.sink.SinkTarget;
import io.lanes.applier.jdbc.CatalogTableMetadata;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.applier.jdbc.TargetUrls;
import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogEventDecoder;
import io.lanes.binlog.BinlogReader;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.MariaGtidListEvent;
import io.lanes.binlog.PreviousGtidsEvent;
import io.lanes.binlog.TransactionAssembler;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ServerInfo;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.core.ApplierFactory;
import io.lanes.core.ApplierFailedException;
import io.lanes.core.CheckpointStore;
import io.lanes.core.Engine;
import io.lanes.core.EngineStats;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Transaction;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
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
    private volatile boolean caughtUp;
    /** Whether a caller was already thrown this pipeline's failure (close() then logs rather than throws it). */
    private volatile boolean failureReported;
    private final AtomicLong caughtUpCount = new AtomicLong();
    private volatile long startNanos;
    private volatile long stopNanos;
    private volatile LanesStats finalStats;
    private Thread reader;
    private AutoCloseable metadataToClose;
    private TableMetadata metadata;
    private SchemaMapping mapping;
    /** The source's table definitions; read and changed by the reading thread once started. */
    private io.lanes.applier.schema.SchemaHistory history = new io.lanes.applier.schema.SchemaHistory();
    /** Where the history is kept beside the checkpoints (null: a custom sink, whose history is rebuilt on restart). */
    private io.lanes.applier.schema.SchemaHistoryStore historyStore;
    /** Whether the history was restored as in force at the checkpoint (skipped transactions then do not change it). */
    private boolean historyRestored;
    private volatile java.util.function.LongSupplier skippedByErrorPolicy = () -> 0;
    private final io.lanes.applier.internal.StatementCounters statementCounters =
            new io.lanes.applier.internal.StatementCounters();
    private volatile JdbcTarget jdbcTarget;
    private final PipelineProgress progress = new PipelineProgress();
    private volatile ReplicationClient liveClient;
    private volatile io.lanes.applier.internal.SourceEndMonitor sourceEnd;

    // Written by the reading thread only; read by any thread for stats.
    private volatile long transactionsRead;
    private volatile long transactionsSkipped;
    private volatile long events;
    private volatile long rows;
    private volatile long sourceBytesRead;
    private volatile long sourceBytesTotal = -1;
    private volatile String sourcePosition;
    private volatile long lastSequence;
    private volatile String currentPosition;

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
            for (Path f : config.sourceFiles) { // none for a live source
                LanesException unusable = StartChecks.sourceFile(f);
                if (unusable != null) {
                    throw failStart(unusable);
                }
            }
            try {
                SourceOrderGuard.checkFiles(config.sourceFiles);
            } catch (IllegalArgumentException repeated) {
                throw failStart(new LanesException(repeated.getMessage() + "; nothing was applied", null, null));
            }
            if (config.sourceSchemaFile != null) {
                try {
                    history.loadSchemaFile(config.sourceSchemaFile);
                } catch (IOException | RuntimeException ex) {
                    throw failStart(new LanesException("cannot read the schema file " + config.sourceSchemaFile + ": "
                            + ex.getMessage() + "; nothing was applied", null, ex));
                }
                LOG.info("lanes pipeline '{}': schema file {} gives {} table definitions", config.pipeline,
                        config.sourceSchemaFile, history.tables().size());
            }
            ApplierFactory<SourceTransaction> factory;
            CheckpointStore store;
            if (config.transactionSink != null) {
                try {
                    SinkTarget sink = new SinkTarget(config.transactionSink,
                            new FileCheckpointStore(config.sinkCheckpointDirectory), config.pipeline);
                    factory = sink.applierFactory();
                    store = sink.checkpointStore();
                    historyStore = new io.lanes.applier.schema.FileSchemaHistoryStore(config.sinkCheckpointDirectory);
                } catch (IOException ex) {
                    LanesException le = new LanesException("cannot use the checkpoint directory "
                            + config.sinkCheckpointDirectory + ": " + ex.getMessage(), null, ex);
                    throw failStart(le);
                }
                metadata = config.sinkMetadata;
                mapping = config.mapping;
            } else if (config.hasSink()) {
                factory = config.sinkFactory;
                store = config.sinkCheckpoints;
                metadata = config.sinkMetadata;
                mapping = config.mapping;
            } else {
                JdbcTarget jdbc = jdbcTarget(config);
                LanesException tooFewConnections = StartChecks.connections(config, jdbc);
                if (tooFewConnections != null) {
                    throw failStart(tooFewConnections);
                }
                jdbcTarget = jdbc;
                skippedByErrorPolicy = jdbc::transactionsSkippedByErrorPolicy;
                factory = jdbc.applierFactory();
                store = jdbc.checkpointStore();
                historyStore = new io.lanes.applier.schema.JdbcSchemaHistoryStore(jdbc.connections(), jdbc.dialect(),
                        jdbc.checkpointTable().schema(), jdbc.checkpointTable().table() + "_schema_history");
                CatalogTableMetadata catalog = new CatalogTableMetadata(jdbc.connections(), jdbc.catalog());
                metadata = catalog;
                metadataToClose = catalog;
                mapping = jdbc.mapping();
            }
            if (historyStore != null) {
                try {
                    historyStore.prepare();
                } catch (Exception ex) {
                    closeMetadata();
                    throw failStart(new LanesException("cannot prepare the schema history store beside the checkpoint: "
                            + ex.getMessage() + "; nothing was applied", null, ex));
                }
            }
            Engine<SourceTransaction> e = Engine.builder(factory).checkpointStore(store).scheduler(config.newScheduler())
                    .workers(config.workers).commitOrder(config.commitOrder).maxBatchTransactions(config.blockCommit)
                    .checkpointGroupSize(config.checkpointGroupSize).checkpointPeriod(config.checkpointPeriod)
                    .queueBudgetBytes(config.queueBudgetBytes).workerQueueCapacity(config.workerQueueCapacity)
                    .retries(config.retries).name("lanes-" + config.pipeline).build();
            RecoveryPoint rp;
            try {
                rp = e.start();
            } catch (RuntimeException ex) {
                closeMetadata();
                throw failStart(StartChecks.cannotStart(config, ex));
            }
            if (rp.position() != null && historyStore != null) {
                try {
                    io.lanes.applier.schema.SchemaHistory restored = historyStore.load(config.pipeline, rp.position());
                    if (restored != null) {
                        history.replaceWith(restored);
                        historyRestored = true;
                        LOG.info("lanes pipeline '{}': schema history restored as in force at {} ({} tables)",
                                config.pipeline, rp.position(), history.tables().size());
                    }
                } catch (Exception ex) {
                    StartChecks.stopQuietly(e);
                    closeMetadata();
                    throw failStart(new LanesException("cannot read the schema history saved with the checkpoint "
                            + rp.position() + ": " + ex.getMessage(), rp.position(), ex));
                }
            }
            LanesException noStart = StartChecks.liveStart(config, rp);
            if (noStart != null) {
                StartChecks.stopQuietly(e);
                closeMetadata();
                throw failStart(noStart);
            }
            engine = e;
            recoveryPoint = rp;
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
        long seen = caughtUpCount.get();
        while (true) {
            Throwable f = failure;
            if (f != null && readerFinished.getCount() == 0) {
                failureReported = true;
                throw asLanesException(f);
            }
            if (config.sourceClient == null ? caughtUp : caughtUpCount.get() > seen) {
                return true;
            }
            if (readerFinished.getCount() == 0 && failure == null) {
                // The reader is done: it marked the pipeline caught up (or not) before it finished, so look again.
                // Returning false here straight away lost a race with the reader's last steps (seen in a benchmark:
                // false, with the statistics printed next saying CAUGHT_UP).
                return config.sourceClient == null ? caughtUp : caughtUpCount.get() > seen;
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
                stopRequested = true;
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
                closeMetadata();
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
        stopRequested = true;
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

    private void readLoop() {
        Engine<SourceTransaction> e = engine;
        BinlogBridge bridge = new BinlogBridge(mapping, metadata, new io.lanes.applier.internal.StatementFilter(mapping,
                config.applyAccountStatements, statementCounters), history);
        bridge.followSkippedDefinitions(!historyRestored);
        JdbcTarget jdbc = jdbcTarget;
        bridge.foreignKeyChecksOffRunsAlone(jdbc != null && jdbc.dialect().kind() == Dialect.Kind.H2);
        bridge.uniqueIndexKeys(jdbc != null && jdbc.dialect().kind() == Dialect.Kind.MYSQL);
        BinlogReaderOptions options = BinlogReaderOptions.builder().verifyChecksums(config.verifyChecksums).build();
        try {
            if (config.sourceClient != null) {
                readLive(e, bridge, options);
            } else {
                readFiles(e, bridge, options);
            }
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
            io.lanes.applier.internal.SourceEndMonitor m = sourceEnd;
            if (m != null) {
                m.close();
            }
            readerFinished.countDown();
        }
    }

    private void readFiles(Engine<SourceTransaction> e, BinlogBridge bridge, BinlogReaderOptions options)
            throws Exception {
        Map<String, Long> fileBase = new HashMap<>();
        long total = 0;
        boolean totalKnown = true;
        for (Path f : config.sourceFiles) {
            fileBase.put(f.toString(), total);
            long size = inputSize(f);
            if (size < 0) {
                totalKnown = false;
            } else {
                total += size;
            }
        }
        sourceBytesTotal = totalKnown ? total : -1;
        RecoveryPoint from = recoveryPoint;
        ResumeCursor resume = new ResumeCursor(from);
        // The events themselves rather than a TransactionReader: the PREVIOUS_GTIDS event (MySQL) or GTID_LIST event
        // (MariaDB) at the start of each file, outside any transaction, gives the GTID state the server's history before
        // the file.
        TransactionAssembler assembler = new TransactionAssembler();
        SourceOrderGuard order = new SourceOrderGuard();
        try (BinlogReader in = BinlogReader.open(config.sourceFiles, options)) {
            BinlogEvent event;
            while (!stopRequested && (event = in.next()) != null) {
                if (event instanceof PreviousGtidsEvent p) {
                    resume.sourceHistory(p.gtidSet().isBlank());
                    bridge.previousGtids(p);
                } else if (event instanceof MariaGtidListEvent l) {
                    resume.sourceHistory(l.gtids().isEmpty());
                    bridge.mariaGtidList(l);
                }
                assembler.accept(event, in.currentSource());
                for (BinlogTransaction t; !stopRequested && (t = assembler.poll()) != null; ) {
                    Long base = fileBase.get(t.endFile());
                    if (base != null) {
                        sourceBytesRead = base + t.endPosition();
                    }
                    order.check(t, baseName(t.endFile()) + ":" + t.endPosition()
                            + (t.gtid() == null ? "" : " (GTID " + t.gtid() + ")"));
                    if (resume.passing()) {
                        resume.passed(skip(bridge, t));
                        transactionsSkipped++;
                        continue;
                    }
                    if (!dispatch(e, bridge, t)) {
                        return;
                    }
                }
            }
            assembler.discardOpen();
        }
        if (stopRequested) {
            return;
        }
        if (resume.passing()) {
            throw new LanesException("the checkpoint's position " + resume.resumeAfter() + " is not in the input ("
                    + transactionsSkipped + " transactions read): were the same binlog files given, in full and in "
                    + "order?", resume.resumeAfter().toString(), null);
        }
        sourceBytesRead = sourceBytesTotal >= 0 ? sourceBytesTotal : sourceBytesRead;
        if (lastSequence == 0 || e.awaitLowWaterMark(lastSequence, Duration.ofDays(3650))) {
            markCaughtUp();
        } else if (!stopRequested) {
            e.stop(); // the engine halted: collect its failure
        }
    }

    /**
     * Follows a live server: the stream starts where the checkpoint says (its GTID state when it has one, else its file
     * and offset), or at the configured start on a fresh target, so the server sends exactly the transactions after the
     * low-water mark in their original order.
     *
     * <p>Caught up: first once everything the server had written when this run connected is committed, that is once
     * the stream, between transactions, has reached the end of the server's binlog as SHOW MASTER STATUS reported it at
     * connect ({@link ServerInfo#endPosition()}), or, on a GTID stream, covers the server's {@code @@gtid_binlog_pos}
     * (MariaDB) or {@code @@global.gtid_executed} (MySQL) of then; writes after the connect are not waited for, and a pause in the stream before
     * that point is not taken for the end. Afterwards (a follower) again whenever the stream is idle between transactions
     * with everything read committed. When the server reported neither, only the idle rule applies.
     */
    private void readLive(Engine<SourceTransaction> e, BinlogBridge bridge, BinlogReaderOptions options)
            throws Exception {
        RecoveryPoint from = recoveryPoint;
        StartPosition start = from.position() == null ? config.sourceStart : resumePosition(from.position());
        bridge.startingAt(start); // checkpoints carry the whole GTID state, not only what this run saw
        // A fresh start in the middle of a file reads the file from its beginning for the GTIDs before the position
        // (the server sends neither them nor the file's PREVIOUS_GTIDS otherwise). A resume needs no such read: a
        // checkpoint of a GTID source carries its GTID set and resumes by it.
        StartPrefix prefix = from.position() == null ? StartPrefix.before(start) : null;
        try (ReplicationClient client = config.sourceClient
                .startPosition(prefix == null ? start : prefix.dumpFrom()).build()) {
            if (!historyRestored) {
                seedFromSource(client);
            }
            ServerInfo atConnect = client.start();
            liveClient = client;
            if (!config.sourceStatusInterval.isZero()) {
                sourceEnd = io.lanes.applier.internal.SourceEndMonitor.start(client, config.sourceStatusInterval,
                        config.pipeline);
            }
            if (atConnect != null && atConnect.mariaDb() && start instanceof StartPosition.FilePosition) {
                // A MariaDB dump from a file position carries no history: the server's BINLOG_GTID_POS for the dump
                // position (the start, or the start file's beginning when a prefix is read) gives every domain's last
                // GTID before it, the prefix's transactions then advance it to the start.
                String before = atConnect.startGtidPosition();
                if (before != null) {
                    bridge.mariaDbPositionBefore(before);
                    LOG.info("lanes pipeline '{}': a MariaDB source followed from a file position ({}): GTID position"
                            + " before {} on the server: '{}'", config.pipeline, start,
                            prefix == null ? start : prefix.dumpFrom(), before);
                } else {
                    LOG.warn("lanes pipeline '{}': a MariaDB source followed from a file position ({}) refused"
                            + " BINLOG_GTID_POS: checkpoints carry the last GTID of each domain this run saw (and the"
                            + " start file before the position), not the domains it did not see; start from a GTID"
                            + " position (?gtid=) for a complete one", config.pipeline, start);
                }
            }
            LiveCatchUpTarget target = LiveCatchUpTarget.of(atConnect);
            long targetSequence = -1; // the last transaction up to the target, once the stream reached it
            long targetMarkedUntil = -1;
            BinlogEventDecoder decoder = client.newDecoderForDelivered(options);
            TransactionAssembler assembler = new TransactionAssembler();
            while (!stopRequested) {
                ReplicationEvent raw = client.poll(Duration.ZERO);
                if (raw == null) {
                    // The stream paused: with 0 workers, commit what is open before waiting for more.
                    e.flush();
                    raw = client.poll(Duration.ofMillis(100));
                }
                if (targetSequence < 0 && raw == null && target == null && !assembler.insideTransaction()) {
                    targetSequence = lastSequence; // nothing to compare with: the idle rule alone
                }
                if (targetSequence >= 0 && e.lowWaterMark() >= targetSequence) {
                    long now = System.nanoTime();
                    if (targetMarkedUntil < 0) {
                        // marked for a second, so that a caller polling awaitCaughtUp in a loop cannot miss it
                        // between two calls even if the stream never pauses afterwards
                        targetMarkedUntil = now + TimeUnit.SECONDS.toNanos(1);
                        markCaughtUp();
                    } else if (now - targetMarkedUntil < 0) {
                        markCaughtUp();
                    } else if (raw == null && !assembler.insideTransaction() && e.lowWaterMark() >= lastSequence) {
                        markCaughtUp();
                    }
                }
                if (raw == null) {
                    continue;
                }
                byte[] b = raw.bytes();
                BinlogEvent event = decoder.decodeRetainingIfAccepted(b, raw.position());
                if (event instanceof PreviousGtidsEvent p) {
                    bridge.previousGtids(p);
                }
                if (prefix != null && prefix.take(raw, event)) {
                    for (BinlogTransaction t; (t = prefix.poll()) != null; ) {
                        skip(bridge, t); // executed before the start: its GTID (and definitions) only
                    }
                } else if (event != null) {
                    sourceBytesRead += b.length;
                    assembler.accept(event, raw.binlogFile());
                    for (BinlogTransaction t; (t = assembler.poll()) != null; ) {
                        if (!dispatch(e, bridge, t)) {
                            return;
                        }
                    }
                }
                if (targetSequence < 0 && target != null && raw.endsTransaction() && !assembler.insideTransaction()
                        && target.reachedBy(raw)) {
                    targetSequence = lastSequence;
                }
            }
        }
    }

    /**
     * Adds the definitions of the source's tables that neither a schema file nor a saved history gave, from its
     * information_schema. A server that refuses is logged: the log's own DDL and the target's catalog remain, and a
     * row event none of them explains stops the pipeline naming its table.
     */
    private void seedFromSource(ReplicationClient client) {
        try {
            int added = io.lanes.applier.schema.InformationSchemaSeed.seed(history, mapping, client::queryRows,
                    "the source's information_schema");
            LOG.info("lanes pipeline '{}': {} table definitions from the source's information_schema", config.pipeline,
                    added);
        } catch (io.lanes.binlog.replication.ReplicationException e) {
            LOG.warn("lanes pipeline '{}': cannot read the source's information_schema ({}): row events logged "
                    + "without column names rely on the log's own DDL, a schema file (lanes.source.schema-file) or "
                    + "the target's catalog", config.pipeline, e.getMessage());
        }
    }

    /**
     * Where the server's binlog ended when a live run connected: its file and position, and on MariaDB its GTID
     * position (the stream may start from a GTID and skip to the end without sending a real event to compare).
     */
    record LiveCatchUpTarget(StartPosition.FilePosition end, GtidSet gtids) {
        static LiveCatchUpTarget of(ServerInfo info) {
            if (info == null) {
                return null;
            }
            GtidSet gtids = parseGtids(info.currentGtidPosition(), info.mariaDb());
            if (info.endPosition() == null && gtids == null) {
                return null;
            }
            return new LiveCatchUpTarget(info.endPosition(), gtids);
        }

        /** True when the stream, after {@code e} (between transactions), has everything up to the target. */
        boolean reachedBy(ReplicationEvent e) {
            if (gtids != null) {
                GtidSet have = null;
                if (e.resumePosition() instanceof StartPosition.MariaDbGtids g) {
                    have = parseGtids(g.gtidPosition(), true);
                } else if (e.resumePosition() instanceof StartPosition.MySqlGtids g) {
                    have = parseGtids(g.gtidSet(), false);
                }
                if (have != null && have.containsAll(gtids)) {
                    return true;
                }
            }
            if (end == null || e.binlogFile() == null) {
                return false;
            }
            int files = compareBinlogFiles(e.binlogFile(), end.file());
            return files > 0 || (files == 0 && e.nextPosition() >= end.position());
        }

        /** A server's GTID state text of the given flavour; null when absent or not one. */
        static GtidSet parseGtids(String text, boolean mariaDb) {
            if (text == null) {
                return null;
            }
            try {
                return mariaDb ? MariaDbGtidPosition.parse(text) : MySqlGtidSet.parse(text);
            } catch (IllegalArgumentException notOne) {
                return null;
            }
        }

        /** Binlog files of one server ordered by their numeric extension (bin.000009 < bin.000010 < bin.1000000). */
        static int compareBinlogFiles(String a, String b) {
            int da = a.lastIndexOf('.');
            int db = b.lastIndexOf('.');
            if (da > 0 && db > 0 && a.substring(0, da).equals(b.substring(0, db))) {
                try {
                    return Long.compare(Long.parseLong(a.substring(da + 1)), Long.parseLong(b.substring(db + 1)));
                } catch (NumberFormatException notNumbered) {
                    // fall through to the names
                }
            }
            return a.compareTo(b);
        }
    }

    /** The start of a stream that resumes after a checkpointed position: its GTID state, else its file position. */
    static StartPosition resumePosition(String checkpointed) {
        return StartPosition.resumingAt(SourcePosition.parse(checkpointed));
    }

    /**
     * With an apply delay, waits on the reading thread until the transaction's commit time on the source (the timestamp
     * of its last event) plus the delay has passed. Waiting here rather than in a worker keeps every later transaction
     * unread, so memory stays bounded and the order of everything else is untouched. False when a stop was requested.
     */
    private boolean awaitApplyDelay(Engine<SourceTransaction> e, BinlogTransaction t) throws InterruptedException {
        if (config.applyDelay().isZero() || t.events().isEmpty()) {
            return true;
        }
        long commitMillis = sourceCommitMillis(t);
        long dueMillis = commitMillis + config.applyDelay().toMillis();
        long wait;
        if (dueMillis > System.currentTimeMillis()) {
            e.flush(); // with 0 workers, what was already due must not sit uncommitted for the whole delay
        }
        while (!stopRequested && (wait = dueMillis - System.currentTimeMillis()) > 0) {
            Thread.sleep(Math.min(wait, 100));
        }
        return !stopRequested;
    }

    /** The source commit time of a transaction: its last event's timestamp (the binlog has seconds); -1 for none. */
    private static long sourceCommitMillis(BinlogTransaction t) {
        return t.events().isEmpty() ? -1 : t.events().get(t.events().size() - 1).header().timestamp() * 1000L;
    }

    /**
     * Passes over a transaction already applied (or before the start): its GTID and, unless the history was restored at
     * the checkpoint, its definitions are followed; a changed history is saved at its position, so that a later restart
     * restores it rather than needing this prefix again.
     */
    private String skip(BinlogBridge bridge, BinlogTransaction t) throws Exception {
        long definitionsBefore = history.version();
        String position = bridge.skip(t);
        if (history.version() != definitionsBefore && historyStore != null) {
            saveHistory(position);
        }
        return position;
    }

    private void saveHistory(String position) {
        try {
            historyStore.save(config.pipeline, position, history);
        } catch (Exception ex) {
            throw new LanesException("cannot save the schema history at " + position + " beside the checkpoint: "
                    + ex.getMessage() + "; the transaction there was not applied", position, ex);
        }
    }

    /** Converts and submits one transaction; false when the engine halted (the caller stops reading). */
    private boolean dispatch(Engine<SourceTransaction> e, BinlogBridge bridge, BinlogTransaction t) throws Exception {
        if (config.sourceClient != null && caughtUp) {
            caughtUp = false;
            if (state == State.CAUGHT_UP) {
                state = State.RUNNING;
            }
        }
        currentPosition = baseName(t.endFile()) + ":" + t.endPosition();
        long definitionsBefore = history.version();
        Transaction<SourceTransaction> txn = bridge.convert(t);
        if (history.version() != definitionsBefore && historyStore != null) {
            // saved before the transaction is applied: a restart whose checkpoint includes it loads this version
            saveHistory(txn.position());
        }
        long rowCount = 0;
        for (Change c : txn.payload().changes()) {
            if (c instanceof RowChange) {
                rowCount++;
            }
        }
        long commitMillis = sourceCommitMillis(t);
        progress.reading(commitMillis);
        if (!awaitApplyDelay(e, t)) {
            return false;
        }
        long sequence = e.submit(txn);
        progress.submitted(sequence, commitMillis, txn.position(), rowCount, e);
        currentPosition = null;
        lastSequence = sequence;
        sourcePosition = txn.position();
        transactionsRead++;
        events += t.events().size();
        rows += rowCount;
        if (txn.isBarrier()) {
            // DDL: later transactions must be keyed by the new table shapes.
            if (!e.awaitLowWaterMark(sequence, Duration.ofDays(3650))) {
                e.stop(); // throws the failure that halted the engine
                return false;
            }
            metadata.invalidate();
        }
        return true;
    }

    private void markCaughtUp() {
        caughtUp = true;
        caughtUpCount.incrementAndGet();
        if (state == State.RUNNING) {
            state = State.CAUGHT_UP;
        }
    }

    private LanesStats snapshot(State s) {
        Engine<SourceTransaction> e = engine;
        EngineStats es = e == null ? null : e.stats();
        long start = startNanos;
        long end = stopNanos != 0 ? stopNanos : System.nanoTime();
        double seconds = start == 0 ? 0 : (end - start) / 1e9;
        long committed = es == null ? 0 : es.committed();
        if (es != null && config.workers == 0) {
            // Without workers everything submitted is committed when submit returns.
            committed = Math.max(committed, transactionsRead);
        }
        RecoveryPoint rp = recoveryPoint;
        PipelineProgress.Snapshot p = progress.snapshot(es == null ? 0 : es.lowWaterMark(), config.sourceClient != null,
                caughtUp, liveClient, sourceEnd, rp == null ? null : rp.position());
        return new LanesStats(s, seconds, committed, transactionsRead, transactionsSkipped, events, rows,
                sourceBytesRead, sourceBytesTotal, sourcePosition, rp == null ? null : rp.position(),
                skippedByErrorPolicy.getAsLong(), es, p.rowsApplied(), p.lastAppliedSourceMillis(), p.appliedPosition(),
                p.lagSeconds(), p.sourceEndPosition(), p.sourceBehindBytes(), statementStats());
    }

    private StatementStats statementStats() {
        return statementCounters.snapshot(jdbcTarget);
    }

    private void closeMetadata() {
        if (metadataToClose != null) {
            try {
                metadataToClose.close();
            } catch (Exception ex) {
                LOG.warn("closing the catalog connection: {}", ex.toString());
            }
            metadataToClose = null;
        }
    }

    /** The failure as the one {@link LanesException} callers see (see {@link FailureMessages#asLanesException}). */
    private LanesException asLanesException(Throwable f) {
        return FailureMessages.asLanesException(config.pipeline, f,
                currentPosition != null ? currentPosition : sourcePosition);
    }

    private static String baseName(String file) {
        int slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
        return slash < 0 ? file : file.substring(slash + 1);
    }

    static String describe(Throwable t) {
        return FailureMessages.describe(t);
    }

    /** Decompressed size of a binlog file: its size, or for gzip the trailer's ISIZE (mod 2^32); -1 when unreadable. */
    static long inputSize(Path file) {
        try {
            long size = Files.size(file);
            byte[] head = new byte[2];
            try (InputStream in = Files.newInputStream(file)) {
                if (in.readNBytes(head, 0, 2) < 2) {
                    return size;
                }
            }
            if ((head[0] & 0xff) != 0x1f || (head[1] & 0xff) != 0x8b || size < 18) {
                return size;
            }
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                raf.seek(size - 4);
                byte[] t = new byte[4];
                raf.readFully(t);
                long isize = (t[0] & 0xffL) | (t[1] & 0xffL) << 8 | (t[2] & 0xffL) << 16 | (t[3] & 0xffL) << 24;
                return isize;
            }
        } catch (IOException e) {
            return -1;
        }
    }

    static JdbcTarget jdbcTarget(LanesConfig config) {
        String url = TargetUrls.asOpened(config.targetUrl, config.h2MysqlMode);
        Dialect dialect = Dialect.forJdbcUrl(url);
        Properties props = new Properties();
        dialect.recommendedConnectionProperties().forEach(props::setProperty);
        config.targetTls.connectionProperties(url).forEach(props::setProperty);
        if (config.targetUser != null) {
            props.setProperty("user", config.targetUser);
        }
        ConnectionFactory connections = new PasswordConnections(url, props, config.targetPassword,
                config.targetDescription());
        return JdbcTarget.builder(connections, dialect).mapping(config.mapping).pipeline(config.pipeline)
                .errorPolicy(config.errorPolicy).appliesInProcess(JdbcTarget.isInProcessUrl(url))
                .triggers(config.triggers).collations(config.collationMap)
                .checkpointTable(new JdbcCheckpointTable(dialect, config.checkpointSchema, config.checkpointTable))
                .build();
    }

    /**
     * Connections through DriverManager with a password asked for at each connect and wiped right after; the password
     * is never kept in a field as a String and never shown.
     */
    private static final class PasswordConnections implements ConnectionFactory {
        private final String url;
        private final Properties properties;
        private final Supplier<char[]> password;
        private final String shown;

        PasswordConnections(String url, Properties properties, Supplier<char[]> password, String shown) {
            this.url = url;
            this.properties = properties;
            this.password = password;
            this.shown = shown;
        }

        @Override
        public Connection open() throws SQLException {
            Properties p = new Properties();
            p.putAll(properties);
            char[] secret = password == null ? null : password.get();
            try {
                if (secret != null) {
                    p.setProperty("password", new String(secret));
                }
                return DriverManager.getConnection(url, p);
            } finally {
                if (secret != null) {
                    Arrays.fill(secret, '\0');
                }
            }
        }

        @Override
        public String toString() {
            return "ConnectionFactory[" + shown + ", user=" + properties.getProperty("user") + "]";
        }
    }
}
