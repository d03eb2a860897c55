package io.lanes.examples.cli;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesBuilder;
import io.lanes.applier.LanesConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lanes apply}: applies binlog files to a JDBC target through a {@link Lanes} pipeline, resuming from the target's
 * checkpoint; ends with one JSON line on stdout.
 */
@Command(name = "apply", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
        defaultValueProvider = LanesDefaults.class,
        description = {"Applies MySQL/MariaDB binlog files (plain or .gz), or a live server, to a database with many workers.",
            "",
            "Transactions are read in order from the files, scheduled by the chosen policy onto the workers, and",
            "committed to the target together with a checkpoint row (table lanes.lanes_checkpoint by default). Running",
            "the same command again resumes after the last committed transaction: nothing is applied twice.",
            "",
            "The target password comes from the environment variable LANES_TARGET_PASSWORD only (never from the",
            "command line, never logged). H2 URLs get H2's MySQL mode unless they set MODE= themselves.",
            "",
            "Ctrl-C (or SIGTERM) stops gracefully: reading stops after the current transaction, everything read is",
            "committed and checkpointed, the summary and the JSON line are printed; a second Ctrl-C aborts (nothing",
            "more is committed; the next run still resumes exactly).",
            "",
            "Output: with a terminal on stdout a progress bar (stderr) and a summary; in every case the last line on",
            "stdout is one JSON object: status (ok: the files' end or caught up; stopped: by Ctrl-C/SIGTERM; aborted:",
            "by a second Ctrl-C; failed), transactions (committed), transactions_read, skipped (already applied",
            "before), skipped_by_error_policy, account_statements_skipped, statements_filtered, triggers_not_created,",
            "definitions_not_translated, events, rows, large_transactions (run alone, converted while applied:",
            "lanes.large-transaction-bytes), spilled_transactions (row images held in a temporary file while",
            "read: lanes.spill-threshold-bytes), seconds, tps, process_cpu_s (this process's processor time so",
            "far, every thread, where the platform reports it), position, resumed_from, scheduler, workers, commit_order,",
            "block_commit, achieved_parallelism, worker_stats[] (per worker: transactions, commits, bytes, applying_s,",
            "waiting_for_dependency_s, waiting_for_commit_order_s, retrying_s, idle_s, state); on failure also error",
            "and failed_position.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every transaction of the files is committed (or was already); with a live source: stopped "
                + "(Ctrl-C, SIGTERM) or caught up",
            "1:failure: the JSON line and stderr name the position (file:offset) where it stopped; what was "
                    + "committed before is checkpointed, run again to resume",
            "2:bad usage (unknown option, bad value, an option that does not apply to the source)",
            "130:files only: stopped by Ctrl-C before their end (143: by SIGTERM); what was read is committed and "
                    + "checkpointed, run again to resume"},
        footer = {"", "Examples:",
            "  lanes apply --source mysql-bin.000001 mysql-bin.000002 --target 'jdbc:h2:./replica'",
            "  LANES_SOURCE_PASSWORD=... lanes apply --source 'mysql://repl@db1:3306?gtid=0-1-100' \\",
            "      --target 'jdbc:h2:./replica' --until-caught-up",
            "  LANES_SOURCE_PASSWORD=... lanes apply --source-server db1:3306 --source-user repl \\",
            "      --source-start mariadb-gtid:0-1-100 --target 'jdbc:h2:./replica'",
            "  LANES_TARGET_PASSWORD=... lanes apply --source binlog.000042.gz \\",
            "      --target jdbc:postgresql://127.0.0.1:5432/replica --target-user lanes --scheduler writeset --workers 16"})
