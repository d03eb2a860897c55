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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link CheckpointStore} over the {@code lanes_checkpoint} table. Worker checkpoints are written by the
 * {@link io.lanes.applier.jdbc.JdbcApplier} inside its commit (so {@link #saveWorkerCheckpoint} does nothing); the
 * low-water mark goes through a connection of the store's own, kept between saves and closed by {@link #engineStopped()}.
 * {@link #load()} may run on any thread; {@link #saveLowWaterMark} and {@link #engineStopped()} follow the engine's
 * contract (never concurrently with each other).
 */
public final class JdbcCheckpointStore implements CheckpointStore {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcCheckpointStore.class);
    private final ConnectionFactory connections;
    private final Dialect dialect;
    private final JdbcCheckpointTable table;
    private final String pipeline;
    /** The low-water mark's connection, kept between saves; only the one thread saving at a time touches it. */
    private Connection lowWaterMarkConnection;

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

    /**
     * Writes the mark on the store's own connection, opened at the first save and kept: the checkpoint thread saves
     * every checkpoint period (300 ms by default), and a connection per save cost a connect, a login (a TLS handshake
     * on a remote target) and the session's settings each time. A save that fails on the kept connection (closed by the
     * target, idle too long, the target restarted) closes it and tries once more on a new one.
     */
    @Override
    public void saveLowWaterMark(Checkpoint checkpoint) throws SQLException {
        CheckpointRow row = CheckpointRows.toRow(pipeline, checkpoint, Instant.now());
        Connection kept = lowWaterMarkConnection;
        if (kept != null) {
            try {
                write(kept, row);
                return;
            } catch (SQLException stale) {
                LOG.debug("{}: saving the low-water mark on the kept connection failed ({}); on a new one", pipeline,
                        stale.toString());
                lowWaterMarkConnection = null;
                closeQuietly(kept);
            } catch (RuntimeException e) {
                lowWaterMarkConnection = null; // its transaction may hold part of the write: never reused
                closeQuietly(kept);
                throw e;
            }
        }
        Connection c = connections.open();
        try {
            dialect.initSession(c);
            write(c, row);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
        lowWaterMarkConnection = c;
    }

    private void write(Connection c, CheckpointRow row) throws SQLException {
        table.write(c, row);
        c.commit();
    }

    /** Closes the kept connection; the next save opens another. */
    @Override
    public void engineStopped() {
        Connection kept = lowWaterMarkConnection;
        lowWaterMarkConnection = null;
        if (kept != null) {
            closeQuietly(kept);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("closing a checkpoint connection failed: {}", e.toString());
        }
    }
}
