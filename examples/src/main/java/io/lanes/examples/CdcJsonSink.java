package io.lanes.examples;

import io.lanes.applier.Change;
import io.lanes.applier.Lanes;
import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.sink.TransactionSink;
import io.lanes.examples.cli.Json;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Example 3: a change-data-capture sink. Every change becomes one JSON event (operation, schema, table, before and after
 * images by column name, source position, GTID as the transaction id, commit time), and each transaction's events go
 * to a {@link Downstream} (a message broker, say) whose acknowledgement completes the delivery.
 *
 * <p>Built on the applier's {@link TransactionSink} SPI through {@code LanesBuilder.sink(sink, checkpointDirectory)}:
 * transactions arrive on worker threads in dependency order (with scheduler {@code schema}, each schema's in source
 * order), and a worker's checkpoint file is written only after the downstream acknowledged everything it covers.
 * Delivery is at-least-once: after a failed acknowledgement or a crash, unacknowledged (and acknowledged but not yet
 * checkpointed) transactions come again, so consumers deduplicate by {@code position} + {@code index}. Column names come
 * from the binlog when it carries them (binlog_row_metadata=FULL), otherwise from the schema history (the log's own
 * CREATE/ALTER TABLE, a schema file, or a live source's information_schema; docs/schema-history.md): the servers'
 * default metadata works.
 */
public final class CdcJsonSink implements TransactionSink {
    private final Downstream downstream;

    public CdcJsonSink(Downstream downstream) {
        this.downstream = downstream;
    }

    /** Where events go. Called by worker threads concurrently; must be thread-safe. */
    @FunctionalInterface
    public interface Downstream {
        /** Publishes one transaction's JSON events in order; the future completes when they are durably accepted. */
        CompletableFuture<Void> publish(List<String> events);
    }

    /** A pipeline from binlog files to {@code downstream}, with checkpoints in {@code checkpointDir}. */
    public static Lanes pipeline(List<Path> binlogs, Downstream downstream, Path checkpointDir, int workers) {
        return Lanes.builder().source(binlogs)
                .sink(new CdcJsonSink(downstream), checkpointDir)
                .scheduler("schema").workers(workers).blockCommit(16)
                .build();
    }

    /** Called on a worker thread: turns the transaction into events and hands them over; the ack completes it. */
    @Override
    public CompletableFuture<Void> deliver(SourceTransaction t, int workerId) {
        List<String> events = new ArrayList<>();
        int index = 0;
        for (Change c : t.changes()) {
            events.add(Json.write(event(t, c, index++)));
        }
        return events.isEmpty() ? CompletableFuture.completedFuture(null) : downstream.publish(events);
    }

    /** The JSON form of one change. */
    static Map<String, Object> event(SourceTransaction t, Change c, int index) {
        Map<String, Object> e = new LinkedHashMap<>();
        if (c instanceof RowChange r) {
            e.put("op", r.kind().name().toLowerCase(java.util.Locale.ROOT));
            e.put("schema", r.table().schema());
            e.put("table", r.table().table());
            e.put("before", image(r.before()));
            e.put("after", image(r.after()));
        } else if (c instanceof SourceStatement s) {
            e.put("op", "statement");
            e.put("schema", s.defaultSchema());
            e.put("sql", s.sql());
        } else {
            e.put("op", c.getClass().getSimpleName());
        }
        e.put("transaction_id", t.gtid() != null ? t.gtid() : t.position());
        e.put("position", t.position());
        e.put("index", index);
        e.put("commit_time", t.commitTime() == null ? null : t.commitTime().toString());
        return e;
    }

    private static Map<String, Object> image(RowImage image) {
        if (image == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < image.columns().size(); i++) {
            m.put(image.columns().get(i), value(image.values()[i]));
        }
        return m;
    }

    private static Object value(Object v) {
        if (v == null || v instanceof Boolean || v instanceof BigDecimal || v instanceof Long || v instanceof Integer
                || v instanceof Short || v instanceof Byte || v instanceof java.math.BigInteger) {
            return v;
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) ? new BigDecimal(v.toString()) : v.toString();
        }
        if (v instanceof byte[] b) {
            return "base64:" + Base64.getEncoder().encodeToString(b);
        }
        return v.toString();
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: CdcJsonSink CHECKPOINT_DIR BINLOG_FILE...");
            System.exit(2);
        }
        List<Path> files = Stream.of(args).skip(1).map(Path::of).toList();
        Downstream stdout = events -> {
            synchronized (System.out) {
                events.forEach(System.out::println);
                System.out.flush();
            }
            return CompletableFuture.completedFuture(null);
        };
        try (Lanes lanes = pipeline(files, stdout, Path.of(args[0]), 4)) {
            lanes.start();
            lanes.awaitCaughtUp(Duration.ofDays(1));
        }
    }
}
