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
 * Runs a {@link Lanes} pipeline over files to the end, with a progress bar on a terminal, and builds the one-line JSON
 * summary shared by {@code apply} and {@code demo}. A JVM shutdown (Ctrl-C) stops the pipeline gracefully, so what was
 * read is committed and checkpointed.
 */
final class ApplyRun {
    private ApplyRun() {
    }

    /** What a run ended with: final statistics, the failure (null on success) and the summary fields. */
    record Outcome(LanesStats stats, LanesException failure, Map<String, Object> summary) {
        boolean ok() {
            return failure == null;
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
     * stopped (Ctrl-C) or failed; then stops it.
     */
    static Outcome run(Lanes lanes, boolean showProgress, boolean stopWhenCaughtUp) throws InterruptedException {
        LanesException failure = null;
        Thread hook = new Thread(() -> {
            try {
                lanes.stop();
            } catch (InterruptedException | RuntimeException e) {
                // reported by the main thread, if it still runs
            }
        }, "lanes-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        ProgressBar bar = null;
        try {
            lanes.start();
            if (showProgress && System.console() != null) {
                bar = progressBar(lanes);
            }
            while (true) {
                if (lanes.awaitCaughtUp(Duration.ofMillis(200)) && stopWhenCaughtUp) {
                    break;
                }
                Lanes.State s = lanes.state();
                if (s == Lanes.State.STOPPED || s == Lanes.State.FAILED) {
                    break;
                }
                if (bar != null) {
                    update(bar, lanes.stats());
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
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting; the hook runs or ran
        }
        return new Outcome(stats, failure, summary(lanes.config(), stats, failure));
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
    static Map<String, Object> summary(LanesConfig config, LanesStats s, LanesException failure) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", failure == null ? "ok" : "failed");
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
        m.put("seconds", s.seconds());
        m.put("tps", s.transactionsPerSecond());
        m.put("source_bytes", s.sourceBytesRead());
        m.put("resumed_from", s.resumedFrom());
        m.put("position", s.sourcePosition());
        m.put("scheduler", config.schedulerName());
        m.put("workers", config.workers());
        m.put("commit_order", LanesConfig.commitOrderLabel(config.commitOrder()));
        m.put("block_commit", config.blockCommit());
        EngineStats e = s.engine();
        if (e != null) {
            m.put("achieved_parallelism", e.achievedParallelism());
            m.put("barriers", e.barriers());
            m.put("retries", e.retries());
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

    /** A few human-readable lines for a terminal. */
    static void printHuman(PrintStream out, LanesStats s, LanesException failure) {
        out.printf(Locale.ROOT, "%s: %,d transactions (%,d rows, %,d events) in %.2f s = %,.0f tx/s%s%n",
                failure == null ? "applied" : "FAILED", s.transactions(), s.rows(), s.events(), s.seconds(),
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
        if (failure != null) {
            out.println("  failed at " + failure.position() + ": " + failure.getMessage());
        }
    }
}
