package io.lanes.binlog.gtid;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** MariaDB GTID positions parse as the rule states: whitespace (a regular expression's \s) ignored, empty items skipped. */
class MariaDbGtidPositionTest {
    private static final String ALPHABET = "0123456789--,, \t\n\u000B\f\r\u00a0";

    /** The rule written with regular expressions, as the reference. */
    private static List<MariaDbGtid> reference(String text) {
        List<MariaDbGtid> out = new ArrayList<>();
        String t = text.replaceAll("\\s", "");
        if (t.isEmpty()) {
            return out;
        }
        for (String g : t.split(",")) {
            if (g.isEmpty()) {
                continue;
            }
            // -1: a trailing '-' is an empty field, refused (a plain split dropped it, so "0-1-5-" once read as 0-1-5;
            // start positions never accepted it, and the one parser now refuses it everywhere)
            String[] f = g.split("-", -1);
            if (f.length != 3) {
                throw new IllegalArgumentException(g);
            }
            long domain = Long.parseLong(f[0]);
            long server = Long.parseLong(f[1]);
            if (domain > 0xFFFF_FFFFL || server > 0xFFFF_FFFFL || f[0].startsWith("+") || f[1].startsWith("+")
                    || f[2].startsWith("+")) {
                throw new IllegalArgumentException(g); // domain and server ids are unsigned 32 bits
            }
            out.add(new MariaDbGtid(domain, server, Long.parseUnsignedLong(f[2])));
        }
        return out;
    }

    @Test
    void positionsParseAsTheReferenceRuleOnRandomText() {
        Random r = new Random(11);
        int parsed = 0;
        for (int i = 0; i < 100_000; i++) {
            StringBuilder b = new StringBuilder();
            if (i % 2 == 0) {
                for (int n = r.nextInt(14); n > 0; n--) {
                    b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
                }
            } else {
                for (int g = 0, n = 1 + r.nextInt(3); g < n; g++) {
                    b.append(g == 0 ? "" : r.nextBoolean() ? ", " : ",").append(r.nextInt(3)).append('-')
                            .append(r.nextInt(9)).append(r.nextBoolean() ? "-" : " -\t").append(r.nextInt(1_000_000));
                }
            }
            String text = b.toString();
            List<MariaDbGtid> expected;
            try {
                expected = reference(text);
            } catch (IllegalArgumentException e) {
                assertThrows(IllegalArgumentException.class, () -> MariaDbGtidPosition.parseList(text), "<" + text + ">");
                continue;
            }
            assertEquals(expected, MariaDbGtidPosition.parseList(text), "<" + text + ">");
            parsed++;
        }
        assertTrue(parsed > 40_000, "valid positions generated: " + parsed);
    }
}
