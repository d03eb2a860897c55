package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.ddl.SourceStatement;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.TransactionReader;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.core.LogicalClock;
import io.lanes.core.Transaction;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge on the real types-full-metadata fixture: positions with the GTID state, barriers for DDL, MariaDB commit
 * ids, row changes by column name, and write keys that make a child row conflict with its parent through the foreign
 * key.
 */
class BinlogBridgeTest {
    @TempDir
    Path temp;

    /** The fixture's tables as the target would describe them (what CatalogTableMetadata reads from a real target). */
    static final class FixtureShapes implements TableMetadata {
        @Override
        public TableShape shape(String schema, String table) {
            TableShape.Key customersPk = new TableShape.Key(TableShape.PRIMARY, List.of("id"));
            return switch (table) {
                case "customers" -> new TableShape(List.of(), List.of(customersPk,
                        new TableShape.Key("email", List.of("email"))), List.of());
                case "orders" -> new TableShape(List.of(), List.of(new TableShape.Key(TableShape.PRIMARY, List.of("id"))),
                        List.of(new TableShape.ForeignKey(List.of("customer_id"), new TableRef(schema, "customers"),
                                customersPk)));
                case "weird name" -> new TableShape(List.of(), List.of(new TableShape.Key(TableShape.PRIMARY,
                        List.of("select"))), List.of());
                default -> null;
            };
        }

        @Override
        public void invalidate() {
        }
    }

    @Test
    void fixtureTransactionsBecomeCoreTransactions() throws Exception {
        Path binlog = temp.resolve("types-full-metadata.000001");
        try (InputStream in = getClass().getResourceAsStream(FixtureApplyTest.FIXTURE)) {
            assertNotNull(in);
            Files.copy(in, binlog);
        }
        BinlogBridge bridge = new BinlogBridge(SchemaMapping.identity(), new FixtureShapes());
        List<Transaction<SourceTransaction>> out = new ArrayList<>();
        try (TransactionReader reader = TransactionReader.open(binlog)) {
            BinlogTransaction t;
            while ((t = reader.next()) != null) {
                out.add(bridge.convert(t));
            }
        }
        // Every position parses back, offsets grow, and the GTID state follows MariaDB's domain 0.
        long previous = -1;
        for (Transaction<SourceTransaction> t : out) {
            SourcePosition p = SourcePosition.parse(t.position());
            assertEquals("types-full-metadata.000001", p.file());
            assertTrue(p.offset() > previous);
            previous = p.offset();
            assertTrue(p.gtidState().matches("0-\\d+-\\d+"), p.gtidState());
            assertEquals(LogicalClock.Kind.GROUP_COMMIT, t.logicalClock().kind());
        }

        Transaction<SourceTransaction> createCustomers = find(out, "CREATE TABLE customers");
        assertTrue(createCustomers.isBarrier());
        SourceStatement ddl = (SourceStatement) createCustomers.payload().changes().get(0);
        assertEquals("shop", ddl.defaultSchema());
        assertNotNull(ddl.timestamp());

        Transaction<SourceTransaction> insertCustomers = rows(out, "customers", RowChange.Kind.INSERT);
        RowChange first = (RowChange) insertCustomers.payload().changes().get(0);
        assertEquals(new TableRef("shop", "customers"), first.table());
        assertEquals("a@x.io", first.after().value("email"));
        assertEquals(new BigDecimal("12.50"), first.after().value("balance"));
        assertFalse(insertCustomers.isBarrier());
        assertEquals(List.of("shop"), insertCustomers.partitionKeys());
        assertEquals(6, insertCustomers.writeKeyCount(), "3 rows x (PRIMARY, email)");

        // INSERT INTO orders (4, customer 3): its foreign key adds customers' PRIMARY key 3, the key the customers insert
        // wrote, so the two conflict although they touch different tables.
        Transaction<SourceTransaction> order4 = out.stream().filter(t -> t.payload().changes().size() == 1
                && t.payload().changes().get(0) instanceof RowChange r && r.table().table().equals("orders")
                && r.kind() == RowChange.Kind.INSERT).findFirst().orElseThrow();
        assertEquals(4L, ((RowChange) order4.payload().changes().get(0)).after().value("id"));
        Set<Long> customersKeys = keys(insertCustomers);
        Set<Long> order4Keys = keys(order4);
        assertEquals(2, order4Keys.size(), "orders PRIMARY 4 and customers PRIMARY 3");
        order4Keys.retainAll(customersKeys);
        assertEquals(1, order4Keys.size(), "shares exactly the parent's key");

        // The weird table's rows are keyed by its `select` column.
        Transaction<SourceTransaction> weird = rows(out, "weird name", RowChange.Kind.INSERT);
        assertEquals(2, weird.writeKeyCount());
    }

