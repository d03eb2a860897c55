package io.lanes.connect.internal;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.TableRef;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.connect.LanesHeaders;
import io.lanes.core.LogicalClock;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Reads one sink record into a {@link ChangeEvent}: Debezium's MySQL/MariaDB change-event envelope ({@code before},
 * {@code after}, {@code source}, {@code op}, {@code transaction}), its schema-change records ({@code ddl}), its transaction
 * topic's BEGIN/END records, tombstones, and the same envelope with the {@link LanesHeaders} a Lanes source adds.
 *
 * <p>Records must carry their Connect schema (a converter with schemas, such as {@code JsonConverter} with
 * {@code schemas.enable=true} or Avro): without it the column types, and so the values, cannot be read faithfully.
 * Anything it cannot read is a {@link DataException} naming the topic, partition and offset. Stateless; thread-safe.
 */
public final class ChangeEventReader {
    public ChangeEvent read(SinkRecord record) {
        try {
            return readRecord(record);
        } catch (DataException | IllegalArgumentException | ClassCastException e) {
            throw new DataException("cannot read the record at " + where(record) + ": " + e.getMessage(), e);
        }
    }

    /** {@code topic-partition@offset}. */
    public static String where(SinkRecord r) {
        return r.topic() + "-" + r.kafkaPartition() + "@" + r.kafkaOffset();
    }

    private ChangeEvent readRecord(SinkRecord record) {
        long offset = record.kafkaOffset();
        Object value = record.value();
        if (value == null) {
            return new ChangeEvent(ChangeEvent.Kind.TOMBSTONE, offset, null, 0, 0, SourceOrder.NONE, false, false, null, 0, null);
        }
        if (!(value instanceof Struct v)) {
            throw new DataException("the value is a " + value.getClass().getSimpleName() + ", not a Struct: configure the"
                    + " connector's value.converter with schemas (e.g. JsonConverter with value.converter.schemas.enable=true)");
        }
        Schema schema = v.schema();
        if (schema.field("status") != null && schema.field("id") != null && schema.field("event_count") != null) {
            String status = v.getString("status");
            String id = v.getString("id");
            if ("BEGIN".equals(status)) {
                return new ChangeEvent(ChangeEvent.Kind.BEGIN, offset, id, 0, 0, SourceOrder.NONE, false, false, null, 0, null);
            }
            if ("END".equals(status)) {
                Long count = v.getInt64("event_count");
                return new ChangeEvent(ChangeEvent.Kind.END, offset, id, 0, count == null ? 0 : count, SourceOrder.NONE,
                        false, false, null, 0, null);
            }
            throw new DataException("transaction record with status " + status);
        }
        ChangeEvent.LanesMetadata lanes = lanesMetadata(record);
        String lanesTxn = header(record, LanesHeaders.TRANSACTION_SEQUENCE);
        long lanesIndex = lanesTxn == null ? 0 : Long.parseLong(requireHeader(record, LanesHeaders.EVENT_INDEX));
        long lanesCount = lanesTxn == null ? 0 : Long.parseLong(requireHeader(record, LanesHeaders.EVENT_COUNT));
        Struct source = schema.field("source") != null ? v.getStruct("source") : null;
        SourceOrder order = sourceOrder(source);
        if (schema.field("ddl") != null) {
            String ddl = v.getString("ddl");
            String db = schema.field("databaseName") != null ? v.getString("databaseName") : null;
            SourceStatement statement = new SourceStatement(ddl, db == null || db.isEmpty() ? null : db, 0, null, null, null,
                    null, order.toString(), null);
            boolean snapshot = isSnapshot(source);
            return new ChangeEvent(ChangeEvent.Kind.DDL, offset, lanesTxn, lanesIndex, lanesCount, order, snapshot,
                    snapshot && isLastSnapshot(source), statement, 64 + 2L * ddl.length(), lanes);
        }
        if (schema.field("op") == null || schema.field("after") == null || schema.field("before") == null || source == null) {
            throw new DataException("not a change event (no before/after/source/op) nor a schema change nor a transaction"
                    + " marker: value schema " + schema.name());
        }
        String op = v.getString("op");
        String db = source.getString("db");
        String tableName = source.getString("table");
        if (db == null || tableName == null) {
            throw new DataException("the source block names no db/table");
        }
        TableRef table = new TableRef(db, tableName);
        Struct before = v.getStruct("before");
        Struct after = v.getStruct("after");
        long[] size = {96};
        RowChange change = switch (op) {
            case "c", "r" -> RowChange.insert(table, image(after, size));
            case "u" -> RowChange.update(table, image(before, size), image(after, size));
            case "d" -> RowChange.delete(table, image(before, size));
            default -> throw new DataException("operation '" + op + "' is not supported (c, u, d, r are)");
        };
        String txId = lanesTxn;
        long txOrder = lanesIndex;
        if (txId == null && schema.field("transaction") != null && v.getStruct("transaction") != null) {
            Struct t = v.getStruct("transaction");
            txId = t.getString("id");
            txOrder = t.getInt64("total_order");
        }
        boolean snapshot = "r".equals(op) || isSnapshot(source);
        Object row = source.schema().field("row") != null ? source.get("row") : null;
        return new ChangeEvent(ChangeEvent.Kind.ROW, offset, txId, txOrder, lanesCount, order, snapshot,
                snapshot && isLastSnapshot(source), change, size[0], lanes, row instanceof Number n ? n.intValue() : -1);
    }

