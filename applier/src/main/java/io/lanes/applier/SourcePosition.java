package io.lanes.applier;

import java.util.Objects;

/**
 * Where a source transaction ends, as the applier writes it into checkpoints: the binlog file and the offset just past
 * the transaction, and the GTID state after it (a MySQL GTID set such as {@code uuid:1-42}, or MariaDB's per-domain
 * positions such as {@code 0-1-55,1-2-7}; empty when the source has no GTIDs). A restart can resume from either: the file
 * and offset for files and file/position replication, the GTID state for GTID replication. Immutable.
 *
 * <p>Text form: {@code file:offset} or {@code file:offset gtid=STATE}.
 *
 * @param file the binlog file name (or stream name)
 * @param offset the byte offset just past the transaction
 * @param gtidState the GTID state after the transaction, empty when none
 */
public record SourcePosition(String file, long offset, String gtidState) {
    private static final String GTID_MARK = " gtid=";

    public SourcePosition {
        Objects.requireNonNull(file, "file");
        gtidState = gtidState == null ? "" : gtidState;
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
    }

    /** Reads {@link #toString()}'s form. @throws IllegalArgumentException naming the text when malformed */
    public static SourcePosition parse(String text) {
        Objects.requireNonNull(text, "text");
        int mark = text.indexOf(GTID_MARK);
        String head = mark < 0 ? text : text.substring(0, mark);
        String gtid = mark < 0 ? "" : text.substring(mark + GTID_MARK.length());
        int colon = head.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("not a source position (file:offset[ gtid=...]): " + text);
        }
        try {
            return new SourcePosition(head.substring(0, colon), Long.parseLong(head.substring(colon + 1)), gtid);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a source position (file:offset[ gtid=...]): " + text, e);
        }
    }

    /**
     * Orders positions of one source by file, then offset: files of one server by their numeric extension
     * (bin.000009 before bin.000010), other names as text. GTID states are not compared.
     */
    public int compareFileAndOffset(SourcePosition other) {
        int files = compareFiles(file, other.file);
        return files != 0 ? files : Long.compare(offset, other.offset);
    }

    private static int compareFiles(String a, String b) {
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
