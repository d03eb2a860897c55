package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaGroupFinderTest {
    @Test
    void schemasJoinedByAnyTransactionFormOneGroup() {
        SchemaGroupFinder f = new SchemaGroupFinder();
        f.add(List.of("shop"));
        f.add(List.of("crm"));
        f.add(List.of("billing", "shop"));
        f.add(List.of("audit", "zeta"));
        f.add(List.of("zeta", "billing"));
        f.add(List.of("logs"));
        assertEquals(List.of(List.of("audit", "billing", "shop", "zeta"), List.of("crm"), List.of("logs")), f.groups());
        assertEquals("audit,billing,shop,zeta", f.asOption());
    }
}
