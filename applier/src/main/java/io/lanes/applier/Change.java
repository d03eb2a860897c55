package io.lanes.applier;

/**
 * One change of a {@link SourceTransaction}: a {@link RowChange} (row-based events) or a
 * {@link io.lanes.applier.ddl.SourceStatement} (DDL and other statements the source logged as text), or a
 * {@link ConstraintChecks} (the source session turned foreign key or unique checks off for the rows after it). Immutable.
 */
public interface Change {
}
