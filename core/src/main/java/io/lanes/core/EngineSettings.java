package io.lanes.core;

import java.time.Duration;
import java.util.Objects;

/**
 * The engine's settings: every value {@link Engine.Builder} collects besides the objects it is handed (applier factory,
 * scheduler, checkpoint store, executor, stats listener). Immutable and validated on construction; {@link #defaults()}
 * holds each knob's default, and each {@code with...} method returns a copy with one knob changed. One name per knob:
 * {@link #blockCommit} is what {@link Engine.Builder#blockCommit} also set.
 *
 * @param workers worker threads; 0 applies on the dispatching thread (default 4)
 * @param commitOrder the order commits keep (default {@link CommitOrder#PER_PARTITION}: source order within each
 *     partition key, as MySQL's replica_preserve_commit_order keeps it per database under its schema scheduler; a
 *     transaction without partition keys commits after every earlier one, so without partition keys it is
 *     {@link CommitOrder#STRICT})
 * @param initialPosition where a fresh start (no saved checkpoints) reads from, reported back by
 *     {@link RecoveryPoint#position()}; null for none (default)
 * @param checkpointGroupSize transactions per checkpoint group, at least 2 (MySQL's replica_checkpoint_group; default
 *     512): the low-water mark is published at least every this many transactions, and dispatch never runs further
 *     ahead of it
 * @param checkpointPeriod how often the low-water mark is published and saved (MySQL's replica_checkpoint_period;
 *     default 300 ms)
 * @param queueBudgetBytes bytes of queued transactions ({@link Transaction#sizeBytes()}: what they occupy while queued)
 *     before dispatch waits (MySQL's replica_pending_jobs_size_max; default 128 MiB, or a quarter of the JVM's maximum
 *     heap when that is less, at least 16 MiB: {@link #defaultQueueBudgetBytes})
 * @param workerQueueCapacity transactions queued per worker before dispatch waits (default 16,384)
 * @param blockCommit most transactions a worker commits in one target transaction; 1 commits each alone (default 256;
 *     chosen by measurement on issue 19's workloads: docs/commit-order.md)
 * @param retries retries of a failed batch before the engine stops (MySQL's replica_transaction_retries; default 10)
 * @param retryBackoff back-off before the first retry, doubling (default 10 ms)
 * @param retryMaxBackoff the most the back-off doubles to (default 1 s)
 * @param commitOrderTimeout how long a worker waits for earlier transactions to commit before it suspects a
 *     commit-order deadlock (default 1 s; see {@link Engine.Builder#commitOrderTimeout})
 * @param commitOrderDeadlockDetection whether waits for commit order ask the target's lock views (default true)
 * @param statsInterval how often the stats listener is called, when there is one (default 1 s)
 * @param name prefix of thread names and log lines (default {@code lanes})
 */
public record EngineSettings(int workers, CommitOrder commitOrder, String initialPosition, int checkpointGroupSize,
        Duration checkpointPeriod, long queueBudgetBytes, int workerQueueCapacity, int blockCommit, int retries,
        Duration retryBackoff, Duration retryMaxBackoff, Duration commitOrderTimeout,
        boolean commitOrderDeadlockDetection, Duration statsInterval, String name) {
    private static final EngineSettings DEFAULTS = new EngineSettings(4, CommitOrder.PER_PARTITION, null, 512,
            Duration.ofMillis(300), defaultQueueBudgetBytes(Runtime.getRuntime().maxMemory()), 16_384, 256, 10, Duration.ofMillis(10), Duration.ofSeconds(1),
            Duration.ofSeconds(1), true, Duration.ofSeconds(1), "lanes");

    /**
     * @throws IllegalArgumentException for a value out of range (named in the message)
     * @throws NullPointerException for a missing value (only {@code initialPosition} may be null)
     */
    public EngineSettings {
        if (workers < 0) {
            throw new IllegalArgumentException("workers < 0: " + workers);
        }
        Objects.requireNonNull(commitOrder, "commitOrder");
        if (checkpointGroupSize < 2) {
            throw new IllegalArgumentException("checkpoint group size < 2: " + checkpointGroupSize);
        }
        positive(checkpointPeriod, "checkpoint period");
        if (queueBudgetBytes < 1) {
            throw new IllegalArgumentException("budget < 1: " + queueBudgetBytes);
        }
        if (workerQueueCapacity < 1) {
            throw new IllegalArgumentException("worker queue capacity < 1: " + workerQueueCapacity);
        }
        if (blockCommit < 1) {
            throw new IllegalArgumentException("block commit < 1: " + blockCommit);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries < 0: " + retries);
        }
        positive(retryBackoff, "retry backoff");
        positive(retryMaxBackoff, "max retry backoff");
        positive(commitOrderTimeout, "commit order timeout");
        positive(statsInterval, "stats interval");
        Objects.requireNonNull(name, "name");
    }

    /** Every knob at its default. */
    /**
     * The default queue budget for a JVM whose heap may grow to {@code maxHeapBytes}: 128 MiB, or a quarter of the heap
     * when that is less (at least 16 MiB). A container's JVM gets a quarter of the container's memory as its heap by
     * default: a 1 GiB container, 256 MiB of heap, where 128 MiB of queued transactions left too little for the rest
     * (a log of 20,000-row transactions failed with "Java heap space" under 256 MiB).
     */
    public static long defaultQueueBudgetBytes(long maxHeapBytes) {
        return Math.min(128L << 20, Math.max(16L << 20, maxHeapBytes / 4));
    }

    public static EngineSettings defaults() {
        return DEFAULTS;
    }

    public EngineSettings withWorkers(int value) {
        return new EngineSettings(value, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withCommitOrder(CommitOrder value) {
        return new EngineSettings(workers, value, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withInitialPosition(String value) {
        return new EngineSettings(workers, commitOrder, value, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withCheckpointGroupSize(int value) {
        return new EngineSettings(workers, commitOrder, initialPosition, value, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withCheckpointPeriod(Duration value) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, value,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withQueueBudgetBytes(long value) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                value, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withWorkerQueueCapacity(int value) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, value, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withBlockCommit(int value) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, value, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withRetries(int value) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, value, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withRetryBackoff(Duration initial, Duration max) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, initial, max,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withCommitOrderTimeout(Duration value) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                value, commitOrderDeadlockDetection, statsInterval, name);
    }

    public EngineSettings withCommitOrderDeadlockDetection(boolean value) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, value, statsInterval, name);
    }

    public EngineSettings withStatsInterval(Duration value) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, value, name);
    }

    public EngineSettings withName(String value) {
        return new EngineSettings(workers, commitOrder, initialPosition, checkpointGroupSize, checkpointPeriod,
                queueBudgetBytes, workerQueueCapacity, blockCommit, retries, retryBackoff, retryMaxBackoff,
                commitOrderTimeout, commitOrderDeadlockDetection, statsInterval, value);
    }

    private static void positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(what + " must be positive: " + d);
        }
    }
}
