package io.lanes.core.internal;

/**
 * What every worker of one engine run is given when it is made: the settings ({@code config}, read once into the
 * worker's own final fields), the in-flight window, the sequence numbers recovery found already applied, the handle to
 * the engine ({@code host}), the placement whose estimates the worker feeds ({@link WorkerPlacement#recordServiceTime},
 * {@link WorkerPlacement#recordWakeTime}, read through {@link WorkerPlacement#isCheap} and
 * {@link WorkerPlacement#wakeNanos}), the idle hints it pushes itself onto, the counters it counts into, and all the
 * workers ({@code peers}, for the commit-order deadlock check; filled before any worker's thread starts).
 *
 * <p>Immutable references, shared by the workers of one run; what they point at states its own thread contract.
 */
record WorkerSetup<P>(
        RuntimeConfig<P> config,
        InFlightWindow window,
        long[] recoveredSkips,
        WorkerHost host,
        WorkerPlacement<P> placement,
        IdleWorkers idle,
        WorkerCounters counters,
        Worker<P>[] peers) {
}
