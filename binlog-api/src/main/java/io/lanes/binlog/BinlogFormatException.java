package io.lanes.binlog;

/**
 * Thrown when binlog bytes cannot be decoded: a truncated file, a checksum mismatch, a length that the input cannot hold,
 * an unknown event type that is not flagged ignorable, a value that no server writes.
 *
 * <p>The exception always names where the problem is: {@link #source()} is the file name (or a description of the stream
 * or connection) and {@link #offset()} the absolute byte offset in that source. Decoding stops at the bad event; nothing
 * from it has been handed to a caller, and every event before it was delivered whole.
 */
public class BinlogFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final long offset;

    public BinlogFormatException(String source, long offset, String reason) {
        this(source, offset, reason, null);
    }

    public BinlogFormatException(String source, long offset, String reason, Throwable cause) {
        super(format(source, offset, reason), cause);
        this.source = source;
        this.offset = offset;
    }

    private static String format(String source, long offset, String reason) {
        return (source == null ? "<stream>" : source) + " at byte offset " + offset + ": " + reason;
    }

    /** The file name, or a description of the stream or connection, that held the bad bytes. */
    public String source() {
        return source;
    }

    /** The absolute byte offset in {@link #source()} at which decoding failed. */
    public long offset() {
        return offset;
    }
}
