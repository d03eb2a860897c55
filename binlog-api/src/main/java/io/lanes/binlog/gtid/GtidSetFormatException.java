package io.lanes.binlog.gtid;

/**
 * A GTID set text that does not parse: names what was read (a MySQL GTID set or a MariaDB GTID position), the text, the
 * character offset where parsing stopped and what was expected there. An {@link IllegalArgumentException}, so callers
 * that validate arguments catch it as one.
 */
public final class GtidSetFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String text;
    private final int offset;

    /** A malformed MySQL GTID set. */
    public GtidSetFormatException(String text, int offset, String problem) {
        this("MySQL GTID set", text, offset, problem);
    }

    /**
     * @param what what the text should have been, e.g. "MariaDB GTID position"
     */
    public GtidSetFormatException(String what, String text, int offset, String problem) {
        super("malformed " + what + " '" + text + "' at offset " + offset + ": " + problem);
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
