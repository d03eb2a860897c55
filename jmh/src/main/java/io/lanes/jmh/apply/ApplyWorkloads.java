package io.lanes.jmh.apply;

import io.lanes.applier.TableMetadata;
import io.lanes.applier.TableRef;
import io.lanes.applier.TableShape;
import io.lanes.binlog.encode.BinlogFlavor;
import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.testkit.Workloads;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * The apply suites' workloads as real binlog files, written deterministically by the binlog encoder (seeded), plus the
 * real sysbench fixture. Files are written once per JVM into a temporary directory and reused.
 *
 * <p>Thread contract: called from JMH setup methods (one thread); not meant for concurrent use.
 */
public final class ApplyWorkloads {
    /** Seed of every generated workload: the figures are reproducible run to run. */
    public static final long SEED = 0L;
    /** Rows per sbtest table: small enough that the prepare inserts are a small part of each run. */
    public static final int ROWS = 1000;
    /** The Zipf exponent under which db1 of 10 schemas takes half of the transactions (1 / H(10, 1.5) = 0.501). */
    public static final double HALF_ON_ONE_SCHEMA = 1.5;
    /** Fixture: the seed MTS workload scaled down, recorded from MariaDB 10.11 (see PROVENANCE.md). */
    public static final String SYSBENCH_FIXTURE = "binlogs/mariadb-10.11/sysbench-10schemas-update-index.000001.gz";
    /**
     * Recorded fixtures by workload name: besides the seed MTS one, seed 003's one schema written by 4 sysbench sessions
     * on a real MariaDB 10.11 source (scripts/fixtures/record-one-schema-sessions.sh), not durable (commit groups of
     * mean size 1.05, as the server grouped them) and durable (1.44).
     */
    static final java.util.Map<String, String> FIXTURES = java.util.Map.of(
            "sysbenchFixture", SYSBENCH_FIXTURE,
            "oneSchema4SessionsFixture", "binlogs/mariadb-10.11/sysbench-1schema-4sessions-update-index.000001.gz",
            "oneSchema4SessionsDurableFixture",
            "binlogs/mariadb-10.11/sysbench-1schema-4sessions-update-index-durable.000001.gz");

    private ApplyWorkloads() {
    }

    /**
     * The binlog file of {@code workload} with {@code transactions} workload transactions (the schema and row preparation
     * come first in the same file). Workloads: uniform10, skewed, oneSchemaLowConcurrency (4 source sessions;
     * {@code oneSchemaLowConcurrency-N}: N sessions), fkHeavy; recorded: sysbenchFixture, oneSchema4SessionsFixture,
     * oneSchema4SessionsDurableFixture ({@code transactions} does not apply).
     */
    public static synchronized Path file(String workload, int transactions) throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "lanes-jmh-apply-" + ProcessHandle.current().pid());
        Files.createDirectories(dir);
        dir.toFile().deleteOnExit();
        String fixture = FIXTURES.get(workload);
        if (fixture != null) {
            Path f = dir.resolve(Path.of(fixture).getFileName().toString());
            if (!Files.exists(f)) {
                Path repoCopy = findFixture(fixture);
                if (repoCopy != null) {
                    Files.copy(repoCopy, f, StandardCopyOption.REPLACE_EXISTING);
                } else {
                    try (InputStream in = ApplyWorkloads.class.getClassLoader().getResourceAsStream(fixture)) {
                        if (in == null) {
                            throw new IOException("fixture " + fixture + " neither in the repository nor on the"
                                    + " class path; run from the repository root or set lanes.repo");
                        }
                        Files.copy(in, f, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                f.toFile().deleteOnExit();
            }
            return f;
        }
        Path f = dir.resolve(workload + "-" + transactions + ".000001");
        if (Files.exists(f)) {
            return f;
        }
        int sessions = oneSchemaSessions(workload);
        BinlogFlavor flavor = sessions > 0 ? BinlogFlavor.MYSQL8 : BinlogFlavor.MARIADB;
        try (BinlogWriter w = BinlogWriter.open(f, BinlogWriter.Options.builder(flavor).build())) {
            switch (workload) {
                case "uniform10" -> Workloads.uniformSchemas(w, 10, ROWS, transactions, SEED);
                case "skewed" -> Workloads.skewedSchemas(w, 10, ROWS, transactions, HALF_ON_ONE_SCHEMA, SEED);
                case "fkHeavy" -> Workloads.foreignKeys(w, transactions, SEED);
                default -> {
                    if (sessions == 0) {
                        throw new IllegalArgumentException("unknown workload " + workload);
                    }
                    Workloads.logicalClock(w, sessions, ROWS, transactions, SEED);
                }
            }
            w.stop();
        }
        f.toFile().deleteOnExit();
        return f;
    }

    /**
     * Source sessions of a one-schema workload: {@code oneSchemaLowConcurrency} is 4 (commit groups of 1..4
     * transactions), {@code oneSchemaLowConcurrency-N} is N (1..64); 0 for any other workload.
     */
    static int oneSchemaSessions(String workload) {
        if (workload.equals("oneSchemaLowConcurrency")) {
            return 4;
        }
        if (workload.startsWith("oneSchemaLowConcurrency-")) {
            return Integer.parseInt(workload.substring("oneSchemaLowConcurrency-".length()));
        }
        return 0;
    }

    private static Path findFixture(String fixture) {
        String root = System.getProperty("lanes.repo", "");
        for (Path base : List.of(Path.of(root.isEmpty() ? "." : root), Path.of(".."))) {
            Path p = base.resolve("binlog-api/src/test/resources").resolve(fixture);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * Table shapes of the generated workloads, as the target catalog would give them: sbtest1 keyed by id in every
     * schema; the shop tables with their primary and foreign keys. Lets the writeset scheduler see row keys on the
     * sink models, which have no catalog.
     */
    public static TableMetadata metadata() {
        TableShape.Key pk = new TableShape.Key(TableShape.PRIMARY, List.of("id"));
        TableShape sbtest = new TableShape(List.of("id", "k", "c", "pad"), List.of(pk), List.of());
        TableShape customers = new TableShape(List.of("id", "name"), List.of(pk), List.of());
        TableShape orders = new TableShape(List.of("id", "customer_id", "created"), List.of(pk),
                List.of(new TableShape.ForeignKey(List.of("customer_id"), new TableRef("shop", "customers"), pk)));
        TableShape lines = new TableShape(List.of("id", "order_id", "qty", "price"), List.of(pk),
                List.of(new TableShape.ForeignKey(List.of("order_id"), new TableRef("shop", "orders"), pk)));
        Map<String, TableShape> shop = Map.of("customers", customers, "orders", orders, "order_lines", lines);
        return new TableMetadata() {
            @Override
            public TableShape shape(String targetSchema, String table) {
                if (table.equals("sbtest1")) {
                    return sbtest;
                }
                return targetSchema.equals("shop") ? shop.get(table) : null;
            }

            @Override
            public void invalidate() {
            }
        };
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e);
    }
}
