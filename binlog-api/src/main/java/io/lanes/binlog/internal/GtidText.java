package io.lanes.binlog.internal;

/**
 * Text rules of GTID positions, written as scans: streams build and parse positions once per transaction, where a
 * regular expression (compiled or not) costs more than everything else done for the transaction.
 */
public final class GtidText {
    private GtidText() {
    }

    /** {@code text} less the characters a regular expression's {@code \s} matches; {@code text} itself when none. */
    public static String withoutWhitespace(String text) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean space = c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
            if (space && b == null) {
                b = new StringBuilder(text.length()).append(text, 0, i);
            } else if (!space && b != null) {
                b.append(c);
            }
        }
        return b == null ? text : b.toString();
    }

    /** Whether {@code text} is {@code D-S-N} triples of ASCII digits, comma-separated (a MariaDB GTID position). */
    public static boolean isMariaDbPosition(String text) {
        int n = text.length();
        int i = 0;
        while (true) {
            for (int part = 0; part < 3; part++) {
                int start = i;
                while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                    i++;
                }
                if (i == start) {
                    return false;
                }
                if (part < 2) {
                    if (i == n || text.charAt(i) != '-') {
                        return false;
                    }
                    i++;
                }
            }
            if (i == n) {
                return true;
            }
            if (text.charAt(i) != ',') {
                return false;
            }
            i++;
        }
    }
}
