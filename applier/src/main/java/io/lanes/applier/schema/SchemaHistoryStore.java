package io.lanes.applier.schema;

import io.lanes.binlog.gtid.SourcePosition;

/**
 * Where a pipeline keeps its schema history beside its checkpoints, so that a restart continues with the definitions
 * in force at its checkpoint position: the history is saved as a new version, tagged with the position of the
 * transaction that changed it, before that transaction is handed to the workers; a restart loads the latest version
 * whose position is at or before the checkpoint's. A version saved for a transaction that never committed (a crash
 * in between) is therefore never loaded, and that transaction, read again, changes the history again.
 *
 * <p>Called by the pipeline's reading thread only.
 */
public interface SchemaHistoryStore {
    /** Creates what the store needs (a table), before the pipeline's workers open transactions. */
    default void prepare() throws Exception {
    }

    /** Saves {@code history} as in force after the transaction ending at {@code position}. */
    void save(String pipeline, String position, SchemaHistory history) throws Exception;

    /**
     * The latest version saved at or before {@code checkpointPosition}, or null when there is none (a fresh target, or
     * no statement changed a definition before the checkpoint).
     */
    SchemaHistory load(String pipeline, String checkpointPosition) throws Exception;

    /** Whether a version saved at {@code saved} is in force at {@code checkpoint}. */
    static boolean inForceAt(String saved, String checkpoint) {
        return SourcePosition.parse(saved).compareFileAndOffset(SourcePosition.parse(checkpoint)) <= 0;
    }
}
