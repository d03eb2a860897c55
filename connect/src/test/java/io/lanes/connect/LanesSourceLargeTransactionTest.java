package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.testing.MariaDbServer;
import io.lanes.binlog.testing.SpillFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source task hands a large transaction to Connect a poll's worth at a time, converted as it goes, with its row
 * images beyond the spill threshold in a temporary file meanwhile: a live MariaDB (its default settings, with a binary
 * log) logs a 30,000-row INSERT and a 10,000-row UPDATE between small transactions, and the task, driven as
 * Connect drives it, returns every record in order, no poll more than 2,000, each transaction's records but the last
 * with the offset before it, one Kafka transaction boundary per binlog transaction at its last record, and no spill
 * file left open; a transaction converted whole carries its write keys on its first record only. Before, the task
 * converted each transaction whole and put the transaction's write keys on every record: the 30,000-row INSERT's
 * records ran the test's 2 GiB heap out.
 */
class LanesSourceLargeTransactionTest {
    static MariaDbServer source;

    @BeforeAll
    static void server() {
        source = MariaDbServer.startWithBinlog();
    }

    @AfterAll
    static void stop() {
        if (source != null) {
            source.close();
        }
    }

    /** Connect's side of the task, as a worker with exactly-once source support would give it. */
    static final class Context implements SourceTaskContext, TransactionContext {
        final Map<String, String> props;
        final List<SourceRecord> boundaries = new ArrayList<>();

        Context(Map<String, String> props) {
            this.props = props;
        }

        @Override
        public Map<String, String> configs() {
            return props;
        }

        @Override
        public OffsetStorageReader offsetStorageReader() {
            return new OffsetStorageReader() {
                @Override
                public <T> Map<String, Object> offset(Map<String, T> partition) {
                    return null; // a first start
                }

                @Override
                public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
                    return Map.of();
                }
            };
        }

        @Override
        public TransactionContext transactionContext() {
            return this;
        }

