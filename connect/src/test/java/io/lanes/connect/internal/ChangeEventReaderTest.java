package io.lanes.connect.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.RowChange;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** Debezium's envelope, as its MariaDB connector writes it, read into change events. */
class ChangeEventReaderTest {
    static final Schema ROW = SchemaBuilder.struct().name("db1.shop.items.Value").optional()
            .field("id", Schema.INT32_SCHEMA).field("c", Schema.OPTIONAL_STRING_SCHEMA).build();
    static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.mariadb.Source")
            .field("db", Schema.STRING_SCHEMA).field("table", Schema.OPTIONAL_STRING_SCHEMA)
            .field("file", Schema.STRING_SCHEMA).field("pos", Schema.INT64_SCHEMA)
            .field("gtid", Schema.OPTIONAL_STRING_SCHEMA).field("snapshot", Schema.OPTIONAL_STRING_SCHEMA).build();
    static final Schema TX = SchemaBuilder.struct().name("event.block").optional().field("id", Schema.STRING_SCHEMA)
            .field("total_order", Schema.INT64_SCHEMA).field("data_collection_order", Schema.INT64_SCHEMA).build();
    static final Schema ENVELOPE = SchemaBuilder.struct().name("db1.shop.items.Envelope").field("before", ROW)
            .field("after", ROW).field("source", SOURCE).field("op", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).field("transaction", TX).build();

    private static SinkRecord record(String op, Struct before, Struct after, String snapshot, Struct tx) {
        Struct source = new Struct(SOURCE).put("db", "shop").put("table", "items").put("file", "bin.000003")
                .put("pos", 4711L).put("gtid", "0-1-42").put("snapshot", snapshot);
        Struct v = new Struct(ENVELOPE).put("before", before).put("after", after).put("source", source).put("op", op)
                .put("transaction", tx);
        return new SinkRecord("db1.cdc", 2, null, null, ENVELOPE, v, 99);
    }

    private static Struct row(int id, String c) {
        return new Struct(ROW).put("id", id).put("c", c);
    }

    @Test
    void anUpdateInATransactionKeepsBothImagesItsPlaceAndItsSourcePosition() {
        ChangeEvent e = new ChangeEventReader().read(record("u", row(1, "a"), row(1, "b"), "false",
                new Struct(TX).put("id", "0-1-42").put("total_order", 3L).put("data_collection_order", 1L)));
        assertEquals(ChangeEvent.Kind.ROW, e.kind());
        assertEquals("0-1-42", e.transactionId());
        assertEquals(3, e.order());
        assertEquals(new SourceOrder("bin.000003", 4711, "0-1-42"), e.source());
        RowChange c = (RowChange) e.change();
        assertEquals(RowChange.Kind.UPDATE, c.kind());
        assertEquals("a", c.before().value("c"));
        assertEquals("b", c.after().value("c"));
    }

    @Test
    void theLastSnapshotRecordOfEachTableEndsAChunk() {
        ChangeEvent mid = new ChangeEventReader().read(record("r", null, row(1, "a"), "true", null));
        ChangeEvent lastOfTable = new ChangeEventReader().read(record("r", null, row(2, "a"), "last_in_data_collection", null));
        ChangeEvent last = new ChangeEventReader().read(record("r", null, row(3, "a"), "last", null));
        assertTrue(mid.snapshot() && !mid.lastInSnapshot());
        assertTrue(lastOfTable.lastInSnapshot(), "a partition holding other tables only must not wait for streaming");
        assertTrue(last.lastInSnapshot());
    }

    /**
     * What the Lanes source task decided about a transaction reaches the sink task's engine through the record headers
     * ({@link SourceRecords} writes them, the reader reads them back): the barrier flag, the write keys, the logical
     * clock, and {@code lanes.starts_after_all_before} (a parent's cascading change after child rows converted without
     * their parent's key: campaign seed 14161, docs/reliability.md). Dropped on the way, the sink side would let that
     * change commit before those rows.
     */
    @Test
    void theSourceTasksDecisionsComeBackFromTheHeaders() {
        io.lanes.applier.SourceTransaction payload = new io.lanes.applier.SourceTransaction("bin.000003:4711 gtid=0-1-42",
                "0-1-42", null, java.util.List.of());
        io.lanes.core.Transaction<io.lanes.applier.SourceTransaction> cascading = io.lanes.core.Transaction
                .builder(payload).position(payload.position()).writeKeys(new long[] {7, -3})
                .logicalClock(io.lanes.core.LogicalClock.mysql(4, 9)).startsAfterAllBefore(true).build();
        io.lanes.core.Transaction<io.lanes.applier.SourceTransaction> plain = io.lanes.core.Transaction.builder(payload)
                .position(payload.position()).writeKeys(new long[] {7}).build();
        io.lanes.core.Transaction<io.lanes.applier.SourceTransaction> ddl = io.lanes.core.Transaction.builder(payload)
                .position(payload.position()).barrier(true).build();
        ChangeEvent.LanesMetadata c = readBack(cascading);
        assertTrue(c.startsAfterAllBefore());
        assertTrue(!c.barrier());
        assertEquals(java.util.List.of(7L, -3L), java.util.Arrays.stream(c.writeKeys()).boxed().toList());
        assertEquals(io.lanes.core.LogicalClock.mysql(4, 9), c.clock());
        assertTrue(!readBack(plain).startsAfterAllBefore());
        assertTrue(readBack(ddl).barrier() && !readBack(ddl).startsAfterAllBefore());
    }

    private static ChangeEvent.LanesMetadata readBack(io.lanes.core.Transaction<io.lanes.applier.SourceTransaction> t) {
        SinkRecord r = record("u", row(1, "a"), row(1, "b"), "false", null);
        SourceRecords.headers(t, 12, 1, 1).forEach(h -> r.headers().add(h));
        ChangeEvent e = new ChangeEventReader().read(r);
        assertTrue(e.lanes() != null, "a record with Lanes' headers");
        return e.lanes();
    }

    @Test
    void aRecordWithoutSchemaIsRefusedNamingWhere() {
        SinkRecord r = new SinkRecord("db1.cdc", 2, null, null, null, java.util.Map.of("op", "c"), 17);
        DataException e = assertThrows(DataException.class, () -> new ChangeEventReader().read(r));
        assertTrue(e.getMessage().contains("db1.cdc-2@17") && e.getMessage().contains("schemas.enable"), e.getMessage());
    }
}
