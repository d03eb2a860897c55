package io.lanes.binlog;

import io.lanes.binlog.json.JsonDiff;
import java.util.Base64;
import java.util.List;

/**
 * The after-image value of a JSON column in a PARTIAL_UPDATE_ROWS event that was logged as a diff against the before
 * image (binlog_row_value_options=PARTIAL_JSON) rather than as a whole document: the decoded {@link #diffs()}, and the
 * {@link #diffBytes()} exactly as logged. {@link #applyTo(String)} rebuilds the new document from the old one. Immutable.
 */
public final class PartialJsonValue {
    private final byte[] diff;
    private final List<JsonDiff> diffs;

    public PartialJsonValue(byte[] diff, List<JsonDiff> diffs) {
        this.diff = diff.clone();
        this.diffs = List.copyOf(diffs);
    }

    /** The changes in the order the server applied them. */
    public List<JsonDiff> diffs() {
        return diffs;
    }

    /**
     * The after-image document: these diffs applied to the before-image's JSON text.
     *
     * @throws IllegalArgumentException when a diff's path does not apply to {@code beforeJsonText}
     */
    public String applyTo(String beforeJsonText) {
        return JsonDiff.apply(beforeJsonText, diffs);
    }

    /** The logged diff bytes (a copy). */
    public byte[] diffBytes() {
        return diff.clone();
    }

    public int length() {
        return diff.length;
    }

    @Override
    public String toString() {
        return "PartialJsonValue" + diffs + "[" + Base64.getEncoder().encodeToString(diff) + "]";
    }
}