        @Override
        public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
            return null; // the task registers none
        }

        @Override
        public void commitTransaction() {
            throw new AssertionError("the task names the record that ends each transaction");
        }

        @Override
        public void commitTransaction(SourceRecord record) {
            boundaries.add(record);
        }

        @Override
        public void abortTransaction() {
            throw new AssertionError("nothing to abort");
        }

        @Override
        public void abortTransaction(SourceRecord record) {
            throw new AssertionError("nothing to abort");
        }
    }

    @Test
    void aLargeTransactionGoesOutAPollsWorthAtATimeThroughASpillFile(@TempDir Path spill) throws Exception {
        String db = "lst";
        source.sql("CREATE DATABASE " + db + "; CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(60) NOT NULL);"
                + " INSERT INTO " + db + ".t VALUES (-1, 'before')");
        Map<String, String> props = new HashMap<>();
        props.put(LanesSourceConfig.HOST, "127.0.0.1");
        props.put(LanesSourceConfig.PORT, Integer.toString(source.port()));
        props.put(LanesSourceConfig.USER, "root");
        props.put(LanesSourceConfig.SERVER_ID, "7311");
        props.put(LanesSourceConfig.TOPIC, "large.binlog");
        props.put(LanesSourceConfig.INCLUDE_SCHEMAS, db);
        props.put(LanesSourceConfig.LARGE_TRANSACTION_BYTES, "65536");
        props.put(LanesSourceConfig.SPILL_THRESHOLD_BYTES, "65536");
        props.put(LanesSourceConfig.SPILL_DIRECTORY, spill.toString());
        Context context = new Context(props);
        LanesSourceTask task = new LanesSourceTask();
        task.initialize(context);
        task.start(props); // at the server's current end
        try {
            source.sql("USE " + db + "; INSERT INTO " + db + ".t VALUES (0, 'small');"
                    + " INSERT INTO " + db + ".t SELECT 100000 + seq, 'mid' FROM seq_1_to_1000;"
                    + " INSERT INTO " + db + ".t SELECT seq, CONCAT('row ', seq, ' ', REPEAT('x', 40)) FROM seq_1_to_30000;"
                    + " UPDATE " + db + ".t SET v = CONCAT('updated ', id) WHERE id BETWEEN 1 AND 10000;"
                    + " DELETE FROM " + db + ".t WHERE id = 0");
            List<SourceRecord> records = new ArrayList<>();
            int largestPoll = 0;
            long spillFilesOpenMidway = -1;
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (records.size() < 41_002 && System.nanoTime() < deadline) {
                List<SourceRecord> polled = task.poll();
                if (polled == null) {
                    continue;
                }
                largestPoll = Math.max(largestPoll, polled.size());
                records.addAll(polled);
                if (spillFilesOpenMidway < 0 && records.size() > 1_001 && records.size() < 31_001) {
                    spillFilesOpenMidway = SpillFiles.openIn(spill); // the INSERT's records half handed out
                }
            }
            assertEquals(41_002, records.size(), "every row change, each once");
            assertTrue(largestPoll <= 2_000, "no poll returned more than 2,000 records: " + largestPoll);
            if (SpillFiles.observable()) { // Linux: the descriptors can be looked at
                assertTrue(spillFilesOpenMidway >= 1, "the INSERT's row images waited in a spill file: "
                        + spillFilesOpenMidway);
                assertEquals(0, SpillFiles.openIn(spill), "every spill file closed once its records were handed out");
            }

            List<List<SourceRecord>> transactions = new ArrayList<>();
            for (SourceRecord r : records) {
                int index = Integer.parseInt(r.headers().lastWithName(LanesHeaders.EVENT_INDEX).value().toString());
                if (index == 1) {
                    transactions.add(new ArrayList<>());
                }
                transactions.get(transactions.size() - 1).add(r);
            }
            assertEquals(List.of(1, 1_000, 30_000, 10_000, 1), transactions.stream().map(List::size).toList());
            List<SourceRecord> mid = transactions.get(1);
            assertEquals(1_000, LanesHeaders.parseKeys(mid.get(0).headers().lastWithName(LanesHeaders.WRITE_KEYS).value()
                    .toString()).length, "the write keys of a transaction converted whole, on its first record");
            for (SourceRecord r : mid.subList(1, mid.size())) {
                assertEquals(null, r.headers().lastWithName(LanesHeaders.WRITE_KEYS), "and on no other record");
            }
            for (SourceRecord r : transactions.get(2)) {
                assertEquals(null, r.headers().lastWithName(LanesHeaders.WRITE_KEYS), "none for one converted as it "
                        + "is handed out (it runs alone)");
            }
            String before = null;
            for (List<SourceRecord> txn : transactions) {
                SourceRecord last = txn.get(txn.size() - 1);
                String end = last.sourceOffset().get("position").toString();
                for (int i = 0; i < txn.size(); i++) {
                    SourceRecord r = txn.get(i);
                    assertEquals(Integer.toString(i + 1), r.headers().lastWithName(LanesHeaders.EVENT_INDEX).value());
                    assertEquals(Integer.toString(txn.size()), r.headers().lastWithName(LanesHeaders.EVENT_COUNT).value());
                    if (i < txn.size() - 1 && before != null) {
                        assertEquals(before, r.sourceOffset().get("position"), "a record but the last: the offset "
                                + "before its transaction");
                    }
                }
                before = end;
            }
            List<SourceRecord> insert = transactions.get(2);
            for (int i = 0; i < insert.size(); i++) {
                Struct after = ((Struct) insert.get(i).value()).getStruct("after");
                assertEquals(i + 1, after.getInt32("id"), "the INSERT's rows in order");
                assertEquals("row " + (i + 1) + " " + "x".repeat(40), after.getString("v"));
            }
            Struct firstUpdate = (Struct) transactions.get(3).get(0).value();
            assertEquals("u", firstUpdate.getString("op"));
            assertEquals("updated 1", firstUpdate.getStruct("after").getString("v"));
            List<SourceRecord> lasts = transactions.stream().map(t -> t.get(t.size() - 1)).toList();
            assertEquals(lasts, context.boundaries, "one Kafka transaction per binlog transaction, ended at its last "
                    + "record");
        } finally {
            task.stop();
        }
    }
}
