package io.lanes.examples.cli;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesConfig;
import io.lanes.applier.LanesException;
import io.lanes.applier.LanesStats;
import io.lanes.core.EngineStats;
import io.lanes.core.WorkerStats;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Runs a {@link Lanes} pipeline to its end, with a progress bar on a terminal, and builds the one-line JSON summary
 * shared by {@code apply} and {@code demo}.
 *
 * <p>Ctrl-C (SIGINT) or SIGTERM stops the pipeline gracefully ({@link StopSignals}): reading stops after the current
 * transaction, everything read is committed and checkpointed, and the command prints its summary and its one JSON line
 * (status {@code stopped}) before it exits; a second signal aborts (status {@code aborted}: nothing more is committed;
 * the checkpoints still make the next run exact). Where the signals cannot be handled, a shutdown hook still stops the
 * pipeline gracefully.
 */
final class ApplyRun {
    private ApplyRun() {
    }

    /**
     * What a run ended with: final statistics, the failure (null on success), the exit status a signal asks for when it
     * stopped the run before its end (0 when no signal did), and the summary fields.
     */
    record Outcome(LanesStats stats, LanesException failure, int interruptedExitStatus, Map<String, Object> summary) {
        boolean ok() {
            return failure == null;
        }

        /** Whether Ctrl-C or SIGTERM stopped the run before its end (the files' end, or caught up when asked). */
        boolean interrupted() {
            return interruptedExitStatus != 0;
        }
    }

    /**
     * Starts the pipeline, waits until every transaction of the input is committed, stops it.
     *
     * @param showProgress whether a progress bar may be drawn (it is drawn only when a console is attached)
     */
    static Outcome run(Lanes lanes, boolean showProgress) throws InterruptedException {
        return run(lanes, showProgress, true);
    }

    /**
     * Starts the pipeline and waits: until caught up when {@code stopWhenCaughtUp} (files always end so), otherwise until
     * stopped (Ctrl-C, SIGTERM) or failed; then stops it.
     */
    static Outcome run(Lanes lanes, boolean showProgress, boolean stopWhenCaughtUp) throws InterruptedException {
        return run(lanes, showProgress, stopWhenCaughtUp, null);
    }

