package io.lanes.applier;

/**
 * One change of a {@link SourceTransaction}: a {@link RowChange} (row-based events) or a
 * {@link io.lanes.applier.ddl.SourceStatement} (DDL and other statements the source logged as text). Immutable.
 */
public interface Change {
}
