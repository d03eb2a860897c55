package io.lanes.applier;

import io.lanes.core.ApplierFactory;
import io.lanes.core.CheckpointStore;
import java.util.Objects;

/**
 * Where a pipeline applies: the appliers its workers use and the store its checkpoints are saved in. Implemented by
 * {@link io.lanes.applier.jdbc.JdbcTarget} (H2, PostgreSQL, MySQL/MariaDB, the checkpoint in the data's own
 * transaction) and {@link io.lanes.applier.sink.SinkTarget} (a user's {@link io.lanes.applier.sink.TransactionSink},
 * checkpointed in files after its acknowledgement); {@link #of} wraps any other pair.
 *
 * <p>Contract: {@link #applierFactory()} and {@link #checkpointStore()} return the same objects on every call and may be
 * called from any thread; the engine then calls the factory once per worker and the store from its checkpoint thread,
 * as {@link io.lanes.core.Engine} documents.
 */
public interface Target {
    /** Creates one applier per worker. */
    ApplierFactory<SourceTransaction> applierFactory();

    /** Where the checkpoints (low-water mark and per-worker groups) are kept. */
    CheckpointStore checkpointStore();

    /** A target of the given applier factory and checkpoint store. */
    static Target of(ApplierFactory<SourceTransaction> appliers, CheckpointStore checkpoints) {
        Objects.requireNonNull(appliers, "appliers");
        Objects.requireNonNull(checkpoints, "checkpoints");
        return new Target() {
            @Override
            public ApplierFactory<SourceTransaction> applierFactory() {
                return appliers;
            }

            @Override
            public CheckpointStore checkpointStore() {
                return checkpoints;
            }

            @Override
            public String toString() {
                return "Target[" + appliers + ", " + checkpoints + "]";
            }
        };
    }
}
