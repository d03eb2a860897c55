package io.lanes.connect.internal;

import io.lanes.applier.Change;
import io.lanes.applier.RowChange;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.connect.LanesHeaders;
import io.lanes.connect.LanesSourceConfig;
import io.lanes.connect.SchemaGroups;
import io.lanes.core.LogicalClock;
import io.lanes.core.Transaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Builds the Lanes source's records: one Debezium-compatible envelope per row change ({@code before}, {@code after},
 * {@code source} with file/pos/gtid, {@code op}, {@code ts_ms}, {@code transaction} with id, total_order and
 * data_collection_order), one schema-change record per statement ({@code databaseName}, {@code ddl}), each with the
 * {@link LanesHeaders}; every record of a transaction goes to its schema group's partition. Not thread-safe.
 */
public final class SourceRecords {
    private static final Set<String> SYSTEM_SCHEMAS = Set.of("mysql", "information_schema", "performance_schema", "sys");
    private static final Schema SOURCE = SchemaBuilder.struct().name("io.lanes.connect.Source")
            .field("version", Schema.STRING_SCHEMA).field("connector", Schema.STRING_SCHEMA).field("name", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA).field("snapshot", Schema.OPTIONAL_STRING_SCHEMA)
            .field("db", Schema.STRING_SCHEMA).field("table", Schema.OPTIONAL_STRING_SCHEMA)
            .field("server_id", Schema.INT64_SCHEMA).field("gtid", Schema.OPTIONAL_STRING_SCHEMA)
            .field("file", Schema.STRING_SCHEMA).field("pos", Schema.INT64_SCHEMA).field("row", Schema.INT32_SCHEMA).build();
    private static final Schema TRANSACTION = SchemaBuilder.struct().name("event.block").optional()
            .field("id", Schema.STRING_SCHEMA).field("total_order", Schema.INT64_SCHEMA)
            .field("data_collection_order", Schema.INT64_SCHEMA).build();
    private static final Schema SCHEMA_CHANGE = SchemaBuilder.struct().name("io.lanes.connect.SchemaChangeValue")
            .field("source", SOURCE).field("ts_ms", Schema.INT64_SCHEMA).field("databaseName", Schema.OPTIONAL_STRING_SCHEMA)
            .field("ddl", Schema.STRING_SCHEMA).build();

    private final LanesSourceConfig config;
    private final Map<String, String> partition;
    private final SchemaGroups groups;
    private final SourceTableSchemas tables;
    private final Map<Schema, Schema> envelopes = new HashMap<>();
    private final List<String> schemas;

    public SourceRecords(LanesSourceConfig config, Map<String, String> partition) {
        this.config = config;
        this.partition = partition;
        this.groups = config.groups();
        this.tables = new SourceTableSchemas(config.prefix());
        this.schemas = config.schemas();
    }

    public void invalidate() {
        tables.invalidate();
    }

    private boolean included(String schema) {
        return schemas.isEmpty() ? schema != null && !SYSTEM_SCHEMAS.contains(schema) : schemas.contains(schema);
    }

    /**
     * Starts handing out the transaction's records, a chunk at a time: for a transaction converted as its changes are
     * iterated ({@link SourceTransaction#convertedAsIterated()}, a large one) only the records of a chunk are in memory.
     * Null when none of its changes is emitted (a table outside the schemas, an empty transaction).
     *
     * @param before the position before it (the offset of all its records but the last), null on a first start
     * @throws DataException when it writes schemas of different groups (it would be split across partitions)
     */
    public Emission begin(Transaction<SourceTransaction> txn, long sequence, String before, Connection catalog) {
        SourceTransaction t = txn.payload();
        long count = 0;
        int partitionNo = -1;
        String firstSchema = null;
        if (t.convertedAsIterated()) {
            // Counted from the row events; converting the rows only to count them would convert them twice.
            for (Map.Entry<String, Long> e : t.rowCountBySchema().entrySet()) {
                if (included(e.getKey())) {
                    partitionNo = checkGroup(t, partitionNo, firstSchema, e.getKey());
                    firstSchema = e.getKey();
                    count += e.getValue();
                }
            }
        } else {
            for (Change c : t.changes()) {
                String s = schemaOf(c);
                if (included(s)) {
                    partitionNo = checkGroup(t, partitionNo, firstSchema, s);
                    firstSchema = s;
                    count++;
                }
            }
        }
        if (count == 0) {
            return null;
        }
        if (count > Integer.MAX_VALUE) {
            throw new DataException("the transaction ending at " + t.position() + " has " + count + " changes, more"
                    + " than its records can number");
        }
        return new Emission(txn, sequence, before, catalog, partitionNo, (int) count);
    }

