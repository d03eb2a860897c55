package io.lanes.applier.internal;

import io.lanes.applier.internal.SqlToken.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits MySQL SQL into tokens: backtick identifiers (doubled backticks unescaped), strings in single quotes (and in double
 * quotes unless ANSI_QUOTES, where they are identifiers) with MySQL backslash escapes unless NO_BACKSLASH_ESCAPES,
 * {@code x'..'}/{@code 0x..} and {@code b'..'}/{@code 0b..} literals, numbers, words and symbols. Comments are dropped;
 * executable comments ({@code /*!50100 ... *}{@code /}, MariaDB's {@code /*M!...}) contribute their content, as the server
 * would run it.
 */
public final class MySqlTokenizer {
    private final String sql;
    private final boolean ansiQuotes;
    private final boolean backslashEscapes;
    private int pos;

    private MySqlTokenizer(String sql, boolean ansiQuotes, boolean backslashEscapes) {
        this.sql = sql;
        this.ansiQuotes = ansiQuotes;
        this.backslashEscapes = backslashEscapes;
    }

    public static List<SqlToken> tokenize(String sql, boolean ansiQuotes, boolean backslashEscapes) {
        return new MySqlTokenizer(sql, ansiQuotes, backslashEscapes).run();
    }

    private List<SqlToken> run() {
        List<SqlToken> out = new ArrayList<>();
        int n = sql.length();
        while (pos < n) {
            char c = sql.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (c == '#' || c == '-' && sql.startsWith("-- ", pos) || sql.startsWith("--\n", pos)
                    || c == '-' && pos + 2 == n && sql.startsWith("--", pos)) {
                int end = sql.indexOf('\n', pos);
                pos = end < 0 ? n : end + 1;
            } else if (sql.startsWith("/*", pos)) {
                int end = sql.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw new DdlSyntaxException("unterminated comment", pos);
                }
                if (sql.startsWith("/*!", pos) || sql.startsWith("/*M!", pos)) {
                    int start = pos + (sql.charAt(pos + 2) == 'M' ? 4 : 3);
                    while (start < end && Character.isDigit(sql.charAt(start))) {
                        start++;
                    }
                    // Executable comment: its content is SQL. Tokenize it in place (offsets stay in the full statement).
                    int saved = end;
                    pos = start;
                    String inner = sql.substring(0, saved);
                    MySqlTokenizer sub = new MySqlTokenizer(inner, ansiQuotes, backslashEscapes);
                    sub.pos = start;
                    for (SqlToken t : sub.run()) {
                        if (t.type() != Type.END) {
                            out.add(t);
                        }
                    }
                    pos = saved + 2;
                } else {
                    pos = end + 2;
                }
            } else if (c == '`') {
                int start = pos;
                String name = quoted('`', false);
                out.add(new SqlToken(Type.QUOTED_IDENTIFIER, name, start, pos));
            } else if (c == '"' && ansiQuotes) {
                int start = pos;
                String name = quoted('"', false);
                out.add(new SqlToken(Type.QUOTED_IDENTIFIER, name, start, pos));
            } else if (c == '\'' || c == '"') {
                int start = pos;
                String text = quoted(c, backslashEscapes);
                out.add(new SqlToken(Type.STRING, text, start, pos));
            } else if ((c == 'x' || c == 'X') && pos + 1 < n && sql.charAt(pos + 1) == '\'') {
                int start = pos++;
                String hex = quoted('\'', false);
                out.add(new SqlToken(Type.HEX, hex, start, pos));
            } else if ((c == 'b' || c == 'B') && pos + 1 < n && sql.charAt(pos + 1) == '\'') {
                int start = pos++;
                String bits = quoted('\'', false);
                out.add(new SqlToken(Type.BITS, bits, start, pos));
            } else if (c == '0' && pos + 1 < n && (sql.charAt(pos + 1) == 'x' || sql.charAt(pos + 1) == 'b')
                    && pos + 2 < n && Character.isLetterOrDigit(sql.charAt(pos + 2))) {
                int start = pos;
                boolean hex = sql.charAt(pos + 1) == 'x';
                pos += 2;
                while (pos < n && Character.isLetterOrDigit(sql.charAt(pos))) {
                    pos++;
                }
                out.add(new SqlToken(hex ? Type.HEX : Type.BITS, sql.substring(start + 2, pos), start, pos));
            } else if (Character.isDigit(c) || c == '.' && pos + 1 < n && Character.isDigit(sql.charAt(pos + 1))) {
                int start = pos;
                while (pos < n && (Character.isDigit(sql.charAt(pos)) || sql.charAt(pos) == '.')) {
                    pos++;
                }
                if (pos < n && (sql.charAt(pos) == 'e' || sql.charAt(pos) == 'E')) {
                    pos++;
                    if (pos < n && (sql.charAt(pos) == '+' || sql.charAt(pos) == '-')) {
                        pos++;
                    }
                    while (pos < n && Character.isDigit(sql.charAt(pos))) {
                        pos++;
                    }
                }
                if (pos < n && isWordChar(sql.charAt(pos))) {
                    // An identifier that starts with digits (MySQL allows 1abc).
                    while (pos < n && isWordChar(sql.charAt(pos))) {
                        pos++;
                    }
                    out.add(new SqlToken(Type.WORD, sql.substring(start, pos), start, pos));
                } else {
                    out.add(new SqlToken(Type.NUMBER, sql.substring(start, pos), start, pos));
                }
            } else if (isWordChar(c) || c == '@') {
                int start = pos;
                pos++;
                while (pos < n && (isWordChar(sql.charAt(pos)) || sql.charAt(pos) == '@')) {
                    pos++;
                }
                out.add(new SqlToken(Type.WORD, sql.substring(start, pos), start, pos));
            } else {
                int start = pos;
                String two = pos + 1 < n ? sql.substring(pos, pos + 2) : "";
                if (two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=") || two.equals(":=")
                        || two.equals("||") || two.equals("&&")) {
                    pos += 2;
                    out.add(new SqlToken(Type.SYMBOL, two, start, pos));
                } else {
                    pos++;
                    out.add(new SqlToken(Type.SYMBOL, String.valueOf(c), start, pos));
                }
            }
        }
        out.add(new SqlToken(Type.END, "", n, n));
        return out;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 0x7f;
    }

    private String quoted(char quote, boolean escapes) {
        int start = pos;
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= sql.length()) {
                throw new DdlSyntaxException("unterminated " + quote + "-quoted text", start);
            }
            char c = sql.charAt(pos);
            if (c == quote) {
                if (pos + 1 < sql.length() && sql.charAt(pos + 1) == quote) {
                    sb.append(quote);
                    pos += 2;
                    continue;
                }
                pos++;
                return sb.toString();
            }
            if (c == '\\' && escapes && pos + 1 < sql.length()) {
                char e = sql.charAt(pos + 1);
                switch (e) {
                    case '0' -> sb.append('\0');
                    case 'b' -> sb.append('\b');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'Z' -> sb.append('\u001a');
                    case '%', '_' -> sb.append('\\').append(e);
                    default -> sb.append(e);
                }
                pos += 2;
                continue;
            }
            sb.append(c);
            pos++;
        }
    }
}
