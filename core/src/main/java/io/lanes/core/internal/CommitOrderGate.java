package io.lanes.core.internal;

import io.lanes.core.Applier;
import io.lanes.core.WaitState;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker's wait for commit order: whether the first transaction of its open batch may commit (every commit
 * predecessor committed, the low-water mark reached), waiting until it may, and, while the wait lasts, finding a
 * commit-order deadlock in the target's lock views: an earlier transaction on another worker that waits in the target
 * for a lock this worker's open batch holds.
 *
 * <p>The deadlock probe starts after {@link #FIRST_PROBE_NANOS} and repeats at doubling intervals up to
 * {@link #MAX_PROBE_INTERVAL_NANOS}; it asks the target only when some earlier worker has been inside one apply step
 * for a while (a lock wait looks like that), because the lock views are not free. Once the target has answered that
 * nobody earlier waits for this batch, the wait is for a slow earlier transaction, not a deadlock, and the timeout is
 * extended {@link #TIMEOUT_FACTOR_WITH_LOCK_VIEWS} times: rolling back would only redo the work. An applier that cannot
 * read the lock views ({@link Applier#sessionsWaitingForThis} null or failing) is asked no more; its waits end on the
 * timeout alone.
 *
 * <p>Threads: owned by its worker's thread (or, with 0 workers, the dispatching thread); it reads the other workers'
 * volatile fields ({@code openBatchFirst}, {@code state}, {@code stepStartedAt}, their shared applier).
 */
final class CommitOrderGate<P> {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    /** First lock-view probe after a commit-order wait of this long, then at doubling intervals up to the maximum. */
    static final long FIRST_PROBE_NANOS = 1_000_000;
    static final long MAX_PROBE_INTERVAL_NANOS = 50_000_000;
    /** Once the target's lock views have answered during a commit-order wait, the timeout is this many times longer. */
    static final int TIMEOUT_FACTOR_WITH_LOCK_VIEWS = 10;

    private final Worker<P> owner;
    private final Worker<P>[] peers;
    private final InFlightWindow window;
    private final WorkerHost host;
    /** The owner's halt check (it also turns an interrupt into a failure). */
    private final BooleanSupplier halted;
    private final long timeoutNanos;
    private final boolean deadlockDetection;
    /** False once the owner's applier could not tell who waits for its locks: waits then use the timeout only. */
    private boolean lockViewsUsable = true;
    /** Whether the last probe asked the target and got an answer. */
    private boolean probeAnswered;
    /** The earlier transaction's worker found waiting for the open batch's locks by the last wait; null for none. */
    private Worker<P> blockedEarlier;

    CommitOrderGate(Worker<P> owner, Worker<P>[] peers, InFlightWindow window, WorkerHost host, BooleanSupplier halted,
            long timeoutNanos, boolean deadlockDetection) {
        this.owner = owner;
        this.peers = peers;
        this.window = window;
        this.host = host;
        this.halted = halted;
        this.timeoutNanos = timeoutNanos;
        this.deadlockDetection = deadlockDetection;
    }

    /** The commit-order timeout in nanoseconds. */
    long timeoutNanos() {
        return timeoutNanos;
    }

    /** Whether {@code first} may commit now: its commit predecessors committed and the low-water mark reached. */
    boolean satisfied(Task<P> first) {
        for (long d : first.commitDeps) {
            if (!window.isCommitted(d)) {
                return false;
            }
        }
        return first.commitLwm <= 0 || window.lwm() >= first.commitLwm;
    }

    /** Waits for {@code first}'s commit predecessors until the deadline; false on timeout or halt. */
    boolean await(Task<P> first, long deadline) {
        for (long d : first.commitDeps) {
            if (!window.awaitCommitted(d, deadline, halted)) {
                return false;
            }
        }
        return first.commitLwm <= 0 || window.awaitLwm(first.commitLwm, deadline, halted);
    }

    /**
     * Waits for {@code first}'s commit predecessors until the deadline, probing for a commit-order deadlock meanwhile.
     * False on timeout, halt, or deadlock; {@link #takeBlockedEarlier} then names the earlier worker of a deadlock.
     */
    boolean awaitOrFindDeadlock(Task<P> first, long deadline) {
        if (!deadlockDetection || !lockViewsUsable) {
            return await(first, deadline);
        }
        long interval = FIRST_PROBE_NANOS;
        boolean extended = false;
        for (;;) {
            long now = System.nanoTime();
            long sliceEnd = deadline - now > interval ? now + interval : deadline;
            if (await(first, sliceEnd)) {
                return true;
            }
            if (host.halted() || System.nanoTime() - deadline >= 0) {
                return false;
            }
            Worker<P> earlier = earlierWorkerWaitingFor(first.seq);
            if (earlier != null) {
                blockedEarlier = earlier;
                return false;
            }
            if (!lockViewsUsable) {
                return await(first, deadline);
            }
            if (probeAnswered && !extended) {
                // The timeout stays as a backstop for waits the lock views cannot show.
                deadline += (TIMEOUT_FACTOR_WITH_LOCK_VIEWS - 1) * timeoutNanos;
                extended = true;
            }
            interval = Math.min(MAX_PROBE_INTERVAL_NANOS, interval * 2);
        }
    }

    /** The earlier worker the last {@link #awaitOrFindDeadlock} found blocked by the open batch (null for none); clears it. */
    Worker<P> takeBlockedEarlier() {
        Worker<P> w = blockedEarlier;
        blockedEarlier = null;
        return w;
    }

    /** The worker whose open batch starts before {@code seq} and whose target session waits for the owner's locks. */
    private Worker<P> earlierWorkerWaitingFor(long seq) {
        probeAnswered = false;
        long now = System.nanoTime();
        boolean candidate = false;
        for (Worker<P> w : peers) {
            if (w != owner && w.openBatchFirst < seq && w.state() == WaitState.APPLYING
                    && now - w.stepStartedAt >= FIRST_PROBE_NANOS) {
                candidate = true;
                break;
            }
        }
        if (!candidate) {
            return null;
        }
        long[] waiting;
        try {
            waiting = owner.applier().sessionsWaitingForThis();
        } catch (Throwable e) {
            lockViewsUsable = false;
            LOG.warn("worker {}: the target's lock views could not be read ({}); commit-order deadlocks on this worker"
                    + " are broken by the commit-order timeout ({} ms) only", owner.id, e.toString(),
                    timeoutNanos / 1_000_000);
            return null;
        }
        if (waiting == null) {
            lockViewsUsable = false;
            LOG.debug("worker {}: the applier cannot tell who waits for its locks; commit-order timeout only", owner.id);
            return null;
        }
        probeAnswered = true;
        for (long session : waiting) {
            for (Worker<P> w : peers) {
                Applier<P> a = w.sharedApplier();
                if (w != owner && a != null && w.openBatchFirst < seq && session >= 0 && a.targetSession() == session) {
                    return w;
                }
            }
        }
        return null;
    }
}
