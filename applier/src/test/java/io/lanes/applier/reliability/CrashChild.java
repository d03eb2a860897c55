package io.lanes.applier.reliability;

import io.lanes.applier.BinlogBridge;
import io.lanes.applier.TestDispatch;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.CatalogTableMetadata;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.binlog.TransactionReader;
import io.lanes.core.Engine;
import io.lanes.core.LogicalClockScheduler;
import io.lanes.core.PartitionScheduler;
import io.lanes.core.RecoveryPoint;
import io.lanes.core.Scheduler;
import io.lanes.core.SequentialScheduler;
import io.lanes.core.WritesetScheduler;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Test-only main run by {@link CrashHarnessTest} in a child JVM: applies a binlog file into a JDBC target through
 * bridge, engine (several workers, block commit, frequent checkpoints) and JDBC applier, resuming from the target's
 * checkpoint, until the input ends. The parent kills it with SIGKILL at random moments and starts it again.
 *
 * <p>Arguments are {@code key=value}: {@code url}, {@code user} (optional), {@code binlog}, {@code mapping}
 * ({@code src=target,...}), {@code ckpt} (checkpoint schema), {@code scheduler}, {@code workers}, {@code batch}.
 *
 * <p>Protocol on stdout (the parent reads it): {@code READY <lowWaterMark> <nextSequence>} once the recovery point is
 * known, {@code LWM <n>} every few milliseconds while applying, {@code DONE <submitted> <lowWaterMark>} at the end; exit
 * status 0 only after a complete apply. Failures go to stderr with exit status 2.
 */
public final class CrashChild {
    private CrashChild() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        try {
            run(a, out);
            out.flush();
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace();
            System.err.flush();
            System.exit(2);
        }
    }

    static void run(Map<String, String> a, PrintStream out) throws Exception {
        String url = a.get("url");
        Dialect d = Dialect.forJdbcUrl(url);
        Properties props = new Properties();
        if (a.containsKey("user")) {
            props.setProperty("user", a.get("user"));
        }
        d.recommendedConnectionProperties().forEach(props::setProperty);
        SchemaMapping.Builder mapping = SchemaMapping.builder();
        for (String pair : a.get("mapping").split(",")) {
            String[] kv = pair.split("=");
            mapping.rename(kv[0], kv[1]);
        }
        JdbcTarget jdbc = JdbcTarget.builder(ConnectionFactory.of(url, props), d).mapping(mapping.build())
                .checkpointTable(new JdbcCheckpointTable(d, a.get("ckpt"), "lanes_checkpoint")).pipeline("crash").build();
        Scheduler scheduler = switch (a.getOrDefault("scheduler", "writeset")) {
            case "sequential" -> new SequentialScheduler();
            case "schema" -> new PartitionScheduler();
            case "logical-clock" -> new LogicalClockScheduler();
            case "writeset" -> new WritesetScheduler();
            default -> throw new IllegalArgumentException(a.get("scheduler"));
        };
        Engine<SourceTransaction> engine = Engine.builder(jdbc.applierFactory()).checkpointStore(jdbc.checkpointStore())
                .scheduler(scheduler).workers(Integer.parseInt(a.getOrDefault("workers", "4")))
                .blockCommit(Integer.parseInt(a.getOrDefault("batch", "16")))
                .checkpointPeriod(Duration.ofMillis(20)).checkpointGroupSize(64)
                .retries(3).retryBackoff(Duration.ofMillis(5), Duration.ofMillis(50)).build();
        try (CatalogTableMetadata metadata = new CatalogTableMetadata(jdbc.connections(), jdbc.catalog());
                TransactionReader reader = TransactionReader.open(Path.of(a.get("binlog")))) {
            RecoveryPoint from = engine.start();
            out.println("READY " + from.lowWaterMark() + " " + from.nextSequence());
            Thread progress = new Thread(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        out.println("LWM " + engine.lowWaterMark());
                        Thread.sleep(3);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "crash-child-progress");
            progress.setDaemon(true);
            progress.start();
            TestDispatch dispatcher = new TestDispatch(engine, new BinlogBridge(jdbc.mapping(), metadata));
            dispatcher.run(reader, from);
            engine.stop();
            progress.interrupt();
            progress.join();
            out.println("DONE " + dispatcher.submitted() + " " + engine.lowWaterMark());
        }
    }
}
