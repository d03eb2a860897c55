package io.lanes.applier.checkpoint;

import java.nio.file.Path;

/** A checkpoint file that does not read back (truncated, corrupted, foreign). Names the file and the byte offset. */
public final class CheckpointFormatException extends java.io.IOException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;
    private final long offset;

    public CheckpointFormatException(Path file, long offset, String problem) {
        super("bad checkpoint file " + file + " at byte " + offset + ": " + problem);
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
