/**
 * The generic parallel apply engine: an ordered stream of {@link io.lanes.core.Transaction}s in, many workers applying
 * them, every guarantee of a single-threaded applier kept. Knows nothing of MySQL.
 *
 * <ul>
 *   <li>{@link io.lanes.core.Engine}: build, start (recover), submit, stop; the threading and ordering contract.</li>
 *   <li>{@link io.lanes.core.Scheduler}: where each transaction runs and what it waits for:
 *       {@link io.lanes.core.SequentialScheduler}, {@link io.lanes.core.PartitionScheduler} (by schema),
 *       {@link io.lanes.core.LogicalClockScheduler} (MySQL last_committed / MariaDB commit_id),
 *       {@link io.lanes.core.WritesetScheduler} (hashed row keys), or your own.</li>
 *   <li>{@link io.lanes.core.Applier}: the worker-side SPI (apply, block commit with the checkpoint inside, rollback).</li>
 *   <li>{@link io.lanes.core.Checkpoint}, {@link io.lanes.core.CheckpointStore}, {@link io.lanes.core.RecoveryPoint}:
 *       exactly-once across crashes.</li>
 *   <li>{@link io.lanes.core.EngineStats}, {@link io.lanes.core.WorkerStats}, {@link io.lanes.core.WaitState}:
 *       monitoring with MySQL's wait-state names.</li>
 * </ul>
 * Everything in {@code io.lanes.core.internal} is implementation, not API.
 */
package io.lanes.core;
