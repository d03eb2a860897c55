package io.lanes.applier;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A source transaction decoded into changes: the payload the applier's workers apply (and {@code TransactionSink}s
 * receive). Immutable.
 *
 * @param position the source position at the end of the transaction (what a checkpoint records)
 * @param gtid the transaction's GTID as the source wrote it (MySQL {@code uuid:n}, MariaDB {@code domain-server-seq}),
 *     or null
 * @param commitTime when the source committed it (its event timestamp), or null
 * @param changes the changes in source order; for a large transaction applied into a JDBC target
 *     ({@link LanesBuilder#largeTransactionBytes}) an immutable list that converts its rows from the row events each
 *     time it is iterated
 */
public record SourceTransaction(String position, String gtid, Instant commitTime, List<Change> changes) {
    public SourceTransaction {
        Objects.requireNonNull(position, "position");
        // A large transaction's changes stay unconverted until iterated (copying would convert them all, here).
        changes = changes instanceof io.lanes.applier.internal.StreamedChanges ? changes : List.copyOf(changes);
    }

    /**
     * Whether {@link #changes()} converts its rows each time it is iterated (a large transaction): iterate it once, and
     * count it with {@link #rowCountBySchema()}, which converts nothing.
     */
    public boolean convertedAsIterated() {
        return changes instanceof io.lanes.applier.internal.StreamedChanges;
    }

    /**
     * How many row changes each schema has (the schema of {@link RowChange#table()}), in the order the schemas first
     * appear; a transaction converted as iterated is counted from its row events, without converting a row.
     */
    public Map<String, Long> rowCountBySchema() {
        if (changes instanceof io.lanes.applier.internal.StreamedChanges streamed) {
            return streamed.rowCountBySchema();
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Change c : changes) {
            if (c instanceof RowChange row) {
                counts.merge(row.table().schema(), 1L, Long::sum);
            }
        }
        return counts;
    }
}
