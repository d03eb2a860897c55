package io.lanes.core;

/**
 * Creates one {@link Applier} per worker. Called by each worker's own thread as it starts (with 0 workers, by the thread
 * calling {@link Engine#start()}), possibly concurrently for different workers.
 */
@FunctionalInterface
public interface ApplierFactory<P> {
    Applier<P> create(int workerId) throws Exception;
}
