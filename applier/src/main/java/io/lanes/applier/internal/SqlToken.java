package io.lanes.applier.internal;

import java.util.Locale;

/**
 * A token of MySQL SQL text.
 *
 * @param type what kind of token
 * @param text the token's value: an identifier unquoted, a string unescaped, a number or symbol as written
 * @param offset character offset of the token's first character in the statement
 * @param end character offset just past the token
 */
public record SqlToken(Type type, String text, int offset, int end) {
    public enum Type { WORD, QUOTED_IDENTIFIER, STRING, HEX, BITS, NUMBER, SYMBOL, END }

    /** Whether this is the unquoted keyword {@code keyword} (case-insensitive). */
    public boolean is(String keyword) {
        return type == Type.WORD && text.equalsIgnoreCase(keyword);
    }

    public boolean isSymbol(String symbol) {
        return type == Type.SYMBOL && text.equals(symbol);
    }

    /** Whether this token can name something (an unquoted word or a quoted identifier). */
    public boolean isName() {
        return type == Type.WORD || type == Type.QUOTED_IDENTIFIER;
    }

    public String upper() {
        return text.toUpperCase(Locale.ROOT);
    }
}
