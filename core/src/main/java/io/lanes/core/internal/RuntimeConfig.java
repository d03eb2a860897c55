package io.lanes.core.internal;

import io.lanes.core.ApplierFactory;
import io.lanes.core.CheckpointStore;
import io.lanes.core.CommitOrder;
import io.lanes.core.EngineSettings;
import io.lanes.core.Scheduler;
import io.lanes.core.StatsListener;
import java.util.concurrent.Executor;

/**
 * Everything {@link io.lanes.core.Engine.Builder} collects for an {@link EngineRuntime}: the objects it was handed and
 * the settings; the accessors read the settings in the units the runtime uses. Immutable.
 */
public record RuntimeConfig<P>(
        ApplierFactory<P> applierFactory,
        Scheduler scheduler,
        CheckpointStore store,
        Executor executor,
        StatsListener statsListener,
        EngineSettings settings) {
    int workers() {
        return settings.workers();
    }

    CommitOrder commitOrder() {
        return settings.commitOrder();
    }

    String initialPosition() {
        return settings.initialPosition();
    }

    int groupSize() {
        return settings.checkpointGroupSize();
    }

    long periodNanos() {
        return settings.checkpointPeriod().toNanos();
    }

    long budgetBytes() {
        return settings.queueBudgetBytes();
    }

    int workerQueueCapacity() {
        return settings.workerQueueCapacity();
    }

    int maxBatch() {
        return settings.blockCommit();
    }

    int maxRetries() {
        return settings.retries();
    }

    long retryBackoffNanos() {
        return saturatedNanos(settings.retryBackoff());
    }

    long retryMaxBackoffNanos() {
        return saturatedNanos(settings.retryMaxBackoff());
    }

    long commitOrderTimeoutNanos() {
        return saturatedNanos(settings.commitOrderTimeout());
    }

    boolean commitOrderDeadlockDetection() {
        return settings.commitOrderDeadlockDetection();
    }

    long statsIntervalNanos() {
        return saturatedNanos(settings.statsInterval());
    }

    String name() {
        return settings.name();
    }

    private static long saturatedNanos(java.time.Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
