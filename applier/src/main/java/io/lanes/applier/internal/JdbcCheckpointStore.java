package io.lanes.applier.internal;

import io.lanes.applier.checkpoint.CheckpointRow;
import io.lanes.applier.checkpoint.JdbcCheckpointTable;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.checkpoint.CheckpointRows;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * {@link CheckpointStore} over the {@code lanes_checkpoint} table. Worker checkpoints are written by the
 * {@link io.lanes.applier.jdbc.JdbcApplier} inside its commit (so {@link #saveWorkerCheckpoint} does nothing); the
 * low-water mark goes through a connection of the store's own. Thread-safe.
 */
public final class JdbcCheckpointStore implements CheckpointStore {
    private final ConnectionFactory connections;
    private final Dialect dialect;
    private final JdbcCheckpointTable table;
    private final String pipeline;

    public JdbcCheckpointStore(ConnectionFactory connections, Dialect dialect, JdbcCheckpointTable table, String pipeline) {
        this.connections = connections;
        this.dialect = dialect;
        this.table = table;
        this.pipeline = pipeline;
    }

    @Override
    public Collection<Checkpoint> load() throws SQLException {
        try (Connection c = connections.open()) {
            dialect.initSession(c);
            table.createIfAbsent(c);
            List<Checkpoint> out = new ArrayList<>();
            for (CheckpointRow row : table.read(c, pipeline)) {
                out.add(CheckpointRows.fromRow(row));
            }
            c.commit();
            return out;
        }
    }

    @Override
    public void saveWorkerCheckpoint(Checkpoint checkpoint) {
        // Written by JdbcApplier.commit in the worker's own data transaction.
    }

    /** Opens a connection per save: saves are periodic, and the store has no close in which to release one. */
    @Override
    public void saveLowWaterMark(Checkpoint checkpoint) throws SQLException {
        try (Connection c = connections.open()) {
            dialect.initSession(c);
            table.write(c, CheckpointRows.toRow(pipeline, checkpoint, Instant.now()));
            c.commit();
        }
    }
}
