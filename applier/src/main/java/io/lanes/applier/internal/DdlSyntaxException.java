package io.lanes.applier.internal;

/** The DDL parser does not understand a statement; the handler turns it into a clear error or an as-is fallback. */
public final class DdlSyntaxException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int offset;

    public DdlSyntaxException(String message, int offset) {
        super(message + " at character " + offset);
        this.offset = offset;
    }

    public int offset() {
        return offset;
    }
}
