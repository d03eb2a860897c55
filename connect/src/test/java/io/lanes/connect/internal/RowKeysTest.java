package io.lanes.connect.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lanes.applier.Change;
import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.TableMetadata;
import io.lanes.applier.TableRef;
import io.lanes.applier.TableShape;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RowKeysTest {
    /** s.items has a primary key (id); s.audit none; anything else is unknown to the target. */
    private static final TableMetadata CATALOG = new TableMetadata() {
        private final Map<String, TableShape> shapes = Map.of(
                "items", new TableShape(List.of("id", "k"), List.of(new TableShape.Key("PRIMARY", List.of("id"))), List.of()),
                "audit", new TableShape(List.of("txn", "sch"), List.of(), List.of()));

        @Override
        public TableShape shape(String targetSchema, String table) {
            return "s".equals(targetSchema) ? shapes.get(table) : null;
        }

        @Override
        public void invalidate() {
        }
    };

    private static Change insert(String table, String column, Object value) {
        return RowChange.insert(new TableRef("s", table), new RowImage(List.of(column), new Object[] {value}));
    }

    @Test
    void rowsOfATableWithoutAKeyShareTheTablesKeyInsteadOfRunningAlone() throws Exception {
        RowKeys keys = new RowKeys(CATALOG, SchemaMapping.identity());
        long[] first = keys.of(List.of(insert("audit", "txn", 1L), insert("items", "id", 7)));
        long[] second = keys.of(List.of(insert("audit", "txn", 2L)));
        long[] third = keys.of(List.of(insert("items", "id", 8)));
        assertNotNull(first, "a keyless table used to make the transaction a barrier: one target commit per transaction");
        assertNotNull(second);
        assertEquals(2, first.length);
        assertEquals(1, second.length);
        assertEquals(second[0], first[0], "two transactions writing the keyless table are ordered");
        assertNotEquals(third[0], second[0], "a transaction not writing it is not");
        assertEquals(0, Arrays.stream(first).filter(k -> k == third[0]).count(), "a different item row");
    }

    @Test
    void aTableTheTargetDoesNotKnowStillMakesTheTransactionRunAlone() throws Exception {
        RowKeys keys = new RowKeys(CATALOG, SchemaMapping.identity());
        assertNull(keys.of(List.of(insert("items", "id", 1), insert("elsewhere", "id", 1))));
    }

    @Test
    void aRowWhoseOnlyUniqueKeyIsNullGetsTheTableKey() throws Exception {
        RowKeys keys = new RowKeys(CATALOG, SchemaMapping.identity());
        long[] nullKey = keys.of(List.of(insert("items", "id", null)));
        long[] keyless = keys.of(List.of(insert("audit", "txn", 1L)));
        long[] set = keys.of(List.of(insert("items", "id", 3)));
        assertEquals(1, nullKey.length);
        assertNotEquals(keyless[0], nullKey[0], "each table has its own key");
        assertNotEquals(set[0], nullKey[0]);
    }
}
