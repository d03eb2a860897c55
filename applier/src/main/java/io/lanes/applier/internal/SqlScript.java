package io.lanes.applier.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits an SQL script as the {@code mariadb}/{@code mysql} command-line clients do: statements end at the delimiter
 * ({@code ;}, or what a {@code DELIMITER} line sets) outside quotes and comments. Comments stay in the statement text
 * (executable comments {@code /*!...*}{@code /} carry SQL); empty statements are dropped. Stateless.
 */
public final class SqlScript {
    private static final Pattern USE = Pattern.compile("(?is)\\s*USE\\s+(`((?:[^`]|``)+)`|([A-Za-z0-9_$]+))\\s*;?\\s*");

    private SqlScript() {
    }

    /** One statement of a script, and the line it starts on (1-based). */
    public record Statement(String sql, int line) {
    }

    public static List<Statement> split(String script) {
        List<Statement> out = new ArrayList<>();
        String delimiter = ";";
        StringBuilder current = new StringBuilder();
        int line = 1;
        int startLine = 1;
        int i = 0;
        int n = script.length();
        while (i < n) {
            if (current.toString().isBlank() && atLineStart(script, i) && startsWithWord(script, i, "DELIMITER")) {
                int end = script.indexOf('\n', i);
                end = end < 0 ? n : end;
                String d = script.substring(i + "DELIMITER".length(), end).trim();
                if (!d.isEmpty()) {
                    delimiter = d;
                }
                current.setLength(0);
                i = end;
                continue;
            }
            char c = script.charAt(i);
            if (current.toString().isBlank()) {
                startLine = line;
            }
            if (c == '\'' || c == '"' || c == '`') {
                int end = quoted(script, i, c);
                line += count(script, i, end, '\n');
                current.append(script, i, end);
                i = end;
            } else if (c == '#' || c == '-' && script.startsWith("-- ", i) || script.startsWith("--\n", i)
                    || script.startsWith("--\t", i)) {
                int end = script.indexOf('\n', i);
                i = end < 0 ? n : end; // a line comment: dropped, the newline kept
            } else if (script.startsWith("/*", i)) {
                int end = script.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                line += count(script, i, end, '\n');
                current.append(script, i, end);
                i = end;
            } else if (script.startsWith(delimiter, i)) {
                add(out, current, startLine);
                i += delimiter.length();
            } else {
                if (c == '\n') {
                    line++;
                }
                current.append(c);
                i++;
            }
        }
        add(out, current, startLine);
        return out;
    }

    /** The database a {@code USE db} statement names, or null for any other statement. */
    public static String useDatabase(String sql) {
        Matcher m = USE.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        return m.group(2) != null ? m.group(2).replace("``", "`") : m.group(3);
    }

    private static void add(List<Statement> out, StringBuilder current, int line) {
        String sql = current.toString().strip();
        if (!sql.isEmpty()) {
            out.add(new Statement(sql, line));
        }
        current.setLength(0);
    }

    private static boolean atLineStart(String s, int i) {
        int k = i - 1;
        while (k >= 0 && (s.charAt(k) == ' ' || s.charAt(k) == '\t')) {
            k--;
        }
        return k < 0 || s.charAt(k) == '\n';
    }

    private static boolean startsWithWord(String s, int i, String word) {
        return s.regionMatches(true, i, word, 0, word.length())
                && (i + word.length() == s.length() || Character.isWhitespace(s.charAt(i + word.length())));
    }

    /** The index after a quoted string starting at {@code i} (doubled quotes and backslash escapes inside). */
    private static int quoted(String s, int i, char q) {
        int k = i + 1;
        while (k < s.length()) {
            char c = s.charAt(k);
            if (c == '\\' && q != '`') {
                k += 2;
            } else if (c == q) {
                if (k + 1 < s.length() && s.charAt(k + 1) == q) {
                    k += 2;
                } else {
                    return k + 1;
                }
            } else {
                k++;
            }
        }
        return s.length();
    }

    private static int count(String s, int from, int to, char c) {
        int n = 0;
        for (int k = from; k < to && k < s.length(); k++) {
            if (s.charAt(k) == c) {
                n++;
            }
        }
        return n;
    }
}
