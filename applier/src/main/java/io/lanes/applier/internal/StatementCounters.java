package io.lanes.applier.internal;

import io.lanes.applier.StatementStats;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counts behind {@link StatementStats}: incremented by the reading thread (filtered and account statements, decided
 * before a transaction is handed over) and by workers once the batch that passed over a statement committed (triggers,
 * untranslated definitions). Thread-safe.
 */
public final class StatementCounters {
    private final LongAdder accountStatementsSkipped = new LongAdder();
    private final LongAdder statementsFiltered = new LongAdder();
    private final LongAdder triggersNotCreated = new LongAdder();
    private final LongAdder definitionsNotTranslated = new LongAdder();

    public void accountStatementSkipped() {
        accountStatementsSkipped.increment();
    }

    public void statementFiltered() {
        statementsFiltered.increment();
    }

    public void triggersNotCreated(long n) {
        triggersNotCreated.add(n);
    }

    public void definitionsNotTranslated(long n) {
        definitionsNotTranslated.add(n);
    }

    /** A snapshot (each count read once, not all at one instant). */
    public StatementStats snapshot() {
        return snapshot(null);
    }

    /** A snapshot with the counts of a JDBC target's DDL handler added (null: none). */
    public StatementStats snapshot(io.lanes.applier.jdbc.JdbcTarget target) {
        long account = accountStatementsSkipped.sum();
        long triggers = triggersNotCreated.sum();
        long definitions = definitionsNotTranslated.sum();
        if (target != null) {
            account += target.accountStatementsNotRun();
            triggers += target.triggersNotCreated();
            definitions += target.definitionsNotTranslated();
        }
        return new StatementStats(account, statementsFiltered.sum(), triggers, definitions);
    }
}
