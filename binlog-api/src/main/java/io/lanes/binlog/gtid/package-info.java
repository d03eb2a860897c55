/**
 * Global transaction identifiers and positions, in the server's own terms; the one place Lanes parses and prints them.
 *
 * <ul>
 *   <li>{@link io.lanes.binlog.gtid.Gtid}: one transaction, {@link io.lanes.binlog.gtid.MySqlGtid}
 *       ({@code uuid[:tag]:gno}) or {@link io.lanes.binlog.gtid.MariaDbGtid} ({@code domain-server-sequence}).</li>
 *   <li>{@link io.lanes.binlog.gtid.GtidSet}: what a consumer has, {@link io.lanes.binlog.gtid.MySqlGtidSet}
 *       (intervals per source UUID and tag, as {@code gtid_executed}) or
 *       {@link io.lanes.binlog.gtid.MariaDbGtidPosition} (the last GTID per domain, as {@code gtid_binlog_pos}); parse,
 *       add, contains, containsAll, print. {@link io.lanes.binlog.gtid.GtidSet#parse} is the one rule that tells the
 *       flavours apart by their text.</li>
 *   <li>{@link io.lanes.binlog.gtid.SourcePosition}: where a transaction ends, {@code NAME:OFFSET[ gtid=STATE]}, the one
 *       text form of a binlog position (checkpoints, failure messages, Kafka Connect offsets).</li>
 * </ul>
 *
 * <p>Sets are mutable and not thread-safe: one thread adds transactions in source order; {@code copy()} hands a set to
 * another. GTIDs and source positions are immutable values. Text that does not parse raises
 * {@link io.lanes.binlog.gtid.GtidSetFormatException} naming the offset.
 */
package io.lanes.binlog.gtid;
