package io.lanes.core;

import java.util.Objects;

/**
 * Creates one {@link Applier} per worker. Called by each worker's own thread as it starts (with 0 workers, by the thread
 * calling {@link Engine#start()}), possibly concurrently for different workers.
 */
@FunctionalInterface
public interface ApplierFactory<P> {
    Applier<P> create(int workerId) throws Exception;

    /**
     * Whether applying runs on this process's own processors (an embedded database such as H2, a sink that computes)
     * rather than waiting on another process (a database server over a connection). Such work cannot go faster with
     * more concurrent workers than there are processors to run them, only slower (switching, lock and cache
     * contention), so the engine keeps it on at most the available processors less one (the reading thread has the
     * last) of the configured workers, whatever their number. Work that waits (round trips, fsyncs) spreads over every
     * configured worker. Called once, when the engine is built; default false.
     */
    default boolean appliesInProcess() {
        return false;
    }

    /** The same factory, declared to apply on this process's processors (see {@link #appliesInProcess()}). */
    static <P> ApplierFactory<P> inProcess(ApplierFactory<P> factory) {
        Objects.requireNonNull(factory, "factory");
        return new ApplierFactory<>() {
            @Override
            public Applier<P> create(int workerId) throws Exception {
                return factory.create(workerId);
            }

            @Override
            public boolean appliesInProcess() {
                return true;
            }

            @Override
            public String toString() {
                return "inProcess(" + factory + ")";
            }
        };
    }
}
