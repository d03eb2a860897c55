package io.lanes.core.internal;

/**
 * Which worker gets a transaction the scheduler did not place on one (and, for the schedulers, the worker for a key
 * with nothing in flight): the engine's placement strategy. It reads each worker's queue length (dispatched less
 * finished), whether it is parked, how long it has been in its current step and its measured time per transaction,
 * and keeps the estimates it chooses by: the workers' time per transaction and the time a wake-up takes.
 *
 * <p>The rules, each there because its absence scaled negatively somewhere (docs/architecture.md, "Where work goes"):
 * cheap work (below a wake-up and 20 us) packs onto the first {@link EngineRuntime#HOT_WORKERS} awake workers and
 * keeps its worker for {@link #CHEAP_PLACEMENTS_PER_CHOICE} placements; other work goes to the lowest expected delay
 * (exact up to 64 workers, sampled beyond); a worker that seems blocked in one step is chosen only as a last resort;
 * a transaction that waits for everything up to X goes where it will not queue behind work it could run beside, and
 * behind X itself when X was the transaction dispatched just before.
 *
 * <p>Threads: every choice and {@link #dispatched} run on the engine's dispatching thread, which alone writes the
 * choice state; the estimates are written racily by the workers ({@link #recordServiceTime}, {@link #recordWakeTime})
 * and read by any thread: a lost update only delays an average.
 */
final class WorkerPlacement<P> {
    /**
     * A worker with queued work that has been in one step (an apply, a wait) for this long, and for 8 times its usual
     * time per transaction, is taken as blocked: no work is placed there while another worker exists.
     */
    private static final long STALLED_NANOS = 1_000_000;
    /** A measured wake-up slower than this (an overloaded machine) still counts as this much. */
    private static final long WAKE_CAP_NANOS = 500_000;
    /** Work cheaper than this per transaction (and than a wake-up) packs rather than spreads; see workerForIdleKey. */
    private static final long CHEAP_NANOS = 20_000;
    /** Up to this many workers, work that spreads goes to the exact least loaded one (else: a few sampled). */
    private static final int EXACT_SCAN_WORKERS = 64;
    /** A hot worker in one step for longer than this (and 8 times the usual) gets no more cheap work for now. */
    private static final long HOT_STEP_NANOS = 100_000;
    private final Worker<P>[] workers;
    /** Transactions dispatched to each worker (the engine's array: its stats read it too). */
    private final long[] dispatchedTo;
    /** The sequence number last dispatched to each worker (the tail of its queue while it has work). */
    private final long[] lastSeqTo;
    private final int activeWorkers;
    private final IdleWorkers idle;
    private long randomState = 0x9E3779B97F4A7C15L;
    private int lastChosen;
    /** The worker and sequence number of the last transaction dispatched to a worker. */
    private int previousWorker = -1;
    private long previousSeq;
    /** Placements left before cheap work's worker is chosen again, and that worker. */
    private int cheapPlacementsLeft;
    private int cheapWorker;
    /** Moving average of the time from an unpark to the worker running, written racily by workers. */
    private volatile long wakeNanos = 50_000;
    /** Moving average of the workers' time per transaction, written racily by workers; pessimistic at first. */
    private volatile long serviceEstimateNanos = 1_000_000;
    /** Whether any worker has measured its time per transaction yet (the estimate is a guess until then). */
    private volatile boolean serviceMeasured;

    /**
     * @param activeWorkers how many of the workers placement uses (the first ones)
     * @param idle hints of workers with nothing in flight, pushed by the workers themselves
     */
    WorkerPlacement(Worker<P>[] workers, long[] dispatchedTo, long[] lastSeqTo, int activeWorkers, IdleWorkers idle) {
        this.workers = workers;
        this.dispatchedTo = dispatchedTo;
        this.lastSeqTo = lastSeqTo;
        this.activeWorkers = activeWorkers;
        this.idle = idle;
    }

    /** Records that transaction {@code seq} was queued on worker {@code w}. */
    void dispatched(int w, long seq) {
        dispatchedTo[w]++;
        lastSeqTo[w] = seq;
        previousWorker = w;
        previousSeq = seq;
    }

    /** Time passed (the dispatcher was parked): the next placement of cheap work chooses its worker again. */
    void chooseAfresh() {
        cheapPlacementsLeft = 0;
    }

