package io.lanes.applier;

import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.core.RecoveryPoint;

/**
 * Passes over the transactions a restart finds already applied when it reads binlog files from their start: every
 * transaction up to and including the one that ends at the recovery point's position. The engine's recovery skips
 * the committed ones beyond that position itself; this only finds where the files reach it.
 *
 * <p>It also tells a checkpoint that cannot describe this input (see docs/operations.md, "A checkpoint that does not
 * match its input"): where the input reaches the checkpoint's file and offset, the GTID state there must be the
 * checkpoint's; and when the input starts at the source's first transaction (an empty GTID list or previous-GTIDs set at
 * the start of its first file), the checkpoint cannot count more transactions up to that position (its low-water mark)
 * than the input holds: more counted means an earlier run applied some of them twice, the mark of an input given twice
 * before Lanes refused such input ({@link SourceOrderGuard}). Fewer is fine: the first run started later in the source's
 * history (a target seeded from a dump).
 *
 * <p>Not thread-safe: used by the one thread that reads the files.
 */
final class ResumeCursor {
    private final SourcePosition resumeAfter;
    private final long lowWaterMark;
    private boolean passing;
    private boolean inputStartsAtSourceStart;
    private boolean historySeen;
    private long passed;

    ResumeCursor(RecoveryPoint from) {
        resumeAfter = from.position() == null ? null : SourcePosition.parse(from.position());
        lowWaterMark = from.lowWaterMark();
        passing = resumeAfter != null;
    }

    /** Whether the next transaction read is still one to pass over. */
    boolean passing() {
        return passing;
    }

    /**
     * Takes note of a GTID history event (MariaDB GTID_LIST, MySQL PREVIOUS_GTIDS) read between transactions: the first
     * one, before any transaction, says whether the input starts at the source's first transaction (empty: nothing
     * was logged before it).
     */
    void sourceHistory(boolean empty) {
        if (!historySeen && passed == 0 && empty) {
            inputStartsAtSourceStart = true;
        }
        historySeen = true;
    }

    /**
     * Takes note of a transaction passed over, by the position it ends at.
     *
     * @throws LanesException when the checkpoint does not match the input at its own position
     */
    void passed(String endPosition) {
        passed++;
        SourcePosition p = SourcePosition.parse(endPosition);
        if (!p.file().equals(resumeAfter.file()) || p.offset() != resumeAfter.offset()) {
            return;
        }
        passing = false;
        if (!p.gtidState().isEmpty() && !resumeAfter.gtidState().isEmpty()
                && !p.gtidState().equals(resumeAfter.gtidState())) {
            throw new LanesException("the target's checkpoint does not match the input: at " + p.file() + ":"
                    + p.offset() + " the input's GTID state is " + p.gtidState() + " but the checkpoint's is "
                    + resumeAfter.gtidState() + " (files of another server, or a checkpoint written from input that "
                    + "repeated or went backwards); nothing was applied. See docs/operations.md, \"A checkpoint that "
                    + "does not match its input\"", resumeAfter.toString(), null);
        }
        if (inputStartsAtSourceStart && lowWaterMark > passed) {
            throw new LanesException("the target's checkpoint is broken: it counts " + lowWaterMark + " transactions "
                    + "applied up to " + resumeAfter + ", but the input, which starts at the source's first "
                    + "transaction, holds only " + passed + " up to there: an earlier run applied some transactions "
                    + "twice (the same input given twice, before Lanes refused that), and the target may hold wrong "
                    + "data; nothing was applied. See docs/operations.md, \"A checkpoint that does not match its "
                    + "input\"", resumeAfter.toString(), null);
        }
    }

    /** The position the files must reach (null when there is nothing to pass over). */
    SourcePosition resumeAfter() {
        return resumeAfter;
    }
}