    /** As above, logging a line of progress through {@code progressLog} (null: none) while it waits. */
    static Outcome run(Lanes lanes, boolean showProgress, boolean stopWhenCaughtUp, ProgressLog progressLog)
            throws InterruptedException {
        LanesException failure = null;
        boolean reachedEnd = false;
        StopSignals signals = StopSignals.install(
                () -> System.err.println("lanes: stopping: committing what was read (Ctrl-C again to abort)"),
                () -> {
                    System.err.println("lanes: aborting: nothing more is committed; the next run resumes exactly");
                    lanes.abort();
                });
        Thread hook = signals.installed() ? null : new Thread(() -> {
            try {
                lanes.stop();
            } catch (InterruptedException | RuntimeException e) {
                // reported by the main thread, if it still runs
            }
        }, "lanes-shutdown");
        if (hook != null) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        ProgressBar bar = null;
        try {
            lanes.start();
            if (showProgress && System.console() != null) {
                bar = progressBar(lanes);
            }
            while (signals.received() == 0) {
                if (lanes.awaitCaughtUp(Duration.ofMillis(200)) && stopWhenCaughtUp) {
                    reachedEnd = true;
                    break;
                }
                Lanes.State s = lanes.state();
                if (s == Lanes.State.STOPPED || s == Lanes.State.FAILED) {
                    break;
                }
                if (bar != null) {
                    update(bar, lanes.stats());
                }
                if (progressLog != null) {
                    progressLog.tick(lanes.stats());
                }
            }
            if (bar != null) {
                update(bar, lanes.stats());
            }
        } catch (LanesException e) {
            failure = e;
        } finally {
            if (bar != null) {
                bar.close();
            }
        }
        LanesStats stats;
        try {
            stats = lanes.stop();
        } catch (LanesException e) {
            failure = failure != null ? failure : e;
            stats = lanes.stats();
        } finally {
            signals.close();
        }
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting; the hook runs or ran
            }
        }
        int interrupted = failure == null && !reachedEnd && signals.received() > 0 ? signals.interruptedExitStatus() : 0;
        String status = failure != null ? "failed" : interrupted == 0 ? "ok"
                : signals.received() > 1 ? "aborted" : "stopped";
        return new Outcome(stats, failure, interrupted, summary(lanes.config(), stats, failure, status));
    }

    private static ProgressBar progressBar(Lanes lanes) {
        long total = lanes.config().hasLiveSource() ? -1 : Math.max(1, lanes.stats().sourceBytesTotal());
        return new ProgressBarBuilder().setTaskName(lanes.config().hasLiveSource() ? "follow" : "apply")
                .setInitialMax(total).setUnit(" MiB", 1 << 20)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200)
                .showSpeed(new java.text.DecimalFormat("0.0")).build(); // drawn on stderr
    }

    private static void update(ProgressBar bar, LanesStats s) {
        if (s.sourceBytesTotal() > 0 && bar.getMax() != s.sourceBytesTotal()) {
            bar.maxHint(s.sourceBytesTotal());
        }
        bar.stepTo(Math.max(0, s.sourceBytesRead()));
        bar.setExtraMessage(String.format(Locale.ROOT, " %,d tx, %,.0f tx/s", s.transactions(),
                s.transactionsPerSecond()));
    }

    /** The summary fields every apply-like command prints as its last JSON line. */
    static Map<String, Object> summary(LanesConfig config, LanesStats s, LanesException failure, String status) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status);
        if (failure != null) {
            m.put("error", failure.getMessage());
            m.put("failed_position", failure.position());
        }
        m.put("transactions", s.transactions());
        m.put("transactions_read", s.transactionsRead());
        m.put("skipped", s.transactionsSkipped());
        m.put("skipped_by_error_policy", s.transactionsSkippedByErrorPolicy());
        if (s.statements() != null) {
            m.put("account_statements_skipped", s.statements().accountStatementsSkipped());
            m.put("statements_filtered", s.statements().statementsFiltered());
            m.put("triggers_not_created", s.statements().triggersNotCreated());
            m.put("definitions_not_translated", s.statements().definitionsNotTranslated());
        }
        m.put("events", s.events());
        m.put("rows", s.rows());
        m.put("large_transactions", s.largeTransactions());
        m.put("spilled_transactions", s.spilledTransactions());
        m.put("seconds", s.seconds());
        m.put("tps", s.transactionsPerSecond());
        // This process's processor time so far, every thread counted (the JIT compiler's and the garbage collector's
        // too): on a machine shared with the target, what Lanes takes from it.
        ProcessHandle.current().info().totalCpuDuration()
                .ifPresent(cpu -> m.put("process_cpu_s", cpu.toNanos() / 1e9));
        m.put("source_bytes", s.sourceBytesRead());
        m.put("resumed_from", s.resumedFrom());
        m.put("position", s.sourcePosition());
        m.put("scheduler", config.schedulerName());
        m.put("workers", config.engineSettings().workers());
        m.put("commit_order", LanesConfig.commitOrderLabel(config.engineSettings().commitOrder()));
        m.put("block_commit", config.engineSettings().blockCommit());
        EngineStats e = s.engine();
        if (e != null) {
            m.put("achieved_parallelism", e.achievedParallelism());
            m.put("barriers", e.barriers());
            m.put("retries", e.retries());
            m.put("commit_order_retries", e.commitOrderRetries());
            m.put("commit_order_deadlocks_broken", e.commitOrderDeadlocksBroken());
        }
        List<Object> workers = new ArrayList<>();
        for (WorkerStats w : s.workers()) {
            Map<String, Object> wm = new LinkedHashMap<>();
            wm.put("worker", w.workerId());
            wm.put("transactions", w.transactions());
            wm.put("commits", w.commits());
            wm.put("bytes", w.bytes());
            wm.put("applying_s", w.applyingNanos() / 1e9);
            wm.put("waiting_for_dependency_s", w.waitingForDependencyNanos() / 1e9);
            wm.put("waiting_for_commit_order_s", w.waitingForCommitOrderNanos() / 1e9);
            wm.put("retrying_s", w.retryingNanos() / 1e9);
            wm.put("idle_s", w.idleNanos() / 1e9);
            wm.put("state", w.state().name());
            workers.add(wm);
        }
        m.put("worker_stats", workers);
        return m;
    }

    /**
     * A few human-readable lines for a terminal. A failure's message is not among them: the command prints it once, on
     * stderr.
     */
    static void printHuman(PrintStream out, LanesStats s, Outcome outcome) {
        String verdict = !outcome.ok() ? "FAILED" : outcome.interrupted() ? (String) outcome.summary().get("status")
                : "applied";
        out.printf(Locale.ROOT, "%s: %,d transactions (%,d rows, %,d events) in %.2f s = %,.0f tx/s%s%n",
                verdict, s.transactions(), s.rows(), s.events(), s.seconds(),
                s.transactionsPerSecond(),
                s.transactionsSkipped() > 0 ? String.format(Locale.ROOT, "; %,d already applied before (resumed after %s)",
                        s.transactionsSkipped(), s.resumedFrom()) : "");
        if (s.engine() != null && !s.workers().isEmpty()) {
            out.printf(Locale.ROOT, "  achieved parallelism %.2f; per worker: transactions / commits / applying s / "
                    + "waiting s%n", s.engine().achievedParallelism());
            for (WorkerStats w : s.workers()) {
                out.printf(Locale.ROOT, "  worker %2d: %,8d / %,7d / %7.2f / %7.2f%n", w.workerId(), w.transactions(),
                        w.commits(), w.applyingNanos() / 1e9,
                        (w.waitingForDependencyNanos() + w.waitingForCommitOrderNanos()) / 1e9);
            }
        }
        io.lanes.applier.StatementStats st = s.statements();
        if (st != null && (st.accountStatementsSkipped() + st.statementsFiltered() + st.triggersNotCreated()
                + st.definitionsNotTranslated()) > 0) {
            out.printf(Locale.ROOT, "  statements not applied: %,d account management (skipped), %,d filtered out, "
                    + "%,d trigger statements, %,d view/routine/event definitions%n", st.accountStatementsSkipped(),
                    st.statementsFiltered(), st.triggersNotCreated(), st.definitionsNotTranslated());
        }
        if (outcome.interrupted() && outcome.ok()) {
            out.println(verdict.equals("aborted")
                    ? "  aborted before the end: what was committed is checkpointed; run the same command again to resume"
                    : "  stopped before the end: everything read was committed and checkpointed; run the same command"
                            + " again to resume after " + s.sourcePosition());
        }
    }

    /**
     * Reports a failure on stderr: its one message, and with {@code verbose} the whole cause chain with stack traces.
     */
    static void printFailure(String command, LanesException failure, boolean verbose) {
        System.err.println("lanes " + command + ": " + failure.getMessage());
        if (verbose) {
            failure.printStackTrace(System.err);
        }
    }
}
