package io.lanes.binlog;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** MariaDB GTID positions parse as the rule states: whitespace (a regular expression's \s) ignored, empty items skipped. */
class MariaGtidTest {
    private static final String ALPHABET = "0123456789--,, \t\n\u000B\f\r\u00a0";

    /** The rule written with regular expressions, as the reference. */
    private static List<MariaGtid> reference(String text) {
        List<MariaGtid> out = new ArrayList<>();
        String t = text.replaceAll("\\s", "");
        if (t.isEmpty()) {
            return out;
        }
        for (String g : t.split(",")) {
            if (g.isEmpty()) {
                continue;
            }
            String[] f = g.split("-");
            if (f.length != 3) {
                throw new IllegalArgumentException(g);
            }
            out.add(new MariaGtid(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseUnsignedLong(f[2])));
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
            List<MariaGtid> expected;
            try {
                expected = reference(text);
            } catch (IllegalArgumentException e) {
                assertThrows(IllegalArgumentException.class, () -> MariaGtid.parsePosition(text), "<" + text + ">");
                continue;
            }
            assertEquals(expected, MariaGtid.parsePosition(text), "<" + text + ">");
            parsed++;
        }
        assertTrue(parsed > 40_000, "valid positions generated: " + parsed);
    }
}