    /**
     * The worker a transaction without placement goes to, in O(1): the one with the lowest expected delay among the
     * worker chosen last, one idle worker and two (or four) sampled workers. The expected delay is the queued work
     * (transactions times that worker's measured time per transaction, pessimistic until it has committed) plus, for a
     * parked worker, the measured wake-up time; a worker stuck in one step far longer than usual is never chosen while
     * another exists. So cheap work stays packed
     * on few awake workers instead of waking parked ones (no negative scaling with many workers), and slow work spreads.
     */
    int leastLoadedWorker() {
        int n = activeWorkers;
        if (n == 1) {
            return 0;
        }
        if (cheapPlacementsLeft > 0) {
            cheapPlacementsLeft--;
            return cheapWorker;
        }
        long now = System.nanoTime();
        long wake = Math.min(wakeNanos, WAKE_CAP_NANOS);
        long stalledAfter = stalledAfterNanos();
        if (n > HOT_WORKERS && isCheap()) {
            int hot = hotWorker(now, wake, stalledAfter);
            if (hot >= 0) {
                lastChosen = hot;
                cheapWorker = hot;
                cheapPlacementsLeft = CHEAP_PLACEMENTS_PER_CHOICE - 1;
                return hot;
            }
            // every hot worker is blocked (a stuck apply): spread as for any work, so the others keep going
        }
        int best = lastChosen;
        long bestDelay = expectedDelay(best, now, wake, stalledAfter);
        if (bestDelay > 0) {
            for (int i = 0; i < 4; i++) {
                int w = idle.pop();
                if (w < 0) {
                    break;
                }
                if (load(w) == 0) {
                    long d = expectedDelay(w, now, wake, stalledAfter);
                    if (d < bestDelay) {
                        best = w;
                        bestDelay = d;
                    } else {
                        idle.push(w); // still idle: keep the hint for the next placement
                    }
                    break;
                }
            }
            if (n <= EXACT_SCAN_WORKERS) {
                // Few workers: the exact least loaded, scanning from the one after the last chosen so that ties go
                // round, which spreads each group of a logical clock over distinct workers when queues run deep.
                for (int i = 1; i <= n && bestDelay > 0; i++) {
                    int w = (best + i) % n;
                    long d = expectedDelay(w, now, wake, stalledAfter);
                    if (d < bestDelay) {
                        best = w;
                        bestDelay = d;
                    }
                }
            } else {
                for (int i = 0; i < 4 && bestDelay > 0 && (i < 2 || bestDelay > WAKE_CAP_NANOS); i++) {
                    int w = nextRandom(n);
                    long d = expectedDelay(w, now, wake, stalledAfter);
                    if (d < bestDelay) {
                        best = w;
                        bestDelay = d;
                    }
                }
            }
        }
        lastChosen = best;
        return best;
    }

    /**
     * Cheap work placed on one hot worker goes on there for this many placements before the choice is made again: with
     * cheap work the dispatching thread is the pipeline's bottleneck (100-150 ns a transaction with a no-op apply), and
     * making the choice at every placement (the clock, the hot workers' loads and steps, each a cache line the workers
     * write) cost every worker count above one a fifth of its throughput against one worker, which places without a
     * choice. A worker that gets stuck meanwhile receives at most this many more transactions before it is noticed,
     * where hundreds already go to it during the 100 us it takes to notice.
     */
    private static final int CHEAP_PLACEMENTS_PER_CHOICE = 16;
    private static final int HOT_WORKERS = EngineRuntime.HOT_WORKERS;

    /** Whether the measured time per transaction is below both a wake-up and {@link #CHEAP_NANOS}. */
    boolean isCheap() {
        return serviceEstimateNanos < Math.min(wakeNanos, CHEAP_NANOS);
    }

    /**
     * For cheap work: the least loaded of the first {@link #HOT_WORKERS} workers (the last chosen when it is one of
     * them and has nothing queued), leaving out any that has been in its current step for far longer than cheap work
     * takes (it may be blocked: work queued behind it would wait with it); -1 when none is left.
     */
    private int hotWorker(long now, long wake, long stalledAfter) {
        int last = lastChosen;
        if (last < HOT_WORKERS && load(last) == 0 && !workers[last].parked) {
            return last;
        }
        long stepLimit = Math.max(HOT_STEP_NANOS, 8 * serviceEstimateNanos);
        int best = -1;
        long bestDelay = Long.MAX_VALUE / 4;
        for (int w = 0; w < HOT_WORKERS; w++) {
            if (load(w) > 0 && now - workers[w].stepStartedAt > stepLimit) {
                continue;
            }
            long d = expectedDelay(w, now, wake, stalledAfter);
            if (d < bestDelay) {
                best = w;
                bestDelay = d;
                if (d == 0) {
                    break;
                }
            }
        }
        return best;
    }


