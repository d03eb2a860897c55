package io.lanes.applier.internal;

import io.lanes.applier.internal.SqlToken.Type;
import java.util.List;
import java.util.Locale;

/**
 * A position in a statement's tokens and the primitives a recursive-descent parser reads them with: look ahead, take
 * a keyword, a symbol or a name, skip a balanced parenthesis, and fail with a {@link DdlSyntaxException} at the offset
 * of the token that did not fit. The token list ends with an {@link Type#END} token.
 *
 * <p>Not thread-safe: one parser, one statement, one thread.
 */
abstract class SqlTokenCursor {
    final List<SqlToken> tokens;
    /** The index of the next token. */
    int pos;

    SqlTokenCursor(List<SqlToken> tokens) {
        this.tokens = tokens;
    }

    final String name() {
        SqlToken t = next();
        if (!t.isName()) {
            throw error("expected a name, found " + describe(t));
        }
        return t.text();
    }

    final void skipBalanced() {
        expectSymbol("(");
        int depth = 1;
        while (depth > 0) {
            SqlToken t = next();
            if (t.type() == Type.END) {
                throw error("unbalanced parentheses");
            }
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            }
        }
    }

    final void skipToEnd() {
        while (peek().type() != Type.END && !peek().isSymbol(";")) {
            pos++;
        }
    }

    final SqlToken peek() {
        return tokens.get(pos);
    }

    final SqlToken peekAt(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    final SqlToken next() {
        SqlToken t = tokens.get(pos);
        if (t.type() == Type.END) {
            throw error("unexpected end of statement");
        }
        pos++;
        return t;
    }

    final boolean accept(String keyword) {
        if (peek().is(keyword) || keyword.equals("=") && peek().isSymbol("=")) {
            pos++;
            return true;
        }
        return false;
    }

    final boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    final boolean acceptSequence(String... keywords) {
        for (int i = 0; i < keywords.length; i++) {
            if (!peekAt(i).is(keywords[i])) {
                return false;
            }
        }
        pos += keywords.length;
        return true;
    }

    final void expect(String keyword) {
        if (!accept(keyword)) {
            throw error("expected " + keyword + ", found " + describe(peek()));
        }
    }

    final void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) {
            throw error("expected '" + symbol + "', found " + describe(peek()));
        }
    }

    final void expectType(Type type) {
        if (next().type() != type) {
            throw error("expected a " + type.name().toLowerCase(Locale.ROOT));
        }
    }

    final String describe(SqlToken t) {
        return t.type() == Type.END ? "the end of the statement" : "'" + t.text() + "'";
    }

    final DdlSyntaxException error(String message) {
        return new DdlSyntaxException(message, peek().offset());
    }
}
