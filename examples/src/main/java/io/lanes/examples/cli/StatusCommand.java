package io.lanes.examples.cli;

import io.lanes.applier.LanesConfig;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.binlog.replication.BinlogStatus;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.ReplicationException;
import io.lanes.binlog.replication.StartPosition;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lanes status}: what the checkpoint rows in a target say about each pipeline, read without a running process,
 * as {@code SHOW REPLICA STATUS} would: where a restart resumes (low-water position and GTID state), how many
 * transactions beyond it are applied, when the rows were last written, and with {@code --source-server} how far the
 * server's binlog has gone past it.
 */
@Command(name = "status", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, sortOptions = false,
        usageHelpWidth = 120,
        description = {"Shows each pipeline's checkpoint in a target database: where it resumes, what is applied",
            "beyond that, when it was last written and, with --source-server, how far the server is ahead.",
            "",
            "Reads the checkpoint table only (no running lanes process needed; safe while one runs). The target",
            "password comes from LANES_TARGET_PASSWORD, the source's from LANES_SOURCE_PASSWORD.",
            "",
            "Output: a few lines per pipeline, or with --json one JSON object: pipelines[] with pipeline,",
            "low_water_position, gtid_state, applied_beyond, checkpoint_rows, last_written (UTC),",
            "seconds_since_written and, with --source-server, source {server, end_position, gtid_position,",
            "bytes_behind, files_behind, problem | error}.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:the checkpoint was read (and the source asked, when given)",
            "1:the target cannot be read, has no checkpoint table, the pipeline has no rows, or the source cannot be "
                    + "asked",
            "2:bad usage"},
        footer = {"", "Examples:",
            "  lanes status --target 'jdbc:h2:./replica'",
            "  LANES_SOURCE_PASSWORD=... lanes status --target jdbc:postgresql://127.0.0.1:5432/replica \\",
            "      --target-user lanes --pipeline default --source-server db1:3306 --source-user repl --json"})
public final class StatusCommand implements Callable<Integer> {
    @Option(names = "--target", required = true, paramLabel = "JDBC_URL", description = "The target database.")
    String target;

    @Option(names = "--target-user", paramLabel = "USER", description = "Target user (password: env "
            + ApplyCommand.PASSWORD_ENV + ").")
    String targetUser;

    @Option(names = "--pipeline", paramLabel = "NAME", description = "Only this pipeline (default: every pipeline "
            + "in the table).")
    String pipeline;

    @Option(names = "--checkpoint-table", paramLabel = "SCHEMA.TABLE",
            description = "Where the checkpoints live (default: " + LanesConfig.DEFAULT_CHECKPOINT_TABLE + ").")
    String checkpointTable = LanesConfig.DEFAULT_CHECKPOINT_TABLE;

    @Option(names = "--source-server", paramLabel = "HOST:PORT",
            description = "Also ask this MySQL/MariaDB server where its binlog ends and how many bytes lie beyond "
                    + "each pipeline's low-water position (password: env " + ApplyCommand.SOURCE_PASSWORD_ENV + "; the "
                    + "account needs REPLICATION CLIENT / BINLOG MONITOR).")
    String sourceServer;

    @Option(names = "--source-user", paramLabel = "USER", description = "Account for --source-server.")
    String sourceUser;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        int dot = checkpointTable.indexOf('.');
        if (dot <= 0 || dot == checkpointTable.length() - 1) {
            System.err.println("lanes status: --checkpoint-table: expected SCHEMA.TABLE, got " + checkpointTable);
            return 2;
        }
        if (sourceServer != null && sourceUser == null) {
            System.err.println("lanes status: --source-server needs --source-user");
            return 2;
        }
        Dialect dialect;
        try {
            dialect = Dialect.forJdbcUrl(target);
        } catch (IllegalArgumentException e) {
            System.err.println("lanes status: " + e.getMessage());
            return 2;
        }
        JdbcCheckpointTable table = new JdbcCheckpointTable(dialect, checkpointTable.substring(0, dot),
                checkpointTable.substring(dot + 1));
        List<PipelineStatus> statuses = new ArrayList<>();
        try (Connection c = connect(dialect)) {
            List<String> names;
            try {
                names = pipeline != null ? List.of(pipeline) : table.pipelines(c);
            } catch (SQLException e) {
                System.err.println("lanes status: cannot read the checkpoint table " + checkpointTable + " in "
                        + shown(target) + " (has lanes apply run against it?): " + e.getMessage());
                return 1;
            }
            for (String name : names) {
                var rows = table.read(c, name);
                if (rows.isEmpty()) {
                    System.err.println("lanes status: pipeline '" + name + "' has no checkpoint rows in "
                            + checkpointTable);
                    return 1;
                }
                statuses.add(PipelineStatus.of(name, rows));
            }
        } catch (SQLException e) {
            System.err.println("lanes status: cannot read " + shown(target) + ": " + e.getMessage());
            return 1;
        }
        BinlogStatus source = null;
        String sourceError = null;
        if (sourceServer != null) {
            try {
                source = askSource();
            } catch (ReplicationException | IllegalArgumentException e) {
                sourceError = e.getMessage();
            }
        }
        Instant now = Instant.now();
        if (json) {
            List<Object> list = new ArrayList<>();
            for (PipelineStatus s : statuses) {
                list.add(s.toJson(now, sourceServer, source, sourceError));
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("checkpoint_table", checkpointTable);
            m.put("pipelines", list);
            out.println(Json.write(m));
        } else {
            if (statuses.isEmpty()) {
                out.println("no pipeline has checkpoint rows in " + checkpointTable);
            }
            for (PipelineStatus s : statuses) {
                printHuman(out, s, now, source);
            }
            if (sourceError != null) {
                out.println("source " + sourceServer + ": " + sourceError);
            }
        }
        out.flush();
        if (sourceError != null) {
            System.err.println("lanes status: cannot ask " + sourceServer + ": " + sourceError);
            return 1;
        }
        return 0;
    }

