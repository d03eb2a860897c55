package io.lanes.applier.jdbc;

/**
 * What kind of error a target reported, and so whether retrying the transaction can help. {@link TargetErrorPolicy}
 * decides the class from the SQLState, the vendor code and the exception type (see docs/reliability.md for the table).
 *
 * <p>Retryable classes end in a retry of the worker's batch (rolled back first, with back-off, up to
 * {@code lanes.retries}); every other class stops the pipeline at once, unless the transaction matches the skip list.
 */
public enum TargetErrorClass {
    /** The connection broke or the server went away (SQLState 08xxx, PostgreSQL 57P01-57P03, MySQL 1053, 1927...). */
    CONNECTION("connection lost", true),
    /** The target chose this transaction as a deadlock victim (PostgreSQL 40P01, MySQL/MariaDB 1213, H2 40001). */
    DEADLOCK("deadlock", true),
    /** A lock wait or statement timed out (MySQL/MariaDB 1205, PostgreSQL 55P03 and 57014, H2 50200, HYT00). */
    LOCK_WAIT_TIMEOUT("lock wait timeout", true),
    /** A serialization failure or concurrent update (SQLState 40001, H2 90131). */
    SERIALIZATION("serialization failure", true),
    /** The target ran short of a resource (PostgreSQL 53xxx: connections, memory, disk). */
    RESOURCE("insufficient resources", true),
    /** A constraint refused a row: duplicate key, foreign key, NOT NULL, check (SQLState 23xxx). */
    INTEGRITY("integrity constraint violation", false),
    /** A value the target cannot hold (SQLState 22xxx, or a conversion Lanes refused). */
    DATA("data exception", false),
    /** Bad SQL, a missing object or missing privileges (SQLState 42xxx, 28xxx, 3Dxxx, 3Fxxx, 0Axxx). */
    SYNTAX_OR_ACCESS("syntax or access error", false),
    /**
     * The target does not hold what the source's change expects: an UPDATE or DELETE found no row (counted as MySQL's
     * error 1032, ER_KEY_NOT_FOUND, for the skip list), a missing table or column.
     */
    TARGET_DIVERGED("target diverged from the source", false),
    /** Anything else: stopping is the only safe default. */
    UNKNOWN("unclassified error", false);

    private final String description;
    private final boolean retryable;

    TargetErrorClass(String description, boolean retryable) {
        this.description = description;
        this.retryable = retryable;
    }

    /** The class in words, as error messages show it. */
    public String description() {
        return description;
    }

    /** Whether a retry (after a rollback) can succeed. */
    public boolean retryable() {
        return retryable;
    }
}
