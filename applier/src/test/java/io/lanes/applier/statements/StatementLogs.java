package io.lanes.applier.statements;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesBuilder;
import io.lanes.applier.LanesException;
import io.lanes.applier.LanesStats;
import io.lanes.applier.testing.TestTarget;
import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.QueryEvent;
import io.lanes.binlog.TransactionReader;
import io.lanes.binlog.testing.MariaDbServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Real binlogs for the statement tests: fixtures copied out of the test resources (whole, or their first transactions,
 * cut at a transaction's end as a server's active binlog ends), logs recorded by a MariaDB the test starts, and a
 * {@link Lanes} run that returns its statistics or its failure.
 */
final class StatementLogs {
    private StatementLogs() {
    }

    /** A fixture of the test resources ({@code /binlogs/...}, gzip inflated) as a file named {@code name}. */
    static Path fixture(Path dir, String resource, String name) throws IOException {
        Path out = dir.resolve(name);
        try (InputStream raw = StatementLogs.class.getResourceAsStream(resource)) {
            assertNotNull(raw, resource);
            InputStream in = resource.endsWith(".gz") ? new GZIPInputStream(raw) : raw;
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
        }
        return out;
    }

    /**
     * The first {@code transactions} transactions of a fixture: its bytes up to the end of that transaction, as the
     * server's binlog was at that moment.
     */
    static Path prefix(Path dir, String resource, String name, int transactions) throws IOException {
        Path whole = fixture(dir, resource, "whole-" + name);
        long end;
        try (TransactionReader r = TransactionReader.open(whole)) {
            BinlogTransaction t = null;
            for (int i = 0; i < transactions; i++) {
                t = r.next();
                assertNotNull(t, "the fixture has fewer than " + transactions + " transactions");
            }
            end = t.endPosition();
        }
        Path out = dir.resolve(name);
        try (InputStream in = Files.newInputStream(whole); OutputStream o = Files.newOutputStream(out)) {
            o.write(in.readNBytes((int) end));
        }
        Files.delete(whole);
        return out;
    }

    /** Every statement text of a log's QUERY events other than BEGIN/COMMIT, in order. */
    static List<String> statements(Path log) {
        List<String> out = new ArrayList<>();
        try (TransactionReader r = TransactionReader.open(log)) {
            for (BinlogTransaction t; (t = r.next()) != null; ) {
                for (BinlogEvent e : t.events()) {
                    if (e instanceof QueryEvent q && !q.isBegin() && !q.isCommit()) {
                        out.add(q.sql());
                    }
                }
            }
        }
        return out;
    }

    /** The binlog files a server wrote after {@code FLUSH BINARY LOGS}, copied (the server is closed by the caller). */
    static List<Path> binlogsAfterFirst(MariaDbServer server, Path dir) throws IOException {
        server.sql("FLUSH BINARY LOGS");
        List<Path> files = server.binlogFiles();
        List<Path> out = new ArrayList<>();
        for (Path p : files.subList(1, files.size())) {
            Path copy = dir.resolve(p.getFileName());
            Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING);
            out.add(copy);
        }
        return out;
    }

    /** The outcome of running a pipeline to the end of its files. */
    record Run(LanesStats stats, LanesException failure) {
        LanesException failed() {
            assertNotNull(failure, "the pipeline should have failed; it applied " + stats);
            return failure;
        }

        LanesStats ok() {
            if (failure != null) {
                throw new AssertionError("the pipeline failed: " + failure.getMessage(), failure);
            }
            return stats;
        }
    }

    /** Runs the pipeline to the end of its files (or its failure) and stops it. */
    static Run run(LanesBuilder builder) throws InterruptedException {
        Lanes lanes = builder.build();
        LanesException failure = null;
        LanesStats stats;
        try {
            lanes.start();
            lanes.awaitCaughtUp(Duration.ofMinutes(5));
        } catch (LanesException e) {
            failure = e;
        } finally {
            try {
                stats = lanes.stop();
            } catch (LanesException e) {
                failure = failure == null ? e : failure;
                stats = lanes.stats();
            }
        }
        return new Run(stats, failure);
    }

    /** The builder for a test target: its URL and user. */
    static LanesBuilder to(TestTarget target, String url, String checkpointSchema) {
        LanesBuilder b = Lanes.builder().target(url).checkpointTable(checkpointSchema, "lanes_checkpoint");
        switch (target.dialect().kind()) {
            case MYSQL -> b.targetUser("root");
            case POSTGRESQL -> b.targetUser("postgres");
            case H2 -> {
                // embedded, no user
            }
        }
        return b;
    }

    /** Runs one query and returns its rows, columns joined by '|'. */
    static List<String> query(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
        return out;
    }
}
