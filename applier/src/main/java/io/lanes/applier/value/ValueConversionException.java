package io.lanes.applier.value;

/**
 * A value the target column cannot hold faithfully (out of range, a TIME beyond 24 h into a time column, a zero date
 * under {@link ZeroDatePolicy#ERROR}, a type with no conversion). The message names the column, its type and the value's
 * Java type. Retrying cannot help: the apply stops.
 */
public final class ValueConversionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ValueConversionException(String message) {
        super(message);
    }
}