    private int checkGroup(SourceTransaction t, int partitionNo, String firstSchema, String schema) {
        int p = groups.partitionOf(schema == null ? "" : schema);
        if (partitionNo >= 0 && p != partitionNo) {
            throw new DataException("the transaction ending at " + t.position() + " writes schemas " + firstSchema + " and "
                    + schema + " of different groups: list them in one group of " + LanesSourceConfig.GROUPS
                    + " (it would be split across partitions)");
        }
        return p;
    }

    /**
     * One transaction's records being handed out, in order. Its records but the last carry the position before the
     * transaction as their offset, so a chunk committed by Connect never moves the offset past the transaction's start.
     * Not thread-safe: the task's thread.
     */
    public final class Emission {
        private final Transaction<SourceTransaction> txn;
        private final SourceTransaction t;
        private final long sequence;
        private final String before;
        private final Connection catalog;
        private final int partitionNo;
        private final int count;
        private final SourcePosition end;
        private final long ts;
        private final String id;
        private final Map<String, Long> perTable = new HashMap<>();
        private final java.util.Iterator<Change> changes;
        private int index;
        private SourceRecord last;

        private Emission(Transaction<SourceTransaction> txn, long sequence, String before, Connection catalog,
                int partitionNo, int count) {
            this.txn = txn;
            this.t = txn.payload();
            this.sequence = sequence;
            this.before = before;
            this.catalog = catalog;
            this.partitionNo = partitionNo;
            this.count = count;
            this.end = SourcePosition.parse(t.position());
            this.ts = t.commitTime() == null ? System.currentTimeMillis() : t.commitTime().toEpochMilli();
            this.id = t.gtid() != null ? t.gtid() : end.file() + ":" + end.offset();
            this.changes = t.changes().iterator();
        }

        /** How many records the transaction has. */
        public int count() {
            return count;
        }

        /** The transaction's last record, once {@link #next} has returned true. */
        public SourceRecord last() {
            return last;
        }

        /**
         * Appends up to {@code max} more records to {@code out}.
         *
         * @return true when the transaction's last record is appended
         * @throws DataException when a table's schema cannot be read from the source's catalog
         */
        public boolean next(List<SourceRecord> out, int max) {
            int added = 0;
            while (index < count && added < max) {
                if (!changes.hasNext()) {
                    throw new IllegalStateException("the transaction ending at " + t.position() + " ran out of changes"
                            + " after " + index + " of " + count + " records");
                }
                Change c = changes.next();
                if (!included(schemaOf(c))) {
                    continue;
                }
                index++;
                SourceRecord r;
                try {
                    r = record(c);
                } catch (SQLException e) {
                    throw new DataException("cannot read the source's catalog for " + t.position() + ": "
                            + e.getMessage(), e);
                }
                if (r != null) {
                    out.add(r);
                    last = r;
                    added++;
                }
            }
            if (index < count) {
                return false;
            }
            // The count came first (for a large transaction from its row events): a change beyond it would be lost.
            while (changes.hasNext()) {
                if (included(schemaOf(changes.next()))) {
                    throw new IllegalStateException("the transaction ending at " + t.position() + " has more than the "
                            + count + " changes it was counted with");
                }
            }
            return true;
        }

