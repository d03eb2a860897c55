package io.lanes.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SchemaMappingTest {

    @Test
    void identityKeepsNamesAndIncludesEverything() {
        SchemaMapping m = SchemaMapping.identity();
        assertEquals("Shop", m.targetSchema("Shop"));
        assertTrue(m.includesTable("any", "thing"));
    }

    @Test
    void renameMapsOnlyTheNamedSchemaExactly() {
        SchemaMapping m = SchemaMapping.builder().rename("shop", "shop_replica").build();
        assertEquals("shop_replica", m.targetSchema("shop"));
        assertEquals("Shop", m.targetSchema("Shop"), "case-sensitive");
        assertEquals("shop2", m.targetSchema("shop2"));
        assertThrows(IllegalArgumentException.class,
                () -> SchemaMapping.builder().rename("a", "b").rename("a", "c"));
    }

    @Test
    void schemaGlobsIncludeAndExcludeWins() {
        SchemaMapping m = SchemaMapping.builder().includeSchemas("db*", "shop").excludeSchemas("db1?").build();
        assertTrue(m.includesSchema("db1"));
        assertTrue(m.includesSchema("db"));
        assertTrue(m.includesSchema("shop"));
        assertFalse(m.includesSchema("db10"), "excluded by db1?");
        assertTrue(m.includesSchema("db100"), "? is exactly one character");
        assertFalse(m.includesSchema("shops"), "anchored");
        assertFalse(m.includesSchema("mysql"));
    }

    @Test
    void tableGlobsWithSchemaPartDotsAndEscapes() {
        SchemaMapping m = SchemaMapping.builder()
                .excludeTables("*.tmp_*", "shop.audit", "a\\.b.c\\*")
                .build();
        assertFalse(m.includesTable("x", "tmp_1"));
        assertTrue(m.includesTable("x", "tmpx"));
        assertFalse(m.includesTable("shop", "audit"));
        assertTrue(m.includesTable("shop2", "audit"));
        assertFalse(m.includesTable("a.b", "c*"), "escaped dot in the schema part, escaped star is literal");
        assertTrue(m.includesTable("a.b", "cx"));
        assertTrue(m.includesTable("axb", "c*"), "an escaped dot is not a wildcard");

        SchemaMapping only = SchemaMapping.builder().includeTables("sbtest?", "shop.orders").build();
        assertTrue(only.includesTable("db1", "sbtest1"));
        assertTrue(only.includesTable("shop", "orders"));
        assertFalse(only.includesTable("other", "orders"));
        assertFalse(only.includesTable("db1", "sbtest10"));
    }

    @Test
    void regexCharactersInNamesAreLiteral() {
        SchemaMapping m = SchemaMapping.builder().includeSchemas("a+b(c)[d]$^|").build();
        assertTrue(m.includesSchema("a+b(c)[d]$^|"));
        assertFalse(m.includesSchema("aab(c)[d]$^|"));
    }

    @Test
    void excludedSchemaExcludesItsTables() {
        SchemaMapping m = SchemaMapping.builder().excludeSchemas("mysql").includeTables("*.*").build();
        assertFalse(m.includesTable("mysql", "user"));
        assertTrue(m.includesTable("app", "user"));
    }
}
