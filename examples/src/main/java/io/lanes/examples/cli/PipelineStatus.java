package io.lanes.examples.cli;

import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.applier.checkpoint.CheckpointRow;
import io.lanes.applier.checkpoint.CheckpointRows;
import io.lanes.binlog.replication.BinlogStatus;
import io.lanes.core.Checkpoint;
import io.lanes.core.RecoveryPoint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a pipeline's checkpoint rows say, computed as a restart would ({@link RecoveryPoint#fromCheckpoints}): where it
 * resumes, what it has applied beyond that, and when its rows were last written. Immutable.
 *
 * @param pipeline the pipeline's name
 * @param lowWaterPosition the position every transaction before which is applied (where a restart re-reads from);
 *     null when the rows name none
 * @param gtidState the GTID state at that position, empty when none
 * @param appliedBeyond transactions after it that are applied too (a restart passes over them)
 * @param rows checkpoint rows (one per worker that committed, one for the low-water mark)
 * @param lastWritten the newest row's write time
 */
record PipelineStatus(String pipeline, String lowWaterPosition, String gtidState, int appliedBeyond, int rows,
        Instant lastWritten) {

    static PipelineStatus of(String pipeline, List<CheckpointRow> rows) {
        List<Checkpoint> checkpoints = new ArrayList<>();
        Instant last = Instant.EPOCH;
        for (CheckpointRow r : rows) {
            checkpoints.add(CheckpointRows.fromRow(r));
            if (r.updatedAt().isAfter(last)) {
                last = r.updatedAt();
            }
        }
        RecoveryPoint rp = RecoveryPoint.fromCheckpoints(checkpoints, null);
        String gtid = "";
        if (rp.position() != null) {
            try {
                gtid = SourcePosition.parse(rp.position()).gtidState();
            } catch (IllegalArgumentException notAFilePosition) {
                gtid = "";
            }
        }
        return new PipelineStatus(pipeline, rp.position(), gtid, rp.alreadyApplied().length, rows.size(), last);
    }

    /** The file part of {@link #lowWaterPosition()}, or null. */
    SourcePosition filePosition() {
        try {
            return lowWaterPosition == null ? null : SourcePosition.parse(lowWaterPosition);
        } catch (IllegalArgumentException notAFilePosition) {
            return null;
        }
    }

    /** The JSON fields; {@code source} (may be null) is the live source's binlog status. */
    Map<String, Object> toJson(Instant now, String sourceServer, BinlogStatus source, String sourceError) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pipeline", pipeline);
        SourcePosition p = filePosition();
        m.put("low_water_position", p == null ? lowWaterPosition : p.file() + ":" + p.offset());
        m.put("gtid_state", gtidState);
        m.put("applied_beyond", appliedBeyond);
        m.put("checkpoint_rows", rows);
        m.put("last_written", lastWritten.toString());
        m.put("seconds_since_written", Duration.between(lastWritten, now).toMillis() / 1000.0);
        if (sourceServer != null) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("server", sourceServer);
            if (sourceError != null) {
                s.put("error", sourceError);
            }
            if (source != null) {
                s.put("end_position", source.end() == null ? null : source.end().file() + ":" + source.end().position());
                s.put("gtid_position", source.gtidPosition());
                long behind = p == null ? -1 : source.bytesAfter(p.file(), p.offset());
                s.put("bytes_behind", behind < 0 ? null : behind);
                s.put("files_behind", p == null ? null : filesBehind(source, p.file()));
                if (source.problem() != null) {
                    s.put("problem", source.problem());
                }
            }
            m.put("source", s);
        }
        return m;
    }

    /** Binlog files after the one holding the position; null when that file is not on the server. */
    static Integer filesBehind(BinlogStatus source, String file) {
        List<BinlogStatus.BinlogFile> files = source.files();
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).name().equals(file)) {
                return files.size() - 1 - i;
            }
        }
        return null;
    }
}
