package io.lanes.applier;

import java.time.Instant;
import java.util.List;
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
}
