package io.lanes.applier;

import io.lanes.applier.internal.StatementCounters;
import io.lanes.applier.internal.StatementFilter;
import io.lanes.applier.internal.StreamedChanges;
import io.lanes.applier.schema.SchemaHistory;
import io.lanes.applier.schema.SchemaHistoryStore;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.core.Engine;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Transaction;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The one loop between a {@link Source} and the engine, used by {@link Lanes} and by the tests that drive an engine of
 * their own: a source hands it the transactions it reads, in source order; the pipeline passes over those the
 * checkpoint already covers ({@link #offer}), converts the rest with the {@link BinlogBridge}, follows and saves the
 * source's schema history, honours the apply delay, submits them to the engine and, after a barrier (DDL), waits until
 * it is applied and makes the table metadata forget the old shapes.
 *
 * <p>Threads: every method but the getters and {@link #requestStop()} runs on the engine's dispatching thread (the
 * thread of {@link Source#run}). The counters are written by that thread only and may be read by any thread; a stop
 * requested from another thread is seen before the next transaction is read.
 */
final class Pipeline {
    private final String name;
    private final Engine<SourceTransaction> engine;
    private final BinlogBridge bridge;
    private final SchemaHistory history;
    private final SchemaHistoryStore historyStore;
    private final Duration applyDelay;
    private final PipelineProgress progress;
    private final UnaryOperator<Transaction<SourceTransaction>> decorator;
    private final Runnable onCaughtUp;
    private final Runnable onRunning;
    private final RecoveryPoint from;
    private final ResumeCursor resume;
    private final AtomicLong caughtUpCount = new AtomicLong();
    private volatile boolean stopRequested;
    private volatile boolean caughtUp;

    // Written by the dispatching thread only; read by any thread for stats.
    private volatile long transactionsRead;
    private volatile long transactionsSkipped;
    private volatile long events;
    private volatile long rows;
    /** Transactions handed over with their changes unconverted ({@link StreamedChanges}). */
    private volatile long largeTransactions;
    private volatile long spilledTransactions;
    /**
     * Submitted transactions whose row images wait in spill files, in sequence order: each file is closed once the
     * low-water mark passes its transaction, not when the collector gets to it (a large heap may hold many meanwhile,
     * each with a descriptor and the disk its rows take).
     */
    private final java.util.ArrayDeque<SpilledTransaction> spilledInFlight = new java.util.ArrayDeque<>();
    private volatile long sourceBytesRead;
    private volatile long sourceBytesTotal = -1;
    private volatile String sourcePosition;
    private volatile long lastSequence;
    /** The transaction being converted or submitted (formatted only when asked for: this is set for every one). */
    private volatile BinlogTransaction current;

    private Pipeline(Builder b) {
        this.name = b.name;
        this.engine = Objects.requireNonNull(b.engine, "engine");
        this.bridge = Objects.requireNonNull(b.bridge, "bridge");
        this.history = b.history == null ? b.bridge.history() : b.history;
        this.historyStore = b.historyStore;
        this.applyDelay = b.applyDelay;
        this.progress = b.progress == null ? new PipelineProgress() : b.progress;
        this.decorator = b.decorator;
        this.onCaughtUp = b.onCaughtUp;
        this.onRunning = b.onRunning;
        this.from = Objects.requireNonNull(b.from, "recovery point");
        this.resume = new ResumeCursor(from);
    }

    static Builder builder(Engine<SourceTransaction> engine, BinlogBridge bridge, RecoveryPoint from) {
        return new Builder(engine, bridge, from);
    }

    /** The engine this pipeline submits to. */
    Engine<SourceTransaction> engine() {
        return engine;
    }

    /** The bridge converting this pipeline's transactions (the source hands it GTID-list events). */
    BinlogBridge bridge() {
        return bridge;
    }

    /** Where this run resumes: the engine's recovery point. */
    RecoveryPoint from() {
        return from;
    }

    /** The source's table definitions the bridge follows. */
    SchemaHistory history() {
        return history;
    }

    /** Where the checkpoint leaves off, and whether the input has passed it yet. */
    ResumeCursor resume() {
        return resume;
    }

    String name() {
        return name;
    }

    /**
     * Hands over one transaction of an input read from its beginning (files): passed over while the checkpoint covers
     * it, else converted and submitted.
     *
     * @return false when the engine halted or a stop was requested during the apply delay (the source stops reading)
     */
    boolean offer(BinlogTransaction t) throws Exception {
        if (resume.passing()) {
            resume.passed(skip(t));
            transactionsSkipped++;
            return true;
        }
        return submit(t);
    }

    /**
     * Passes over a transaction already applied (or before the start): its GTID and, unless the history was restored at
     * the checkpoint, its definitions are followed; a changed history is saved at its position, so that a later restart
     * restores it rather than needing this prefix again.
     *
     * @return the position the transaction ends at
     */
    String skip(BinlogTransaction t) throws Exception {
        long definitionsBefore = history.version();
        String position = bridge.skip(t);
        t.releaseSpilledRows(); // its rows are not read: only its GTID and statements are followed
        if (history.version() != definitionsBefore && historyStore != null) {
            saveHistory(position);
        }
        return position;
    }

    private void saveHistory(String position) {
        try {
            historyStore.save(name, position, history);
        } catch (Exception ex) {
            throw new LanesException("cannot save the schema history at " + position + " beside the checkpoint: "
                    + ex.getMessage() + "; the transaction there was not applied", position, ex);
        }
    }

    /**
     * Converts and submits one transaction that comes after the checkpoint: what a live source reads (the server starts
     * the stream after it), or what {@link #offer} lets through.
     *
     * @return false when the engine halted or a stop was requested during the apply delay (the source stops reading)
     */
    boolean submit(BinlogTransaction t) throws Exception {
        if (caughtUp) {
            caughtUp = false;
            onRunning.run();
        }
        current = t;
        long definitionsBefore = history.version();
        Transaction<SourceTransaction> txn = decorator.apply(bridge.convert(t));
        if (history.version() != definitionsBefore && historyStore != null) {
            // saved before the transaction is applied: a restart whose checkpoint includes it loads this version
            saveHistory(txn.position());
        }
        boolean streamed = txn.payload().changes() instanceof StreamedChanges;
        long rowCount = StreamedChanges.rowCount(txn.payload().changes());
        long commitMillis = sourceCommitMillis(t);
        progress.reading(commitMillis);
        if (!awaitApplyDelay(t)) {
            return false;
        }
        long sequence = engine.submit(txn);
        progress.submitted(sequence, commitMillis, txn.position(), rowCount, engine);
        current = null;
        lastSequence = sequence;
        sourcePosition = txn.position();
        transactionsRead++;
        events += t.events().size();
        rows += rowCount;
        if (streamed) {
            largeTransactions++;
        }
        releaseCommittedSpills();
        if (t.hasSpilledRows()) {
            spilledTransactions++;
            spilledInFlight.add(new SpilledTransaction(sequence, t));
        }
        if (txn.isBarrier() && !streamed) {
            // DDL: later transactions must be keyed by the new table shapes. (A large transaction of rows changes no
            // shape: reading goes on while its worker converts and applies it.)
            if (!engine.awaitLowWaterMark(sequence, Duration.ofDays(3650))) {
                engine.stop(); // throws the failure that halted the engine
                return false;
            }
            bridge.metadata().invalidate();
        }
        return true;
    }

    /**
     * With an apply delay, waits on the dispatching thread until the transaction's commit time on the source (the
     * timestamp of its last event) plus the delay has passed. Waiting here rather than in a worker keeps every later
     * transaction unread, so memory stays bounded and the order of everything else is untouched. False when a stop was
     * requested.
     */
    private boolean awaitApplyDelay(BinlogTransaction t) throws InterruptedException {
        if (applyDelay.isZero() || t.events().isEmpty()) {
            return true;
        }
        long dueMillis = sourceCommitMillis(t) + applyDelay.toMillis();
        long wait;
        if (dueMillis > System.currentTimeMillis()) {
            engine.flush(); // with 0 workers, what was already due must not sit uncommitted for the whole delay
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
     * The end of a finite input: fails when the checkpoint's position never came, else waits until everything
     * submitted is committed and marks the pipeline caught up.
     */
    void inputEnded() throws InterruptedException {
        if (stopRequested) {
            return;
        }
        requireResumePointReached();
        if (lastSequence == 0 || engine.awaitLowWaterMark(lastSequence, Duration.ofDays(3650))) {
            markCaughtUp();
        } else if (!stopRequested) {
            engine.stop(); // the engine halted: collect its failure
        }
    }

    /** Fails when the input ended before the checkpoint's position came: not the input the checkpoint was made from. */
    void requireResumePointReached() {
        if (resume.passing()) {
            throw new LanesException("the checkpoint's position " + resume.resumeAfter() + " is not in the input ("
                    + transactionsSkipped + " transactions read): were the same binlog files given, in full and in "
                    + "order?", resume.resumeAfter().toString(), null);
        }
    }

    void markCaughtUp() {
        releaseCommittedSpills();
        caughtUp = true;
        caughtUpCount.incrementAndGet();
        onCaughtUp.run();
    }

    /** Asks the source to stop after the current transaction; from any thread. */
    void requestStop() {
        stopRequested = true;
    }

    boolean stopRequested() {
        return stopRequested;
    }

    void sourceBytes(long read, long total) {
        sourceBytesRead = read;
        sourceBytesTotal = total;
    }

    void sourceBytesRead(long read) {
        sourceBytesRead = read;
    }

    boolean caughtUp() {
        return caughtUp;
    }

    long caughtUpCount() {
        return caughtUpCount.get();
    }

    long lastSequence() {
        return lastSequence;
    }

    long transactionsRead() {
        return transactionsRead;
    }

    long transactionsSkipped() {
        return transactionsSkipped;
    }

    long events() {
        return events;
    }

    long rows() {
        return rows;
    }

    long largeTransactions() {
        return largeTransactions;
    }

    long spilledTransactions() {
        return spilledTransactions;
    }

    private record SpilledTransaction(long sequence, BinlogTransaction transaction) {
    }

    /** Closes the spill files of the transactions committed (at or below the low-water mark). */
    private void releaseCommittedSpills() {
        if (spilledInFlight.isEmpty()) {
            return;
        }
        long lwm = engine.lowWaterMark();
        while (!spilledInFlight.isEmpty() && spilledInFlight.peek().sequence() <= lwm) {
            spilledInFlight.poll().transaction().releaseSpilledRows();
        }
    }

    long sourceBytesRead() {
        return sourceBytesRead;
    }

    long sourceBytesTotal() {
        return sourceBytesTotal;
    }

    String sourcePosition() {
        return sourcePosition;
    }

    /** The position of the transaction being converted or submitted; null between transactions. */
    String currentPosition() {
        BinlogTransaction t = current;
        return t == null ? null : FileSource.baseName(t.endFile()) + ":" + t.endPosition();
    }

    PipelineProgress progress() {
        return progress;
    }

    /**
     * The pipeline {@link Lanes} runs: a bridge over the target's mapping and metadata, following {@code history}
     * (restored at the checkpoint, or to be built from the skipped prefix), with the statement filter and the target's
     * key settings.
     */
    static Builder forTarget(LanesConfig config, Engine<SourceTransaction> engine, RecoveryPoint from,
            PipelineTarget target, SchemaHistory history, boolean historyRestored, StatementCounters counters) {
        BinlogBridge bridge = new BinlogBridge(target.mapping(), target.metadata(),
                new StatementFilter(target.mapping(), config.applyAccountStatements, counters), history);
        bridge.followSkippedDefinitions(!historyRestored);
        target.configure(bridge, config);
        return builder(engine, bridge, from).name(config.pipeline).history(history, target.historyStore())
                .applyDelay(config.applyDelay());
    }

    /** Builds a pipeline; defaults: no history store, no apply delay, no decorator, no listener. */
    static final class Builder {
        private final Engine<SourceTransaction> engine;
        private final BinlogBridge bridge;
        private final RecoveryPoint from;
        private String name = "lanes";
        private SchemaHistory history;
        private SchemaHistoryStore historyStore;
        private Duration applyDelay = Duration.ZERO;
        private PipelineProgress progress;
        private UnaryOperator<Transaction<SourceTransaction>> decorator = UnaryOperator.identity();
        private Runnable onCaughtUp = () -> { };
        private Runnable onRunning = () -> { };

        private Builder(Engine<SourceTransaction> engine, BinlogBridge bridge, RecoveryPoint from) {
            this.engine = engine;
            this.bridge = bridge;
            this.from = from;
        }

        Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** The history the bridge follows, and where it is saved beside the checkpoints (null: not saved). */
        Builder history(SchemaHistory history, SchemaHistoryStore store) {
            this.history = history;
            this.historyStore = store;
            return this;
        }

        Builder applyDelay(Duration delay) {
            this.applyDelay = Objects.requireNonNull(delay, "delay");
            return this;
        }

        Builder progress(PipelineProgress progress) {
            this.progress = progress;
            return this;
        }

        /**
         * Applied to each converted transaction before it is submitted (tests: e.g. an audit row added to every
         * transaction); it must keep the position, the keys and the barrier flag.
         */
        Builder decorator(UnaryOperator<Transaction<SourceTransaction>> decorator) {
            this.decorator = Objects.requireNonNull(decorator, "decorator");
            return this;
        }

        /**
         * What the owner is told, on the dispatching thread: everything read is committed and the source has nothing
         * more for now; and a live source delivered a transaction after that.
         */
        Builder listener(Runnable onCaughtUp, Runnable onRunning) {
            this.onCaughtUp = Objects.requireNonNull(onCaughtUp, "onCaughtUp");
            this.onRunning = Objects.requireNonNull(onRunning, "onRunning");
            return this;
        }

        Pipeline build() {
            return new Pipeline(this);
        }
    }
}
