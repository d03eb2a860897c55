package io.lanes.applier.checkpoint;

import io.lanes.core.Checkpoint;
import java.time.Instant;

/**
 * Converts core's {@link Checkpoint} to and from a {@link CheckpointRow}: worker id as is (-1 for the engine's low-water
 * mark), {@code seqno} holds the low-water mark's sequence number, {@code lwm_position} the source position (empty for
 * none), {@code bitmap} the worker's bitmap, and {@code gtid_state} a copy of the GTID state when the position is a
 * {@link io.lanes.binlog.gtid.SourcePosition} carrying one (so that a person or a GTID-based resume can read it directly).
 */
public final class CheckpointRows {
    private CheckpointRows() {
    }

    public static CheckpointRow toRow(String pipeline, Checkpoint checkpoint, Instant now) {
        String position = checkpoint.position() == null ? "" : checkpoint.position();
        return new CheckpointRow(pipeline, checkpoint.workerId(), position, gtidStateOf(position),
                checkpoint.isLowWaterMark() ? new byte[0] : checkpoint.bitmap(), checkpoint.lowWaterMark(), now);
    }

    private static String gtidStateOf(String position) {
        try {
            return position.isEmpty() ? "" : io.lanes.binlog.gtid.SourcePosition.parse(position).gtidState();
        } catch (IllegalArgumentException notASourcePosition) {
            return ""; // another source's opaque position
        }
    }

    public static Checkpoint fromRow(CheckpointRow row) {
        String position = row.lwmPosition().isEmpty() ? null : row.lwmPosition();
        return row.workerId() == Checkpoint.LOW_WATER_MARK ? Checkpoint.ofLowWaterMark(row.seqno(), position)
                : Checkpoint.ofWorker(row.workerId(), row.seqno(), position, row.bitmap());
    }
}
