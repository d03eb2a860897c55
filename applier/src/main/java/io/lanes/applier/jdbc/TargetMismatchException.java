package io.lanes.applier.jdbc;

/**
 * The target does not hold what the source's change expects: an UPDATE or DELETE found no row (the target diverged from
 * the source), or a row image lacks a column the target's key needs. The message names the table, the change and the
 * key. Retrying cannot help.
 */
public final class TargetMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean rowNotFound;

    public TargetMismatchException(String message) {
        this(message, false);
    }

    /** @param rowNotFound whether an UPDATE or DELETE found no row (MySQL's error 1032 for the skip list) */
    public TargetMismatchException(String message, boolean rowNotFound) {
        super(message);
        this.rowNotFound = rowNotFound;
    }

    /** Whether an UPDATE or DELETE found no row, rather than a row image that does not fit the table. */
    public boolean rowNotFound() {
        return rowNotFound;
    }
}
