package io.lanes.binlog.gtid;

import java.util.Objects;

/**
 * Where a source transaction ends: the binlog file and the offset just past the transaction, and the GTID state after
 * it (a {@link MySqlGtidSet} such as {@code uuid:1-42}, or a {@link MariaDbGtidPosition} such as {@code 0-1-55,1-2-7};
 * empty when the source has no GTIDs). A restart resumes from either: the GTID state when there is one, the file and
 * offset otherwise ({@code StartPosition.parse} reads this text). Checkpoints, failure messages and Kafka Connect
 * offsets all write this form. Immutable.
 *
 * <p>Text form, the one form of a binlog position in Lanes: {@code NAME:OFFSET}, or {@code NAME:OFFSET gtid=STATE}.
 * {@link #parse} also reads the form older releases wrote for a start position, {@code file:NAME:OFFSET}.
 *
 * <p>The GTID state is kept as text: a stream makes one position per transaction, and parsing it is needed only to
 * resume ({@link #gtids()}).
 *
 * @param file the binlog file name (or stream name)
 * @param offset the byte offset just past the transaction
 * @param gtidState the GTID state after the transaction as the server prints it, empty when none
 */
public record SourcePosition(String file, long offset, String gtidState) {
    /** What separates the file position from the GTID state in the text form. */
    public static final String GTID_MARK = " gtid=";
    private static final String OLD_FILE_PREFIX = "file:";

    public SourcePosition {
        Objects.requireNonNull(file, "file");
        gtidState = gtidState == null ? "" : gtidState;
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
    }

    /** A file position without GTID state. */
    public SourcePosition(String file, long offset) {
        this(file, offset, "");
    }

    /**
     * Reads {@link #toString()}'s form ({@code NAME:OFFSET[ gtid=STATE]}), or the older {@code file:NAME:OFFSET}.
     *
     * @throws IllegalArgumentException naming the text when malformed (the GTID state is checked by {@link #gtids()})
     */
    public static SourcePosition parse(String text) {
        Objects.requireNonNull(text, "text");
        int mark = text.indexOf(GTID_MARK);
        String head = mark < 0 ? text : text.substring(0, mark);
        String gtid = mark < 0 ? "" : text.substring(mark + GTID_MARK.length());
        if (head.startsWith(OLD_FILE_PREFIX) && head.indexOf(':', OLD_FILE_PREFIX.length()) > OLD_FILE_PREFIX.length()) {
            head = head.substring(OLD_FILE_PREFIX.length());
        }
        int colon = head.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("not a source position (NAME:OFFSET[ gtid=...]): " + text);
        }
        try {
            return new SourcePosition(head.substring(0, colon), Long.parseLong(head.substring(colon + 1)), gtid);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a source position (NAME:OFFSET[ gtid=...]): " + text, e);
        }
    }

    /** Whether the position carries GTID state. */
    public boolean hasGtids() {
        return !gtidState.isEmpty();
    }

    /**
     * The GTID state parsed ({@link GtidSet#parse}: the flavour from the text), or null when there is none.
     *
     * @throws IllegalArgumentException when it does not parse
     */
    public GtidSet gtids() {
        return gtidState.isEmpty() ? null : GtidSet.parse(gtidState);
    }

    /**
     * Orders positions of one source by file, then offset: files of one server by their numeric extension
     * (bin.000009 before bin.000010), other names as text. GTID states are not compared.
     */
    public int compareFileAndOffset(SourcePosition other) {
        int files = compareBinlogFiles(file, other.file);
        return files != 0 ? files : Long.compare(offset, other.offset);
    }

    /**
     * Orders binlog file names of one server by their numeric extension (bin.000009 before bin.000010 before
     * bin.1000000); names of different series, or without a number, as text.
     */
    public static int compareBinlogFiles(String a, String b) {
        int da = a.lastIndexOf('.');
        int db = b.lastIndexOf('.');
        if (da > 0 && db > 0 && a.substring(0, da).equals(b.substring(0, db))) {
            try {
                return Long.compare(Long.parseLong(a.substring(da + 1)), Long.parseLong(b.substring(db + 1)));
            } catch (NumberFormatException notNumbered) {
                // compared as names below
            }
        }
        return a.compareTo(b);
    }

    @Override
    public String toString() {
        return file + ":" + offset + (gtidState.isEmpty() ? "" : GTID_MARK + gtidState);
    }
}