    /** The mixed workload's log (issue 19), copied out of the test resources. */
    private Path mixedWorkloadLog() throws java.io.IOException {
        Path binlog = temp.resolve("mixed-workload.000001.gz");
        try (InputStream in = getClass().getResourceAsStream("/binlogs/mariadb-10.11/mixed-workload.000001.gz")) {
            assertNotNull(in);
            Files.copy(in, binlog, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return binlog;
    }

    /** The target's shapes of the mixed workload's tables; mix1.slot gains its column once {@code slotAltered[0]}. */
    private static TableMetadata mixedWorkloadShapes(boolean[] slotAltered) {
        return new TableMetadata() {
            @Override
            public TableShape shape(String schema, String table) {
                TableShape.Key pk = new TableShape.Key(TableShape.PRIMARY, List.of("id"));
                TableShape.Key parentPk = pk;
                return switch (table) {
                    case "parent" -> new TableShape(List.of("id", "name"),
                            List.of(pk, new TableShape.Key("uk_name", List.of("name"))), List.of());
                    case "child" -> new TableShape(List.of("id", "parent_id", "qty"), List.of(pk),
                            List.of(new TableShape.ForeignKey(List.of("parent_id"), new TableRef("mix1", "parent"),
                                    parentPk)));
                    case "slot" -> new TableShape(slotAltered[0] ? List.of("id", "code", "v", "extra")
                            : List.of("id", "code", "v"),
                            List.of(pk, new TableShape.Key("uk_code", List.of("code"))), List.of());
                    case "moving" -> new TableShape(List.of("id", "v"), List.of(pk), List.of());
                    case "bulk" -> new TableShape(List.of("id", "v", "pad"), List.of(pk), List.of());
                    case "acct" -> new TableShape(List.of("id", "bal"), List.of(pk), List.of());
                    case "note" -> new TableShape(List.of("n", "txt"), List.of(), List.of());
                    default -> null;
                };
            }

            @Override
            public void invalidate() {
            }
        };
    }

    /**
     * A large transaction's changes, converted while a worker applies them ({@link BinlogBridge#largeTransactionBytes}),
     * are the changes converted whole: every transaction of rows of the mixed log (MINIMAL row metadata, so the names
     * come from the definitions followed through its DDL) streamed, and converted only after the whole log was read,
     * its ALTER TABLE included, against the same log converted in order. Each has no write keys and is sized by its log
     * bytes (what it holds while queued); converted whole, a transaction is sized by its converted rows instead.
     */
    @Test
    void largeTransactionsConvertedLaterAreTheChangesConvertedWhole() throws Exception {
        Path binlog = mixedWorkloadLog();
        boolean[] slotAltered = {false};
        TableMetadata shapes = mixedWorkloadShapes(slotAltered);
        BinlogBridge whole = new BinlogBridge(SchemaMapping.identity(), shapes);
        BinlogBridge streaming = new BinlogBridge(SchemaMapping.identity(), shapes);
        streaming.largeTransactionBytes(1);
        List<List<Change>> expected = new ArrayList<>();
        List<Transaction<SourceTransaction>> streamed = new ArrayList<>();
        long bulkLogBytes = 0;
        long bulkSize = 0;
        try (TransactionReader reader = TransactionReader.open(binlog)) {
            BinlogTransaction t;
            while ((t = reader.next()) != null) {
                Transaction<SourceTransaction> w = whole.convert(t);
                Transaction<SourceTransaction> s = streaming.convert(t);
                assertTrue(w.sizeBytes() >= t.sizeBytes(), w.position());
                if (s.payload().changes() instanceof io.lanes.applier.internal.StreamedChanges) {
                    // no keys (the writeset scheduler runs it alone); its schemas and clock as converted whole
                    assertEquals(w.isBarrier(), s.isBarrier(), s.position());
                    assertEquals(0, s.writeKeyCount(), s.position());
                    assertEquals(w.partitionKeys(), s.partitionKeys(), s.position());
                    assertEquals(w.logicalClock(), s.logicalClock(), s.position());
                    assertEquals(t.sizeBytes(), s.sizeBytes(), s.position());
                    expected.add(w.payload().changes());
                    streamed.add(s);
                } else {
                    assertSameChanges(w.payload().changes(), s.payload().changes(), "not rows only: " + s.position());
                }
                if (t.rowsEvents().stream().mapToInt(r -> r.rowCount()).sum() == 40_000) {
                    bulkLogBytes = t.sizeBytes();
                    bulkSize = w.sizeBytes();
                }
                slotAltered[0] |= w.payload().changes().stream().anyMatch(ch -> ch instanceof SourceStatement st
                        && st.sql().contains("ALTER TABLE mix1.slot"));
            }
        }
        assertTrue(slotAltered[0], "the log alters mix1.slot");
        assertTrue(streamed.size() > 2_000, "streamed: " + streamed.size());
        assertTrue(bulkLogBytes > 0, "the 40,000-row INSERT");
        assertTrue(bulkSize > 5 * bulkLogBytes, "converted whole it takes " + bulkSize + " bytes, its log " + bulkLogBytes);
        for (int i = 0; i < streamed.size(); i++) {
            List<Change> later = new ArrayList<>();
            streamed.get(i).payload().changes().forEach(later::add);
            assertSameChanges(expected.get(i), later, streamed.get(i).position());
        }
    }

    /** Equal changes, row images compared by value (a record's array component compares by reference). */
    private static void assertSameChanges(List<Change> expected, List<Change> actual, String where) {
        assertEquals(expected.size(), actual.size(), where);
        for (int i = 0; i < expected.size(); i++) {
            Change e = expected.get(i);
            Change a = actual.get(i);
            if (e instanceof RowChange er && a instanceof RowChange ar) {
                assertEquals(er.kind(), ar.kind(), where);
                assertEquals(er.table(), ar.table(), where);
                for (RowImage[] images : new RowImage[][] {{er.before(), ar.before()}, {er.after(), ar.after()}}) {
                    assertEquals(images[0] == null, images[1] == null, where);
                    if (images[0] != null) {
                        assertEquals(images[0].columns(), images[1].columns(), where);
                        assertTrue(java.util.Arrays.deepEquals(images[0].values(), images[1].values()), where + " row "
                                + i + ": " + java.util.Arrays.deepToString(images[0].values()) + " against "
                                + java.util.Arrays.deepToString(images[1].values()));
                    }
                }
            } else {
                assertEquals(e, a, where);
            }
        }
    }

    /**
     * The mixed workload of issue 19 (recorded from MariaDB 10.11 by scripts/fixtures/record-mixed-workload.sh): its
     * table without any key, mix1.note, used to leave every transaction touching it without write keys, so the writeset
     * scheduler ran each alone (352 of 2,503 waited for everything before them). Now they carry the table's key: they
     * are ordered among themselves, and share no key with transactions that do not touch the table.
     */
    @Test
    void rowsOfATableWithoutAKeyCarryTheTablesKey() throws Exception {
        Path binlog = mixedWorkloadLog();
        boolean[] slotAltered = {false}; // the log adds a column to mix1.slot mid-stream (MINIMAL metadata: by position)
        TableMetadata shapes = mixedWorkloadShapes(slotAltered);
        BinlogBridge bridge = new BinlogBridge(SchemaMapping.identity(), shapes);
        bridge.uniqueIndexKeys(true);
        BinlogBridge withoutIndexKeys = new BinlogBridge(SchemaMapping.identity(), shapes);
        List<Transaction<SourceTransaction>> noteOnly = new ArrayList<>();
        Set<Long> keysWithoutNote = new HashSet<>();
        int rowTransactions = 0;
        int codeChanges = 0;
        long ukCode = new io.lanes.applier.internal.WriteKeyHasher().start(BinlogBridge.UNIQUE_INDEX_KEY, "mix1", "slot")
                .value("uk_code").finish();
        try (TransactionReader reader = TransactionReader.open(binlog)) {
            BinlogTransaction t;
            while ((t = reader.next()) != null) {
                Transaction<SourceTransaction> c = bridge.convert(t);
                assertFalse(keys(withoutIndexKeys.convert(t)).contains(ukCode), "off by default: " + c.position());
                List<String> tables = c.payload().changes().stream().filter(RowChange.class::isInstance)
                        .map(ch -> ((RowChange) ch).table().table()).distinct().toList();
                if (c.isBarrier() || tables.isEmpty()) {
                    slotAltered[0] |= c.payload().changes().stream().anyMatch(ch -> ch instanceof SourceStatement st
                            && st.sql().contains("ALTER TABLE mix1.slot"));
                    continue;
                }
                rowTransactions++;
                assertTrue(c.writeKeyCount() > 0, "without write keys (would run alone): " + c.position());
                // Changes of a unique secondary index's entries carry the whole index's key; other changes do not.
                boolean changesCode = c.payload().changes().stream().anyMatch(ch -> ch instanceof RowChange rc
                        && rc.table().table().equals("slot") && (rc.kind() != RowChange.Kind.UPDATE
                        || !java.util.Objects.equals(rc.before().value("code"), rc.after().value("code"))));
                assertEquals(changesCode, keys(c).contains(ukCode), c.position());
                if (changesCode) {
                    codeChanges++;
                }
                if (tables.equals(List.of("note"))) {
                    noteOnly.add(c);
                } else if (!tables.contains("note")) {
                    keysWithoutNote.addAll(keys(c));
                }
            }
        }
        assertTrue(rowTransactions > 2_000, "row transactions: " + rowTransactions);
        assertTrue(codeChanges > 300, "transactions changing mix1.slot.code: " + codeChanges);
        assertTrue(noteOnly.size() > 200, "transactions on the keyless table only: " + noteOnly.size());
        Set<Long> shared = keys(noteOnly.get(0));
        for (Transaction<SourceTransaction> n : noteOnly) {
            assertEquals(shared, keys(n), "every transaction on mix1.note carries only the table's key");
        }
        assertEquals(1, shared.size());
        assertFalse(keysWithoutNote.containsAll(shared), "transactions not touching mix1.note do not carry its key");
    }

    @Test
    void unknownTableLeavesNoWriteKeysSoTheWritesetSchedulerRunsItAlone() throws Exception {
        Path binlog = temp.resolve("types-full-metadata.000001");
        try (InputStream in = getClass().getResourceAsStream(FixtureApplyTest.FIXTURE)) {
            Files.copy(in, binlog);
        }
        BinlogBridge bridge = new BinlogBridge(SchemaMapping.identity(), TableMetadata.none());
        try (TransactionReader reader = TransactionReader.open(binlog)) {
            BinlogTransaction t;
            while ((t = reader.next()) != null) {
                if (t.isDdl()) {
                    continue; // the schema history would learn the tables' keys from their CREATE TABLE
                }
                Transaction<SourceTransaction> c = bridge.convert(t);
                assertEquals(0, c.writeKeyCount(), c.toString());
            }
        }
    }

    @Test
    void withoutTargetMetadataTheSchemaHistoryGivesTheKeys() throws Exception {
        Path binlog = temp.resolve("types-full-metadata.000001");
        try (InputStream in = getClass().getResourceAsStream(FixtureApplyTest.FIXTURE)) {
            Files.copy(in, binlog);
        }
        BinlogBridge bridge = new BinlogBridge(SchemaMapping.identity(), TableMetadata.none());
        long keyed = 0;
        long rowTransactions = 0;
        try (TransactionReader reader = TransactionReader.open(binlog)) {
            BinlogTransaction t;
            while ((t = reader.next()) != null) {
                Transaction<SourceTransaction> c = bridge.convert(t);
                if (!t.isDdl() && c.payload().changes().stream().anyMatch(ch -> ch instanceof RowChange)) {
                    rowTransactions++;
                    keyed += c.writeKeyCount() > 0 ? 1 : 0;
                }
            }
        }
        assertTrue(rowTransactions > 0);
        assertTrue(bridge.history().table("shop", "customers") != null, bridge.history().toString());
        assertEquals(rowTransactions, keyed, "every row transaction is keyed by the history's primary keys");
    }

    @Test
    void writeKeysNormaliseAsCaseAndAccentInsensitiveCollationsCompare() {
        io.lanes.applier.internal.WriteKeyHasher h = new io.lanes.applier.internal.WriteKeyHasher();
        Map<String, Object[]> equal = Map.of(
                "case and pad", new Object[] {"Ann ", "ann"},
                "accents", new Object[] {"Bjørn Émile", "bjørn emile"},
                "integer widths", new Object[] {1, 1L},
                "decimal scale", new Object[] {new BigDecimal("1.50"), new BigDecimal("1.5")},
                "binary pad", new Object[] {new byte[] {1, 0}, new byte[] {1}});
        for (Map.Entry<String, Object[]> e : equal.entrySet()) {
            long a = h.start("PRIMARY", "s", "t").value(e.getValue()[0]).finish();
            long b = h.start("PRIMARY", "s", "t").value(e.getValue()[1]).finish();
            assertEquals(a, b, e.getKey());
        }
        long base = h.start("PRIMARY", "s", "t").value(1).finish();
        assertFalse(base == h.start("PRIMARY", "s", "u").value(1).finish(), "table is part of the key");
        assertFalse(base == h.start("email", "s", "t").value(1).finish(), "index name is part of the key");
        assertFalse(base == h.start("PRIMARY", "s", "t").value(2).finish());
        assertFalse(h.start("PRIMARY", "s", "t").value("a").value("bc").finish()
                == h.start("PRIMARY", "s", "t").value("ab").value("c").finish(), "parts are separated");
    }

    private static Transaction<SourceTransaction> find(List<Transaction<SourceTransaction>> out, String sqlStart) {
        return out.stream().filter(t -> t.payload().changes().stream().anyMatch(c -> c instanceof SourceStatement s
                && s.sql().startsWith(sqlStart))).findFirst().orElseThrow();
    }

    private static Transaction<SourceTransaction> rows(List<Transaction<SourceTransaction>> out, String table,
            RowChange.Kind kind) {
        return out.stream().filter(t -> !t.payload().changes().isEmpty() && t.payload().changes().get(0) instanceof RowChange r
                && r.table().table().equals(table) && r.kind() == kind).findFirst().orElseThrow();
    }

    private static Set<Long> keys(Transaction<SourceTransaction> t) {
        return new HashSet<>(Arrays.stream(t.writeKeys()).boxed().toList());
    }
}
