package io.lanes.applier.value;

/**
 * What the applier writes for a {@link ZeroDate} into a target that cannot hold one (H2, PostgreSQL). The default is
 * {@link #TO_NULL}. A MySQL/MariaDB target gets the zero date itself, whatever the policy.
 */
public enum ZeroDatePolicy {
    /**
     * Write NULL (what MySQL's own drivers do with {@code zeroDateTimeBehavior=convertToNull}). A NOT NULL target column
     * then rejects the row: the apply stops with the position and the column named.
     */
    TO_NULL,
    /** Stop with a {@link ValueConversionException} naming the column and the value. */
    ERROR
}
