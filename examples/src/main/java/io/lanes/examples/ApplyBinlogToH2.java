package io.lanes.examples;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesStats;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Example 1: apply a binlog file into an embedded H2 database with the builder API.
 *
 * <pre>
 * java -cp examples/target/lanes.jar io.lanes.examples.ApplyBinlogToH2 mysql-bin.000001 ./replica
 * </pre>
 *
 * Running it again on the same database resumes after the checkpoint stored there: nothing is applied twice.
 */
public final class ApplyBinlogToH2 {
    private ApplyBinlogToH2() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: ApplyBinlogToH2 BINLOG_FILE H2_DATABASE_PATH");
            System.exit(2);
        }
        LanesStats stats = apply(Path.of(args[0]), "jdbc:h2:" + Path.of(args[1]).toAbsolutePath());
        System.out.printf("%d transactions, %d rows in %.2f s%n", stats.transactions(), stats.rows(), stats.seconds());
    }

    /** Applies every transaction of {@code binlog} not yet in the target; returns the final statistics. */
    public static LanesStats apply(Path binlog, String h2Url) throws Exception {
        try (Lanes lanes = Lanes.builder()
                .source(binlog)                 // plain or .gz
                .target(h2Url)                  // H2 gets its MySQL mode, so the log's DDL runs
                .scheduler("writeset")          // rows, not schemas, decide what runs in parallel
                .workers(4)
                .build()) {
            lanes.start();                      // reads the checkpoint, starts the workers
            if (!lanes.awaitCaughtUp(Duration.ofMinutes(10))) {
                throw new IllegalStateException("not caught up after 10 minutes: " + lanes.stats());
            }
            return lanes.stop();                // drains, saves the final checkpoint
        }
    }
}
