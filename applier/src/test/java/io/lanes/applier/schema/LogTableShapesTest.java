package io.lanes.applier.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lanes.applier.SourceTransaction;
import io.lanes.applier.TableShape;
import io.lanes.applier.ddl.SourceStatement;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Table shapes from a log's own statements; tables it cannot describe are noted. */
class LogTableShapesTest {

    @Test
    void followsTheLogsDdlAndNotesTablesItCannotDescribe() {
        LogTableShapes shapes = new LogTableShapes();
        assertNull(shapes.shape("shop", "orders"));
        shapes.follow(new SourceTransaction("bin.000001:100", null, null, List.of(SourceStatement.of(
                "CREATE TABLE orders (id INT PRIMARY KEY, ref VARCHAR(10), UNIQUE KEY by_ref (ref))", "shop"))));
        TableShape orders = shapes.shape("shop", "orders");
        assertEquals(List.of("id", "ref"), orders.columns());
        assertEquals(List.of(new TableShape.Key(TableShape.PRIMARY, List.of("id")),
                new TableShape.Key("by_ref", List.of("ref"))), orders.uniqueKeys());
        assertNull(shapes.shape("shop", "lines"));
        // orders was unknown before its CREATE TABLE: it stays noted, as the transactions before it had no keys.
        assertEquals(Set.of("shop.orders", "shop.lines"), Set.copyOf(shapes.unknownTables()));

        shapes.follow(new SourceTransaction("bin.000001:200", null, null,
                List.of(SourceStatement.of("DROP TABLE orders", "shop"))));
        assertNull(shapes.shape("shop", "orders"));
    }
}
