package io.lanes.binlog.replication;

/**
 * A MySQL GTID set text that does not parse: names the text, the character offset where parsing stopped and what was
 * expected there. An {@link IllegalArgumentException}, so callers that validate arguments catch it as one.
 */
public final class GtidSetFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String text;
    private final int offset;

    public GtidSetFormatException(String text, int offset, String problem) {
        super("malformed MySQL GTID set '" + text + "' at offset " + offset + ": " + problem);
        this.text = text;
        this.offset = offset;
    }

    /** The whole text that was parsed. */
    public String text() {
        return text;
    }

    /** The offset (0-based, in {@link #text()}) of the first character that could not be read. */
    public int offset() {
        return offset;
    }
}
