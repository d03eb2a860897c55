package io.lanes.applier.sink;

import io.lanes.applier.SourceTransaction;
import io.lanes.applier.checkpoint.CheckpointRow;
import io.lanes.applier.checkpoint.CheckpointRows;
import io.lanes.applier.checkpoint.FileCheckpointStore;
import io.lanes.core.Applier;
import io.lanes.core.ApplierFactory;
import io.lanes.core.ApplyContext;
import io.lanes.core.Batch;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import io.lanes.core.Transaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Feeds the engine's transactions to a {@link TransactionSink}, with checkpoints in a {@link FileCheckpointStore}
 * written only after the sink acknowledged everything they cover (at-least-once delivery; see the store).
 *
 * <pre>{@code
 * SinkTarget target = new SinkTarget(mySink, new FileCheckpointStore(dir), "cdc");
 * Engine<SourceTransaction> engine = Engine.builder(target.applierFactory())
 *         .checkpointStore(target.checkpointStore()).scheduler(new WritesetScheduler()).workers(8).build();
 * }</pre>
 *
 * Immutable and thread-safe.
 */
public final class SinkTarget implements io.lanes.applier.Target {
    private final TransactionSink sink;
    private final FileCheckpointStore store;
    private final String pipeline;

    public SinkTarget(TransactionSink sink, FileCheckpointStore store, String pipeline) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.store = Objects.requireNonNull(store, "store");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    @Override
    public ApplierFactory<SourceTransaction> applierFactory() {
        return SinkApplier::new;
    }

    /**
     * Loads the pipeline's checkpoints from the files and saves the engine's low-water mark there; worker checkpoints are
     * written by the appliers after the acknowledgements (so {@code saveWorkerCheckpoint}, called before the commit,
     * does nothing).
     */
    @Override
    public CheckpointStore checkpointStore() {
        return new CheckpointStore() {
            @Override
            public Collection<Checkpoint> load() throws Exception {
                List<Checkpoint> out = new ArrayList<>();
                for (CheckpointRow row : store.readAll(pipeline)) {
                    out.add(CheckpointRows.fromRow(row));
                }
                return out;
            }

            @Override
            public void saveWorkerCheckpoint(Checkpoint checkpoint) {
                // after the acknowledgements, in SinkApplier.commit
            }

            @Override
            public void saveLowWaterMark(Checkpoint checkpoint) throws Exception {
                store.write(CheckpointRows.toRow(pipeline, checkpoint, Instant.now()));
            }
        };
    }

    /**
     * The transaction as a sink receives it: row changes and statements only. {@link io.lanes.applier.ConstraintChecks}
     * markers tell a database target how to apply the rows; a sink has no constraints to relax, and sinks written
     * against "rows and statements" should not meet a third kind of change.
     */
    static SourceTransaction withoutCheckMarkers(SourceTransaction t) {
        boolean any = false;
        for (io.lanes.applier.Change c : t.changes()) {
            any |= c instanceof io.lanes.applier.ConstraintChecks;
        }
        if (!any) {
            return t;
        }
        return new SourceTransaction(t.position(), t.gtid(), t.commitTime(), t.changes().stream()
                .filter(c -> !(c instanceof io.lanes.applier.ConstraintChecks)).toList());
    }

    /** One worker's: delivers on apply, waits for the acknowledgements on commit, then writes the checkpoint. */
    private final class SinkApplier implements Applier<SourceTransaction> {
        private final int workerId;
        private final List<CompletableFuture<Void>> pending = new ArrayList<>();

        SinkApplier(int workerId) {
            this.workerId = workerId;
        }

        @Override
        public void apply(Transaction<SourceTransaction> txn, ApplyContext context) throws Exception {
            if (context.dependsOnEarlierInBatch()) {
                // A sink's contract: a transaction is delivered only after what it depends on was acknowledged.
                awaitAcknowledgements();
            }
            CompletableFuture<Void> ack = sink.deliver(withoutCheckMarkers(txn.payload()), workerId);
            pending.add(Objects.requireNonNull(ack, "TransactionSink.deliver returned null"));
        }

        @Override
        public void commit(Batch<SourceTransaction> batch, Checkpoint checkpoint) throws Exception {
            try {
                awaitAcknowledgements();
            } finally {
                pending.clear();
            }
            store.write(CheckpointRows.toRow(pipeline, checkpoint, Instant.now()));
        }

        /** Waits for every delivery of the open batch so far to be acknowledged; rethrows a failed one's cause. */
        private void awaitAcknowledgements() throws Exception {
            try {
                for (CompletableFuture<Void> ack : pending) {
                    ack.get();
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Exception ex) {
                    throw ex;
                }
                throw e;
            }
        }

        @Override
        public void rollback(Batch<SourceTransaction> batch) {
            // Delivered transactions cannot be taken back: the sink sees them again when the batch is retried.
            pending.clear();
        }
    }
}
