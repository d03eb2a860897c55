package io.lanes.core.internal;

import io.lanes.core.Batch;
import io.lanes.core.Transaction;

/**
 * The {@link Batch} a worker hands its applier at commit and rollback: a view of the first {@code size} tasks of the
 * worker's batch array, pointed at them again before each use ({@link #of}) and reused.
 *
 * <p>Confined to its worker's thread (the applier reads it during the call it is handed to).
 */
final class BatchView<P> implements Batch<P> {
    private Task<P>[] tasks;
    private int size;

    /** This view over the first {@code size} of {@code tasks}. */
    BatchView<P> of(Task<P>[] tasks, int size) {
        this.tasks = tasks;
        this.size = size;
        return this;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Transaction<P> transaction(int index) {
        checkIndex(index);
        return tasks[index].txn;
    }

    @Override
    public long sequence(int index) {
        checkIndex(index);
        return tasks[index].seq;
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index + " of " + size);
        }
    }
}