    private void printHuman(PrintStream out, PipelineStatus s, Instant now, BinlogStatus source) {
        out.printf(Locale.ROOT, "pipeline %s%n", s.pipeline());
        var p = s.filePosition();
        out.printf(Locale.ROOT, "  low-water position  %s%n", p == null ? String.valueOf(s.lowWaterPosition())
                : p.file() + ":" + p.offset());
        out.printf(Locale.ROOT, "  GTID state          %s%n", s.gtidState().isEmpty() ? "(none)" : s.gtidState());
        out.printf(Locale.ROOT, "  applied beyond it   %,d transactions%n", s.appliedBeyond());
        out.printf(Locale.ROOT, "  last written        %s (%.1f s ago; %d checkpoint rows)%n", s.lastWritten(),
                Duration.between(s.lastWritten(), now).toMillis() / 1000.0, s.rows());
        if (source != null) {
            String end = source.end() == null ? "unknown" : source.end().file() + ":" + source.end().position();
            long behind = p == null ? -1 : source.bytesAfter(p.file(), p.offset());
            Integer files = p == null ? null : PipelineStatus.filesBehind(source, p.file());
            out.printf(Locale.ROOT, "  source %s: binlog ends at %s; %s%n", sourceServer, end, behind < 0
                    ? "distance unknown" + (source.problem() != null ? " (" + source.problem() + ")"
                            : " (the position's file is not among the server's binlogs)")
                    : String.format(Locale.ROOT, "%,d bytes in %d later file(s) behind", behind, files));
        }
    }

    private Connection connect(Dialect dialect) throws SQLException {
        String url = target;
        if (dialect.kind() == Dialect.Kind.H2 && !url.toUpperCase(Locale.ROOT).contains(";MODE=")) {
            url = url + Dialect.h2RecommendedUrlOptions(); // as apply opens it
        }
        Properties props = new Properties();
        dialect.recommendedConnectionProperties().forEach(props::setProperty);
        if (targetUser != null) {
            props.setProperty("user", targetUser);
        }
        String password = System.getenv(ApplyCommand.PASSWORD_ENV);
        if (password != null) {
            props.setProperty("password", password);
        }
        Connection c = DriverManager.getConnection(url, props);
        c.setReadOnly(true);
        return c;
    }

    private BinlogStatus askSource() {
        int colon = sourceServer.lastIndexOf(':');
        String host = colon < 0 ? sourceServer : sourceServer.substring(0, colon);
        int port;
        try {
            port = colon < 0 ? 3306 : Integer.parseInt(sourceServer.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--source-server: expected HOST:PORT, got " + sourceServer);
        }
        ReplicationClient.Builder b = ReplicationClient.builder().host(host).port(port).user(sourceUser)
                .serverId(LanesConfig.DEFAULT_SOURCE_SERVER_ID)
                .startPosition(StartPosition.file("unused", 4)); // asks a question, never streams
        String password = System.getenv(ApplyCommand.SOURCE_PASSWORD_ENV);
        if (password != null) {
            b.password(password.toCharArray());
        }
        try (ReplicationClient client = b.build()) {
            return client.binlogStatus();
        }
    }

    /** A URL without what follows '?' or ';' (parameters may hold credentials). */
    static String shown(String url) {
        int cut = url.length();
        for (char ch : new char[] {'?', ';'}) {
            int at = url.indexOf(ch);
            if (at >= 0) {
                cut = Math.min(cut, at);
            }
        }
        return url.substring(0, cut);
    }
}
