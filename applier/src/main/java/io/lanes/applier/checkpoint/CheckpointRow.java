package io.lanes.applier.checkpoint;

import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One worker's checkpoint: where the source may resume for the transactions this worker applied. Immutable (the bitmap is
 * copied in and out).
 *
 * @param pipeline the name of the applying pipeline, so that several pipelines may share one target (at most 64
 *     characters)
 * @param workerId the worker's index, 0-based; -1 for the engine's own low-water-mark row
 * @param lwmPosition the low-water mark: the source position (e.g. {@code binlog.000042:1234}) before which every
 *     transaction is applied
 * @param gtidState the GTID state at the low-water mark (a MySQL GTID set or MariaDB's per-domain positions); may be empty
 * @param bitmap the transactions after the low-water mark this worker applied, one bit each; may be empty
 * @param seqno the sequence number of the checkpoint group, increasing
 * @param updatedAt when the row was written
 */
public record CheckpointRow(String pipeline, int workerId, String lwmPosition, String gtidState, byte[] bitmap,
        long seqno, Instant updatedAt) {

    public CheckpointRow {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(lwmPosition, "lwmPosition");
        gtidState = gtidState == null ? "" : gtidState;
        bitmap = bitmap == null ? new byte[0] : bitmap.clone();
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (pipeline.isEmpty() || pipeline.length() > 64) {
            throw new IllegalArgumentException("pipeline name must be 1..64 characters: " + pipeline);
        }
        if (workerId < -1) {
            throw new IllegalArgumentException("worker id must be -1 (the engine's low-water mark) or more: " + workerId);
        }
    }

    @Override
    public byte[] bitmap() {
        return bitmap.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckpointRow r && pipeline.equals(r.pipeline) && workerId == r.workerId
                && lwmPosition.equals(r.lwmPosition) && gtidState.equals(r.gtidState) && Arrays.equals(bitmap, r.bitmap)
                && seqno == r.seqno && updatedAt.equals(r.updatedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(pipeline, workerId, lwmPosition, gtidState, Arrays.hashCode(bitmap), seqno, updatedAt);
    }

    @Override
    public String toString() {
        return "CheckpointRow[" + pipeline + "#" + workerId + " lwm=" + lwmPosition + " gtid=" + gtidState + " bitmap="
                + HexFormat.of().formatHex(bitmap) + " seqno=" + seqno + " at " + updatedAt + "]";
    }
}
