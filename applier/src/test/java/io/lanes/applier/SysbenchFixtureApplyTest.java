package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.applier.testing.TestTarget;
import io.lanes.core.LogicalClockScheduler;
import io.lanes.core.PartitionScheduler;
import io.lanes.core.Scheduler;
import io.lanes.core.SequentialScheduler;
import io.lanes.core.WritesetScheduler;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sysbench fixture (10 schemas, binlog_row_metadata=MINIMAL so column names come from the target's catalog, group
 * commit ids) applied into each target must end in the source's per-schema row count, SUM(k) and
 * SUM(CRC32(CONCAT_WS('|',id,k,c,pad))) from expected.tsv, whatever the scheduler and worker count. CI runs a bounded
 * matrix; {@code -Dlanes.long=true} runs every scheduler with workers {0, 1, 4, 16, 64} on every target.
 */
class SysbenchFixtureApplyTest {
    static final String FIXTURE = "/binlogs/mariadb-10.11/sysbench-10schemas-update-index.000001.gz";
    static final String EXPECTED = "/binlogs/mariadb-10.11/sysbench-10schemas-update-index.expected.tsv";

    @TempDir
    Path temp;

    record Config(String scheduler, int workers) {
        Scheduler newScheduler() {
            Supplier<Scheduler> s = switch (scheduler) {
                case "sequential" -> SequentialScheduler::new;
                case "schema" -> PartitionScheduler::new;
                case "logical-clock" -> LogicalClockScheduler::new;
                case "writeset" -> WritesetScheduler::new;
                default -> throw new IllegalArgumentException(scheduler);
            };
            return s.get();
        }
    }

    static Stream<Arguments> matrix() {
        boolean full = Boolean.getBoolean("lanes.long");
        List<Arguments> out = new ArrayList<>();
        for (String kind : List.of("H2", "POSTGRESQL", "MYSQL")) {
            List<Config> configs = new ArrayList<>();
            if (full) {
                for (String s : List.of("sequential", "schema", "logical-clock", "writeset")) {
                    for (int w : new int[] {0, 1, 4, 16, 64}) {
                        configs.add(new Config(s, w));
                    }
                }
            } else if (kind.equals("H2")) {
                configs.addAll(List.of(new Config("sequential", 1), new Config("schema", 4), new Config("logical-clock", 16),
                        new Config("writeset", 0), new Config("writeset", 64)));
            } else {
                configs.add(kind.equals("POSTGRESQL") ? new Config("writeset", 4) : new Config("logical-clock", 16));
            }
            for (Config c : configs) {
                out.add(Arguments.of(kind, c));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("matrix")
    void sysbenchFixtureEndsInTheSourcesChecksums(String kind, Config config) throws Exception {
        try (TestTarget target = switch (kind) {
            case "H2" -> TestTarget.h2();
            case "POSTGRESQL" -> TestTarget.postgres();
            default -> TestTarget.mariadb();
        }) {
            Dialect d = target.dialect();
            SchemaMapping.Builder mapping = SchemaMapping.builder();
            String prefix = "lt" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime() & 0xffffff) + "_";
            for (int i = 1; i <= 10; i++) {
                mapping.rename("db" + i, prefix + "db" + i);
                target.dropOnClose(prefix + "db" + i);
            }
            String ckpt = target.newSchema("ckpt");
            Path binlog = temp.resolve("sysbench-10schemas-update-index.000001.gz");
            try (InputStream in = getClass().getResourceAsStream(FIXTURE)) {
                assertNotNull(in, FIXTURE);
                Files.copy(in, binlog, StandardCopyOption.REPLACE_EXISTING);
            }
            JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(target.url(), FixtureApplyTest.credentials(d)), d)
                    .mapping(mapping.build()).checkpointTable(new JdbcCheckpointTable(d, ckpt, "lanes_checkpoint")).build();
            FixtureApplyTest.apply(jdbc, binlog, config.newScheduler(), config.workers());

            TreeMap<String, String> expected = new TreeMap<>();
            try (InputStream in = getClass().getResourceAsStream(EXPECTED)) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    if (!line.isBlank()) {
                        String[] f = line.split("\t");
                        expected.put(f[0], f[1] + " " + f[2] + " " + f[3]);
                    }
                }
            }
            TreeMap<String, String> actual = new TreeMap<>();
            try (Connection c = target.session(); Statement s = c.createStatement()) {
                for (int i = 1; i <= 10; i++) {
                    long rows = 0;
                    long sumK = 0;
                    long sumCrc = 0;
                    try (ResultSet rs = s.executeQuery("SELECT id, k, c, pad FROM " + d.qualify(prefix + "db" + i, "sbtest1"))) {
                        while (rs.next()) {
                            rows++;
                            sumK += rs.getLong(2);
                            CRC32 crc = new CRC32();
                            crc.update((rs.getLong(1) + "|" + rs.getLong(2) + "|" + rs.getString(3) + "|" + rs.getString(4))
                                    .getBytes(StandardCharsets.UTF_8));
                            sumCrc += crc.getValue();
                        }
                    }
                    actual.put("db" + i, rows + " " + sumK + " " + sumCrc);
                }
            }
            assertEquals(expected, actual);
        }
    }
}
