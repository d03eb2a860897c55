package io.lanes.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.BinlogReader;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.GtidEvent;
import io.lanes.binlog.MariaGtidEvent;
import io.lanes.binlog.Row;
import io.lanes.binlog.RowsEvent;
import io.lanes.binlog.TransactionReader;
import io.lanes.binlog.encode.BinlogFlavor;
import io.lanes.binlog.encode.BinlogWriter;
import io.lanes.binlog.encode.Table;
import io.lanes.testkit.Workloads;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The synthetic workloads: read back through {@link TransactionReader} and applied to an in-memory table store (every
 * update's and delete's before image must equal the stored row, every insert must be new), they end in the state the
 * {@link Workloads.Summary} announces; the same seed gives the same bytes, another seed other bytes; the logical clock
 * workload's groups are what the MySQL and MariaDB formats say they are.
 */
class WorkloadsTest {

    private static byte[] write(BinlogFlavor flavor, Function<BinlogWriter, Workloads.Summary> workload,
            Workloads.Summary[] summary) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (BinlogWriter w = BinlogWriter.open(out, BinlogWriter.Options.builder(flavor).build())) {
            summary[0] = workload.apply(w);
        }
        return out.toByteArray();
    }

    /** Applies every transaction; returns the number of non-DDL transactions after the initial load (after skipping). */
    private static Map<String, Map<Object, Object[]>> apply(byte[] log, List<BinlogTransaction> out) {
        Map<String, Map<Object, Object[]>> store = new TreeMap<>();
        try (TransactionReader t = new TransactionReader(BinlogReader.open(new ByteArrayInputStream(log), "workload",
                BinlogReaderOptions.defaults()))) {
            for (BinlogTransaction trx; (trx = t.next()) != null; ) {
                out.add(trx);
                for (RowsEvent e : trx.rowsEvents()) {
                    Map<Object, Object[]> rows = store.computeIfAbsent(e.schema() + "." + e.table(), k -> new HashMap<>());
                    for (Row row : e.rows()) {
                        if (row.before() != null) {
                            Object[] current = rows.get(row.before(0));
                            assertNotNull(current, "before image of a stored row: " + row);
                            assertArrayEquals(current, row.before().toArray(), "before image equals the stored row");
                            rows.remove(row.before(0));
                        }
                        if (row.after() != null) {
                            assertNull(rows.put(row.after(0), row.after().toArray()), "insert of a new key: " + row);
                        }
                    }
                }
            }
            assertEquals(0, t.droppedIncomplete(), "no incomplete transaction");
        }
        return store;
    }

    private static void assertSummary(Workloads.Summary s, Map<String, Map<Object, Object[]>> store, int sumColumn) {
        for (Map.Entry<String, Long> e : s.rowCounts().entrySet()) {
            Map<Object, Object[]> rows = store.getOrDefault(e.getKey(), Map.of());
            assertEquals(e.getValue(), (long) rows.size(), e.getKey() + " rows");
        }
        for (Map.Entry<String, Long> e : s.sums().entrySet()) {
            long sum = 0;
            for (Object[] row : store.get(e.getKey()).values()) {
                sum += ((Number) row[sumColumn]).longValue();
            }
            assertEquals(e.getValue(), sum, e.getKey() + " sum");
        }
    }

    @ParameterizedTest
    @EnumSource(BinlogFlavor.class)
    void uniformAndSkewedSchemas(BinlogFlavor flavor) {
        Workloads.Summary[] s = new Workloads.Summary[1];
        byte[] uniform = write(flavor, w -> Workloads.uniformSchemas(w, 10, 200, 1000, 7), s);
        List<BinlogTransaction> trx = new java.util.ArrayList<>();
        Map<String, Map<Object, Object[]>> store = apply(uniform, trx);
        assertSummary(s[0], store, 1);
        assertEquals(10, s[0].rowCounts().size());
        // 2 DDL + 2 load transactions per schema, then the updates
        assertEquals(10 * 4 + 1000, trx.size());
        Map<String, Integer> perSchema = new HashMap<>();
        for (BinlogTransaction t : trx.subList(40, trx.size())) {
            assertEquals(1, t.rowsEvents().size());
            perSchema.merge(t.rowsEvents().get(0).schema(), 1, Integer::sum);
        }
        assertEquals(10, perSchema.size());
        perSchema.values().forEach(n -> assertTrue(n > 50 && n < 150, "uniform: " + perSchema));

        assertArrayEquals(uniform, write(flavor, w -> Workloads.uniformSchemas(w, 10, 200, 1000, 7), s),
                "same seed, same bytes");
        assertFalse(Arrays.equals(uniform, write(flavor, w -> Workloads.uniformSchemas(w, 10, 200, 1000, 8), s)),
                "another seed, other bytes");

        byte[] skewed = write(flavor, w -> Workloads.skewedSchemas(w, 10, 200, 1000, 1.0, 7), s);
        trx.clear();
        assertSummary(s[0], apply(skewed, trx), 1);
        Map<String, Integer> skew = new HashMap<>();
        for (BinlogTransaction t : trx.subList(40, trx.size())) {
            skew.merge(t.rowsEvents().get(0).schema(), 1, Integer::sum);
        }
        assertTrue(skew.get("db1") > 3 * skew.get("db10"), "skewed: " + skew);
    }

    @ParameterizedTest
    @EnumSource(BinlogFlavor.class)
    void logicalClockGroups(BinlogFlavor flavor) {
        Workloads.Summary[] s = new Workloads.Summary[1];
        byte[] log = write(flavor, w -> Workloads.logicalClock(w, 4, 500, 1000, 3), s);
        List<BinlogTransaction> trx = new java.util.ArrayList<>();
        assertSummary(s[0], apply(log, trx), 1);
        List<BinlogTransaction> updates = trx.subList(2 + 5, trx.size());
        assertEquals(1000, updates.size());
        int grouped = 0;
        if (flavor == BinlogFlavor.MYSQL8) {
            long previousLast = -1;
            Set<Object> groupRows = new HashSet<>();
            for (BinlogTransaction t : updates) {
                GtidEvent g = (GtidEvent) t.gtidEvent();
                assertTrue(g.lastCommitted() < g.sequenceNumber());
                if (g.lastCommitted() != previousLast) {
                    groupRows.clear();
                    previousLast = g.lastCommitted();
                } else {
                    grouped++;
                }
                assertTrue(groupRows.add(t.rowsEvents().get(0).rows().get(0).before(0)), "a group touches distinct rows");
                assertTrue(g.transactionLength() > 0);
            }
        } else {
            Map<Long, Integer> groups = new HashMap<>();
            for (BinlogTransaction t : updates) {
                MariaGtidEvent g = (MariaGtidEvent) t.gtidEvent();
                if (g.hasFlag(MariaGtidEvent.FL_GROUP_COMMIT_ID)) {
                    groups.merge(g.commitId(), 1, Integer::sum);
                    grouped++;
                }
            }
            groups.values().forEach(n -> assertTrue(n >= 2 && n <= 4, "group sizes " + groups));
        }
        assertTrue(grouped > 200, "transactions in parallel groups: " + grouped);
    }

    @ParameterizedTest
    @EnumSource(BinlogFlavor.class)
    void foreignKeyHeavy(BinlogFlavor flavor) {
        Workloads.Summary[] s = new Workloads.Summary[1];
        byte[] log = write(flavor, w -> Workloads.foreignKeys(w, 1500, 11), s);
        List<BinlogTransaction> trx = new java.util.ArrayList<>();
        Map<String, Map<Object, Object[]>> store = apply(log, trx);
        assertSummary(s[0], store, 2);
        assertTrue(s[0].rowCounts().get("shop.order_lines") > 500, s[0].toString());
        for (Object[] order : store.get("shop.orders").values()) {
            assertTrue(store.get("shop.customers").containsKey(order[1]), "order references a customer");
        }
        for (Object[] line : store.get("shop.order_lines").values()) {
            assertTrue(store.get("shop.orders").containsKey(line[1]), "line references an order");
        }
        assertEquals(4 + 1500, trx.size());
    }

    @ParameterizedTest
    @EnumSource(BinlogFlavor.class)
    void writerRefusesMisuse(BinlogFlavor flavor) {
        Table t = Table.builder("d", "t").integer("id").notNull().build();
        BinlogWriter w = BinlogWriter.open(new ByteArrayOutputStream(), BinlogWriter.Options.builder(flavor).build());
        assertThrows(IllegalStateException.class, () -> w.insert(t, new Object[] {1}), "rows outside a transaction");
        w.beginTransaction();
        assertThrows(IllegalStateException.class, w::beginTransaction, "nested transaction");
        assertThrows(IllegalArgumentException.class, () -> w.insert(t, new Object[] {null}), "NULL in NOT NULL");
        assertThrows(IllegalArgumentException.class, () -> w.insert(t, new Object[] {"x"}), "a string in an INT");
        assertThrows(IllegalArgumentException.class, () -> w.insert(t, new Object[] {1, 2}), "too many values");
        w.commit();
        w.stop();
        assertThrows(IllegalStateException.class, w::beginTransaction, "after STOP");
        w.close();
    }
}
