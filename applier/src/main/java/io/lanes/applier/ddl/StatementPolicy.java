package io.lanes.applier.ddl;

import io.lanes.applier.internal.Labels;
import io.lanes.applier.jdbc.CollationMap;
import java.util.Locale;
import java.util.Objects;

/**
 * How the default {@link DdlHandler}s treat the statements a log carries beyond tables and rows. Immutable.
 *
 * @param triggers what becomes of CREATE TRIGGER and DROP TRIGGER on a MySQL/MariaDB target (H2 and PostgreSQL never
 *     create the source's triggers: MySQL trigger bodies do not run there)
 * @param collations the collation map of MySQL/MariaDB targets
 * @param bookkeepingSchema the target schema where Lanes keeps what it must remember beside the checkpoints (the
 *     checkpoint table's schema): the foreign keys H2 and PostgreSQL create once their parent table exists
 */
public record StatementPolicy(Triggers triggers, CollationMap collations, String bookkeepingSchema) {

    /**
     * What a MySQL/MariaDB target does with the source's triggers. In a row-based log the rows a trigger wrote on the
     * source are in the log: a trigger that fires again on the target when Lanes applies them writes them twice (or,
     * for a BEFORE trigger, overwrites the logged values). In a statement-based log the trigger's writes are not in the
     * log: the target's trigger must fire when the statement runs.
     */
    public enum Triggers {
        /**
         * The default: the trigger is created with its body wrapped in {@code IF @lanes_applying_rows IS NULL THEN ...
         * END IF}; Lanes's worker sessions set that variable while they apply row changes and clear it while they run a
         * logged statement, so the trigger fires for statements (and for every other client of the target) but never
         * for the rows the log already holds. Exact for row-based, statement-based and mixed logs.
         */
        GUARD,
        /** Triggers are not created (nor dropped): right for a row-based log, wrong for statements that fire them. */
        SKIP,
        /** Triggers are created as the source wrote them: right only for a purely statement-based log. */
        AS_WRITTEN;

        /** The name properties use: {@code guard}, {@code skip} or {@code as-written}. */
        public String label() {
            return Labels.of(this);
        }

        /** @throws IllegalArgumentException listing the valid names */
        public static Triggers parse(String name) {
            Triggers t = Labels.find(values(), name.trim().toLowerCase(Locale.ROOT));
            if (t != null) {
                return t;
            }
            throw new IllegalArgumentException("unknown trigger mode '" + name + "'; expected guard, skip or as-written");
        }
    }

    /** Guarded triggers, the default collation map, bookkeeping in schema {@code lanes}. */
    public static final StatementPolicy DEFAULT = new StatementPolicy(Triggers.GUARD, CollationMap.defaults(), "lanes");

    public StatementPolicy {
        Objects.requireNonNull(triggers, "triggers");
        Objects.requireNonNull(collations, "collations");
        Objects.requireNonNull(bookkeepingSchema, "bookkeepingSchema");
    }
}
