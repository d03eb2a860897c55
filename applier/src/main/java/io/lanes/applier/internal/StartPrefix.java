package io.lanes.applier.internal;

import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.TransactionAssembler;
import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.StartPosition;

/**
 * The events of a live stream's start file before a start position in the middle of it, read only for the GTID state
 * they imply and never applied.
 *
 * <p>Why: a MySQL server answering COM_BINLOG_DUMP at a position after the file's beginning sends a fake ROTATE and
 * the file's FORMAT_DESCRIPTION, then seeks straight to the position ({@code Binlog_sender::send_binlog}: only a start
 * at 4 reads on from just after the FORMAT_DESCRIPTION). So neither the file's PREVIOUS_GTIDS event (the server's
 * transactions before the file) nor the transactions between it and the position reach the replica, and a GTID set
 * built from the stream alone lacks the server's history: resumed by that set, the server would send the history again.
 * A fresh start at {@code FILE:POS} therefore dumps from {@code FILE:4} ({@link #dumpFrom()}), and this class takes the
 * events before {@code POS}: their PREVIOUS_GTIDS event and their complete transactions (one ending at or before
 * {@code POS}) count as executed before the start; a transaction that starts before {@code POS} and ends after it
 * counts as not executed (the events from {@code POS} on arrive without its start and are dropped, as they would be
 * had the server sought to {@code POS}).
 *
 * <p>Not thread-safe: the reading thread feeds it every event in stream order, from the first.
 */
public final class StartPrefix {
    private static final long FILE_START = 4; // after the binlog magic bytes

    private final String file;
    private final long position;
    private final TransactionAssembler assembler = new TransactionAssembler();
    /** The end of the last real event of the prefix. */
    private long reached = FILE_START;
    private boolean done;

    private StartPrefix(String file, long position) {
        this.file = file;
        this.position = position;
    }

    /** The prefix before {@code start}: null for a GTID start or a start at a file's beginning (nothing to read). */
    public static StartPrefix before(StartPosition start) {
        if (start instanceof StartPosition.FilePosition f && f.position() > FILE_START) {
            return new StartPrefix(f.file(), f.position());
        }
        return null;
    }

    /** Where the dump starts instead: the beginning of the start file. */
    public StartPosition dumpFrom() {
        return StartPosition.file(file, FILE_START);
    }

    /** The start position the prefix ends at. */
    public StartPosition start() {
        return StartPosition.file(file, position);
    }

    /**
     * Takes the next event of the stream (decoded as {@code event}, or null when the decoder did not decode it).
     *
     * @return true when it belongs to the prefix: the caller must not apply it (its complete transactions come from
     *     {@link #poll()}); false from the first event at the start position on
     * @throws IllegalArgumentException when the start position is not where an event starts in its file (inside an
     *     event, or past the file's end): the server would have sent garbage or refused the position
     */
    public boolean take(ReplicationEvent raw, BinlogEvent event) {
        if (done) {
            return false;
        }
        if (!file.equals(raw.binlogFile())) {
            // the stream went on to the next file: the position must have been the start file's end
            finish(raw);
            return false;
        }
        if (raw.isSynthetic()) {
            accept(event); // the fake ROTATE and the like: in no transaction, part of nothing
            return true;
        }
        if (raw.position() >= position) {
            finish(raw);
            return false;
        }
        if (raw.nextPosition() > position) {
            throw new IllegalArgumentException("the start position " + file + ":" + position + " is inside the event at "
                    + file + ":" + raw.position() + " (" + raw.bytes().length + " bytes): a start position must be where"
                    + " an event starts, best where a transaction starts");
        }
        reached = raw.nextPosition();
        accept(event);
        return true;
    }

    /** The next complete transaction of the prefix (executed before the start), or null. */
    public BinlogTransaction poll() {
        return assembler.poll();
    }

    /** Whether the stream has reached the start position. */
    public boolean done() {
        return done;
    }

    private void accept(BinlogEvent event) {
        if (event != null) {
            assembler.accept(event, file);
        }
    }

    private void finish(ReplicationEvent first) {
        done = true;
        assembler.discardOpen(); // a transaction that starts before the position and ends after it: not executed
        boolean atPosition = file.equals(first.binlogFile()) ? first.position() == position : reached == position;
        if (!atPosition) {
            throw new IllegalArgumentException("the start position " + file + ":" + position + " is not where an event"
                    + " starts: the stream went from " + file + ":" + reached + " to " + first.binlogFile() + ":"
                    + first.position());
        }
    }
}