    /**
     * The worker for a transaction that may start only once everything up to {@code upTo} has committed (a logical
     * clock's group, a barrier floor): the least loaded worker whose queue holds nothing after {@code upTo}, so that it
     * never queues behind a transaction it could have run beside (with deep queues, two of one group on one worker
     * would make every later group wait for that worker); else the least loaded. Looks at the first
     * {@link #EXACT_SCAN_WORKERS} workers only.
     */
    int workerToWaitFor(long upTo) {
        int n = activeWorkers;
        if (n == 1 || cheapPlacementsLeft > 0 || (n > HOT_WORKERS && isCheap())) {
            return leastLoadedWorker();
        }
        long now = System.nanoTime();
        long stalledAfter = stalledAfterNanos();
        // Waiting for exactly the transaction dispatched just before (a chain, or a logical clock's next group after
        // the previous group's last member): behind it on its worker, it starts the moment it may, with no hand-off
        // or wake-up between threads.
        if (previousSeq == upTo && previousWorker >= 0 && lastSeqTo[previousWorker] == upTo
                && !seemsBlocked(workers[previousWorker], now, stalledAfter)) {
            lastChosen = previousWorker;
            return previousWorker;
        }
        // A worker whose queue ends at or before upTo will have emptied it by the time this transaction may start (all
        // of that queue must commit first), so every such worker is as early as any other: an awake one wins (no
        // wake-up, no new thread), which keeps a logical clock's groups on the workers that ran the previous group
        // instead of spreading them over every configured worker. Beyond EXACT_SCAN_WORKERS, the first ones only.
        int span = Math.min(n, EXACT_SCAN_WORKERS);
        int start = lastChosen < span ? lastChosen : 0;
        int parkedChoice = -1;
        for (int i = 1; i <= span; i++) {
            int w = (start + i) % span;
            Worker<P> worker = workers[w];
            long queued = load(w);
            if (queued > 0 && (lastSeqTo[w] > upTo || seemsBlocked(worker, now, stalledAfter))) {
                continue; // holds work this one could run beside, or seems blocked
            }
            if (!worker.parked) {
                lastChosen = w;
                return w;
            }
            if (parkedChoice < 0) {
                parkedChoice = w;
            }
        }
        if (parkedChoice < 0) {
            return leastLoadedWorker();
        }
        lastChosen = parkedChoice;
        return parkedChoice;
    }

    private long expectedDelay(int w, long now, long wake, long stalledAfter) {
        Worker<P> worker = workers[w];
        long queued = load(w);
        long wakeUp = worker.parked ? wake : 0;
        if (queued == 0) {
            return wakeUp;
        }
        if (seemsBlocked(worker, now, stalledAfter)) {
            return Long.MAX_VALUE / 2 + queued; // blocked in one step for far longer than usual: last resort
        }
        return queued * worker.serviceNanos + wakeUp;
    }

    /** In its current step for far longer than this machine's scheduling delays and 8 times its usual time. */
    private static boolean seemsBlocked(Worker<?> worker, long now, long stalledAfter) {
        return now - worker.stepStartedAt > Math.max(stalledAfter, 8 * worker.serviceNanos);
    }

    /**
     * How long a worker with queued work may stay in one step before it counts as blocked: far longer than this
     * machine's usual scheduling delays (on an overloaded machine a runnable thread may wait milliseconds for a core,
     * which is no reason to wake another).
     */
    private long stalledAfterNanos() {
        return Math.max(STALLED_NANOS, 4 * wakeNanos);
    }

    /**
     * The worker for a partition key with nothing in flight (new, or idle since its last transaction committed), in
     * O(1). When a transaction costs less than waking a parked worker (cheap work: no-op applies), the least loaded
     * worker, which packs cheap work onto few awake workers (each extra thread involved is one more that the operating
     * system may deschedule while it holds the low-water mark). Otherwise (work worth a thread of its own) a key
     * spreads: its previous worker
     * when it holds nothing in flight (affinity: its rows are in that connection's caches), else a worker holding
     * nothing in flight, so no key shares a worker with another active key while a worker is free; else the least
     * loaded worker.
     */
    int workerForIdleKey(int previous) {
        int n = activeWorkers;
        if (n == 1) {
            return 0;
        }
        boolean hasPrevious = previous >= 0 && previous < n;
        // Not the measured wake-up alone: on an overloaded machine it reaches milliseconds and would make every real
        // apply (a round trip to a database is tens of microseconds at least) look cheap and pack again.
        if (isCheap()) {
            return leastLoadedWorker();
        }
        if (hasPrevious && load(previous) == 0) {
            lastChosen = previous;
            return previous;
        }
        int free = freeWorker();
        if (free >= 0) {
            lastChosen = free;
            return free;
        }
        return leastLoadedWorker();
    }

    /** A worker with nothing in flight, from the idle hints (stale hints are dropped: they push again); -1 if none. */
    private int freeWorker() {
        for (int i = 0; i < 16; i++) {
            int w = idle.pop();
            if (w < 0) {
                return -1;
            }
            if (load(w) == 0) {
                // Not pushed back: it is about to get work, and pushes itself again when its queue runs dry.
                return w;
            }
        }
        return -1;
    }


    void recordServiceTime(long nanosPerTransaction) {
        if (!serviceMeasured) {
            // The first measurement replaces the pessimistic guess outright: averaged in, cheap work took some thirty
            // commits to look cheap, and spread over (and started the threads of) up to every configured worker
            // meanwhile, a fixed cost that a short run at 1,024 workers paid in full.
            serviceMeasured = true;
            serviceEstimateNanos = nanosPerTransaction;
            return;
        }
        long old = serviceEstimateNanos;
        serviceEstimateNanos = old + ((nanosPerTransaction - old) >> 3);
    }

    /** The measured time from an unpark to the worker running (moving average). */
    long wakeNanos() {
        return wakeNanos;
    }

    void recordWakeTime(long nanos) {
        long old = wakeNanos;
        wakeNanos = old + ((nanos - old) >> 3);
    }


    long load(int w) {
        return dispatchedTo[w] - workers[w].finished;
    }

    private int nextRandom(int bound) {
        long x = randomState;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        randomState = x;
        return (int) ((x >>> 33) % bound);
    }
}
