package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.lanes.binlog.encode.BinlogFlavor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Hostile input, bounded and reproducible: mutations of real fixtures and of synthesized logs of every column type
 * ({@link FuzzHarness#mutate}: bit flips, extreme integers in bodies, absurd event lengths, truncation, spliced, duplicated
 * and dropped events, changed type bytes; checksums recomputed half of the time) are read through every decoding path
 * with checksum verification on and off. Only {@link BinlogFormatException} may come out: any other exception, a hang or
 * an out-of-memory fails the test, naming the seed and saving the input under {@code target/fuzz-failures}.
 *
 * <p>Runs about 20 seconds; with {@code -Dlanes.long=true} ten minutes (or {@code -Dlanes.fuzz.seconds=N}).
 */
class FuzzMutationTest {
    private static final String[] FIXTURES = {
        "mariadb-10.11/types-full-metadata.000001", "rust_mysql_common/mysql-enum-string-set.000001",
        "mysql-binlog-connector-java/mysql-bin.checksum-crc32", "mysql-binlog-connector-java/mysql-bin.checksum-none",
        "mysql-binlog-connector-java/mysql-bin.compressed", "rust_mysql_common/transaction_compression.000001",
        "rust_mysql_common/json.binlog.000001", "rust_mysql_common/json-opaque.binlog", "rust_mysql_common/vector.binlog",
        "rust_mysql_common/mariadb-bin.000001", "rust_mysql_common/binlog_transaction_with_GTID_TAG.000001",
        "rust_mysql_common/binlog-invisible-columns.000001", "rust_mysql_common/mysql_type_bit.000001",
        "rust_mysql_common/time_issue.000001", "go-mysql/tcb-eval002c-bin.003320", "rust-mysql-binlog/bin-log.000001",
        "mysql-binlog-connector-java/mysql-bin.aurora-padding", "mariadb-poc/domain_id_0/mariadb-repl-bin.000009",
    };

    @Test
    void mutatedLogsOnlyRaiseBinlogFormatException() {
        long seconds = Long.getLong("lanes.fuzz.seconds", Boolean.getBoolean("lanes.long") ? 600 : 20);
        List<byte[]> sources = new ArrayList<>();
        for (String f : FIXTURES) {
            byte[] b = FixtureSupport.bytes(FixtureSupport.path(f));
            // keep big files' first events only: the mutations need variety, not volume
            sources.add(b.length > 64 * 1024 ? java.util.Arrays.copyOf(b, 64 * 1024) : b);
        }
        for (long seed = 1; seed <= 4; seed++) {
            sources.add(FuzzHarness.synthesized(BinlogFlavor.MYSQL8, seed));
            sources.add(FuzzHarness.synthesized(BinlogFlavor.MARIADB, seed));
        }
        AtomicLong current = new AtomicLong(-1);
        AtomicLong inputs = new AtomicLong();
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(seconds + 60), () -> {
                for (long seed = 0; System.nanoTime() < deadline; seed++) {
                    current.set(seed);
                    Random r = new Random(seed);
                    byte[] base = sources.get(r.nextInt(sources.size()));
                    byte[] other = sources.get(r.nextInt(sources.size()));
                    byte[] input = FuzzHarness.mutate(base, other, r);
                    boolean verify = r.nextBoolean();
                    try {
                        FuzzHarness.consume(input, verify);
                    } catch (Throwable t) {
                        Path saved = save(seed, input);
                        throw new AssertionError("seed " + seed + " (verify checksums " + verify + ", input saved to "
                                + saved + "): " + t, t);
                    }
                    inputs.incrementAndGet();
                }
            }, () -> "hang: seed " + current.get() + " did not finish");
        } catch (OutOfMemoryError e) {
            fail("out of memory on seed " + current.get(), e);
        }
        assertTrue(inputs.get() > 100, "only " + inputs.get() + " inputs in " + seconds + " s");
    }

    /** Inputs that once broke the decoder (found by this test or by Jazzer), kept as regressions. */
    @Test
    void knownCrashersStayFixed() throws IOException {
        Path dir = Path.of("src/test/resources/fuzz-regressions");
        try (var files = Files.list(dir)) {
            List<Path> inputs = files.sorted().toList();
            assertTrue(!inputs.isEmpty(), "regression inputs in " + dir);
            for (Path p : inputs) {
                byte[] input = Files.readAllBytes(p);
                for (boolean verify : new boolean[] {true, false}) {
                    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> FuzzHarness.consume(input, verify),
                            p.toString());
                }
            }
        }
    }

    private static Path save(long seed, byte[] input) {
        try {
            Path dir = Files.createDirectories(Path.of("target/fuzz-failures"));
            return Files.write(dir.resolve("mutation-seed-" + seed + ".bin"), input);
        } catch (IOException e) {
            return null;
        }
    }
}
