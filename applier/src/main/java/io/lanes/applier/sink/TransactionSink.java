package io.lanes.applier.sink;

import io.lanes.applier.SourceTransaction;
import java.util.concurrent.CompletableFuture;

/**
 * A user's destination for decoded source transactions (a CDC pipeline: a message broker, a search index, a cache).
 *
 * <p>Threading and order: {@link #deliver} is called on the engine's worker threads, concurrently for independent
 * transactions; a transaction is delivered only after every transaction it depends on (by the configured scheduler) was
 * acknowledged, so delivery follows dependency order. Implementations must be thread-safe.
 *
 * <p>Acknowledgement: the returned future completing normally acknowledges the transaction; completing exceptionally
 * (or {@code deliver} throwing) fails it, and the engine redelivers the worker's uncommitted transactions after a backoff
 * (so a sink sees a transaction again after a failure: at-least-once). A checkpoint never covers a transaction before
 * its acknowledgement: after a crash, delivery resumes at the first transaction not acknowledged, and transactions
 * acknowledged after the last checkpoint are delivered again.
 */
@FunctionalInterface
public interface TransactionSink {
    /**
     * Hands over one transaction.
     *
     * @param transaction the decoded transaction: row changes with column names and typed values, and statements (the
     *     {@link io.lanes.applier.ConstraintChecks} markers a database target gets are left out)
     * @param workerId the worker delivering it (0-based)
     * @return a future completed when the sink has the transaction durably; {@code CompletableFuture.completedFuture(null)}
     *     for a synchronous sink
     */
    CompletableFuture<Void> deliver(SourceTransaction transaction, int workerId) throws Exception;
}
