package io.lanes.applier.jdbc;

import io.lanes.applier.value.ValueConversionException;
import java.io.IOException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What Lanes does when a target refuses a transaction: every error gets a {@link TargetErrorClass} (from its vendor
 * code, then its SQLState, then its exception type); retryable classes are retried, every other class stops the
 * pipeline at once, naming the position, the table, the SQLState, the vendor code and the class. Unknown errors stop.
 *
 * <p>The skip list (off by default, {@code lanes.skip-errors}) names errors that skip the whole failing transaction
 * instead of stopping, like MySQL's {@code replica_skip_errors}: entries are SQLState prefixes ({@code 23505},
 * {@code 23}) or vendor codes ({@code 1062}); {@code sqlstate:X} and {@code code:N} say which explicitly. A bare entry of
 * 1 to 4 digits is a vendor code, one of 2 or 5 characters an SQLState (prefix). An UPDATE or DELETE that matches no row
 * counts as vendor code {@value #ROW_NOT_FOUND_CODE} (MySQL's ER_KEY_NOT_FOUND) on every target. Retryable errors are
 * never skipped: they are retried. A skipped transaction is logged with its position and counted
 * ({@code LanesStats.transactionsSkippedByErrorPolicy}); it is checkpointed as done, so it is not tried again after a
 * restart.
 *
 * <p>Immutable and thread-safe.
 */
public final class TargetErrorPolicy {
    /** The vendor code an UPDATE or DELETE matching no row counts as, on every target: MySQL's ER_KEY_NOT_FOUND. */
    public static final int ROW_NOT_FOUND_CODE = 1032;

    private static final TargetErrorPolicy DEFAULTS = new TargetErrorPolicy(List.of(), List.of(), Set.of());

    private final List<String> entries;
    private final List<String> skipStates;
    private final Set<Integer> skipCodes;

    private TargetErrorPolicy(List<String> entries, List<String> skipStates, Set<Integer> skipCodes) {
        this.entries = entries;
        this.skipStates = skipStates;
        this.skipCodes = skipCodes;
    }

    /** Retry what can succeed on a retry, stop on everything else, skip nothing. */
    public static TargetErrorPolicy defaults() {
        return DEFAULTS;
    }

    /**
     * The default policy plus a skip list.
     *
     * @param skipList SQLState prefixes and vendor codes, as described in the class comment
     * @throws IllegalArgumentException naming an entry that is neither
     */
    public static TargetErrorPolicy skipping(Collection<String> skipList) {
        List<String> entries = new ArrayList<>();
        List<String> states = new ArrayList<>();
        Set<Integer> codes = new LinkedHashSet<>();
        for (String raw : skipList) {
            String e = raw.trim();
            if (e.isEmpty()) {
                continue;
            }
            String lower = e.toLowerCase(Locale.ROOT);
            if (lower.startsWith("code:")) {
                codes.add(parseCode(e, e.substring(5).trim()));
            } else if (lower.startsWith("sqlstate:")) {
                states.add(parseState(e, e.substring(9).trim()));
            } else if (e.length() <= 4 && e.chars().allMatch(Character::isDigit)) {
                codes.add(parseCode(e, e));
            } else {
                states.add(parseState(e, e));
            }
            entries.add(e);
        }
        return entries.isEmpty() ? DEFAULTS
                : new TargetErrorPolicy(List.copyOf(entries), List.copyOf(states), Collections.unmodifiableSet(codes));
    }

    private static int parseCode(String entry, String digits) {
        try {
            int code = Integer.parseInt(digits);
            if (code > 0) {
                return code;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("skip-errors entry '" + entry + "' is not a positive vendor error code");
    }

    private static String parseState(String entry, String state) {
        if ((state.length() == 2 || state.length() == 5) && state.chars().allMatch(c -> c < 128
                && Character.isLetterOrDigit(c))) {
            return state.toUpperCase(Locale.ROOT);
        }
        throw new IllegalArgumentException("skip-errors entry '" + entry + "' is neither a vendor code (digits, e.g. "
                + "1062) nor an SQLState or SQLState class (5 or 2 letters and digits, e.g. 23505 or 23)");
    }

    /** The skip list as given (empty by default). */
    public List<String> skipList() {
        return entries;
    }

    /** Whether anything may be skipped. */
    public boolean skipsAny() {
        return !entries.isEmpty();
    }

    /** Whether this error skips its transaction: never for a retryable class, else when the skip list names it. */
    public boolean skips(TargetError error) {
        if (error.errorClass().retryable() || entries.isEmpty()) {
            return false;
        }
        if (error.vendorCode() != 0 && skipCodes.contains(error.vendorCode())) {
            return true;
        }
        String state = error.sqlState();
        if (state != null) {
            String upper = state.toUpperCase(Locale.ROOT);
            for (String prefix : skipStates) {
                if (upper.startsWith(prefix)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * An error as the policy sees it.
     *
     * @param errorClass its class
     * @param sqlState the SQLState of the exception that decided the class, or null
     * @param vendorCode its vendor code, 0 when none ({@value #ROW_NOT_FOUND_CODE} for a row not found)
     */
    public record TargetError(TargetErrorClass errorClass, String sqlState, int vendorCode) {
        /** "SQLState 23505, vendor code 0, class INTEGRITY (integrity constraint violation, not retryable)". */
        public String describe() {
            return "SQLState " + (sqlState == null ? "(none)" : sqlState) + ", vendor code " + vendorCode + ", class "
                    + errorClass + " (" + errorClass.description() + ", " + (errorClass.retryable() ? "retryable"
                    : "not retryable") + ")";
        }
    }

    /** Classifies a failure: the first exception of its cause and next-exception chains that has a known code or state. */
    public static TargetError classify(Throwable failure) {
        List<Throwable> chain = chain(failure);
        for (Throwable t : chain) {
            if (t instanceof TargetRefusedException r) {
                return r.error();
            }
        }
        for (Throwable t : chain) {
            if (t instanceof SQLException s) {
                TargetErrorClass c = byCode(s.getErrorCode());
                if (c == null) {
                    c = byState(s.getSQLState());
                }
                if (c != null) {
                    return new TargetError(c, s.getSQLState(), s.getErrorCode());
                }
            }
        }
        for (Throwable t : chain) {
            TargetErrorClass c = byType(t);
            if (c != null) {
                int code = t instanceof TargetMismatchException m && m.rowNotFound() ? ROW_NOT_FOUND_CODE : 0;
                return t instanceof SQLException s ? new TargetError(c, s.getSQLState(), s.getErrorCode())
                        : new TargetError(c, null, code);
            }
        }
        for (Throwable t : chain) {
            if (t instanceof SQLException s) {
                return new TargetError(TargetErrorClass.UNKNOWN, s.getSQLState(), s.getErrorCode());
            }
        }
        return new TargetError(TargetErrorClass.UNKNOWN, null, 0);
    }

    /** The throwable, its causes and (for SQL exceptions) their next exceptions, each once, at most 32. */
    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> out = new ArrayList<>();
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        List<Throwable> todo = new ArrayList<>();
        todo.add(failure);
        while (!todo.isEmpty() && out.size() < 32) {
            Throwable t = todo.remove(0);
            if (t == null || seen.put(t, Boolean.TRUE) != null) {
                continue;
            }
            out.add(t);
            todo.add(t.getCause());
            if (t instanceof SQLException s) {
                todo.add(s.getNextException());
            }
        }
        return out;
    }

    private static TargetErrorClass byCode(int code) {
        return switch (code) {
            // MySQL/MariaDB server and client errors
            case 1213, 1614 -> TargetErrorClass.DEADLOCK;
            case 1205, 3572 -> TargetErrorClass.LOCK_WAIT_TIMEOUT;
            case 1040, 1053, 1152, 1158, 1159, 1160, 1161, 1317, 1927, 2002, 2003, 2006, 2013, 4031 ->
                    TargetErrorClass.CONNECTION;
            case 1021, 1041, 1637 -> TargetErrorClass.RESOURCE;
            // data truncated, incorrect value, data too long, incorrect date-time: data errors whatever the SQLState
            // (MariaDB sends 1265 with the warning state 01000, in an exception of a connection type)
            case 1265, 1292, 1366, 1406 -> TargetErrorClass.DATA;
            case ROW_NOT_FOUND_CODE -> TargetErrorClass.TARGET_DIVERGED;
            // H2: lock timeout, concurrent update, connection broken, database closed
            case 50200 -> TargetErrorClass.LOCK_WAIT_TIMEOUT;
            case 90131 -> TargetErrorClass.SERIALIZATION;
            case 90067, 90098, 90121 -> TargetErrorClass.CONNECTION;
            default -> null;
        };
    }

    private static TargetErrorClass byState(String state) {
        if (state == null || state.length() < 2) {
            return null;
        }
        String s = state.toUpperCase(Locale.ROOT);
        switch (s) {
            case "40P01":
                return TargetErrorClass.DEADLOCK;
            case "40001":
                return TargetErrorClass.SERIALIZATION;
            case "40003", "57P01", "57P02", "57P03", "70100":
                return TargetErrorClass.CONNECTION;
            case "55P03", "57014", "HYT00", "HYT01":
                return TargetErrorClass.LOCK_WAIT_TIMEOUT;
            default:
                break;
        }
        return switch (s.substring(0, 2)) {
            case "08" -> TargetErrorClass.CONNECTION;
            case "53" -> TargetErrorClass.RESOURCE;
            case "23" -> TargetErrorClass.INTEGRITY;
            case "22" -> TargetErrorClass.DATA;
            case "42", "28", "3D", "3F", "0A" -> TargetErrorClass.SYNTAX_OR_ACCESS;
            default -> null;
        };
    }

    private static TargetErrorClass byType(Throwable t) {
        if (t instanceof SQLTransactionRollbackException) {
            return TargetErrorClass.SERIALIZATION;
        }
        if (t instanceof SQLTimeoutException) {
            return TargetErrorClass.LOCK_WAIT_TIMEOUT;
        }
        if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                || t instanceof SQLRecoverableException || t instanceof IOException) {
            return TargetErrorClass.CONNECTION;
        }
        if (t instanceof SQLIntegrityConstraintViolationException) {
            return TargetErrorClass.INTEGRITY;
        }
        if (t instanceof SQLDataException || t instanceof ValueConversionException) {
            return TargetErrorClass.DATA;
        }
        if (t instanceof SQLSyntaxErrorException || t instanceof SQLInvalidAuthorizationSpecException
                || t instanceof InvalidIdentifierException || t instanceof io.lanes.applier.ddl.UnsupportedDdlException) {
            return TargetErrorClass.SYNTAX_OR_ACCESS;
        }
        if (t instanceof TargetMismatchException || t instanceof MissingTableException) {
            return TargetErrorClass.TARGET_DIVERGED;
        }
        return null;
    }

    @Override
    public String toString() {
        return "TargetErrorPolicy[skip=" + entries + "]";
    }
}
