package io.lanes.applier;

import io.lanes.applier.LanesConfig.Option;
import io.lanes.applier.LanesConfig.SchedulerKind;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.core.ApplierFactory;
import io.lanes.core.CheckpointStore;
import io.lanes.core.CommitOrder;
import io.lanes.core.Scheduler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * Configures a {@link Lanes} pipeline; {@link #build()} validates everything and returns a pipeline ready to
 * {@link Lanes#start()}. Every setter checks its argument at once (an {@link IllegalArgumentException} names the option);
 * {@link #build()} checks the whole (a source and exactly one target). Defaults are those of {@link LanesConfig.Option}.
 *
 * <pre>{@code
 * try (Lanes lanes = Lanes.builder()
 *         .source(Path.of("mysql-bin.000001"), Path.of("mysql-bin.000002"))
 *         .target("jdbc:postgresql://replica/db").targetUser("lanes").targetPassword(() -> vault.password())
 *         .scheduler("writeset").workers(8).commitOrder(CommitOrder.STRICT).blockCommit(32)
 *         .build()) {
 *     lanes.start();
 *     lanes.awaitCaughtUp(Duration.ofMinutes(10));
 * }
 * }</pre>
 *
 * <p>Not thread-safe: one thread configures a builder.
 */
public final class LanesBuilder {
    final List<Path> sourceFiles = new ArrayList<>();
    ReplicationClient.Builder sourceClient;
    StartPosition sourceStart;
    String sourceDescription;
    boolean verifyChecksums = LanesConfig.DEFAULT_VERIFY_CHECKSUMS;
    String targetUrl;
    String targetUser;
    Supplier<char[]> targetPassword;
    String targetPasswordDescription;
    boolean h2MysqlMode = LanesConfig.DEFAULT_H2_MYSQL_MODE;
    String pipeline = LanesConfig.DEFAULT_PIPELINE;
    String checkpointSchema = LanesConfig.DEFAULT_CHECKPOINT_TABLE.split("\\.")[0];
    String checkpointTable = LanesConfig.DEFAULT_CHECKPOINT_TABLE.split("\\.")[1];
    SchemaMapping mapping = SchemaMapping.identity();
    ApplierFactory<SourceTransaction> sinkFactory;
    io.lanes.applier.sink.TransactionSink transactionSink;
    Path sinkCheckpointDirectory;
    Path sourceSchemaFile;
    Path spillDirectory;
    long spillThresholdBytes = -1;
    CheckpointStore sinkCheckpoints;
    TableMetadata sinkMetadata;
    SchedulerKind schedulerKind = LanesConfig.DEFAULT_SCHEDULER;
    Scheduler customScheduler;
    /**
     * Every engine knob, in the one record the engine takes (its name is set from the pipeline's when the configuration
     * is built); starts at {@link io.lanes.core.EngineSettings#defaults()}.
     */
    io.lanes.core.EngineSettings engine = LanesConfig.ENGINE_DEFAULTS;
    int writesetRun = LanesConfig.DEFAULT_WRITESET_RUN;
    Duration applyDelay = Duration.ZERO;
    long largeTransactionBytes = LanesConfig.DEFAULT_LARGE_TRANSACTION_BYTES;
    Duration sourceStatusInterval = LanesConfig.DEFAULT_SOURCE_STATUS_INTERVAL;
    int metricsPort = -1;
    String metricsBindAddress = LanesConfig.DEFAULT_METRICS_BIND_ADDRESS;
    Duration progressInterval = LanesConfig.DEFAULT_PROGRESS_INTERVAL;
    io.lanes.core.StatsListener statsListener;
    java.util.concurrent.ThreadFactory threadFactory;
    io.lanes.applier.jdbc.TargetErrorPolicy errorPolicy = io.lanes.applier.jdbc.TargetErrorPolicy.defaults();
    boolean applyAccountStatements;
    io.lanes.applier.ddl.StatementPolicy.Triggers triggers = io.lanes.applier.ddl.StatementPolicy.Triggers.GUARD;
    io.lanes.applier.jdbc.CollationMap collationMap = io.lanes.applier.jdbc.CollationMap.defaults();
    io.lanes.applier.jdbc.TargetTls targetTls = io.lanes.applier.jdbc.TargetTls.NONE;
    private String serverAddress;

    LanesBuilder() {
    }

    /** Binlog files (plain or .gz), read in this order; replaces earlier files. */
    public LanesBuilder source(Path... files) {
        return source(Arrays.asList(files));
    }

    /** Binlog files (plain or .gz), read in this order; replaces earlier files. */
    public LanesBuilder source(List<Path> files) {
        Objects.requireNonNull(files, "files");
        if (files.isEmpty()) {
            throw new IllegalArgumentException(Option.SOURCE_FILES.key() + ": no files");
        }
        sourceFiles.clear();
        sourceClient = null;
        for (Path f : files) {
            sourceFiles.add(Objects.requireNonNull(f, "file"));
        }
        return this;
    }

    /**
     * Follows a live server as a replica instead of reading files. Configure host, port, user, password, server id and
     * TLS on {@code client}; the pipeline sets the start position (after the target's checkpoint, or {@code initial} on
     * a fresh target), builds the client and owns it (the builder must not be used elsewhere afterwards).
     */
    public LanesBuilder sourceServer(ReplicationClient.Builder client, StartPosition initial) {
        this.sourceClient = Objects.requireNonNull(client, "client");
        this.sourceStart = Objects.requireNonNull(initial, "initial");
        this.sourceDescription = "server " + (serverAddress == null ? "(given in code)" : serverAddress) + " from "
                + initial;
        sourceFiles.clear();
        return this;
    }

    /**
     * Follows a live server from where the target's checkpoint says, with no start of its own: for a target that a
     * previous run (of this pipeline name) has already written to. On a fresh target {@link Lanes#start()} fails, asking
     * for a start ({@link #sourceServer(ReplicationClient.Builder, StartPosition)}), rather than guess one.
     */
    public LanesBuilder sourceServer(ReplicationClient.Builder client) {
        this.sourceClient = Objects.requireNonNull(client, "client");
        this.sourceStart = null;
        this.sourceDescription = "server " + (serverAddress == null ? "(given in code)" : serverAddress)
                + " from the target's checkpoint";
        sourceFiles.clear();
        return this;
    }

    public LanesBuilder verifyChecksums(boolean verify) {
        this.verifyChecksums = verify;
        return this;
    }

    /** The target's JDBC URL; the dialect follows its scheme (h2, postgresql, mariadb, mysql). */
    public LanesBuilder target(String jdbcUrl) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        io.lanes.applier.jdbc.Dialect.forJdbcUrl(jdbcUrl);
        this.targetUrl = jdbcUrl;
        this.sinkFactory = null;
        this.transactionSink = null;
        return this;
    }

    public LanesBuilder targetUser(String user) {
        this.targetUser = user;
        return this;
    }

    /**
     * The target password, asked for at each connect. The array returned is wiped after use, so the supplier must
     * return a fresh array each time. Must be thread-safe (workers connect concurrently).
     */
    public LanesBuilder targetPassword(Supplier<char[]> password) {
        this.targetPassword = Objects.requireNonNull(password, "password");
        this.targetPasswordDescription = "(supplier)";
        return this;
    }

    /** The target password; the builder keeps a private copy (the caller may wipe its array afterwards). */
    public LanesBuilder targetPassword(char[] password) {
        char[] copy = Objects.requireNonNull(password, "password").clone();
        this.targetPassword = copy::clone;
        this.targetPasswordDescription = "(given)";
        return this;
    }

    /** The target password from an environment variable, read at each connect. */
    public LanesBuilder targetPasswordFromEnvironment(String variable) {
        Objects.requireNonNull(variable, "variable");
        this.targetPassword = () -> {
            String v = System.getenv(variable);
            if (v == null) {
                throw new IllegalStateException("environment variable " + variable + " (the target password) is not set");
            }
            return v.toCharArray();
        };
        this.targetPasswordDescription = "(env " + variable + ")";
        return this;
    }

    /** Whether to append H2's MySQL-compatibility settings to a jdbc:h2: URL that has no MODE= (default true). */
    public LanesBuilder h2MysqlMode(boolean enabled) {
        this.h2MysqlMode = enabled;
        return this;
    }

    public LanesBuilder pipeline(String name) {
        if (name == null || name.isEmpty() || name.length() > 64) {
            throw new IllegalArgumentException(Option.PIPELINE.key() + " must be 1..64 characters");
        }
        this.pipeline = name;
        return this;
    }

    /** Where checkpoints live in a JDBC target (default {@code lanes.lanes_checkpoint}). */
    public LanesBuilder checkpointTable(String schema, String table) {
        if (schema == null || schema.isEmpty() || table == null || table.isEmpty()) {
            throw new IllegalArgumentException(Option.CHECKPOINT_TABLE.key() + ": schema and table must not be empty");
        }
        this.checkpointSchema = schema;
        this.checkpointTable = table;
        return this;
    }

    /** Which schemas and tables are applied and under which target schema names. */
    public LanesBuilder mapping(SchemaMapping mapping) {
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        return this;
    }

    /**
     * A user sink instead of a JDBC target: {@code factory} makes one applier per worker, {@code checkpoints} stores the
     * checkpoints (a transactional sink writes them with its data for exactly-once; a file store gives at-least-once).
     * Column names come from the binlog (binlog_row_metadata=FULL) or the schema history (docs/schema-history.md), unique
     * keys from {@code metadata}, else from the schema history (null: none known,
     * so every row transaction runs alone under the writeset scheduler).
     */
    public LanesBuilder sink(ApplierFactory<SourceTransaction> factory, CheckpointStore checkpoints,
            TableMetadata metadata) {
        this.sinkFactory = Objects.requireNonNull(factory, "factory");
        this.sinkCheckpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.sinkMetadata = metadata == null ? TableMetadata.none() : metadata;
        this.transactionSink = null;
        this.targetUrl = null;
        return this;
    }

    /**
     * A CDC sink instead of a JDBC target: transactions are delivered to {@code sink} on worker threads in dependency
     * order, and a worker's checkpoint is written to a file in {@code checkpointDirectory} only after the sink
     * acknowledged everything it covers (at-least-once: see {@link io.lanes.applier.sink.TransactionSink}). Column names
     * come from the binlog (binlog_row_metadata=FULL), else from the schema history, which is saved beside the
     * checkpoints in the same directory (docs/schema-history.md).
     */
    public LanesBuilder sink(io.lanes.applier.sink.TransactionSink sink, Path checkpointDirectory) {
        this.transactionSink = Objects.requireNonNull(sink, "sink");
        this.sinkCheckpointDirectory = Objects.requireNonNull(checkpointDirectory, "checkpointDirectory");
        this.sinkFactory = null;
        this.sinkCheckpoints = null;
        this.sinkMetadata = TableMetadata.none();
        this.targetUrl = null;
        return this;
    }

    /** A built-in scheduler by name: sequential, schema, logical-clock or writeset. */
    public LanesBuilder scheduler(String name) {
        try {
            this.schedulerKind = SchedulerKind.parse(Objects.requireNonNull(name, "name"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Option.SCHEDULER.key() + ": " + e.getMessage(), e);
        }
        this.customScheduler = null;
        return this;
    }

    public LanesBuilder scheduler(SchedulerKind kind) {
        this.schedulerKind = Objects.requireNonNull(kind, "kind");
        this.customScheduler = null;
        return this;
    }

    /** A user scheduling policy. The instance serves this pipeline only (schedulers keep per-run state). */
    public LanesBuilder scheduler(Scheduler scheduler) {
        this.customScheduler = Objects.requireNonNull(scheduler, "scheduler");
        return this;
    }

    /** Worker threads (0: apply on the reading thread), at most {@value LanesConfig#MAX_WORKERS}. */
    public LanesBuilder workers(int workers) {
        if (workers < 0 || workers > LanesConfig.MAX_WORKERS) {
            throw new IllegalArgumentException(Option.WORKERS.key() + " must be 0.." + LanesConfig.MAX_WORKERS + ": "
                    + workers);
        }
        this.engine = engine.withWorkers(workers);
        return this;
    }

    public LanesBuilder commitOrder(CommitOrder order) {
        this.engine = engine.withCommitOrder(Objects.requireNonNull(order, "order"));
        return this;
    }

    /** strict, partition or none. */
    public LanesBuilder commitOrder(String order) {
        try {
            return commitOrder(LanesConfig.parseCommitOrder(Objects.requireNonNull(order, "order")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Option.COMMIT_ORDER.key() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writeset scheduler under a commit order only: most transactions consecutive in source order sent to one worker in
     * a row, so block commit can group them (default {@link LanesConfig#DEFAULT_WRITESET_RUN}; 1: each to a free worker,
     * one target commit per transaction).
     */
    public LanesBuilder writesetRun(int transactions) {
        if (transactions < 1) {
            throw new IllegalArgumentException(Option.WRITESET_RUN.key() + " must be >= 1: " + transactions);
        }
        this.writesetRun = transactions;
        return this;
    }

    /** Most consecutive transactions one worker commits as one target transaction (1: each alone). */
    public LanesBuilder blockCommit(int transactions) {
        if (transactions < 1) {
            throw new IllegalArgumentException(Option.BLOCK_COMMIT.key() + " must be >= 1: " + transactions);
        }
        this.engine = engine.withBlockCommit(transactions);
        return this;
    }

    /**
     * A transaction of row changes only whose size in the log is at least {@code bytes} is converted while its worker
     * applies it, one row event at a time, rather than whole before it is queued. Its write keys are not computed, so
     * the writeset scheduler runs it alone (as MySQL's writeset tracking runs a transaction larger than its history
     * after everything before it); the schema and logical-clock schedulers place it as any other. Memory for it then
     * follows its size in the log rather than about twelve times it. JDBC targets only (a sink gets every transaction
     * whole). 0: never. Default {@link LanesConfig#DEFAULT_LARGE_TRANSACTION_BYTES}.
     */
    public LanesBuilder largeTransactionBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException(Option.LARGE_TRANSACTION_BYTES.key() + " must be >= 0: " + bytes);
        }
        this.largeTransactionBytes = bytes;
        return this;
    }

    /**
     * Bytes of row images a transaction being read keeps in the heap: the images of its later row events wait in a
     * temporary file ({@link #spillDirectory}) until its worker converts them, for every target. 0: never. Default: an
     * eighth of the maximum heap, at least {@link #largeTransactionBytes} (0 when that is 0):
     * {@link LanesConfig#spillThresholdBytes(long)}.
     */
    public LanesBuilder spillThresholdBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException(Option.SPILL_THRESHOLD_BYTES.key() + " must be >= 0: " + bytes);
        }
        this.spillThresholdBytes = bytes;
        return this;
    }

    /**
     * Where the row images of a transaction beyond {@link #spillThresholdBytes} wait while it is read and queued: a
     * file per such transaction, unlinked as soon as it is open where the platform allows (POSIX), closed once the
     * transaction's events are unreachable. Null (the default): the JVM's temporary directory.
     */
    public LanesBuilder spillDirectory(Path directory) {
        this.spillDirectory = directory;
        return this;
    }

    /**
     * Keeps the target {@code delay} behind the source (like MySQL's SOURCE_DELAY): each transaction is applied no earlier
     * than its commit time on the source plus {@code delay}. The reading thread waits, so nothing later is read early
     * and memory stays bounded; a stop request ends the wait. Default {@link Duration#ZERO}.
     */
    public LanesBuilder applyDelay(Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException(Option.APPLY_DELAY_SECONDS.key() + " must be >= 0: " + delay);
        }
        this.applyDelay = delay;
        return this;
    }

    /**
     * How often a live source is asked where its binlog ends, for {@link LanesStats#sourceBehindBytes()}: a short
     * connection of its own each time, with the replication account (which then needs REPLICATION CLIENT or BINLOG
     * MONITOR). {@link Duration#ZERO} never asks. Default 10 s.
     */
    public LanesBuilder sourceStatusInterval(Duration interval) {
        if (interval == null || interval.isNegative()) {
            throw new IllegalArgumentException(Option.SOURCE_STATUS_INTERVAL_SECONDS.key() + " must be >= 0: "
                    + interval);
        }
        this.sourceStatusInterval = interval;
        return this;
    }

    public LanesBuilder checkpointGroupSize(int transactions) {
        if (transactions < 2) {
            throw new IllegalArgumentException(Option.CHECKPOINT_GROUP_SIZE.key() + " must be >= 2: " + transactions);
        }
        this.engine = engine.withCheckpointGroupSize(transactions);
        return this;
    }

    public LanesBuilder checkpointPeriod(Duration period) {
        if (period == null || period.isZero() || period.isNegative()) {
            throw new IllegalArgumentException(Option.CHECKPOINT_PERIOD_MS.key() + " must be positive: " + period);
        }
        this.engine = engine.withCheckpointPeriod(period);
        return this;
    }

    public LanesBuilder queueBudgetBytes(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException(Option.QUEUE_BUDGET_BYTES.key() + " must be >= 1: " + bytes);
        }
        this.engine = engine.withQueueBudgetBytes(bytes);
        return this;
    }

    public LanesBuilder workerQueueCapacity(int transactions) {
        if (transactions < 1) {
            throw new IllegalArgumentException(Option.WORKER_QUEUE_CAPACITY.key() + " must be >= 1: " + transactions);
        }
        this.engine = engine.withWorkerQueueCapacity(transactions);
        return this;
    }

    public LanesBuilder retries(int retries) {
        if (retries < 0) {
            throw new IllegalArgumentException(Option.RETRIES.key() + " must be >= 0: " + retries);
        }
        this.engine = engine.withRetries(retries);
        return this;
    }

    /** Back-off before the first retry, doubling up to {@code max} ({@link Option#RETRY_BACKOFF_MS}). */
    public LanesBuilder retryBackoff(Duration initial, Duration max) {
        this.engine = engineKnob(Option.RETRY_BACKOFF_MS, s -> s.withRetryBackoff(initial, max));
        return this;
    }

    /** {@link Option#COMMIT_ORDER_TIMEOUT_MS}; see {@link io.lanes.core.Engine.Builder#commitOrderTimeout}. */
    public LanesBuilder commitOrderTimeout(Duration timeout) {
        this.engine = engineKnob(Option.COMMIT_ORDER_TIMEOUT_MS, s -> s.withCommitOrderTimeout(timeout));
        return this;
    }

    /** {@link Option#COMMIT_ORDER_DEADLOCK_DETECTION}; see {@link io.lanes.core.Engine.Builder#commitOrderDeadlockDetection}. */
    public LanesBuilder commitOrderDeadlockDetection(boolean on) {
        this.engine = engine.withCommitOrderDeadlockDetection(on);
        return this;
    }

    /**
     * Called with the engine's statistics every {@code interval} on a thread of the engine (see
     * {@link io.lanes.core.Engine.Builder#statsListener}).
     */
    public LanesBuilder statsListener(io.lanes.core.StatsListener listener, Duration interval) {
        Objects.requireNonNull(listener, "listener");
        this.engine = engineKnob(null, s -> s.withStatsInterval(interval));
        this.statsListener = listener;
        return this;
    }

    /** Makes the engine's worker and checkpoint threads (default: platform threads named after the pipeline). */
    public LanesBuilder threadFactory(java.util.concurrent.ThreadFactory factory) {
        this.threadFactory = Objects.requireNonNull(factory, "factory");
        return this;
    }

    /**
     * Every engine knob from one settings record: workers, commit order, block commit, checkpoint group size and period,
     * queue budget and capacity, retries and their back-off, commit-order timeout and deadlock detection, stats
     * interval. Its name and initial position are not taken: the pipeline's name and its checkpoint decide them.
     */
    public LanesBuilder engine(io.lanes.core.EngineSettings settings) {
        Objects.requireNonNull(settings, "settings");
        workers(settings.workers()); // the pipeline's own bound on workers
        this.engine = settings.withName(engine.name()).withInitialPosition(null);
        return this;
    }

    /**
     * This builder's engine settings with one knob changed, checked by the engine's own validation and naming the option
     * (when it has one) in the message.
     */
    private io.lanes.core.EngineSettings engineKnob(Option option,
            java.util.function.UnaryOperator<io.lanes.core.EngineSettings> change) {
        try {
            return change.apply(engine);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException((option == null ? "" : option.key() + ": ") + e.getMessage(), e);
        }
    }

    /**
     * Errors that skip the failing transaction instead of stopping the pipeline (off by default): SQLState prefixes and
     * vendor codes, see {@link io.lanes.applier.jdbc.TargetErrorPolicy}. Each skipped transaction is logged with its
     * position and counted in {@link LanesStats#transactionsSkippedByErrorPolicy()}.
     */
    public LanesBuilder skipErrors(String... sqlStatesOrCodes) {
        try {
            this.errorPolicy = io.lanes.applier.jdbc.TargetErrorPolicy.skipping(List.of(sqlStatesOrCodes));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Option.SKIP_ERRORS.key() + ": " + e.getMessage(), e);
        }
        return this;
    }

    /**
     * Whether the log's account management (users, roles, grants, passwords, server definitions) runs on a
     * MySQL/MariaDB target; default false: skipped, logged without secrets and counted
     * ({@link StatementStats#accountStatementsSkipped()}).
     */
    public LanesBuilder applyAccountStatements(boolean apply) {
        this.applyAccountStatements = apply;
        return this;
    }

    /**
     * The source's table definitions where the log starts ({@code mariadb-dump --no-data} / {@code mysqldump --no-data}
     * output), seeding the schema history (see {@link LanesConfig.Option#SOURCE_SCHEMA_FILE}); null for none.
     */
    public LanesBuilder sourceSchemaFile(Path schemaFile) {
        this.sourceSchemaFile = schemaFile;
        return this;
    }

    /** What a MySQL/MariaDB target does with the log's triggers; default {@code GUARD} (see {@link Option#TRIGGERS}). */
    public LanesBuilder triggers(io.lanes.applier.ddl.StatementPolicy.Triggers triggers) {
        this.triggers = Objects.requireNonNull(triggers, "triggers");
        return this;
    }

    /** Collations for a MySQL/MariaDB target that lacks the source's (see {@link Option#COLLATION_MAP}). */
    public LanesBuilder collationMap(io.lanes.applier.jdbc.CollationMap map) {
        this.collationMap = Objects.requireNonNull(map, "map");
        return this;
    }

    /** TLS to the target: a mode and/or a CA certificate (with a CA, verify-identity unless a mode says otherwise). */
    public LanesBuilder targetTls(io.lanes.applier.jdbc.TargetTls tls) {
        this.targetTls = Objects.requireNonNull(tls, "tls");
        return this;
    }

    /**
     * Applies the {@code lanes.*} keys of {@code properties} (see {@link Option}); other keys are ignored, an unknown
     * {@code lanes.*} key or a bad value is an {@link IllegalArgumentException} naming the key.
     */
    public LanesBuilder properties(Properties properties) {
        Properties live = new Properties();
        List<String> renames = new ArrayList<>();
        List<String> includes = new ArrayList<>();
        List<String> excludes = new ArrayList<>();
        for (String key : properties.stringPropertyNames()) {
            if (!key.startsWith("lanes.")) {
                continue;
            }
            Option option = Option.forKey(key);
            if (option == null) {
                throw new IllegalArgumentException("unknown configuration key " + key + "; known keys: "
                        + String.join(", ", Arrays.stream(Option.values()).map(Option::key).toList()));
            }
            String value = properties.getProperty(key).trim();
            try {
                switch (option) {
                    case SOURCE_FILES -> source(list(value).stream().map(Path::of).toList());
                    case SOURCE_SERVER, SOURCE_USER, SOURCE_PASSWORD_ENV, SOURCE_SERVER_ID, SOURCE_START ->
                            live.setProperty(key, value);
                    case VERIFY_CHECKSUMS -> verifyChecksums(bool(value));
                    case TARGET_URL -> target(value);
                    case TARGET_USER -> targetUser(value);
                    case TARGET_PASSWORD_ENV -> targetPasswordFromEnvironment(value);
                    case H2_MYSQL_MODE -> h2MysqlMode(bool(value));
                    case PIPELINE -> pipeline(value);
                    case CHECKPOINT_TABLE -> {
                        int dot = value.indexOf('.');
                        if (dot <= 0 || dot == value.length() - 1) {
                            throw new IllegalArgumentException("expected schema.table");
                        }
                        checkpointTable(value.substring(0, dot), value.substring(dot + 1));
                    }
                    case SCHEMA_RENAME -> renames.addAll(list(value));
                    case SCHEMA_INCLUDE -> includes.addAll(list(value));
                    case SCHEMA_EXCLUDE -> excludes.addAll(list(value));
                    case SCHEDULER -> scheduler(value);
                    case WORKERS -> workers(Integer.parseInt(value));
                    case COMMIT_ORDER -> commitOrder(value);
                    case BLOCK_COMMIT -> blockCommit(Integer.parseInt(value));
                    case WRITESET_RUN -> writesetRun(Integer.parseInt(value));
                    case APPLY_DELAY_SECONDS -> applyDelay(Duration.ofSeconds(Long.parseLong(value)));
                    case LARGE_TRANSACTION_BYTES -> largeTransactionBytes(Long.parseLong(value));
                    case SOURCE_STATUS_INTERVAL_SECONDS ->
                            sourceStatusInterval(Duration.ofSeconds(Long.parseLong(value)));
                    case METRICS_PORT -> {
                        int port = Integer.parseInt(value);
                        if (port < 0 || port > 65535) {
                            throw new IllegalArgumentException("expected 0..65535");
                        }
                        metricsPort = port;
                    }
                    case METRICS_BIND_ADDRESS -> {
                        if (value.isEmpty()) {
                            throw new IllegalArgumentException("empty address");
                        }
                        metricsBindAddress = value;
                    }
                    case PROGRESS_INTERVAL_SECONDS -> {
                        long seconds = Long.parseLong(value);
                        if (seconds < 0) {
                            throw new IllegalArgumentException("expected >= 0");
                        }
                        progressInterval = Duration.ofSeconds(seconds);
                    }
                    case CHECKPOINT_GROUP_SIZE -> checkpointGroupSize(Integer.parseInt(value));
                    case CHECKPOINT_PERIOD_MS -> checkpointPeriod(Duration.ofMillis(Long.parseLong(value)));
                    case QUEUE_BUDGET_BYTES -> queueBudgetBytes(Long.parseLong(value));
                    case WORKER_QUEUE_CAPACITY -> workerQueueCapacity(Integer.parseInt(value));
                    case RETRIES -> retries(Integer.parseInt(value));
                    case RETRY_BACKOFF_MS -> retryBackoff(Duration.ofMillis(Long.parseLong(value)), engine.retryMaxBackoff());
                    case RETRY_MAX_BACKOFF_MS -> retryBackoff(engine.retryBackoff(), Duration.ofMillis(Long.parseLong(value)));
                    case COMMIT_ORDER_TIMEOUT_MS -> commitOrderTimeout(Duration.ofMillis(Long.parseLong(value)));
                    case COMMIT_ORDER_DEADLOCK_DETECTION -> commitOrderDeadlockDetection(bool(value));
                    case SKIP_ERRORS -> skipErrors(list(value).toArray(new String[0]));
                    case TARGET_TLS_MODE -> targetTls(new io.lanes.applier.jdbc.TargetTls(
                            io.lanes.applier.jdbc.TargetTls.Mode.parse(value), targetTls.caCertificate()));
                    case TARGET_TLS_CA -> targetTls(new io.lanes.applier.jdbc.TargetTls(targetTls.mode(), Path.of(value)));
                    case ACCOUNT_STATEMENTS -> applyAccountStatements(switch (value.toLowerCase(java.util.Locale.ROOT)) {
                        case "skip" -> false;
                        case "apply" -> true;
                        default -> throw new IllegalArgumentException("expected skip or apply");
                    });
                    case TRIGGERS -> triggers(io.lanes.applier.ddl.StatementPolicy.Triggers.parse(value));
                    case SOURCE_SCHEMA_FILE -> sourceSchemaFile(Path.of(value));
                    case SPILL_DIRECTORY -> spillDirectory(Path.of(value));
                    case SPILL_THRESHOLD_BYTES -> spillThresholdBytes(Long.parseLong(value));
                    case COLLATION_MAP -> collationMap(io.lanes.applier.jdbc.CollationMap.parse(list(value)));
                }
            } catch (RuntimeException e) {
                // Only the key is named for the URL: a URL may hold credentials.
                String shown = option == Option.TARGET_URL ? "" : " '" + value + "'";
                throw new IllegalArgumentException("bad value" + shown + " for " + key + " (" + option.type() + "): "
                        + e.getMessage(), e);
            }
        }
        if (!live.isEmpty()) {
            if (properties.getProperty(Option.SOURCE_FILES.key()) != null) {
                throw new IllegalArgumentException("both " + Option.SOURCE_FILES.key() + " and a server ("
                        + live.stringPropertyNames() + ") were given as the source; choose one");
            }
            liveSource(live);
        }
        if (!renames.isEmpty() || !includes.isEmpty() || !excludes.isEmpty()) {
            SchemaMapping.Builder m = SchemaMapping.builder();
            for (String r : renames) {
                int eq = r.indexOf('=');
                if (eq <= 0 || eq == r.length() - 1) {
                    throw new IllegalArgumentException("bad value '" + r + "' for " + Option.SCHEMA_RENAME.key()
                            + ": expected source=target");
                }
                m.rename(r.substring(0, eq).trim(), r.substring(eq + 1).trim());
            }
            if (!includes.isEmpty()) {
                m.includeSchemas(includes.toArray(String[]::new));
            }
            if (!excludes.isEmpty()) {
                m.excludeSchemas(excludes.toArray(String[]::new));
            }
            mapping(m.build());
        }
        return this;
    }

    private void liveSource(Properties live) {
        String server = live.getProperty(Option.SOURCE_SERVER.key());
        if (server == null) {
            throw new IllegalArgumentException(live.stringPropertyNames() + " need " + Option.SOURCE_SERVER.key());
        }
        int colon = server.lastIndexOf(':');
        String host = colon < 0 ? server : server.substring(0, colon);
        int port;
        long serverId;
        StartPosition start;
        try {
            port = colon < 0 ? 3306 : Integer.parseInt(server.substring(colon + 1));
            serverId = Long.parseLong(live.getProperty(Option.SOURCE_SERVER_ID.key(),
                    String.valueOf(LanesConfig.DEFAULT_SOURCE_SERVER_ID)));
            String startText = live.getProperty(Option.SOURCE_START.key());
            start = startText == null ? null : StartPosition.parse(startText); // null: from the checkpoint only
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad live source settings (" + Option.SOURCE_SERVER.key() + ", "
                    + Option.SOURCE_SERVER_ID.key() + ", " + Option.SOURCE_START.key() + "): " + e.getMessage(), e);
        }
        ReplicationClient.Builder client = ReplicationClient.builder().host(host).port(port).serverId(serverId);
        String user = live.getProperty(Option.SOURCE_USER.key());
        if (user != null) {
            client.user(user);
        }
        String env = live.getProperty(Option.SOURCE_PASSWORD_ENV.key());
        if (env != null) {
            client.password(() -> {
                String v = System.getenv(env);
                if (v == null) {
                    throw new IllegalStateException("environment variable " + env + " (the source password) is not set");
                }
                return v.toCharArray();
            });
        }
        serverAddress = host + ":" + port;
        if (start == null) {
            sourceServer(client);
        } else {
            sourceServer(client, start);
        }
    }

    /** Validates and returns the configuration. */
    public LanesConfig buildConfig() {
        return new LanesConfig(this);
    }

    /** Validates the configuration and returns a pipeline, not yet started. */
    public Lanes build() {
        return new Lanes(buildConfig());
    }

    private static List<String> list(String value) {
        List<String> out = new ArrayList<>();
        for (String part : value.split(",")) {
            if (!part.isBlank()) {
                out.add(part.trim());
            }
        }
        return out;
    }

    private static boolean bool(String value) {
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("expected true or false");
    }
}
