package io.lanes.core;

/**
 * Receives {@link EngineStats} snapshots every stats interval, on the engine's checkpoint thread (never concurrently
 * with itself). Keep it quick: it delays the next low-water-mark checkpoint; an exception is logged and ignored.
 */
@FunctionalInterface
public interface StatsListener {
    void onStats(EngineStats stats);
}
