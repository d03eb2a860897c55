package io.lanes.applier.testing;

import io.lanes.core.ApplyContext;

/**
 * An {@link ApplyContext} with fixed values, for tests that drive an applier without an engine: worker 0, the given
 * transaction's sequence, attempt, place in its batch and whether it ends the batch.
 */
public record TestApplyContext(long sequence, int attempt, int indexInBatch, boolean endOfBatch) implements ApplyContext {
    @Override
    public int workerId() {
        return 0;
    }
}
