package io.lanes.core;

import io.lanes.core.internal.EngineRuntime;
import io.lanes.core.internal.RuntimeConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The parallel apply engine: takes an ordered stream of {@link Transaction}s and applies them with many workers while
 * keeping every guarantee a single-threaded applier gives.
 *
 * <pre>{@code
 * try (Engine<MyTxn> engine = Engine.builder(workerId -> new MyApplier(...))
 *         .scheduler(new WritesetScheduler()).workers(8).commitOrder(CommitOrder.STRICT)
 *         .checkpointStore(store).build()) {
 *     RecoveryPoint from = engine.start();          // read the source from from.position()
 *     for (MyTxn t : source.readFrom(from.position())) {
 *         engine.submit(Transaction.builder(t).position(t.end()).sizeBytes(t.size())
 *                 .partitionKey(t.schema()).writeKeys(t.keyHashes()).build());
 *     }
 * }                                                  // close(): drain, checkpoint, stop
 * }</pre>
 *
 * <h2>Threads</h2>
 * <ul>
 *   <li>{@link #start()}, {@link #submit}, {@link #flush()}, {@link #stop()} and {@link #close()} are called by one thread at a time: the
 *       dispatching thread (the source reader). Calls made from different threads must be ordered by happens-before
 *       (e.g. hand the engine over through a volatile or a lock), and never overlap.</li>
 *   <li>{@link #abort()}, {@link #stats()}, {@link #lowWaterMark()} and {@link #awaitLowWaterMark} may be called from
 *       any thread at any time.</li>
 *   <li>Each worker runs on a thread of its own, made by the configured {@link ThreadFactory} or {@link Executor}; the
 *       {@link Applier} of worker {@code i} is only ever called by that thread. One more thread (the checkpoint thread)
 *       saves the low-water mark every checkpoint period and calls the {@link StatsListener}.</li>
 *   <li>With {@code workers(0)} everything is applied and committed on the dispatching thread, inside {@link #submit},
 *       {@link #flush()}, {@link #stop()} or {@link #awaitLowWaterMark}; the dispatcher calls {@link #flush()} when its
 *       input pauses.</li>
 * </ul>
 *
 * <h2>Ordering and happens-before</h2>
 * <ul>
 *   <li>Everything the dispatching thread did before {@code submit(t)} happens-before the {@link Applier#apply} of
 *       {@code t}.</li>
 *   <li>A transaction never starts before the transactions its {@link Scheduler} made it depend on, and every earlier
 *       barrier, have committed; the commit of a dependency happens-before the apply of its dependent. (Block commit:
 *       a dependency applied earlier in the same worker batch, i.e. in the same target transaction, counts as committed
 *       for its dependents in that batch.) A barrier starts after every earlier transaction committed and every later
 *       one starts after it committed.</li>
 *   <li>Commits follow the {@link CommitOrder}. No engine lock is held while an applier applies or commits.</li>
 * </ul>
 *
 * <h2>Memory and back-pressure</h2>
 * {@link #submit} blocks while the queued transactions exceed the byte budget ("Waiting for Replica Workers to free
 * pending events"), while the chosen worker's queue is full ("Waiting for Replica Worker queue") or while dispatch is a
 * whole checkpoint group ahead of the low-water mark ("Waiting for workers to process queue"). A transaction larger than
 * the budget waits until nothing else is queued, runs alone (as a barrier), and is handed to its worker at once: its
 * payload may be a stream the source keeps filling after {@code submit} returns, so it is never buffered whole.
 *
 * <h2>Failures and exactly-once</h2>
 * A failed apply or commit rolls the worker's batch back and retries it with exponential back-off; after the configured
 * retries the engine stops cleanly and {@link #submit}, {@link #stop()} and {@link #close()} throw
 * {@link ApplierFailedException} naming the failing transaction's sequence number and position. Workers write their
 * {@link Checkpoint} inside each commit, so after a stop, an abort or a crash, {@link #start()} on a new engine computes
 * from the saved checkpoints the low-water mark and the exact set of transactions applied beyond it
 * ({@link RecoveryPoint}): the source restarts at its position, the engine skips exactly those, none is lost and none is
 * applied twice.
 *
 * @param <P> the transaction payload type
 */
public final class Engine<P> implements AutoCloseable {
    private final EngineRuntime<P> runtime;

    private Engine(EngineRuntime<P> runtime) {
        this.runtime = runtime;
    }

    /** Starts configuring an engine whose workers apply with appliers made by {@code applierFactory}. */
    public static <P> Builder<P> builder(ApplierFactory<P> applierFactory) {
        return new Builder<>(applierFactory);
    }

    /**
     * Loads the saved checkpoints, computes where to resume, starts the workers (each creates its applier) and the
     * checkpoint thread.
     *
     * @return where the source must be read from; the first transaction submitted gets
     *     {@link RecoveryPoint#nextSequence()}
     * @throws ApplierFailedException when an applier could not be created
     */
    public RecoveryPoint start() {
        return runtime.start();
    }

    /**
     * Dispatches the next transaction of the source (in source order). Returns once the transaction is queued (or, with 0
     * workers, applied into the open batch, committed only when the batch ends: see {@link #flush()}); blocks for
     * back-pressure. Transactions recovery found already applied are counted
     * but not applied.
     *
     * @return the sequence number the engine assigned
     * @throws ApplierFailedException when the engine stopped after a failure (it has shut down cleanly by then)
     * @throws IllegalStateException when the engine is not running
     */
    public long submit(Transaction<P> transaction) throws InterruptedException {
        return runtime.submit(Objects.requireNonNull(transaction, "transaction"));
    }

    /**
     * Commits what the engine holds uncommitted on the dispatching thread, so that everything submitted so far commits
     * without further submits. Dispatching thread only (like {@link #submit}).
     *
     * <p>With {@code workers(0)} the engine applies on the dispatching thread and keeps a block-commit batch open across
     * {@link #submit} calls, as a worker does: it commits it when it holds {@link Builder#blockCommit} transactions,
     * before and after a barrier, before dispatch would run a checkpoint group ahead of the low-water mark or past the
     * queue budget, when a submit finds the batch older than the checkpoint period, and in {@link #stop()},
     * {@link #close()}, {@link #awaitLowWaterMark} (when the dispatching thread calls it) and here. Nothing commits it
     * between submits otherwise: a dispatcher whose input may pause (a live source) must call {@code flush()} whenever no
     * input is immediately available, or transactions already applied sit uncommitted (holding the target's locks, and
     * the low-water mark) until the next transaction arrives. With workers, this returns at once: workers commit as
     * soon as their queue runs dry.
     *
     * @throws ApplierFailedException when the commit failed for good (the engine has stopped cleanly by then) or the
     *     engine had stopped after a failure
     * @throws IllegalStateException when the engine is not started
     */
    public void flush() {
        runtime.flush();
    }

    /**
     * Graceful stop: waits until every submitted transaction committed (with 0 workers: commits the open batch), stops
     * the workers, saves the final low-water mark. Idempotent.
     *
     * @throws ApplierFailedException when the engine had stopped after a failure
     */
    public void stop() throws InterruptedException {
        runtime.stop();
    }

    /**
     * Hard stop, from any thread: workers roll back their open batches and exit; nothing more is committed or saved.
     * What was committed is recorded in the worker checkpoints, so a new engine recovers exactly.
     */
    public void abort() {
        runtime.abort();
    }

    /** {@link #stop()}. */
    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /** Every transaction with a sequence number at or below this has committed. */
    public long lowWaterMark() {
        return runtime.lowWaterMark();
    }

    /** The sequence number of the last transaction submitted. */
    public long lastSubmitted() {
        return runtime.lastDispatched();
    }

    /** The recovery point {@link #start()} computed (null before start). */
    public RecoveryPoint recoveryPoint() {
        return runtime.recoveryPoint();
    }

    /**
     * Waits until every transaction up to {@code sequence} committed. With 0 workers, called on the dispatching thread,
     * it first commits the open batch ({@link #flush()}); called on another thread, it waits for the dispatching thread
     * to commit it (its next submit, flush or stop).
     *
     * @return false on timeout, or when the engine stopped or failed first
     */
    public boolean awaitLowWaterMark(long sequence, Duration timeout) throws InterruptedException {
        long nanos = timeout.isNegative() ? 0 : saturatedNanos(timeout);
        return runtime.awaitLowWaterMark(sequence, nanos);
    }

    /** A consistent-enough snapshot of the counters (each field read once; fields are not read atomically together). */
    public EngineStats stats() {
        return runtime.stats();
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Configures an {@link Engine}: the objects it is handed and an {@link EngineSettings} (every value, validated;
     * {@link #settings()} reads it, {@link #settings(EngineSettings)} replaces it). Defaults follow MySQL's: 4 workers,
     * {@link PartitionScheduler}, {@link CommitOrder#PER_PARTITION}, checkpoint group 512 transactions / 300 ms, 128 MiB queue
     * budget, 16,384 transactions per worker queue, block commit 256, 10 retries ({@link EngineSettings#defaults()}).
     * Not thread-safe.
     */
    public static final class Builder<P> {
        private final ApplierFactory<P> applierFactory;
        private Scheduler scheduler = new PartitionScheduler();
        private CheckpointStore store = CheckpointStore.none();
        private EngineSettings settings = EngineSettings.defaults();
        private Executor executor;
        private ThreadFactory threadFactory;
        private StatsListener statsListener;

        private Builder(ApplierFactory<P> applierFactory) {
            this.applierFactory = Objects.requireNonNull(applierFactory, "applierFactory");
        }

        /** The settings as configured so far. */
        public EngineSettings settings() {
            return settings;
        }

        /** Replaces every value setting at once (the objects handed to this builder stay). */
        public Builder<P> settings(EngineSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        public Builder<P> scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** Number of worker threads; 0 applies on the dispatching thread (the single-threaded baseline). */
        public Builder<P> workers(int workers) {
            settings = settings.withWorkers(workers);
            return this;
        }

        public Builder<P> commitOrder(CommitOrder commitOrder) {
            settings = settings.withCommitOrder(commitOrder);
            return this;
        }

        public Builder<P> checkpointStore(CheckpointStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /** Where a fresh start (no saved checkpoints) reads from; reported back by {@link RecoveryPoint#position()}. */
        public Builder<P> initialPosition(String position) {
            settings = settings.withInitialPosition(position);
            return this;
        }

        /**
         * Transactions per checkpoint group (MySQL's replica_checkpoint_group): the low-water mark is published to worker
         * checkpoints at least every this many transactions, and dispatch never runs more than this far ahead of it.
         */
        public Builder<P> checkpointGroupSize(int transactions) {
            settings = settings.withCheckpointGroupSize(transactions);
            return this;
        }

        /** MySQL's replica_checkpoint_period: how often the low-water mark is published and saved. */
        public Builder<P> checkpointPeriod(Duration period) {
            settings = settings.withCheckpointPeriod(period);
            return this;
        }

        /** Bytes of queued transactions (MySQL's replica_pending_jobs_size_max). */
        public Builder<P> queueBudgetBytes(long bytes) {
            settings = settings.withQueueBudgetBytes(bytes);
            return this;
        }

        /** Transactions queued per worker before dispatch waits. */
        public Builder<P> workerQueueCapacity(int transactions) {
            settings = settings.withWorkerQueueCapacity(transactions);
            return this;
        }

        /**
         * Most transactions a worker commits in one target transaction (block commit); 1 commits each alone. With 0
         * workers too: the dispatching thread keeps its batch open across submits up to this size (see
         * {@link Engine#flush()}), so a durable target syncs once per batch rather than once per transaction.
         */
        public Builder<P> blockCommit(int transactions) {
            settings = settings.withBlockCommit(transactions);
            return this;
        }

        /**
         * The same knob as {@link #blockCommit}, under its former name.
         *
         * @deprecated use {@link #blockCommit}: one name per knob, as {@code LanesBuilder} and the configuration call it
         */
        @Deprecated
        public Builder<P> maxBatchTransactions(int transactions) {
            return blockCommit(transactions);
        }

        /** Retries of a failed batch before the engine stops (MySQL's replica_transaction_retries). */
        public Builder<P> retries(int retries) {
            settings = settings.withRetries(retries);
            return this;
        }

        /** Back-off before the first retry, doubling up to {@code max}. */
        public Builder<P> retryBackoff(Duration initial, Duration max) {
            settings = settings.withRetryBackoff(initial, max);
            return this;
        }

        /**
         * How long a worker waits for earlier transactions to commit before it suspects a commit-order deadlock, rolls its
         * batch back, waits for them without holding anything, and applies again. With
         * {@link #commitOrderDeadlockDetection} and an applier that can read the target's lock views, a deadlock is
         * found long before this; once the views have answered during a wait (no earlier transaction waits for this
         * batch: the wait is for a large earlier transaction), the wait gives up only after 10 times this, a backstop
         * for waits the views cannot show.
         */
        public Builder<P> commitOrderTimeout(Duration timeout) {
            settings = settings.withCommitOrderTimeout(timeout);
            return this;
        }

        /**
         * Whether a worker whose applied batch waits for earlier transactions to commit asks the target, through
         * {@link Applier#sessionsWaitingForThis()}, whether a worker applying an earlier transaction waits for one of its
         * locks (a commit-order deadlock), and if so rolls its own batch back at once (milliseconds) instead of after
         * {@link #commitOrderTimeout}. On by default; it costs one lock-view query per probe, and probes happen only while
         * a commit-order wait lasts over a millisecond and an earlier transaction's worker is inside an apply. Appliers
         * that cannot tell (the default implementation) fall back to the timeout either way. Off: only the timeout
         * (for measurements and tests that show the difference).
         */
        public Builder<P> commitOrderDeadlockDetection(boolean on) {
            settings = settings.withCommitOrderDeadlockDetection(on);
            return this;
        }

        /** Makes the worker and checkpoint threads (e.g. {@code Thread.ofVirtual().factory()} on Java 21). */
        public Builder<P> threadFactory(ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "factory");
            this.executor = null;
            return this;
        }

        /**
         * Runs the worker and checkpoint loops; it must run them all at once (workers + 1 long-running tasks), e.g.
         * {@code Executors.newVirtualThreadPerTaskExecutor()} on Java 21. The engine does not shut it down.
         */
        public Builder<P> executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            this.threadFactory = null;
            return this;
        }

        public Builder<P> statsListener(StatsListener listener, Duration interval) {
            this.statsListener = Objects.requireNonNull(listener, "listener");
            settings = settings.withStatsInterval(interval);
            return this;
        }

        /** Prefix of thread names and log lines. */
        public Builder<P> name(String name) {
            settings = settings.withName(name);
            return this;
        }

        public Engine<P> build() {
            Executor ex = executor;
            if (ex == null) {
                ThreadFactory tf = threadFactory != null ? threadFactory : defaultThreads(settings.name());
                ex = r -> tf.newThread(r).start();
            }
            return new Engine<>(new EngineRuntime<>(new RuntimeConfig<>(applierFactory, scheduler, store, ex,
                    statsListener, settings)));
        }

        private static ThreadFactory defaultThreads(String name) {
            AtomicInteger n = new AtomicInteger();
            return r -> {
                Thread t = new Thread(r, name + "-" + n.getAndIncrement());
                t.setDaemon(true);
                return t;
            };
        }
    }
}
