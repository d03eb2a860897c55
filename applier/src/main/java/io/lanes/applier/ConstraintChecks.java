package io.lanes.applier;

/**
 * A change of the source session's constraint checks inside a transaction: the row changes that follow it (up to the next
 * one, or the end of the transaction) were made with {@code foreign_key_checks} and {@code unique_checks} as given, as
 * the row events' {@code NO_FOREIGN_KEY_CHECKS_F} and {@code RELAXED_UNIQUE_CHECKS_F} flags say. Every transaction starts
 * with both checks on, so a transaction whose rows were all written with the checks on carries none of these; a dump
 * loaded with {@code SET FOREIGN_KEY_CHECKS=0} carries one at the start of each transaction. Statements carry their own
 * bits ({@link io.lanes.applier.ddl.SourceStatement#flags2()}). Immutable.
 *
 * <p>Why it matters: rows a source wrote with foreign key checks off may reference parents written later (or never), and
 * a target that checks them refuses what the source accepted; foreign key checks off also turn off the cascades of the
 * source's InnoDB, which are never logged (a replica cascades itself). How each target honours it is described in
 * docs/reliability.md ("Constraint checks").
 *
 * @param foreignKeys whether foreign keys were checked (and cascaded)
 * @param uniqueKeys whether unique secondary keys were checked ({@code unique_checks=0} lets InnoDB skip the check on a
 *     bulk load; a log that is valid never needs it off)
 */
public record ConstraintChecks(boolean foreignKeys, boolean uniqueKeys) implements Change {
    /** Both checks on: what every transaction starts with. */
    public static final ConstraintChecks ON = new ConstraintChecks(true, true);

    /** The checks a row event's flags say. */
    public static ConstraintChecks ofRowsEventFlags(int flags) {
        boolean fk = (flags & 0x2) == 0; // NO_FOREIGN_KEY_CHECKS_F
        boolean unique = (flags & 0x4) == 0; // RELAXED_UNIQUE_CHECKS_F
        return fk && unique ? ON : new ConstraintChecks(fk, unique);
    }
}