        private SourceRecord record(Change c) throws SQLException {
            boolean isLast = index == count;
            Map<String, Object> offset = new HashMap<>();
            offset.put("position", isLast || before == null ? t.position() : before);
            offset.put("seq", isLast ? sequence : sequence - 1);
            ConnectHeaders headers = headers(txn, sequence, index, count);
            String schema = schemaOf(c);
            Struct source = new Struct(SOURCE).put("version", "0.1.0").put("connector", "lanes").put("name", config.prefix())
                    .put("ts_ms", ts).put("snapshot", "false").put("db", schema == null ? "" : schema)
                    .put("server_id", 0L).put("gtid", t.gtid()).put("file", end.file()).put("pos", end.offset()).put("row", index);
            if (c instanceof RowChange row) {
                String table = row.table().table();
                source.put("table", table);
                SourceTableSchemas.TableSchema ts2 = tables.table(catalog, row.table().schema(), table);
                Schema envelope = envelopes.computeIfAbsent(ts2.row(), r -> SchemaBuilder.struct()
                        .name(config.prefix() + "." + row.table().schema() + "." + table + ".Envelope")
                        .field("before", r).field("after", r).field("source", SOURCE).field("op", Schema.STRING_SCHEMA)
                        .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).field("transaction", TRANSACTION).build());
                long collectionOrder = perTable.merge(row.table().toString(), 1L, Long::sum);
                Struct value = new Struct(envelope)
                        .put("before", row.before() == null ? null : tables.struct(ts2, row.table().toString(), row.before()))
                        .put("after", row.after() == null ? null : tables.struct(ts2, row.table().toString(), row.after()))
                        .put("source", source)
                        .put("op", switch (row.kind()) { case INSERT -> "c"; case UPDATE -> "u"; case DELETE -> "d"; })
                        .put("ts_ms", System.currentTimeMillis())
                        .put("transaction", new Struct(TRANSACTION).put("id", id).put("total_order", (long) index)
                                .put("data_collection_order", collectionOrder));
                String key = config.keyByTable() ? row.table().schema() + "." + table : row.table().schema();
                return new SourceRecord(partition, offset, config.topic(), partitionNo, Schema.STRING_SCHEMA, key,
                        envelope, value, ts, headers);
            } else if (c instanceof SourceStatement st) {
                Struct value = new Struct(SCHEMA_CHANGE).put("source", source).put("ts_ms", ts)
                        .put("databaseName", st.defaultSchema()).put("ddl", st.sql());
                return new SourceRecord(partition, offset, config.topic(), partitionNo, Schema.STRING_SCHEMA,
                        schema == null ? "" : schema, SCHEMA_CHANGE, value, ts, headers);
            }
            return null;
        }
    }

    private static String schemaOf(Change c) {
        if (c instanceof RowChange r) {
            return r.table().schema();
        }
        return c instanceof SourceStatement s ? s.defaultSchema() : null;
    }

    /** The {@link LanesHeaders} of the transaction's record {@code index} of {@code count}; package-visible for tests. */
    static ConnectHeaders headers(Transaction<SourceTransaction> txn, long sequence, int index, int count) {
        ConnectHeaders h = new ConnectHeaders();
        h.addString(LanesHeaders.TRANSACTION_SEQUENCE, Long.toString(sequence));
        h.addString(LanesHeaders.EVENT_COUNT, Integer.toString(count));
        h.addString(LanesHeaders.EVENT_INDEX, Integer.toString(index));
        h.addString(LanesHeaders.POSITION, txn.position());
        if (txn.payload().gtid() != null) {
            h.addString(LanesHeaders.GTID, txn.payload().gtid());
        }
        LogicalClock clock = txn.logicalClock();
        if (clock != null && clock.kind() == LogicalClock.Kind.MYSQL) {
            h.addString(LanesHeaders.LAST_COMMITTED, Long.toString(clock.lastCommitted()));
            h.addString(LanesHeaders.SEQUENCE_NUMBER, Long.toString(clock.sequenceNumber()));
        } else if (clock != null) {
            h.addString(LanesHeaders.COMMIT_ID, Long.toString(clock.commitId()));
        }
        h.addString(LanesHeaders.BARRIER, Boolean.toString(txn.isBarrier()));
        if (txn.startsAfterAllBefore()) {
            h.addString(LanesHeaders.STARTS_AFTER_ALL_BEFORE, "true");
        }
        if (index == 1 && !txn.isBarrier() && txn.writeKeyCount() > 0) {
            // The first record only (the sink reads the transaction's metadata there): on every record, a transaction of
            // n rows carried n times n keys, 14 GB of headers for 30,000 rows.
            h.addString(LanesHeaders.WRITE_KEYS, LanesHeaders.formatKeys(txn.writeKeys()));
        }
        return h;
    }
}
