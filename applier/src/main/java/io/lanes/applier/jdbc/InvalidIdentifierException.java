package io.lanes.applier.jdbc;

/** An identifier that the target cannot hold exactly (NUL, empty, too long, broken UTF-16). The message names it. */
public final class InvalidIdentifierException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidIdentifierException(String message) {
        super(message);
    }
}
