package io.lanes.binlog.replication;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Start positions: the GTID kinds' text rules (whitespace dropped; a MariaDB position is comma-separated
 * domain-server-sequence triples of digits) hold exactly as the regular expressions that state them, on random text.
 */
class StartPositionTest {
    private static final String ALPHABET = "0123456789---,,, \t\n\u000B\f\r\u00a0x:";

    private static String random(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(16);
        for (int i = 0; i < n; i++) {
            b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    /** A text that is often a valid position, sometimes spoiled by one edit. */
    private static String nearlyValid(Random r) {
        StringBuilder b = new StringBuilder();
        int triples = 1 + r.nextInt(3);
        for (int t = 0; t < triples; t++) {
            b.append(t == 0 ? "" : ",").append(r.nextInt(5)).append('-').append(r.nextInt(1000)).append('-')
                    .append(Math.abs(r.nextLong()));
        }
        if (r.nextBoolean()) {
            int at = r.nextInt(b.length() + 1);
            b.insert(at, ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    @Test
    void gtidTextRulesAreTheRegularExpressionsOnes() {
        Random r = new Random(20261122);
        int valid = 0;
        for (int i = 0; i < 200_000; i++) {
            String text = i % 2 == 0 ? random(r) : nearlyValid(r);
            String stripped = text.replaceAll("\\s", "");
            boolean expectValid = stripped.isEmpty() || stripped.matches("\\d+-\\d+-\\d+(,\\d+-\\d+-\\d+)*");
            assertEquals(stripped, new StartPosition.MySqlGtids(text).gtidSet(), "MySQL set from <" + text + ">");
            if (expectValid) {
                valid++;
                assertEquals(stripped, StartPosition.mariaDbGtid(text).gtidPosition(), "<" + text + ">");
            } else {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> StartPosition.mariaDbGtid(text), "<" + text + "> is not a MariaDB GTID position");
                assertTrue(e.getMessage().contains(stripped), e.getMessage());
            }
        }
        assertTrue(valid > 20_000, "the generator makes valid positions too: " + valid);
    }

    @Test
    void aPositionWithoutWhitespaceKeepsItsText() {
        String text = "0-1-100,1-2-7";
        assertSame(text, StartPosition.mariaDbGtid(text).gtidPosition(), "no copy when there is nothing to drop");
        // printed in the one text form of a GTID start; the older prefixed form still reads
        assertEquals("gtid=0-1-100,1-2-7", StartPosition.parse("mariadb-gtid: 0-1-100, 1-2-7").toString());
        assertEquals(StartPosition.mariaDbGtid(text), StartPosition.parse("gtid=" + text));
        assertEquals("mariadb-gtid:", StartPosition.mariaDbGtid("").toString(), "an empty position names its flavour");
        assertEquals(StartPosition.mariaDbGtid(""), StartPosition.parse("mariadb-gtid:"));
        assertEquals("mysql-gtid:", StartPosition.mysqlGtidSet("").toString());
    }
}
