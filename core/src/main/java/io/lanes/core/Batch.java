package io.lanes.core;

/**
 * A read-only view of the transactions a worker is about to commit (or roll back) together, in apply order (ascending
 * sequence numbers). Owned by the worker and reused: valid only during the call it is passed to.
 */
public interface Batch<P> {
    int size();

    Transaction<P> transaction(int index);

    long sequence(int index);
}
