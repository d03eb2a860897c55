package io.lanes.applier;

import io.lanes.applier.ddl.StatementPolicy;
import io.lanes.applier.jdbc.CollationMap;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.core.ApplierFactory;
import io.lanes.core.CheckpointStore;
import io.lanes.core.CommitOrder;
import io.lanes.core.EngineSettings;
import io.lanes.core.LogicalClockScheduler;
import io.lanes.core.PartitionScheduler;
import io.lanes.core.Scheduler;
import io.lanes.core.SequentialScheduler;
import io.lanes.core.WritesetScheduler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The validated, immutable configuration of a {@link Lanes} pipeline: where to read (binlog files), where to write (a
 * JDBC target or a user sink), and how to apply (scheduler, workers, commit order, block commit, checkpoints, memory).
 * Made by {@link LanesBuilder} (through {@link Lanes#builder()}) or from {@link java.util.Properties} with
 * {@link #fromProperties(java.util.Properties)}; every option, its property key, type and default is listed by
 * {@link Option}.
 *
 * <p>The target password is held only as a {@code Supplier<char[]>}: it is never stored as a String, never part of
 * {@link #toString()} and never logged.
 *
 * <p>Immutable and thread-safe (the password supplier and a user sink must be thread-safe themselves), with one
 * exception: a live source's {@code ReplicationClient.Builder} is handed over to the pipeline, which sets its start
 * position and builds a client at each start; pipelines sharing one configuration must not start concurrently.
 */
public final class LanesConfig {
    /**
     * The engine's own defaults ({@link EngineSettings#defaults()}): every engine knob below defaults to its value there,
     * except the commit order (see {@link #DEFAULT_COMMIT_ORDER}).
     */
    static final EngineSettings ENGINE_DEFAULTS = EngineSettings.defaults();
    /** Default {@link Option#WORKERS}. */
    public static final int DEFAULT_WORKERS = ENGINE_DEFAULTS.workers();
    /** The most workers a pipeline may have: each is a thread with a target connection of its own. */
    public static final int MAX_WORKERS = 4096;
    /** Default {@link Option#SCHEDULER}. */
    public static final SchedulerKind DEFAULT_SCHEDULER = SchedulerKind.WRITESET;
    /**
     * Default {@link Option#COMMIT_ORDER}: {@link CommitOrder#PER_PARTITION}, each schema's commits in source order (what
     * MySQL 5.6's schema-parallel replica and Tungsten give), the engine's own default ({@link EngineSettings#defaults()}):
     * with the writeset scheduler's runs, {@code strict} measured as fast as {@code partition} on issue 19's workloads
     * (docs/commit-order.md), but with the schema scheduler, whose runs are per schema, it commits one transaction at a
     * time whenever schemas interleave. Exactly-once and the final state do not depend on the commit order
     * (checkpoints record exactly which transactions committed).
     */
    public static final CommitOrder DEFAULT_COMMIT_ORDER = ENGINE_DEFAULTS.commitOrder();
    /** Default {@link Option#WRITESET_RUN}: {@link WritesetScheduler#DEFAULT_RUN_LENGTH}. */
    public static final int DEFAULT_WRITESET_RUN = WritesetScheduler.DEFAULT_RUN_LENGTH;
    /** Default {@link Option#BLOCK_COMMIT}. */
    public static final int DEFAULT_BLOCK_COMMIT = ENGINE_DEFAULTS.blockCommit();
    /** Default {@link Option#CHECKPOINT_GROUP_SIZE}. */
    public static final int DEFAULT_CHECKPOINT_GROUP_SIZE = ENGINE_DEFAULTS.checkpointGroupSize();
    /** Default {@link Option#CHECKPOINT_PERIOD_MS}. */
    public static final Duration DEFAULT_CHECKPOINT_PERIOD = ENGINE_DEFAULTS.checkpointPeriod();
    /**
     * Default {@link Option#LARGE_TRANSACTION_BYTES}: 4 MiB of log, some 40,000 to 200,000 rows, 50 to 100 MB once
     * converted (docs/configuration.md).
     */
    public static final long DEFAULT_LARGE_TRANSACTION_BYTES = 4L << 20;
    /** Default {@link Option#QUEUE_BUDGET_BYTES}. */
    public static final long DEFAULT_QUEUE_BUDGET_BYTES = ENGINE_DEFAULTS.queueBudgetBytes();
    /** Default {@link Option#WORKER_QUEUE_CAPACITY}. */
    public static final int DEFAULT_WORKER_QUEUE_CAPACITY = ENGINE_DEFAULTS.workerQueueCapacity();
    /** Default {@link Option#RETRIES}. */
    public static final int DEFAULT_RETRIES = ENGINE_DEFAULTS.retries();
    /** Default {@link Option#RETRY_BACKOFF_MS}. */
    public static final Duration DEFAULT_RETRY_BACKOFF = ENGINE_DEFAULTS.retryBackoff();
    /** Default {@link Option#RETRY_MAX_BACKOFF_MS}. */
    public static final Duration DEFAULT_RETRY_MAX_BACKOFF = ENGINE_DEFAULTS.retryMaxBackoff();
    /** Default {@link Option#COMMIT_ORDER_TIMEOUT_MS}. */
    public static final Duration DEFAULT_COMMIT_ORDER_TIMEOUT = ENGINE_DEFAULTS.commitOrderTimeout();
    /** Default {@link Option#COMMIT_ORDER_DEADLOCK_DETECTION}. */
    public static final boolean DEFAULT_COMMIT_ORDER_DEADLOCK_DETECTION = ENGINE_DEFAULTS.commitOrderDeadlockDetection();
    /** Default {@link Option#PIPELINE}. */
    public static final String DEFAULT_PIPELINE = "default";
    /** Default {@link Option#CHECKPOINT_TABLE}. */
    public static final String DEFAULT_CHECKPOINT_TABLE = "lanes.lanes_checkpoint";
    /** Default {@link Option#SOURCE_SERVER_ID}. */
    public static final long DEFAULT_SOURCE_SERVER_ID = 4242;
    /** Default {@link Option#VERIFY_CHECKSUMS}. */
    public static final boolean DEFAULT_VERIFY_CHECKSUMS = true;
    /** Default {@link Option#SOURCE_STATUS_INTERVAL_SECONDS}. */
    public static final Duration DEFAULT_SOURCE_STATUS_INTERVAL = Duration.ofSeconds(10);
    /** Default {@link Option#METRICS_BIND_ADDRESS}. */
    public static final String DEFAULT_METRICS_BIND_ADDRESS = "127.0.0.1";
    /** Default {@link Option#PROGRESS_INTERVAL_SECONDS}. */
    public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(10);
    /** Default {@link Option#H2_MYSQL_MODE}. */
    public static final boolean DEFAULT_H2_MYSQL_MODE = true;

    /** The built-in scheduling policies, by the names the command line and properties use. */
    public enum SchedulerKind {
        /** Everything in source order on one worker: the baseline ({@link SequentialScheduler}). */
        SEQUENTIAL("sequential"),
        /** By schema, like MySQL's replica_parallel_type=DATABASE ({@link PartitionScheduler}). */
        SCHEMA("schema"),
        /** By the source's group commit (MySQL logical clock, MariaDB commit id) ({@link LogicalClockScheduler}). */
        LOGICAL_CLOCK("logical-clock"),
        /** By the rows each transaction writes, like MySQL's WRITESET ({@link WritesetScheduler}). */
        WRITESET("writeset");

        private final String label;

        SchedulerKind(String label) {
            this.label = label;
        }

        /** The name used on the command line and in properties. */
        public String label() {
            return label;
        }

        /** A new scheduler of this kind (schedulers keep per-run state: one per engine run). */
        public Scheduler create() {
            return switch (this) {
                case SEQUENTIAL -> new SequentialScheduler();
                case SCHEMA -> new PartitionScheduler();
                case LOGICAL_CLOCK -> new LogicalClockScheduler();
                case WRITESET -> new WritesetScheduler();
            };
        }

        /** @throws IllegalArgumentException listing the valid names */
        public static SchedulerKind parse(String name) {
            for (SchedulerKind k : values()) {
                if (k.label.equalsIgnoreCase(name.trim())) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown scheduler '" + name + "'; expected one of " + labels(values()));
        }
    }

    /** Parses a commit order name: {@code strict}, {@code partition} or {@code none}. */
    public static CommitOrder parseCommitOrder(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "strict" -> CommitOrder.STRICT;
            case "partition", "per-partition", "per_partition" -> CommitOrder.PER_PARTITION;
            case "none" -> CommitOrder.NONE;
            default -> throw new IllegalArgumentException("unknown commit order '" + name
                    + "'; expected one of strict, partition, none");
        };
    }

    /** The name {@link #parseCommitOrder} reads for a commit order. */
    public static String commitOrderLabel(CommitOrder order) {
        return switch (order) {
            case STRICT -> "strict";
            case PER_PARTITION -> "partition";
            case NONE -> "none";
        };
    }

    /**
     * Every option: its {@link java.util.Properties} key, type, default and the {@link LanesBuilder} method that sets
     * it. The configuration reference (docs/configuration.md) is generated from this table and a test fails when they
     * differ.
     */
    public enum Option {
        SOURCE_FILES("lanes.source.files", "list of paths (comma-separated)", "(none)", "source(Path...)",
                "Binlog files to apply, read in the order given; plain or gzip-compressed (.gz). Required unless a "
                        + "source is given in code."),
        SOURCE_SERVER("lanes.source.server", "host:port", "(none)",
                "sourceServer(ReplicationClient.Builder, StartPosition)",
                "A live MySQL/MariaDB server to follow as a replica, instead of files."),
        SOURCE_USER("lanes.source.user", "string", "(none)", "sourceServer(...)",
                "The replication user (needs REPLICATION SLAVE and REPLICATION CLIENT / BINLOG MONITOR)."),
        SOURCE_PASSWORD_ENV("lanes.source.password-env", "environment variable name", "(none)", "sourceServer(...)",
                "The environment variable holding the replication user's password."),
        SOURCE_SERVER_ID("lanes.source.server-id", "int 1..4294967295", String.valueOf(DEFAULT_SOURCE_SERVER_ID),
                "sourceServer(...)", "This replica's server id, unique among the source's replicas."),
        SOURCE_START("lanes.source.start", "NAME:POS | gtid=SET | mysql-gtid:SET | mariadb-gtid:POS",
                "(required on a fresh target)", "sourceServer(..., StartPosition)",
                "Where to start on a fresh target: a binlog file and position, or a GTID set whose text tells MySQL "
                        + "from MariaDB (only domain-server-sequence triples: MariaDB); mariadb-gtid: with nothing after "
                        + "the colon is MariaDB's first binlog, mysql-gtid: likewise for MySQL (file:NAME:POS, the "
                        + "older form, still reads); later runs resume after the target's checkpoint, "
                        + "with or without it. Without it a target with no checkpoint of this pipeline is refused at "
                        + "start."),
        SOURCE_STATUS_INTERVAL_SECONDS("lanes.source.status-interval-seconds", "seconds >= 0",
                String.valueOf(DEFAULT_SOURCE_STATUS_INTERVAL.toSeconds()), "sourceStatusInterval(Duration)",
                "How often a live source is asked where its binlog ends (a short connection of its own, needing "
                        + "REPLICATION CLIENT / BINLOG MONITOR), for LanesStats.sourceBehindBytes and the metric "
                        + "lanes_source_behind_bytes; 0 never asks (the distance reads unknown)."),
        SOURCE_SCHEMA_FILE("lanes.source.schema-file", "path", "(none)", "sourceSchemaFile(Path)",
                "The source's table definitions where the log starts: mariadb-dump --no-data / mysqldump --no-data "
                        + "output. Seeds the schema history, which gives row events logged without column names "
                        + "(binlog_row_metadata=MINIMAL or NO_LOG) their columns, ENUM/SET members, signedness and "
                        + "BINARY lengths; the log's own DDL then updates it. Needed when the log starts after the "
                        + "tables were created; see docs/schema-history.md."),
        VERIFY_CHECKSUMS("lanes.source.verify-checksums", "boolean", String.valueOf(DEFAULT_VERIFY_CHECKSUMS),
                "verifyChecksums(boolean)", "Verify each event's CRC32 when the log carries checksums."),
        TARGET_URL("lanes.target.url", "JDBC URL", "(none)", "target(String)",
                "The target database; the dialect follows the URL: jdbc:h2:, jdbc:postgresql:, jdbc:mariadb:, "
                        + "jdbc:mysql:. Required unless a sink is given in code."),
        TARGET_USER("lanes.target.user", "string", "(none)", "targetUser(String)", "The target user."),
        TARGET_PASSWORD_ENV("lanes.target.password-env", "environment variable name", "(none)",
                "targetPassword(Supplier<char[]>)",
                "Where the target password comes from: the name of an environment variable read at each connect. "
                        + "In code, a Supplier<char[]> or a char[]; never a String, never logged."),
        TARGET_TLS_MODE("lanes.target.tls-mode", "disabled | preferred | required | verify-ca | verify-identity",
                "(verify-identity with a CA, else the URL's)", "targetTls(TargetTls)",
                "TLS to the target, mapped onto the driver's properties (PostgreSQL sslmode, MariaDB sslMode); "
                        + "verify-identity checks the CA and the host name. MariaDB: preferred is refused (the driver "
                        + "cannot fall back to plain text). H2: TLS is chosen in the URL."),
        TARGET_TLS_CA("lanes.target.tls-ca", "path of a PEM file", "(none)", "targetTls(TargetTls)",
                "The CA certificate(s) the target's certificate must be signed by; with it, verification is on "
                        + "unless lanes.target.tls-mode says otherwise."),
        H2_MYSQL_MODE("lanes.target.h2-mysql-mode", "boolean", String.valueOf(DEFAULT_H2_MYSQL_MODE),
                "h2MysqlMode(boolean)",
                "For a jdbc:h2: URL without MODE=, append H2's MySQL-compatibility settings "
                        + "(Dialect.h2RecommendedUrlOptions()) so that the source's DDL runs on H2."),
        PIPELINE("lanes.target.pipeline", "string (1-64 characters)", DEFAULT_PIPELINE, "pipeline(String)",
                "The name of this pipeline's checkpoint rows; several pipelines may share one target."),
        CHECKPOINT_TABLE("lanes.target.checkpoint-table", "schema.table", DEFAULT_CHECKPOINT_TABLE,
                "checkpointTable(String, String)",
                "The table holding checkpoints, written in the same target transaction as the data; created when "
                        + "absent."),
        SCHEMA_RENAME("lanes.schema.rename", "list of source=target (comma-separated)", "(none)",
                "mapping(SchemaMapping)", "Source schemas written into target schemas of other names."),
        SCHEMA_INCLUDE("lanes.schema.include", "list of globs (comma-separated)", "(all)", "mapping(SchemaMapping)",
                "Only these source schemas are applied (* and ? wildcards)."),
        SCHEMA_EXCLUDE("lanes.schema.exclude", "list of globs (comma-separated)", "(none)", "mapping(SchemaMapping)",
                "These source schemas are not applied; an exclude wins over an include."),
        SCHEDULER("lanes.scheduler", "sequential | schema | logical-clock | writeset", DEFAULT_SCHEDULER.label(),
                "scheduler(String) / scheduler(Scheduler)",
                "How transactions are spread over workers and what they wait for."),
        WORKERS("lanes.workers", "int 0.." + MAX_WORKERS, String.valueOf(DEFAULT_WORKERS), "workers(int)",
                "Worker threads, each with its own target connection; 0 applies on the reading thread. At most "
                        + MAX_WORKERS + ". A JDBC target must accept a connection per worker and two more (checkpoints,"
                        + " table metadata): a pipeline with more workers than the target's free connections "
                        + "(max_connections less those in use) is refused at start."),
        COMMIT_ORDER("lanes.commit-order", "strict | partition | none", commitOrderLabel(DEFAULT_COMMIT_ORDER),
                "commitOrder(CommitOrder)",
                "partition: commits in source order per schema (each schema only shows states the source had); strict: "
                        + "all commits in source order (the whole target only shows states the source had; with the "
                        + "writeset scheduler as fast as partition, with the schema scheduler much slower when schemas "
                        + "interleave: docs/commit-order.md); none: only dependencies are respected. The final state and "
                        + "exactly-once do not depend on it."),
        WRITESET_RUN("lanes.scheduler.writeset-run", "int >= 1", String.valueOf(DEFAULT_WRITESET_RUN),
                "writesetRun(int)",
                "Writeset scheduler under a commit order (strict or partition) only: most transactions consecutive in "
                        + "source order sent to one worker in a row, so block commit can group them into one target "
                        + "commit; 1 spreads each to a free worker (one target commit per transaction). Dependencies "
                        + "are honoured the same either way."),
        BLOCK_COMMIT("lanes.block-commit", "int >= 1", String.valueOf(DEFAULT_BLOCK_COMMIT), "blockCommit(int)",
                "Most consecutive transactions a worker commits as one target transaction; 1 commits each alone."),
        CHECKPOINT_GROUP_SIZE("lanes.checkpoint.group-size", "int >= 2", String.valueOf(DEFAULT_CHECKPOINT_GROUP_SIZE),
                "checkpointGroupSize(int)",
                "Transactions per checkpoint group; reading never runs more than this far ahead of the low-water "
                        + "mark."),
        CHECKPOINT_PERIOD_MS("lanes.checkpoint.period-ms", "milliseconds > 0",
                String.valueOf(DEFAULT_CHECKPOINT_PERIOD.toMillis()), "checkpointPeriod(Duration)",
                "How often the low-water mark is published and saved."),
        QUEUE_BUDGET_BYTES("lanes.queue.budget-bytes", "bytes > 0", "(134217728, or a quarter of the heap when less)",
                "queueBudgetBytes(long)", "Bytes of transactions read and not yet applied before reading waits: what "
                        + "they occupy in memory once converted (estimated), or their size in the log when larger. "
                        + "The default is at least 16 MiB."),
        LARGE_TRANSACTION_BYTES("lanes.large-transaction-bytes", "bytes >= 0",
                String.valueOf(DEFAULT_LARGE_TRANSACTION_BYTES), "largeTransactionBytes(long)",
                "A transaction of row changes only at least this large in the log is converted while its worker applies "
                        + "it, one row event at a time, instead of whole before it is queued, without write keys (the "
                        + "writeset scheduler runs it alone): memory "
                        + "about its size in the log rather than about twelve times it. JDBC targets; 0: never."),
        SPILL_THRESHOLD_BYTES("lanes.spill-threshold-bytes", "bytes >= 0",
                "(an eighth of the heap, at least lanes.large-transaction-bytes; 0 when that is 0)",
                "spillThresholdBytes(long)", "Bytes of row images a transaction being read keeps in the heap: the "
                        + "images of its later row events wait in a temporary file (lanes.spill-directory) until its "
                        + "worker converts them, so a transaction of any size takes about this much heap while it is "
                        + "read and queued. Every target. 0: never."),
        SPILL_DIRECTORY("lanes.spill-directory", "path", "(the JVM's temporary directory)", "spillDirectory(Path)",
                "Where the row images of a transaction beyond lanes.spill-threshold-bytes wait: one file per such "
                        + "transaction, as large as its rows in the log, unlinked as soon as it is open (POSIX), so "
                        + "that a crash leaves nothing, and closed once the transaction is applied."),
        WORKER_QUEUE_CAPACITY("lanes.queue.worker-capacity", "int >= 1", String.valueOf(DEFAULT_WORKER_QUEUE_CAPACITY),
                "workerQueueCapacity(int)", "Transactions queued per worker before reading waits."),
        RETRIES("lanes.retries", "int >= 0", String.valueOf(DEFAULT_RETRIES), "retries(int)",
                "Retries (with exponential back-off) of a target transaction that failed with a retryable error: "
                        + "connection lost, deadlock, lock wait timeout, serialization failure, insufficient resources. "
                        + "Other errors (constraint, data, syntax/access, diverged target, unknown) stop at once "
                        + "(docs/reliability.md)."),
        RETRY_BACKOFF_MS("lanes.retry.backoff-ms", "milliseconds > 0", String.valueOf(DEFAULT_RETRY_BACKOFF.toMillis()),
                "retryBackoff(Duration, Duration)", "The first retry's back-off; each further retry doubles it."),
        RETRY_MAX_BACKOFF_MS("lanes.retry.max-backoff-ms", "milliseconds > 0",
                String.valueOf(DEFAULT_RETRY_MAX_BACKOFF.toMillis()), "retryBackoff(Duration, Duration)",
                "The longest back-off between retries."),
        COMMIT_ORDER_TIMEOUT_MS("lanes.commit-order.timeout-ms", "milliseconds > 0",
                String.valueOf(DEFAULT_COMMIT_ORDER_TIMEOUT.toMillis()), "commitOrderTimeout(Duration)",
                "How long a worker waits for earlier transactions to commit before it rolls its batch back and waits "
                        + "holding nothing (the fallback when the target's lock views cannot show a commit-order "
                        + "deadlock; docs/commit-order.md)."),
        COMMIT_ORDER_DEADLOCK_DETECTION("lanes.commit-order.deadlock-detection", "boolean",
                String.valueOf(DEFAULT_COMMIT_ORDER_DEADLOCK_DETECTION), "commitOrderDeadlockDetection(boolean)",
                "Ask the target's lock views, while a worker waits for commit order, whether an earlier transaction "
                        + "waits for its locks, and break such a deadlock in milliseconds."),
        SKIP_ERRORS("lanes.skip-errors", "list of SQLStates (prefixes) and vendor codes (comma-separated)", "(none)",
                "skipErrors(String...)",
                "Errors that skip the failing transaction instead of stopping, like MySQL's replica_skip_errors: "
                        + "e.g. 1062,23505 (duplicate key on MariaDB/MySQL and PostgreSQL/H2); 1032 matches an UPDATE "
                        + "or DELETE that found no row, on every target. Each skipped transaction is logged with its "
                        + "position and counted in stats; retryable errors are never skipped. Off by default."),
        APPLY_DELAY_SECONDS("lanes.apply-delay-seconds", "seconds >= 0", "0", "applyDelay(Duration)",
                "Keeps the target this far behind the source, like MySQL's SOURCE_DELAY: a transaction is applied no "
                        + "earlier than its commit time on the source plus this delay; 0 applies at once."),
        ACCOUNT_STATEMENTS("lanes.statements.account-management", "skip | apply", "skip",
                "applyAccountStatements(boolean)",
                "Account management in the log (CREATE/ALTER/DROP/RENAME USER, GRANT, REVOKE, SET PASSWORD, roles, "
                        + "CREATE SERVER, FLUSH PRIVILEGES): skip never runs it on the target and logs each one without its "
                        + "secrets, counted (account_statements_skipped); apply runs it on a MySQL/MariaDB target (H2 and "
                        + "PostgreSQL always skip it). Sinks never receive it unless apply."),
        TRIGGERS("lanes.statements.triggers", "guard | skip | as-written", StatementPolicy.Triggers.GUARD.label(),
                "triggers(StatementPolicy.Triggers)",
                "The source's CREATE TRIGGER on a MySQL/MariaDB target: guard creates it so that it fires for statements "
                        + "the log carries as text but never for the rows Lanes applies (which already hold what it "
                        + "wrote); skip does not create (nor drop) triggers, right for row-based logs only; as-written "
                        + "creates them as they are, right for statement-based logs only. H2 and PostgreSQL never create "
                        + "them (counted as triggers_not_created). See docs/reliability.md."),
        COLLATION_MAP("lanes.target.collation-map", "list of source=target (comma-separated)", "(built-in table)",
                "collationMap(CollationMap)",
                "Collations a MySQL/MariaDB target lacks (MySQL 8's utf8mb4_0900_ai_ci, id 255, on MariaDB): source "
                        + "collation (name or id) = target collation, before the built-in table of docs/collations.md. "
                        + "A collation neither names stops the statement, naming it."),
        METRICS_PORT("lanes.metrics.port", "port 0..65535", "(none)", "(command line: apply --metrics-port)",
                "Serve Prometheus metrics at http://ADDRESS:PORT/metrics (and register them in JMX) for the whole "
                        + "run; 0 picks a free port (logged). In code, bind lanes-micrometer's LanesMetrics to a "
                        + "registry of your own instead."),
        METRICS_BIND_ADDRESS("lanes.metrics.bind-address", "host name or IP address", DEFAULT_METRICS_BIND_ADDRESS,
                "(command line: apply --metrics-bind)",
                "The address the metrics endpoint listens on; 0.0.0.0 for every interface."),
        PROGRESS_INTERVAL_SECONDS("lanes.progress.interval-seconds", "seconds >= 0",
                String.valueOf(DEFAULT_PROGRESS_INTERVAL.toSeconds()), "(command line: apply --progress-interval)",
                "When stdout is not a terminal, apply logs one progress line (rate, lag, position) this often; "
                        + "0 never.");

        private final String key;
        private final String type;
        private final String defaultValue;
        private final String builderMethod;
        private final String description;

        Option(String key, String type, String defaultValue, String builderMethod, String description) {
            this.key = key;
            this.type = type;
            this.defaultValue = defaultValue;
            this.builderMethod = builderMethod;
            this.description = description;
        }

        /** The {@link java.util.Properties} key. */
        public String key() {
            return key;
        }

        /** The value's type and range, in words. */
        public String type() {
            return type;
        }

        /** The default, as a property value, or a parenthesised word when there is none. */
        public String defaultValue() {
            return defaultValue;
        }

        /** The {@link LanesBuilder} method that sets this option in code. */
        public String builderMethod() {
            return builderMethod;
        }

        public String description() {
            return description;
        }

        /** The option with this property key, or null. */
        public static Option forKey(String key) {
            for (Option o : values()) {
                if (o.key.equals(key)) {
                    return o;
                }
            }
            return null;
        }
    }

    /**
     * The reference table of every option, as Markdown: key, type, default, builder method and meaning. docs/
     * configuration.md holds exactly this table.
     */
    public static String optionsMarkdownTable() {
        StringBuilder sb = new StringBuilder();
        sb.append("| key | type | default | builder method | meaning |\n");
        sb.append("|---|---|---|---|---|\n");
        for (Option o : Option.values()) {
            sb.append("| `").append(o.key()).append("` | ").append(o.type().replace("|", "\\|")).append(" | ")
                    .append(o.defaultValue().startsWith("(") ? o.defaultValue() : "`" + o.defaultValue() + "`")
                    .append(" | `").append(o.builderMethod()).append("` | ").append(o.description()).append(" |\n");
        }
        return sb.toString();
    }

    final List<Path> sourceFiles;
    final io.lanes.binlog.replication.ReplicationClient.Builder sourceClient;
    final io.lanes.binlog.replication.StartPosition sourceStart;
    final String sourceDescription;
    final boolean verifyChecksums;
    final String targetUrl;
    final String targetUser;
    final Supplier<char[]> targetPassword;
    final String targetPasswordDescription;
    final boolean h2MysqlMode;
    final String pipeline;
    /** Every engine knob, named after the pipeline: what the engine is given. */
    final EngineSettings engine;
    final String checkpointSchema;
    final String checkpointTable;
    final SchemaMapping mapping;
    final ApplierFactory<SourceTransaction> sinkFactory;
    final io.lanes.applier.sink.TransactionSink transactionSink;
    final Path sinkCheckpointDirectory;
    final Path sourceSchemaFile;
    final Path spillDirectory;
    /** -1: {@link #spillThresholdBytes(long) by the heap}. */
    final long spillThresholdBytes;
    final CheckpointStore sinkCheckpoints;
    final TableMetadata sinkMetadata;
    final SchedulerKind schedulerKind;
    final Scheduler customScheduler;
    final int writesetRun;
    final Duration applyDelay;
    final long largeTransactionBytes;
    final io.lanes.core.StatsListener statsListener;
    final java.util.concurrent.ThreadFactory threadFactory;
    final io.lanes.applier.jdbc.TargetErrorPolicy errorPolicy;
    final io.lanes.applier.jdbc.TargetTls targetTls;
    final boolean applyAccountStatements;
    final StatementPolicy.Triggers triggers;
    final CollationMap collationMap;
    final Duration sourceStatusInterval;
    final int metricsPort;
    final String metricsBindAddress;
    final Duration progressInterval;

    LanesConfig(LanesBuilder b) {
        sourceFiles = List.copyOf(b.sourceFiles);
        sourceClient = b.sourceClient;
        sourceStart = b.sourceStart;
        sourceDescription = b.sourceDescription;
        verifyChecksums = b.verifyChecksums;
        targetUrl = b.targetUrl;
        targetUser = b.targetUser;
        targetPassword = b.targetPassword;
        targetPasswordDescription = b.targetPasswordDescription;
        h2MysqlMode = b.h2MysqlMode;
        pipeline = b.pipeline;
        engine = b.engine.withName("lanes-" + pipeline);
        checkpointSchema = b.checkpointSchema;
        checkpointTable = b.checkpointTable;
        mapping = b.mapping;
        sinkFactory = b.sinkFactory;
        transactionSink = b.transactionSink;
        sinkCheckpointDirectory = b.sinkCheckpointDirectory;
        sourceSchemaFile = b.sourceSchemaFile;
        spillDirectory = b.spillDirectory;
        spillThresholdBytes = b.spillThresholdBytes;
        sinkCheckpoints = b.sinkCheckpoints;
        sinkMetadata = b.sinkMetadata;
        schedulerKind = b.schedulerKind;
        customScheduler = b.customScheduler;
        writesetRun = b.writesetRun;
        applyDelay = b.applyDelay;
        largeTransactionBytes = b.largeTransactionBytes;
        statsListener = b.statsListener;
        threadFactory = b.threadFactory;
        errorPolicy = b.errorPolicy;
        targetTls = b.targetTls;
        applyAccountStatements = b.applyAccountStatements;
        triggers = b.triggers;
        collationMap = b.collationMap;
        sourceStatusInterval = b.sourceStatusInterval;
        metricsPort = b.metricsPort;
        metricsBindAddress = b.metricsBindAddress;
        progressInterval = b.progressInterval;
        validate();
    }

    private void validate() {
        if (sourceFiles.isEmpty() && sourceClient == null) {
            throw new IllegalArgumentException("no source: give binlog files (" + Option.SOURCE_FILES.key()
                    + ") or a server (" + Option.SOURCE_SERVER.key() + ")");
        }
        if (!sourceFiles.isEmpty() && sourceClient != null) {
            throw new IllegalArgumentException("both binlog files and a server were given as the source; choose one");
        }
        if (targetUrl == null && sinkFactory == null && transactionSink == null) {
            throw new IllegalArgumentException("no target: give a JDBC URL (" + Option.TARGET_URL.key()
                    + ") or a sink");
        }
        if (targetUrl != null && sinkFactory != null) {
            throw new IllegalArgumentException("both a JDBC target and a sink were given; choose one");
        }
        if (targetUrl != null) {
            Dialect.forJdbcUrl(targetUrl); // fails naming the scheme, never the whole URL
            targetTls.connectionProperties(targetUrl); // fails when the driver cannot do what is configured
        }
    }

    /** Reads a configuration from properties (keys of {@link Option}); unknown {@code lanes.*} keys are errors. */
    public static LanesConfig fromProperties(java.util.Properties properties) {
        return new LanesBuilder().properties(properties).buildConfig();
    }

    /** Binlog files, in reading order (empty for a live source). */
    public List<Path> sourceFiles() {
        return sourceFiles;
    }

    /** Whether the source is a live server (followed until stopped) rather than files. */
    public boolean hasLiveSource() {
        return sourceClient != null;
    }

    /**
     * Where a live source starts on a fresh target: null for files, and for a live source that only resumes after the
     * target's checkpoint.
     */
    public io.lanes.binlog.replication.StartPosition sourceStart() {
        return sourceStart;
    }

    /** The source in words: the files, or the server's address and start. */
    public String sourceDescription() {
        return sourceClient != null ? sourceDescription : sourceFiles.toString();
    }

    public boolean verifyChecksums() {
        return verifyChecksums;
    }

    /** The JDBC URL as given (null when a sink is configured). May hold credentials: never log it whole. */
    public String targetUrl() {
        return targetUrl;
    }

    public String targetUser() {
        return targetUser;
    }

    /** Whether a password is configured (the password itself is never exposed). */
    public boolean hasTargetPassword() {
        return targetPassword != null;
    }

    public boolean h2MysqlMode() {
        return h2MysqlMode;
    }

    public String pipeline() {
        return pipeline;
    }

    public String checkpointSchema() {
        return checkpointSchema;
    }

    public String checkpointTable() {
        return checkpointTable;
    }

    public SchemaMapping mapping() {
        return mapping;
    }

    /** Whether a user sink (rather than a JDBC target) receives the transactions. */
    public boolean hasSink() {
        return sinkFactory != null || transactionSink != null;
    }

    /** The built-in scheduler kind, or null when a user scheduler is configured. */
    public SchedulerKind schedulerKind() {
        return customScheduler == null ? schedulerKind : null;
    }

    /** The scheduler's name: a built-in label or the user scheduler's {@link Scheduler#name()}. */
    public String schedulerName() {
        return customScheduler == null ? schedulerKind.label() : customScheduler.name();
    }

    Scheduler newScheduler() {
        if (customScheduler != null) {
            return customScheduler;
        }
        return schedulerKind == SchedulerKind.WRITESET
                ? new WritesetScheduler(WritesetScheduler.DEFAULT_HISTORY_SIZE, writesetRun)
                : schedulerKind.create();
    }



    /** The engine's settings this configuration gives: every engine knob, and the pipeline's name. */
    public EngineSettings engineSettings() {
        return engine;
    }


    /** {@link Option#WRITESET_RUN}. */
    public int writesetRun() {
        return writesetRun;
    }

    /** {@link Option#LARGE_TRANSACTION_BYTES} (0: never). */
    public long largeTransactionBytes() {
        return largeTransactionBytes;
    }

    /** How far the target is kept behind the source's commit times ({@link Duration#ZERO}: not at all). */
    public Duration applyDelay() {
        return applyDelay;
    }






    /** What target errors are retried, stopped on, or skipped. */
    public io.lanes.applier.jdbc.TargetErrorPolicy errorPolicy() {
        return errorPolicy;
    }

    /**
     * {@link Option#SPILL_THRESHOLD_BYTES} in a JVM whose maximum heap is {@code maxHeapBytes}: as set, or by default
     * an eighth of the heap and at least {@link #largeTransactionBytes()} (0 when that is 0: a transaction converted
     * whole takes some twelve times its row images anyway). Writing images a large heap could hold to a file and reading
     * them back cost about 4% of a 430 MB transaction's apply (docs/concepts.md, "Large transactions").
     */
    public long spillThresholdBytes(long maxHeapBytes) {
        return spillThresholdBytes >= 0 ? spillThresholdBytes
                : defaultSpillThresholdBytes(largeTransactionBytes, maxHeapBytes);
    }

    /**
     * The spill threshold when none is set: an eighth of the heap and at least {@code largeTransactionBytes}, 0 when that
     * is 0 (see {@link #spillThresholdBytes(long)}). One rule for every reader of the log (the pipeline, the Kafka Connect
     * source).
     */
    public static long defaultSpillThresholdBytes(long largeTransactionBytes, long maxHeapBytes) {
        return largeTransactionBytes == 0 ? 0 : Math.max(largeTransactionBytes, maxHeapBytes / 8);
    }

    /** Where large transactions' row images wait ({@link Option#SPILL_DIRECTORY}); null: the JVM's temporary one. */
    public Path spillDirectory() {
        return spillDirectory;
    }

    /** The schema file seeding the schema history ({@link Option#SOURCE_SCHEMA_FILE}), or null. */
    public Path sourceSchemaFile() {
        return sourceSchemaFile;
    }

    /** Whether account management statements of the log run on the target ({@link Option#ACCOUNT_STATEMENTS}). */
    public boolean applyAccountStatements() {
        return applyAccountStatements;
    }

    /** What a MySQL/MariaDB target does with the log's triggers ({@link Option#TRIGGERS}). */
    public StatementPolicy.Triggers triggers() {
        return triggers;
    }

    /** The collations a MySQL/MariaDB target uses for source collations it lacks ({@link Option#COLLATION_MAP}). */
    public CollationMap collationMap() {
        return collationMap;
    }

    /** How often a live source is asked where its binlog ends ({@link Duration#ZERO}: never). */
    public Duration sourceStatusInterval() {
        return sourceStatusInterval;
    }

    /** {@link Option#METRICS_PORT}: the command line's metrics port, -1 when none was given. */
    public int metricsPort() {
        return metricsPort;
    }

    /** {@link Option#METRICS_BIND_ADDRESS}: where the command line's metrics endpoint listens. */
    public String metricsBindAddress() {
        return metricsBindAddress;
    }

    /** {@link Option#PROGRESS_INTERVAL_SECONDS}: how often the command line logs progress ({@link Duration#ZERO}: never). */
    public Duration progressInterval() {
        return progressInterval;
    }

    /** TLS to the target ({@link io.lanes.applier.jdbc.TargetTls#NONE}: as the URL says). */
    public io.lanes.applier.jdbc.TargetTls targetTls() {
        return targetTls;
    }

    /** The URL shown in logs and errors: without anything after '?' or ';' (parameters may carry credentials). */
    public String targetDescription() {
        if (targetUrl == null) {
            return transactionSink != null ? "sink " + transactionSink.getClass().getName() + " (checkpoints in "
                    + sinkCheckpointDirectory + ")" : "sink " + sinkFactory.getClass().getName();
        }
        int cut = targetUrl.length();
        for (char c : new char[] {'?', ';'}) {
            int at = targetUrl.indexOf(c);
            if (at >= 0) {
                cut = Math.min(cut, at);
            }
        }
        return targetUrl.substring(0, cut) + (cut < targetUrl.length() ? "..." : "");
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        parts.add("source=" + sourceDescription());
        parts.add("target=" + targetDescription());
        if (targetUser != null) {
            parts.add("user=" + targetUser);
        }
        parts.add("password=" + (targetPassword == null ? "none" : targetPasswordDescription));
        if (targetTls.effectiveMode() != null) {
            parts.add(targetTls.toString());
        }
        if (errorPolicy.skipsAny()) {
            parts.add("skipErrors=" + errorPolicy.skipList());
        }
        if (applyAccountStatements) {
            parts.add("accountStatements=apply");
        }
        if (triggers != StatementPolicy.Triggers.GUARD) {
            parts.add("triggers=" + triggers.label());
        }
        if (!collationMap.userEntries().isEmpty()) {
            parts.add("collationMap=" + collationMap.userEntries());
        }
        parts.add("scheduler=" + schedulerName());
        parts.add("workers=" + engine.workers());
        parts.add("commitOrder=" + commitOrderLabel(engine.commitOrder()));
        parts.add("blockCommit=" + engine.blockCommit());
        parts.add("writesetRun=" + writesetRun);
        parts.add("applyDelay=" + applyDelay);
        parts.add("largeTransactionBytes=" + largeTransactionBytes);
        if (spillThresholdBytes >= 0) {
            parts.add("spillThresholdBytes=" + spillThresholdBytes);
        }
        if (spillDirectory != null) {
            parts.add("spillDirectory=" + spillDirectory);
        }
        parts.add("pipeline=" + pipeline);
        parts.add("checkpointTable=" + checkpointSchema + "." + checkpointTable);
        return "LanesConfig" + parts;
    }

    static String labels(SchedulerKind[] kinds) {
        return String.join(", ", Arrays.stream(kinds).map(SchedulerKind::label).toList());
    }

    static <T> T require(T value, String what) {
        return Objects.requireNonNull(value, what);
    }
}
