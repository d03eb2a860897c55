package io.lanes.core.internal;

import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import io.lanes.core.EngineStats;
import io.lanes.core.StatsListener;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's checkpoint thread: every checkpoint period it publishes the low-water mark (the highest sequence up to
 * which every transaction has committed, with its position) and saves it when it moved, and every stats interval it
 * calls the stats listener. A failed save is logged and retried at the next tick: the workers' own checkpoint rows
 * keep recovery exact meanwhile.
 *
 * <p>Threads: {@link #run} on its own thread (from the engine's executor); {@link #stop()} from the thread that shuts
 * the engine down, which then waits for {@link #exited()} before the final save, so that a periodic save of an older
 * mark still in flight cannot commit after the final one.
 */
final class CheckpointThread implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(EngineRuntime.class);

    private final String name;
    private final InFlightWindow window;
    private final CheckpointStore store;
    private final long periodNanos;
    private final StatsListener statsListener;
    private final long statsIntervalNanos;
    private final BooleanSupplier halted;
    private final Supplier<EngineStats> stats;
    private final CountDownLatch exited = new CountDownLatch(1);
    private volatile boolean stop;
    private volatile Thread thread;

    /**
     * @param halted true while the engine is halted after a failure: nothing is saved then
     * @param stats the engine's counters, for the listener
     */
    CheckpointThread(String name, InFlightWindow window, CheckpointStore store, long periodNanos,
            StatsListener statsListener, long statsIntervalNanos, BooleanSupplier halted, Supplier<EngineStats> stats) {
        this.name = name;
        this.window = window;
        this.store = store;
        this.periodNanos = periodNanos;
        this.statsListener = statsListener;
        this.statsIntervalNanos = statsIntervalNanos;
        this.halted = halted;
        this.stats = stats;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        long lastSaved = window.published().sequence();
        long nextStats = System.nanoTime() + statsIntervalNanos;
        long tick = Math.min(periodNanos, statsListener == null ? Long.MAX_VALUE : statsIntervalNanos);
        try {
            while (!stop) {
                LockSupport.parkNanos(this, Math.max(1_000_000L, tick));
                if (stop) {
                    break;
                }
                if (halted.getAsBoolean()) {
                    continue;
                }
                InFlightWindow.Mark m = window.publishCurrent();
                if (m.sequence() != lastSaved) {
                    try {
                        store.saveLowWaterMark(Checkpoint.ofLowWaterMark(m.sequence(), m.position()));
                        lastSaved = m.sequence();
                    } catch (Exception e) {
                        LOG.warn("{}: saving the low-water mark {} failed; will retry", name, m.sequence(), e);
                    }
                }
                long now = System.nanoTime();
                if (statsListener != null && now >= nextStats) {
                    nextStats = now + statsIntervalNanos;
                    try {
                        statsListener.onStats(stats.get());
                    } catch (RuntimeException e) {
                        LOG.warn("{}: stats listener failed", name, e);
                    }
                }
            }
        } finally {
            exited.countDown();
        }
    }

    /** Asks the thread to end at once (it may be parked for a whole tick). */
    void stop() {
        stop = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Counted down when {@link #run} returns. */
    CountDownLatch exited() {
        return exited;
    }
}
