package io.lanes.core;

/** A serialized {@link Checkpoint} could not be read; names the byte offset where decoding failed. */
public final class CorruptCheckpointException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int offset;

    public CorruptCheckpointException(String message, int offset) {
        super(message + " (at byte offset " + offset + ")");
        this.offset = offset;
    }

    public int offset() {
        return offset;
    }
}