public final class ApplyCommand implements Callable<Integer> {
    /** The only place a target password is read from. */
    public static final String PASSWORD_ENV = "LANES_TARGET_PASSWORD";
    /** The only place a replication password is read from. */
    public static final String SOURCE_PASSWORD_ENV = "LANES_SOURCE_PASSWORD";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--source", arity = "1..*", paramLabel = "FILE|URL",
            description = {"Binlog files, applied in the order given (plain or .gz); or one live server as "
                    + "mysql://USER@HOST:PORT[?file=NAME&pos=N | ?gtid=SET] (password: env " + SOURCE_PASSWORD_ENV
                    + ", never in the URL). gtid=D-S-N[,...] is a MariaDB GTID position, gtid=UUID:N-M[,...] a MySQL "
                    + "GTID set; without file/gtid the start comes from --source-start, or, on a target that holds "
                    + "this pipeline's checkpoint, from the checkpoint."})
    List<String> sources;

    @Option(names = "--source-server", paramLabel = "HOST:PORT",
            description = "Follow this live MySQL/MariaDB server as a replica instead of reading files (password: env "
                    + SOURCE_PASSWORD_ENV + "); runs until Ctrl-C, or until caught up with --until-caught-up.")
    String sourceServer;

    @Option(names = "--source-user", paramLabel = "USER", description = "Replication user of --source-server.")
    String sourceUser;

    @Option(names = "--source-start", paramLabel = "POSITION",
            description = "Where a live source starts on a fresh target: NAME:POS or gtid=SET (the set's text tells "
                    + "MySQL from MariaDB; mysql-gtid: and mariadb-gtid: name the flavour of an empty one; later runs "
                    + "resume after the target's checkpoint and need no start).")
    String sourceStart;

    @Option(names = "--schema-file", paramLabel = "FILE",
            description = "The source's table definitions where the log starts: mariadb-dump --no-data or mysqldump "
                    + "--no-data output. Gives row events logged without column names (binlog_row_metadata MINIMAL, "
                    + "the default, or NO_LOG) their columns, ENUM/SET members, signedness and BINARY lengths when the "
                    + "log starts after the tables were created; the log's own DDL updates them (docs/schema-history.md).")
    Path schemaFile;

    @Option(names = "--server-id", paramLabel = "ID", description = "This replica's server id for --source-server "
            + "(default: ${DEFAULT-VALUE}).")
    long serverId;

    @Option(names = "--until-caught-up", description = "With a live source: stop once everything the server sent is "
            + "committed.")
    boolean untilCaughtUp;

    @Option(names = "--target", paramLabel = "JDBC_URL",
            description = "Target database: jdbc:h2:..., jdbc:postgresql://..., jdbc:mariadb://... or jdbc:mysql://... "
                    + "(required unless --config sets lanes.target.url).")
    String target;

    @Option(names = "--target-user", paramLabel = "USER", description = "Target user (password: env "
            + PASSWORD_ENV + ").")
    String targetUser;

    @Option(names = "--scheduler", paramLabel = "POLICY",
            description = "sequential | schema | logical-clock | writeset (default: ${DEFAULT-VALUE}).")
    String scheduler;

    @Option(names = "--workers", paramLabel = "N", description = "Worker threads, 0.." + LanesConfig.MAX_WORKERS
            + "; 0 applies on the reading thread. Each worker holds a target connection: more workers than the target "
            + "accepts connections are refused before anything is applied (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--commit-order", paramLabel = "ORDER",
            description = "strict | partition | none (default: ${DEFAULT-VALUE}).")
    String commitOrder;

    @Option(names = "--block-commit", paramLabel = "N",
            description = "Most transactions one worker commits as one target transaction (default: ${DEFAULT-VALUE}).")
    int blockCommit;

    @Option(names = "--pipeline", paramLabel = "NAME",
            description = "Name of this pipeline's checkpoint rows (default: ${DEFAULT-VALUE}).")
    String pipeline;

    @Option(names = "--checkpoint-table", paramLabel = "SCHEMA.TABLE",
            description = "Where checkpoints live in the target (default: ${DEFAULT-VALUE}).")
    String checkpointTable;

    @Option(names = "--skip-errors", paramLabel = "LIST",
            description = "Target errors to skip instead of stopping, like replica_skip_errors: SQLStates (prefixes) "
                    + "and vendor codes, comma-separated (e.g. 1062,23505). Off by default; every skipped transaction "
                    + "is logged with its position and counted (skipped_by_error_policy).")
    String skipErrors;

    @Option(names = "--apply-account-statements",
            description = "Run the log's account management (CREATE/ALTER/DROP USER, GRANT, REVOKE, SET PASSWORD, roles) "
                    + "on a MySQL/MariaDB target. Off by default: each is skipped, logged without its secrets and counted "
                    + "(account_statements_skipped); H2 and PostgreSQL never run them.")
    boolean applyAccountStatements;

    @Option(names = "--triggers", paramLabel = "MODE",
            description = "The log's CREATE TRIGGER on a MySQL/MariaDB target: guard (default: fires for statements, "
                    + "never for the rows applied, which hold what it wrote), skip (row-based logs), as-written "
                    + "(statement-based logs). H2 and PostgreSQL never create them.")
    String triggers;

    @Option(names = "--collation-map", paramLabel = "LIST",
            description = "Collations a MySQL/MariaDB target lacks, as SOURCE=TARGET,... (a source name or id), before "
                    + "the built-in table (MySQL 8's utf8mb4_0900_ai_ci and the other 0900 collations to MariaDB's "
                    + "nearest; docs/collations.md).")
    String collationMap;

    @Option(names = "--tls-mode", paramLabel = "MODE",
            description = "TLS to the target: disabled | preferred | required | verify-ca | verify-identity "
                    + "(default: verify-identity when --tls-ca is given, otherwise as the URL says).")
    String tlsMode;

    @Option(names = "--tls-ca", paramLabel = "PEM", description = "CA certificate that the target's certificate must "
            + "chain to (turns verification on).")
    Path tlsCa;

    @Option(names = "--config", paramLabel = "FILE",
            description = "A properties file with lanes.* keys (see docs/configuration.md); options given on the "
                    + "command line win.")
    Path config;

    @Option(names = "--no-verify-checksum", description = "Do not verify event CRC32 checksums.")
    boolean noVerifyChecksum;

    @Option(names = "--json", description = "Print only the final JSON line on stdout (no progress bar, no summary).")
    boolean json;

    @Option(names = "--verbose", description = "On failure, also print the whole cause chain with stack traces on "
            + "stderr, and let the library and the JDBC driver log at INFO.")
    boolean verbose;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve Prometheus metrics at http://ADDRESS:PORT/metrics for the whole run (0: a free port, "
                    + "logged) and register them in JMX (domain io.lanes); docs/operations.md lists them.")
    Integer metricsPort;

    @Option(names = "--metrics-bind", paramLabel = "ADDRESS",
            description = "Address the metrics endpoint listens on (default: ${DEFAULT-VALUE}; 0.0.0.0 for all).")
    String metricsBind;

    @Option(names = "--progress-interval", paramLabel = "SECONDS",
            description = "When stdout is not a terminal, log one progress line (rate, lag, position) this often; 0 "
                    + "never (default: ${DEFAULT-VALUE}).")
    Long progressInterval;

    @Override
    public Integer call() throws Exception {
        if (verbose) {
            CliLogging.verbose();
        }
        PrintStream out = System.out;
        Lanes lanes;
        try {
            lanes = configure().build();
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("lanes apply: " + e.getMessage());
            return 2;
        }
        LanesConfig config = lanes.config();
        boolean live = config.hasLiveSource();
        MetricsEndpoint metrics = null;
        if (config.metricsPort() >= 0) {
            try {
                metrics = MetricsEndpoint.start(lanes, config.metricsBindAddress(), config.metricsPort());
            } catch (IOException e) {
                System.err.println("lanes apply: " + e.getMessage());
                return 2;
            }
        }
        ApplyRun.Outcome outcome;
        try {
            outcome = ApplyRun.run(lanes, !json, !live || untilCaughtUp,
                    ProgressLog.whenNoTerminal(config.progressInterval(), !json && System.console() != null));
        } finally {
            if (metrics != null) {
                metrics.close();
            }
        }
        if (!json) {
            ApplyRun.printHuman(out, outcome.stats(), outcome);
        }
        out.println(Json.write(outcome.summary()));
        out.flush();
        if (!outcome.ok()) {
            ApplyRun.printFailure("apply", outcome.failure(), verbose);
            return 1;
        }
        return outcome.interrupted() && !live ? outcome.interruptedExitStatus() : 0;
    }

    LanesBuilder configure() throws IOException {
        LanesBuilder b = Lanes.builder();
        Properties fromFile = new Properties();
        if (config != null) {
            try (InputStream in = Files.newInputStream(config)) {
                fromFile.load(in);
            } catch (IOException e) {
                throw new IOException("--config " + config + ": " + e.getMessage(), e);
            }
            b.properties(fromFile);
        }
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        boolean fileSourceInConfig = fromFile.getProperty(LanesConfig.Option.SOURCE_FILES.key()) != null;
        boolean liveSourceInConfig = fromFile.getProperty(LanesConfig.Option.SOURCE_SERVER.key()) != null;
        if (sources != null && sourceServer != null) {
            throw new IllegalArgumentException("give either --source FILE..., --source mysql://USER@HOST:PORT or "
                    + "--source-server HOST:PORT, not both");
        }
        if (sources == null && sourceServer == null && !fileSourceInConfig && !liveSourceInConfig) {
            throw new IllegalArgumentException("give --source FILE..., --source mysql://USER@HOST:PORT or "
                    + "--source-server HOST:PORT (or lanes.source.files / lanes.source.server in --config)");
        }
        SourceUrl url = null;
        if (sources != null && sources.stream().anyMatch(SourceUrl::isUrl)) {
            if (sources.size() != 1) {
                throw new IllegalArgumentException("--source: a mysql:// URL is the only source of a run (got "
                        + sources.size() + " values)");
            }
            url = SourceUrl.parse(sources.get(0));
        }
        boolean files = url == null && (sources != null || (sourceServer == null && fileSourceInConfig));
        if (files) {
            refuseLiveOnlyOptions(given);
            if (sources != null) {
                b.source(sources.stream().map(Path::of).toList());
            }
        } else {
            b.properties(liveSource(url, given, fromFile));
        }
        if (target != null) {
            b.target(target);
        } else if (fromFile.getProperty(LanesConfig.Option.TARGET_URL.key()) == null) {
            throw new IllegalArgumentException("give --target JDBC_URL (or lanes.target.url in --config)");
        }
        if (config == null || given.hasMatchedOption("--no-verify-checksum")) {
            b.verifyChecksums(!noVerifyChecksum);
        }
        if (targetUser != null) {
            b.targetUser(targetUser);
        }
        if (System.getenv(PASSWORD_ENV) != null) {
            b.targetPasswordFromEnvironment(PASSWORD_ENV);
        }
        java.util.Properties extra = new java.util.Properties();
        if (skipErrors != null) {
            extra.setProperty(LanesConfig.Option.SKIP_ERRORS.key(), skipErrors);
        }
        if (tlsMode != null) {
            extra.setProperty(LanesConfig.Option.TARGET_TLS_MODE.key(), tlsMode);
        }
        if (tlsCa != null) {
            extra.setProperty(LanesConfig.Option.TARGET_TLS_CA.key(), tlsCa.toString());
        }
        if (applyAccountStatements) {
            extra.setProperty(LanesConfig.Option.ACCOUNT_STATEMENTS.key(), "apply");
        }
        if (triggers != null) {
            extra.setProperty(LanesConfig.Option.TRIGGERS.key(), triggers);
        }
        if (schemaFile != null) {
            extra.setProperty(LanesConfig.Option.SOURCE_SCHEMA_FILE.key(), schemaFile.toString());
        }
        if (collationMap != null) {
            extra.setProperty(LanesConfig.Option.COLLATION_MAP.key(), collationMap);
        }
        if (metricsPort != null) {
            extra.setProperty(LanesConfig.Option.METRICS_PORT.key(), metricsPort.toString());
        }
        if (metricsBind != null && (config == null || given.hasMatchedOption("--metrics-bind"))) {
            extra.setProperty(LanesConfig.Option.METRICS_BIND_ADDRESS.key(), metricsBind);
        }
        if (progressInterval != null && (config == null || given.hasMatchedOption("--progress-interval"))) {
            extra.setProperty(LanesConfig.Option.PROGRESS_INTERVAL_SECONDS.key(), progressInterval.toString());
        }
        if (!extra.isEmpty()) {
            b.properties(extra);
        }
        if (config == null || given.hasMatchedOption("--scheduler")) {
            b.scheduler(scheduler);
        }
        if (config == null || given.hasMatchedOption("--workers")) {
            b.workers(workers);
        }
        if (config == null || given.hasMatchedOption("--commit-order")) {
            b.commitOrder(commitOrder);
        }
        if (config == null || given.hasMatchedOption("--block-commit")) {
            b.blockCommit(blockCommit);
        }
        if (config == null || given.hasMatchedOption("--pipeline")) {
            b.pipeline(pipeline);
        }
        if (config == null || given.hasMatchedOption("--checkpoint-table")) {
            int dot = checkpointTable.indexOf('.');
            if (dot <= 0 || dot == checkpointTable.length() - 1) {
                throw new IllegalArgumentException("--checkpoint-table: expected SCHEMA.TABLE, got " + checkpointTable);
            }
            b.checkpointTable(checkpointTable.substring(0, dot), checkpointTable.substring(dot + 1));
        }
        return b;
    }

    /** The options that only mean something for a live source are refused with files, rather than ignored. */
    private void refuseLiveOnlyOptions(CommandLine.ParseResult given) {
        List<String> liveOnly = new ArrayList<>();
        for (String option : List.of("--source-start", "--source-user", "--server-id", "--until-caught-up")) {
            if (given.hasMatchedOption(option)) {
                liveOnly.add(option);
            }
        }
        if (!liveOnly.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", liveOnly) + (liveOnly.size() == 1 ? " is" : " are")
                    + " for a live source (--source mysql://USER@HOST:PORT or --source-server HOST:PORT); binlog "
                    + "files are read from their beginning, resume after the target's checkpoint and end at their end:"
                    + " drop " + (liveOnly.size() == 1 ? "it" : "them"));
        }
    }

    /**
     * The {@code lanes.source.*} settings of a live source given as a URL or as {@code --source-server}. The start: the
     * URL's, else {@code --source-start}, else the config file's; none resumes from the target's checkpoint only.
     */
    private Properties liveSource(SourceUrl url, CommandLine.ParseResult given, Properties fromFile) {
        String server = url != null ? url.hostAndPort() : sourceServer != null ? sourceServer
                : fromFile.getProperty(LanesConfig.Option.SOURCE_SERVER.key());
        String user = url != null ? url.user() : sourceUser != null ? sourceUser
                : fromFile.getProperty(LanesConfig.Option.SOURCE_USER.key());
        if (url != null && url.start() != null && sourceStart != null) {
            throw new IllegalArgumentException("--source-start and the start in the --source URL: give one");
        }
        if (url != null && sourceUser != null && !sourceUser.equals(url.user())) {
            throw new IllegalArgumentException("--source-user " + sourceUser + " contradicts the user of --source ("
                    + url.user() + ")");
        }
        if (user == null) {
            throw new IllegalArgumentException("a live source needs a replication user: --source-user USER (or "
                    + "--source mysql://USER@HOST:PORT)");
        }
        String start = url != null && url.start() != null ? url.start() : sourceStart != null ? sourceStart
                : fromFile.getProperty(LanesConfig.Option.SOURCE_START.key());
        Properties live = new Properties();
        live.setProperty(LanesConfig.Option.SOURCE_SERVER.key(), server);
        live.setProperty(LanesConfig.Option.SOURCE_USER.key(), user);
        if (start != null) {
            live.setProperty(LanesConfig.Option.SOURCE_START.key(), start);
        }
        String serverIdInFile = fromFile.getProperty(LanesConfig.Option.SOURCE_SERVER_ID.key());
        live.setProperty(LanesConfig.Option.SOURCE_SERVER_ID.key(),
                serverIdInFile != null && !given.hasMatchedOption("--server-id") ? serverIdInFile
                        : Long.toString(serverId));
        if (System.getenv(SOURCE_PASSWORD_ENV) != null) {
            live.setProperty(LanesConfig.Option.SOURCE_PASSWORD_ENV.key(), SOURCE_PASSWORD_ENV);
        } else if (fromFile.getProperty(LanesConfig.Option.SOURCE_PASSWORD_ENV.key()) != null) {
            live.setProperty(LanesConfig.Option.SOURCE_PASSWORD_ENV.key(),
                    fromFile.getProperty(LanesConfig.Option.SOURCE_PASSWORD_ENV.key()));
        }
        return live;
    }

    /** Default values of options shared with the library: taken from {@link LanesConfig.Option}, so they cannot drift. */
    static String defaultFor(String optionName) {
        LanesConfig.Option o = switch (optionName) {
            case "--scheduler" -> LanesConfig.Option.SCHEDULER;
            case "--workers" -> LanesConfig.Option.WORKERS;
            case "--commit-order" -> LanesConfig.Option.COMMIT_ORDER;
            case "--block-commit" -> LanesConfig.Option.BLOCK_COMMIT;
            case "--pipeline" -> LanesConfig.Option.PIPELINE;
            case "--checkpoint-table" -> LanesConfig.Option.CHECKPOINT_TABLE;
            case "--server-id" -> LanesConfig.Option.SOURCE_SERVER_ID;
            case "--metrics-bind" -> LanesConfig.Option.METRICS_BIND_ADDRESS;
            case "--progress-interval" -> LanesConfig.Option.PROGRESS_INTERVAL_SECONDS;
            default -> null;
        };
        return o == null ? null : o.defaultValue();
    }
}