    private static RowImage image(Struct row, long[] size) {
        if (row == null) {
            throw new DataException("a row image the operation needs is null");
        }
        List<Field> fields = row.schema().fields();
        List<String> names = new ArrayList<>(fields.size());
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
            Field f = fields.get(i);
            names.add(f.name());
            values[i] = ConnectValues.toLanes(f.name(), f.schema(), row.get(f));
            size[0] += 16 + estimate(values[i]);
        }
        return new RowImage(names, values);
    }

    private static long estimate(Object v) {
        if (v instanceof String s) {
            return 40 + 2L * s.length();
        }
        if (v instanceof byte[] b) {
            return 16 + b.length;
        }
        return 24;
    }

    private static SourceOrder sourceOrder(Struct source) {
        if (source == null) {
            return SourceOrder.NONE;
        }
        String file = field(source, "file");
        Object pos = source.schema().field("pos") != null ? source.get("pos") : null;
        String gtid = field(source, "gtid");
        gtid = gtid == null ? "" : gtid.replace(" ", "");
        if (file == null || file.isEmpty() || !(pos instanceof Number p)) {
            return gtid.isEmpty() ? SourceOrder.NONE : new SourceOrder("", 0, gtid);
        }
        return new SourceOrder(file, p.longValue(), gtid);
    }

    private static String field(Struct s, String name) {
        return s.schema().field(name) != null && s.get(name) != null ? s.get(name).toString() : null;
    }

    /** Debezium's {@code source.snapshot}: true, first, first_in_data_collection, last_in_data_collection, last, false. */
    private static boolean isSnapshot(Struct source) {
        String s = source == null ? null : field(source, "snapshot");
        return s != null && !s.equals("false") && !s.equals("incremental");
    }

    /**
     * The snapshot's last record, or the last of its table: with the snapshot spread over partitions only one partition
     * gets the snapshot's last record, and a chunk in another one must not wait for streaming records to end it.
     */
    private static boolean isLastSnapshot(Struct source) {
        String s = field(source, "snapshot");
        return "last".equals(s) || "last_in_data_collection".equals(s);
    }

    private static ChangeEvent.LanesMetadata lanesMetadata(SinkRecord record) {
        if (header(record, LanesHeaders.TRANSACTION_SEQUENCE) == null) {
            return null;
        }
        String keys = header(record, LanesHeaders.WRITE_KEYS);
        String lastCommitted = header(record, LanesHeaders.LAST_COMMITTED);
        String sequenceNumber = header(record, LanesHeaders.SEQUENCE_NUMBER);
        String commitId = header(record, LanesHeaders.COMMIT_ID);
        LogicalClock clock = null;
        if (lastCommitted != null && sequenceNumber != null) {
            clock = LogicalClock.mysql(Long.parseLong(lastCommitted), Long.parseLong(sequenceNumber));
        } else if (commitId != null) {
            clock = LogicalClock.groupCommit(Long.parseLong(commitId));
        }
        return new ChangeEvent.LanesMetadata(keys == null ? new long[0] : LanesHeaders.parseKeys(keys), clock,
                "true".equals(header(record, LanesHeaders.BARRIER)),
                "true".equals(header(record, LanesHeaders.STARTS_AFTER_ALL_BEFORE)));
    }

    private static String requireHeader(SinkRecord record, String key) {
        String v = header(record, key);
        if (v == null) {
            throw new DataException("a Lanes-format record lacks header " + key);
        }
        return v;
    }

    /** The last header of that key as text (header converters may type it as a number or boolean), or null. */
    static String header(SinkRecord record, String key) {
        Header h = record.headers().lastWithName(key);
        return h == null || h.value() == null ? null : h.value().toString();
    }
}
