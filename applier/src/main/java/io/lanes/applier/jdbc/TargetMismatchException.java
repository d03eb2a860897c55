package io.lanes.applier.jdbc;

/**
 * The target does not hold what the source's change expects: an UPDATE or DELETE found no row (the target diverged from
 * the source), or a row image lacks a column the target's key needs. The message names the table, the change and the
 * key. Retrying cannot help.
 */
public final class TargetMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TargetMismatchException(String message) {
        super(message);
    }
}
