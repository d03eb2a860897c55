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
        return new StatementStats(accountStatementsSkipped.sum(), statementsFiltered.sum(), triggersNotCreated.sum(),
                definitionsNotTranslated.sum());
    }
}
