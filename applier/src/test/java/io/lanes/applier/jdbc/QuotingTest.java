package io.lanes.applier.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The quoting function of each dialect, on its own (the round trips through real targets are in HostileNamesTest). */
class QuotingTest {

    @Test
    void mysqlDoublesBackticksAndLeavesQuotesAlone() {
        Dialect d = Dialect.mysql();
        assertEquals("`select`", d.quoteIdentifier("select"));
        assertEquals("`a``b`", d.quoteIdentifier("a`b"));
        assertEquals("````", d.quoteIdentifier("`"));
        assertEquals("`a\"b'c;`", d.quoteIdentifier("a\"b'c;"));
        assertEquals("`db`.`t``x`", d.qualify("db", "t`x"));
    }

    @Test
    void h2AndPostgresDoubleDoubleQuotesAndLeaveBackticksAlone() {
        for (Dialect d : new Dialect[] {Dialect.h2(), Dialect.postgresql()}) {
            assertEquals("\"select\"", d.quoteIdentifier("select"));
            assertEquals("\"a\"\"b\"", d.quoteIdentifier("a\"b"));
            assertEquals("\"\"\"\"", d.quoteIdentifier("\""));
            assertEquals("\"a`b'c;\"", d.quoteIdentifier("a`b'c;"));
            assertEquals("\"Mixed Case\"", d.quoteIdentifier("Mixed Case"));
        }
    }

    @Test
    void nulEmptyNullAndBrokenSurrogatesAreRejectedByEveryDialect() {
        for (Dialect d : new Dialect[] {Dialect.h2(), Dialect.postgresql(), Dialect.mysql()}) {
            InvalidIdentifierException nul = assertThrows(InvalidIdentifierException.class, () -> d.quoteIdentifier("a\0b"));
            assertTrue(nul.getMessage().contains("NUL at index 1"), nul.getMessage());
            assertTrue(nul.getMessage().contains("a\\u0000b"), "the name is shown escaped: " + nul.getMessage());
            assertThrows(InvalidIdentifierException.class, () -> d.quoteIdentifier(""));
            assertThrows(InvalidIdentifierException.class, () -> d.quoteIdentifier(null));
            assertThrows(InvalidIdentifierException.class, () -> d.quoteIdentifier("x\uD83D"));
            assertThrows(InvalidIdentifierException.class, () -> d.quoteIdentifier("\uDE80x"));
        }
    }

    @Test
    void mysqlCountsCharactersUpTo64() {
        Dialect d = Dialect.mysql();
        String max = "é".repeat(64);
        assertEquals("`" + max + "`", d.quoteIdentifier(max));
        InvalidIdentifierException e = assertThrows(InvalidIdentifierException.class, () -> d.quoteIdentifier(max + "x"));
        assertTrue(e.getMessage().contains("65 long, more than the 64"), e.getMessage());
    }

    @Test
    void postgresCountsUtf8BytesUpTo63BecauseItTruncatesSilently() {
        Dialect d = Dialect.postgresql();
        assertEquals("\"" + "a".repeat(63) + "\"", d.quoteIdentifier("a".repeat(63)));
        assertThrows(InvalidIdentifierException.class, () -> d.quoteIdentifier("a".repeat(64)));
        // 32 two-byte characters are 64 bytes: too long although only 32 characters.
        InvalidIdentifierException e = assertThrows(InvalidIdentifierException.class, () -> d.quoteIdentifier("é".repeat(32)));
        assertTrue(e.getMessage().contains("64 long, more than the 63"), e.getMessage());
    }

    @Test
    void h2AcceptsUpTo256Characters() {
        Dialect d = Dialect.h2();
        d.quoteIdentifier("x".repeat(256));
        assertThrows(InvalidIdentifierException.class, () -> d.quoteIdentifier("x".repeat(257)));
    }

    @Test
    void dialectForUrlNamesOnlyTheSchemeWhenUnknown() {
        assertEquals(Dialect.Kind.H2, Dialect.forJdbcUrl("jdbc:h2:mem:x").kind());
        assertEquals(Dialect.Kind.POSTGRESQL, Dialect.forJdbcUrl("jdbc:postgresql://h/db").kind());
        assertEquals(Dialect.Kind.MYSQL, Dialect.forJdbcUrl("jdbc:mariadb://h/db").kind());
        assertEquals(Dialect.Kind.MYSQL, Dialect.forJdbcUrl("JDBC:MYSQL://h/db").kind());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Dialect.forJdbcUrl("jdbc:oracle:thin:scott/tiger@host"));
        assertTrue(e.getMessage().contains("jdbc:oracle"), e.getMessage());
        assertTrue(!e.getMessage().contains("tiger"), "no password in the message: " + e.getMessage());
    }
}
