package io.lanes.core;

import java.util.Collection;
import java.util.List;

/**
 * Where checkpoints live. See {@link Checkpoint} for what they say and {@link RecoveryPoint} for how they are read back.
 *
 * <p>Threading and ordering:
 * <ul>
 *   <li>{@link #load()} is called once, by the thread calling {@link Engine#start()}, before any worker runs.</li>
 *   <li>{@link #saveWorkerCheckpoint} is called by worker {@code checkpoint.workerId()}'s own thread inside each commit:
 *       after {@link Applier#apply} of every transaction of the batch and immediately before
 *       {@link Applier#commit(Batch, Checkpoint)}, so a store sharing that worker's target connection writes it in the
 *       same target transaction as the data (exactly-once). Calls for different workers run concurrently; calls for one
 *       worker never do. An exception rolls the batch back and is retried like an apply failure. A store that does not
 *       share the target transaction gives at-least-once at best; let the applier store the checkpoint instead.</li>
 *   <li>{@link #saveLowWaterMark} is called by the engine's checkpoint thread (every checkpoint period, when the
 *       low-water mark moved) and by the thread stopping the engine; never concurrently with itself. Every transaction at
 *       or before the saved mark has been committed by its worker before the call.</li>
 * </ul>
 */
public interface CheckpointStore {
    /** Everything saved: for each worker id the newest worker checkpoint, and the newest low-water-mark checkpoint. */
    Collection<Checkpoint> load() throws Exception;

    /** Saves a worker's checkpoint inside its commit (see the class comment); replaces that worker id's previous one. */
    void saveWorkerCheckpoint(Checkpoint checkpoint) throws Exception;

    /** Saves the engine's low-water mark; replaces the previous one. */
    void saveLowWaterMark(Checkpoint checkpoint) throws Exception;

    /**
     * Called once by the thread stopping (or aborting) an engine, after its final {@link #saveLowWaterMark} and never
     * concurrently with it: releases what the saves held between calls (a connection). A later engine may use the
     * store again; its saves then acquire anew. Does nothing by default.
     */
    default void engineStopped() {
    }

    /** A store that keeps nothing: every start is a fresh start. For appliers that store checkpoints themselves. */
    static CheckpointStore none() {
        return new CheckpointStore() {
            @Override
            public Collection<Checkpoint> load() {
                return List.of();
            }

            @Override
            public void saveWorkerCheckpoint(Checkpoint checkpoint) {
            }

            @Override
            public void saveLowWaterMark(Checkpoint checkpoint) {
            }
        };
    }
}
