package io.lanes.applier;

import io.lanes.core.RecoveryPoint;

/**
 * Passes over the transactions a restart finds already applied when it reads binlog files from their start: every
 * transaction up to and including the one that ends at the recovery point's position. The engine's recovery skips
 * the committed ones beyond that position itself; this only finds where the files reach it.
 *
 * <p>Not thread-safe: used by the one thread that reads the files.
 */
final class ResumeCursor {
    private final SourcePosition resumeAfter;
    private boolean passing;

    ResumeCursor(RecoveryPoint from) {
        resumeAfter = from.position() == null ? null : SourcePosition.parse(from.position());
        passing = resumeAfter != null;
    }

    /** Whether the next transaction read is still one to pass over. */
    boolean passing() {
        return passing;
    }

    /** Takes note of a transaction passed over, by the position it ends at. */
    void passed(String endPosition) {
        SourcePosition p = SourcePosition.parse(endPosition);
        if (p.file().equals(resumeAfter.file()) && p.offset() == resumeAfter.offset()) {
            passing = false;
        }
    }

    /** The position the files must reach (null when there is nothing to pass over). */
    SourcePosition resumeAfter() {
        return resumeAfter;
    }
}
