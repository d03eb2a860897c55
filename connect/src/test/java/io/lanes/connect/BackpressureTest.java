package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.connect.testing.Tables;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;

/**
 * Backpressure on a real PostgreSQL: while another session holds a lock on the target table, the task's put() keeps
 * returning at once, pauses the partition once its queue passes lanes.buffer.transactions, and resumes it once the
 * queue, drained after the lock is released, is at half; every transaction is then applied once.
 */
class BackpressureTest {
    static final String PG = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    static final Schema ROW = SchemaBuilder.struct().name("s.t.Value").optional().field("id", Schema.INT32_SCHEMA).build();
    static final Schema SOURCE = SchemaBuilder.struct().name("source").field("db", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA).field("file", Schema.STRING_SCHEMA).field("pos", Schema.INT64_SCHEMA)
            .field("row", Schema.INT32_SCHEMA).build();
    static final Schema TX = SchemaBuilder.struct().name("event.block").optional().field("id", Schema.STRING_SCHEMA)
            .field("total_order", Schema.INT64_SCHEMA).field("data_collection_order", Schema.INT64_SCHEMA).build();
    static final Schema ENVELOPE = SchemaBuilder.struct().name("s.t.Envelope").field("before", ROW).field("after", ROW)
            .field("source", SOURCE).field("op", Schema.STRING_SCHEMA).field("transaction", TX).build();
    static final Schema END = SchemaBuilder.struct().name("io.debezium.connector.common.TransactionMetadataValue")
            .field("status", Schema.STRING_SCHEMA).field("id", Schema.STRING_SCHEMA)
            .field("event_count", Schema.OPTIONAL_INT64_SCHEMA).build();

    /** Records what the task asks of Connect; the consumer itself is not needed to observe pause and resume. */
    static final class Context implements SinkTaskContext {
        final Set<TopicPartition> paused = new HashSet<>();
        final List<String> calls = new ArrayList<>();

        @Override
        public Map<String, String> configs() {
            return Map.of();
        }

        @Override
        public void offset(Map<TopicPartition, Long> offsets) {
        }

        @Override
        public void offset(TopicPartition tp, long offset) {
        }

        @Override
        public void timeout(long timeoutMs) {
        }

        @Override
        public Set<TopicPartition> assignment() {
            return Set.of();
        }

        @Override
        public void pause(TopicPartition... partitions) {
            paused.addAll(List.of(partitions));
            calls.add("pause");
        }

        @Override
        public void resume(TopicPartition... partitions) {
            List.of(partitions).forEach(paused::remove);
            calls.add("resume");
        }

        @Override
        public void requestCommit() {
        }

        @Override
        public ErrantRecordReporter errantRecordReporter() {
            return null;
        }

        @Override
        public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
            return null;
        }
    }

    @Test
    void aBlockedTargetPausesThePartitionAndPutNeverWaits() throws Exception {
        String schema = "lc_bp_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100000;
        Tables.execute(PG, List.of("CREATE SCHEMA " + schema, "CREATE TABLE " + schema + ".t (id INT PRIMARY KEY)"));
        TopicPartition tp = new TopicPartition("bp", 0);
        Context context = new Context();
        LanesSinkTask task = new LanesSinkTask();
        task.initialize(context);
        Map<String, String> props = new HashMap<>();
        props.put("name", "bp-" + schema);
        props.put(LanesSinkConfig.TARGET_URL, PG);
        props.put(LanesSinkConfig.CHECKPOINT_SCHEMA, schema + "_ck");
        props.put(LanesSinkConfig.BUFFER_TRANSACTIONS, "10");
        try (Connection blocker = DriverManager.getConnection(PG)) {
            task.start(props);
            task.open(List.of(tp));
            blocker.setAutoCommit(false);
            try (Statement s = blocker.createStatement()) {
                s.execute("LOCK TABLE " + schema + ".t IN ACCESS EXCLUSIVE MODE");
            }
            long offset = 0;
            for (int txn = 1; txn <= 60; txn++) {
                List<SinkRecord> batch = new ArrayList<>();
                Struct source = new Struct(SOURCE).put("db", schema).put("table", "t").put("file", "bin.000001")
                        .put("pos", 1000L + txn).put("row", 0);
                Struct v = new Struct(ENVELOPE).put("after", new Struct(ROW).put("id", txn)).put("source", source).put("op", "c")
                        .put("transaction", new Struct(TX).put("id", "g" + txn).put("total_order", 1L).put("data_collection_order", 1L));
                batch.add(new SinkRecord("bp", 0, null, null, ENVELOPE, v, offset++));
                batch.add(new SinkRecord("bp", 0, null, null, END,
                        new Struct(END).put("status", "END").put("id", "g" + txn).put("event_count", 1L), offset++));
                long t0 = System.nanoTime();
                task.put(batch);
                assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "put() must not wait for the blocked target");
            }
            assertTrue(context.paused.contains(tp), "the partition is paused while its queue is over budget: " + context.calls);
            blocker.rollback(); // the target is free again
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (context.paused.contains(tp) && System.nanoTime() < deadline) {
                task.put(List.of()); // Connect calls put() on every poll, with nothing while the partition is paused
                Thread.sleep(50);
            }
            assertEquals(List.of("pause", "resume"), context.calls);
            deadline = System.nanoTime() + 30_000_000_000L;
            while (Tables.count(PG, "SELECT COUNT(*) FROM " + schema + ".t") < 60 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(60, Tables.count(PG, "SELECT COUNT(*) FROM " + schema + ".t"));
            Collection<TopicPartition> all = List.of(tp);
            task.close(all);
            task.stop();
        } finally {
            Tables.execute(PG, List.of("DROP SCHEMA IF EXISTS " + schema + " CASCADE",
                    "DROP SCHEMA IF EXISTS " + schema + "_ck CASCADE"));
        }
    }
}
