package io.lanes.micrometer;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesStats;
import io.lanes.core.EngineStats;
import io.lanes.core.WaitState;
import io.lanes.core.WorkerStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters for one {@link Lanes} pipeline, read from its own statistics ({@link Lanes#stats()}): nothing in
 * the pipeline counts twice, and the library modules need no metrics dependency (the binder sits beside them, as
 * Micrometer's binder for Caffeine does).
 *
 * <pre>{@code
 * Lanes lanes = Lanes.builder()...build();
 * LanesMetrics.of(lanes).bindTo(registry);   // any MeterRegistry: Prometheus, JMX, OTLP, ...
 * lanes.start();
 * }</pre>
 *
 * <p>Every meter carries the tag {@code pipeline}; per-worker meters also {@code worker} (0-based), one set for each
 * configured worker (workers start when first given work: an unstarted one reads 0). Counters are function counters
 * over the pipeline's cumulative counts, gauges read the value at scrape time. {@link #meters()} lists them all; the
 * metric reference in docs/operations.md is generated from it.
 *
 * <p>Threads and freshness: meters may be read from any thread. One scrape reads many meters, so the statistics are
 * taken once and reused for up to {@link #DEFAULT_MAX_AGE_MILLIS} ms (so a value is never older than that); once the
 * pipeline has stopped, every meter equals the field of {@link Lanes#stats()} it reads. The meters hold the binder's
 * statistics source strongly, so a binder that is not kept still reports.
 */
public final class LanesMetrics implements MeterBinder {
    /** How long one statistics snapshot serves the meters of a scrape. */
    public static final long DEFAULT_MAX_AGE_MILLIS = 200;

    private final Supplier<LanesStats> stats;
    private final String pipeline;
    private final int workers;
    private final Tags extraTags;
    private final long maxAgeNanos;
    private LanesStats cached;
    private long cachedAt;

    /**
     * Meters over any source of statistics.
     *
     * @param stats where the statistics come from (called at most every {@code maxAgeMillis}, from any thread)
     * @param pipeline the value of the {@code pipeline} tag
     * @param workers how many workers to register per-worker meters for
     * @param extraTags tags added to every meter (e.g. the target's name)
     * @param maxAgeMillis how long one snapshot serves; 0 reads the statistics for every meter
     */
    public LanesMetrics(Supplier<LanesStats> stats, String pipeline, int workers, Iterable<Tag> extraTags,
            long maxAgeMillis) {
        this.stats = Objects.requireNonNull(stats, "stats");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        if (workers < 0 || maxAgeMillis < 0) {
            throw new IllegalArgumentException("workers and maxAgeMillis must be >= 0");
        }
        this.workers = workers;
        this.extraTags = Tags.of(extraTags);
        this.maxAgeNanos = maxAgeMillis * 1_000_000L;
    }

    /** Meters for {@code lanes}, tagged with its pipeline name, one set per configured worker. */
    public static LanesMetrics of(Lanes lanes) {
        return new LanesMetrics(lanes::stats, lanes.config().pipeline(), lanes.config().engineSettings().workers(), Tags.empty(),
                DEFAULT_MAX_AGE_MILLIS);
    }

    /** The statistics the meters read now (one snapshot per {@code maxAgeMillis}). */
    synchronized LanesStats current() {
        long now = System.nanoTime();
        if (cached == null || now - cachedAt >= maxAgeNanos || maxAgeNanos == 0) {
            cached = stats.get();
            cachedAt = now;
        }
        return cached;
    }

    // ------------------------------------------------------------------ the meters

    private record PipelineMeter(LanesMeter meter, List<Tag> tags, ToDoubleFunction<LanesStats> value) {
    }

    private record WorkerMeter(LanesMeter meter, List<Tag> tags, ToDoubleFunction<WorkerStats> value) {
    }

    private static final String PIPELINE = "pipeline";
    private static final List<PipelineMeter> PIPELINE_METERS = new ArrayList<>();
    private static final List<WorkerMeter> WORKER_METERS = new ArrayList<>();
    private static final List<LanesMeter> ALL = new ArrayList<>();

    private static void counter(String name, String unit, String source, String description,
            ToDoubleFunction<LanesStats> value) {
        pipelineMeter(new LanesMeter(name, LanesMeter.Kind.COUNTER, unit, List.of(), source, description), List.of(),
                value);
    }

    private static void gauge(String name, String unit, String source, String description,
            ToDoubleFunction<LanesStats> value) {
        pipelineMeter(new LanesMeter(name, LanesMeter.Kind.GAUGE, unit, List.of(), source, description), List.of(),
                value);
    }

    private static void pipelineMeter(LanesMeter m, List<Tag> tags, ToDoubleFunction<LanesStats> value) {
        PIPELINE_METERS.add(new PipelineMeter(m, tags, value));
        if (!ALL.contains(m)) {
            ALL.add(m);
        }
    }

    private static void workerMeter(LanesMeter m, List<Tag> tags, ToDoubleFunction<WorkerStats> value) {
        WORKER_METERS.add(new WorkerMeter(m, tags, value));
        if (!ALL.contains(m)) {
            ALL.add(m);
        }
    }

    private static double engine(LanesStats s, ToDoubleFunction<EngineStats> f) {
        return s.engine() == null ? 0 : f.applyAsDouble(s.engine());
    }

    /** NaN for the "unknown" values of the statistics (negative counts, NaN). */
    private static double unknownAsNaN(double v) {
        return v < 0 ? Double.NaN : v;
    }

    /** The label value of a wait state: its name in lower case. */
    static String stateLabel(Enum<?> state) {
        return state.name().toLowerCase(Locale.ROOT);
    }

    static {
        counter("lanes.transactions.applied", null, "LanesStats.transactions",
                "Transactions committed to the target by this run.", LanesStats::transactions);
        counter("lanes.transactions.read", null, "LanesStats.transactionsRead",
                "Transactions read from the source and handed to the engine.", LanesStats::transactionsRead);
        LanesMeter skipped = new LanesMeter("lanes.transactions.skipped", LanesMeter.Kind.COUNTER, null,
                List.of("reason"), "LanesStats.transactionsSkipped, EngineStats.skipped, "
                        + "LanesStats.transactionsSkippedByErrorPolicy",
                "Transactions not applied by this run: reason=resume (before the checkpoint, passed over at the "
                        + "start), recovered (after it, but the checkpoint says applied), error_policy (skipped by "
                        + "lanes.skip-errors; each was logged).");
        pipelineMeter(skipped, List.of(Tag.of("reason", "resume")), LanesStats::transactionsSkipped);
        pipelineMeter(skipped, List.of(Tag.of("reason", "recovered")), s -> engine(s, EngineStats::skipped));
        pipelineMeter(skipped, List.of(Tag.of("reason", "error_policy")),
                LanesStats::transactionsSkippedByErrorPolicy);
        counter("lanes.rows.applied", null, "LanesStats.rowsApplied",
                "Row changes of the transactions applied up to the low-water mark.", LanesStats::rowsApplied);
        counter("lanes.rows.read", null, "LanesStats.rows", "Row changes of the transactions read.",
                LanesStats::rows);
        counter("lanes.events.read", null, "LanesStats.events", "Binlog events of the transactions read.",
                LanesStats::events);
        counter("lanes.large.transactions", null, "LanesStats.largeTransactions",
                "Transactions of rows at least lanes.large-transaction-bytes in the log: each ran alone and was "
                        + "converted while its worker applied it.", LanesStats::largeTransactions);
        counter("lanes.spilled.transactions", null, "LanesStats.spilledTransactions",
                "Transactions whose row images beyond lanes.spill-threshold-bytes waited in a temporary file until "
                        + "their worker converted them.", LanesStats::spilledTransactions);
        counter("lanes.source.read", "bytes", "LanesStats.sourceBytesRead",
                "Source bytes consumed (decompressed bytes of .gz files; event bytes of a live stream).",
                LanesStats::sourceBytesRead);
        counter("lanes.applied", "bytes", "EngineStats.bytesApplied()",
                "Bytes (as queued) of the transactions committed.", s -> engine(s, EngineStats::bytesApplied));
        counter("lanes.commits", null, "EngineStats.commits()",
                "Target commits (each commits up to lanes.block-commit transactions).",
                s -> engine(s, EngineStats::commits));
        counter("lanes.retries", null, "EngineStats.retries",
                "Worker batches rolled back and retried after a retryable target error.",
                s -> engine(s, EngineStats::retries));
        counter("lanes.commit.order.retries", null, "EngineStats.commitOrderRetries",
                "Batches rolled back after waiting too long for commit order (a suspected commit-order deadlock).",
                s -> engine(s, EngineStats::commitOrderRetries));
        counter("lanes.commit.order.deadlocks.broken", null, "EngineStats.commitOrderDeadlocksBroken",
                "Commit-order deadlocks detected and broken (the later transaction rolled back and applied again).",
                s -> engine(s, EngineStats::commitOrderDeadlocksBroken));
        counter("lanes.barriers", null, "EngineStats.barriers",
                "Barrier transactions (DDL and anything that runs alone, after everything before it).",
                s -> engine(s, EngineStats::barriers));
        gauge("lanes.queue.transactions", null, "EngineStats.queuedTransactions",
                "Transactions dispatched and not yet committed.", s -> engine(s, EngineStats::queuedTransactions));
        gauge("lanes.queue", "bytes", "EngineStats.queuedBytes",
                "Bytes of those transactions, counted against lanes.queue.budget-bytes: what they take in memory, "
                        + "converted (estimated), or their size in the log when larger.",
                s -> engine(s, EngineStats::queuedBytes));
        gauge("lanes.achieved.parallelism", null, "EngineStats.achievedParallelism",
                "The average number of workers busy applying since the start.",
                s -> engine(s, EngineStats::achievedParallelism));
        gauge("lanes.low.water.mark", null, "EngineStats.lowWaterMark",
                "Sequence number (in this run) at or below which every transaction is committed.",
                s -> engine(s, EngineStats::lowWaterMark));
        gauge("lanes.source.lag", "seconds", "LanesStats.sourceLagSeconds",
                "Seconds the target is behind the source, as MySQL's Seconds_Behind_Source: now minus the source "
                        + "commit time of the oldest transaction read and not committed; 0 when caught up with a source "
                        + "heard from within twice its heartbeat period. NaN until known.",
                LanesStats::sourceLagSeconds);
        gauge("lanes.last.applied.source.timestamp", "seconds", "LanesStats.lastAppliedSourceMillis",
                "Source commit time (Unix seconds) of the last transaction applied up to the low-water mark; NaN "
                        + "before any.", s -> s.lastAppliedSourceMillis() < 0 ? Double.NaN
                        : s.lastAppliedSourceMillis() / 1000.0);
        gauge("lanes.source.behind", "bytes", "LanesStats.sourceBehindBytes",
                "A live source's binlog bytes after the applied position (asked every "
                        + "lanes.source.status-interval-seconds); NaN when unknown.",
                s -> unknownAsNaN(s.sourceBehindBytes()));
        gauge("lanes.uptime", "seconds", "LanesStats.seconds", "Seconds since the pipeline started.",
                LanesStats::seconds);
        LanesMeter state = new LanesMeter("lanes.state", LanesMeter.Kind.GAUGE, null, List.of("state"),
                "LanesStats.state", "1 for the pipeline's state (new, running, caught_up, stopped, failed), 0 for "
                        + "the others.");
        for (Lanes.State st : Lanes.State.values()) {
            pipelineMeter(state, List.of(Tag.of("state", stateLabel(st))), s -> s.state() == st ? 1 : 0);
        }
        LanesMeter dispatcher = new LanesMeter("lanes.dispatcher.state", LanesMeter.Kind.GAUGE, null,
                List.of("state", "mysql_state"), "EngineStats.dispatcherState",
                "1 for what the reading (dispatching) thread does now, 0 for the others; mysql_state is MySQL's "
                        + "name for it.");
        for (WaitState ws : List.of(WaitState.WAITING_FOR_SOURCE, WaitState.DISPATCHING,
                WaitState.WAITING_FOR_WORKER_QUEUE, WaitState.WAITING_FOR_MEMORY,
                WaitState.WAITING_FOR_CHECKPOINT_GROUP)) {
            pipelineMeter(dispatcher, List.of(Tag.of("state", stateLabel(ws)), Tag.of("mysql_state",
                    ws.description())), s -> s.engine() != null && s.engine().dispatcherState() == ws ? 1 : 0);
        }
        workerMeter(new LanesMeter("lanes.worker.transactions.applied", LanesMeter.Kind.COUNTER, null,
                List.of("worker"), "WorkerStats.transactions", "Transactions this worker committed."), List.of(),
                WorkerStats::transactions);
        workerMeter(new LanesMeter("lanes.worker.applied", LanesMeter.Kind.COUNTER, "bytes", List.of("worker"),
                "WorkerStats.bytes", "Bytes of the transactions this worker committed."), List.of(),
                WorkerStats::bytes);
        workerMeter(new LanesMeter("lanes.worker.commits", LanesMeter.Kind.COUNTER, null, List.of("worker"),
                "WorkerStats.commits", "Target commits of this worker."), List.of(), WorkerStats::commits);
        LanesMeter wait = new LanesMeter("lanes.worker.wait", LanesMeter.Kind.COUNTER, "seconds",
                List.of("worker", "state", "mysql_state"), "WorkerStats.nanosIn(WaitState)",
                "Seconds this worker spent in each state (idle, applying, waiting_for_dependency, "
                        + "waiting_for_commit_order, retrying; mysql_state is MySQL's name); they add up to its "
                        + "lifetime.");
        for (WaitState ws : WorkerStats.TIMED_STATES) {
            workerMeter(wait, List.of(Tag.of("state", stateLabel(ws)), Tag.of("mysql_state", ws.description())),
                    w -> w.nanosIn(ws) / 1e9);
        }
        workerMeter(new LanesMeter("lanes.worker.queue.transactions", LanesMeter.Kind.GAUGE, null, List.of("worker"),
                "WorkerStats.queuedTransactions", "Transactions dispatched to this worker and not yet committed."),
                List.of(), WorkerStats::queuedTransactions);
        LanesMeter workerState = new LanesMeter("lanes.worker.state", LanesMeter.Kind.GAUGE, null,
                List.of("worker", "state", "mysql_state"), "WorkerStats.state",
                "1 for what this worker does now, 0 for the others.");
        for (WaitState ws : List.of(WaitState.IDLE, WaitState.APPLYING, WaitState.WAITING_FOR_DEPENDENCY,
                WaitState.WAITING_FOR_COMMIT_ORDER, WaitState.RETRYING, WaitState.STOPPED)) {
            workerMeter(workerState, List.of(Tag.of("state", stateLabel(ws)), Tag.of("mysql_state",
                    ws.description())), w -> w.state() == ws ? 1 : 0);
        }
    }

    /** Every meter this binder registers, pipeline meters first; the metric reference is generated from it. */
    public static List<LanesMeter> meters() {
        return List.copyOf(ALL);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Tags base = extraTags.and(PIPELINE, pipeline);
        for (PipelineMeter pm : PIPELINE_METERS) {
            register(registry, pm.meter(), base.and(pm.tags()), () -> pm.value().applyAsDouble(current()));
        }
        for (int w = 0; w < workers; w++) {
            int id = w;
            Tags tags = base.and("worker", Integer.toString(w));
            for (WorkerMeter wm : WORKER_METERS) {
                register(registry, wm.meter(), tags.and(wm.tags()), () -> {
                    WorkerStats ws = worker(current(), id);
                    return ws == null ? 0 : wm.value().applyAsDouble(ws);
                });
            }
        }
    }

    private static WorkerStats worker(LanesStats s, int id) {
        List<WorkerStats> all = s.workers();
        if (id < all.size() && all.get(id).workerId() == id) {
            return all.get(id);
        }
        for (WorkerStats w : all) {
            if (w.workerId() == id) {
                return w;
            }
        }
        return null;
    }

    private void register(MeterRegistry registry, LanesMeter m, Tags tags, java.util.function.DoubleSupplier value) {
        // The value supplier (capturing this binder) is the meter's state object, held strongly (Gauge) or by the
        // function that reads it (FunctionCounter keeps its object weakly but its function strongly).
        if (m.kind() == LanesMeter.Kind.COUNTER) {
            FunctionCounter.builder(m.name(), value, v -> value.getAsDouble()).tags(tags).baseUnit(m.baseUnit())
                    .description(m.description()).register(registry);
        } else {
            Gauge.builder(m.name(), value, java.util.function.DoubleSupplier::getAsDouble).tags(tags)
                    .baseUnit(m.baseUnit()).description(m.description()).strongReference(true).register(registry);
        }
    }
}
