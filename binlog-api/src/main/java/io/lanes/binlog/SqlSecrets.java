package io.lanes.binlog;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hides passwords that SQL text from a binlog can carry ({@code CREATE USER ... IDENTIFIED BY 'x'},
 * {@code SET PASSWORD = PASSWORD('x')}, {@code CHANGE MASTER TO MASTER_PASSWORD='x'}, {@code GRANT ... IDENTIFIED BY}):
 * servers log account statements as written, and a statement quoted in a log line or an exception message must not
 * repeat the secret. Every string literal that such a clause gives is replaced by {@code '<redacted>'}; the rest of the
 * text is unchanged, so the message still says which statement failed.
 *
 * <p>Stateless and thread-safe.
 */
public final class SqlSecrets {
    /** An account name: user, 'user', `user` or "user", optionally @host in the same forms, or CURRENT_USER(). */
    private static final String ACCOUNT = "(?:CURRENT_USER(?:\\s*\\(\\s*\\))?|(?:'[^']*'|\"[^\"]*\"|`[^`]*`|[\\w.$]+)"
            + "(?:\\s*@\\s*(?:'[^']*'|\"[^\"]*\"|`[^`]*`|[\\w.%$-]+))?)";
    /** The clauses after which a string literal is a secret, then the literal ('...' or "..." with either escape). */
    private static final Pattern SECRET = Pattern.compile(
            "(?i)(\\bIDENTIFIED\\s+(?:(?:WITH|VIA)\\s+(?:'[^']*'|\"[^\"]*\"|`[^`]*`|\\w+)\\s+)?(?:BY|AS|USING)\\s+"
                    + "(?:PASSWORD\\s+)?"
                    + "|\\bPASSWORD\\s*\\(\\s*"
                    + "|\\b(?:MASTER_|SOURCE_)?PASSWORD\\s*=\\s*(?:PASSWORD\\s*\\(\\s*)?"
                    // SET PASSWORD FOR user@host = 'x' (MySQL 8 also takes the clear text there)
                    + "|\\bPASSWORD\\s+FOR\\s+" + ACCOUNT + "\\s*=\\s*(?:PASSWORD\\s*\\(\\s*)?"
                    // ALTER USER ... IDENTIFIED BY 'new' REPLACE 'current'; CREATE SERVER ... OPTIONS (PASSWORD 'x')
                    + "|\\bREPLACE\\s+(?=['\"])|\\bPASSWORD\\s+(?=['\"])"
                    + "|\\bOLD_PASSWORD\\s*\\(\\s*)"
                    + "('(?:[^'\\\\]|\\\\.|'')*'?|\"(?:[^\"\\\\]|\\\\.|\"\")*\"?)");
    private static final String MASK = "'<redacted>'";

    private SqlSecrets() {
    }

    /** The text with every secret literal replaced; the same instance when there is none. */
    public static String redact(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = SECRET.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int last = 0;
        do {
            out.append(text, last, m.start(2)).append(MASK);
            last = m.end(2);
        } while (m.find());
        return out.append(text, last, text.length()).toString();
    }

    /**
     * The exception itself when no message in its cause chain holds a secret; otherwise a copy of the chain (same types
     * where they are {@link SQLException}s, same SQLStates, vendor codes and stack traces) with redacted messages, so
     * that a stack trace printed by a logger does not repeat the secret either.
     */
    public static Throwable redact(Throwable failure) {
        if (failure == null || !holdsSecret(failure, 0)) {
            return failure;
        }
        return copy(failure, 0);
    }

    private static boolean holdsSecret(Throwable t, int depth) {
        for (Throwable c = t; c != null && depth < 32; c = c.getCause() == c ? null : c.getCause(), depth++) {
            String m = c.getMessage();
            if (m != null && SECRET.matcher(m).find()) {
                return true;
            }
            if (c instanceof SQLException s && s.getNextException() != null && holdsSecret(s.getNextException(), depth + 1)) {
                return true;
            }
        }
        return false;
    }

    private static Throwable copy(Throwable t, int depth) {
        Throwable cause = t.getCause() != null && t.getCause() != t && depth < 32 ? copy(t.getCause(), depth + 1) : null;
        String message = redact(t.getMessage());
        Throwable out;
        if (t instanceof SQLException s) {
            SQLException sql = new SQLException(message == null ? null : "(" + t.getClass().getSimpleName() + ") " + message,
                    s.getSQLState(), s.getErrorCode(), cause);
            if (s.getNextException() != null && depth < 32) {
                sql.setNextException((SQLException) copy(s.getNextException(), depth + 1));
            }
            out = sql;
        } else {
            out = new RuntimeException(t.getClass().getName() + (message == null ? "" : ": " + message), cause);
        }
        out.setStackTrace(t.getStackTrace());
        return out;
    }
}
