package io.lanes.applier.testing;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * A child process for memory tests: applies binlog files into a target with the shipped settings, in whatever heap its
 * JVM was given. Prints {@code DONE large=N spilled=N} and exits 0 once caught up; exits 1 when the apply failed or did not
 * finish (run it with {@code -XX:+ExitOnOutOfMemoryError}, so that running out of heap ends it at once).
 *
 * <p>Arguments: url user checkpointSchema spillDirectory binlog...
 */
public final class SmallHeapApplyMain {
    private SmallHeapApplyMain() {
    }

    public static void main(String[] args) throws Exception {
        List<Path> files = Arrays.stream(args).skip(4).map(Path::of).toList();
        LanesStats stats;
        try (Lanes lanes = Lanes.builder().source(files).target(args[0]).targetUser(args[1].equals("-") ? null : args[1])
                .pipeline("heap").checkpointTable(args[2], "lanes_checkpoint").spillDirectory(Path.of(args[3]))
                .build()) {
            lanes.start();
            if (!lanes.awaitCaughtUp(Duration.ofMinutes(5))) {
                System.out.println("NOT CAUGHT UP " + lanes.stats());
                System.exit(1);
            }
            lanes.stop();
            stats = lanes.stats();
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.exit(1);
            return;
        }
        System.out.println("DONE large=" + stats.largeTransactions() + " spilled=" + stats.spilledTransactions()
                + " max heap="
                + Runtime.getRuntime().maxMemory());
        System.exit(0);
    }
}
