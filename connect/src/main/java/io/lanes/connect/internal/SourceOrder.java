package io.lanes.connect.internal;

import java.util.Objects;

/**
 * A transaction's place in one source server's binary log, as the change events report it: binlog file, the position
 * the events give for it, and its GTID. Ordered by file then position, which is the source's commit order for one
 * server (binlog file names end in a sequence number of fixed width, so names compare as the files follow each other).
 * Immutable.
 *
 * <p>Used to skip a transaction a source sent twice (an at-least-once source that restarted): a transaction whose order
 * is at or below the highest one already dispatched in its partition was applied (or is being applied) already.
 *
 * @param file the binlog file name, empty when unknown
 * @param position the position within the file
 * @param gtid the transaction's GTID as the source wrote it, empty when none
 */
public record SourceOrder(String file, long position, String gtid) implements Comparable<SourceOrder> {
    /** No source position known: compares below every known one and is never a duplicate. */
    public static final SourceOrder NONE = new SourceOrder("", 0, "");
    private static final String GTID_MARK = "gtid=";

    public SourceOrder {
        Objects.requireNonNull(file, "file");
        gtid = gtid == null ? "" : gtid;
        if (file.indexOf(' ') >= 0 || gtid.indexOf(' ') >= 0) {
            throw new IllegalArgumentException("binlog file and GTID must not hold spaces: " + file + " / " + gtid);
        }
    }

    public boolean isKnown() {
        return !file.isEmpty();
    }

    /** Reads {@link #toString()}'s form ({@code FILE:POS [gtid=G]}, or {@code gtid=G} alone, or empty). */
    static SourceOrder parse(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            return NONE;
        }
        String gtid = "";
        int mark = t.indexOf(GTID_MARK);
        if (mark >= 0) {
            gtid = t.substring(mark + GTID_MARK.length()).trim();
            t = t.substring(0, mark).trim();
        }
        if (t.isEmpty()) {
            return new SourceOrder("", 0, gtid);
        }
        int colon = t.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("not a source position (FILE:POS [gtid=G]): " + text);
        }
        return new SourceOrder(t.substring(0, colon), Long.parseLong(t.substring(colon + 1)), gtid);
    }

    @Override
    public int compareTo(SourceOrder o) {
        int c = file.compareTo(o.file);
        return c != 0 ? c : Long.compare(position, o.position);
    }

    @Override
    public String toString() {
        if (!isKnown()) {
            return gtid.isEmpty() ? "" : GTID_MARK + gtid;
        }
        return file + ":" + position + (gtid.isEmpty() ? "" : " " + GTID_MARK + gtid);
    }
}
