/**
 * MySQL and MariaDB binary logs: typed, immutable events, decoded from files, streams or replication packets, and
 * grouped into transactions.
 *
 * <h2>Reading</h2>
 * <ul>
 *   <li>{@link io.lanes.binlog.BinlogReader}: pull events from binlog files (plain or gzip) or any stream starting with
 *       the binlog magic; {@link io.lanes.binlog.BinlogReader#nextHeader()} is the fast header-only scan.</li>
 *   <li>{@link io.lanes.binlog.BinlogEventDecoder}: push-style, one whole event's bytes at a time (what the reader and a
 *       replication client use); it keeps the FORMAT_DESCRIPTION and TABLE_MAP state.</li>
 *   <li>{@link io.lanes.binlog.BinlogReaderOptions}: checksum verification (on by default), event type filter, maximum
 *       event length.</li>
 *   <li>{@link io.lanes.binlog.TransactionReader} (pull) and {@link io.lanes.binlog.TransactionAssembler} (push): events
 *       grouped into {@link io.lanes.binlog.BinlogTransaction}s with positions, GTID, logical clock and size.</li>
 * </ul>
 *
 * <h2>Events</h2>
 * {@link io.lanes.binlog.BinlogEvent} is sealed: one record or class per event type, each with its
 * {@link io.lanes.binlog.EventHeader}. Row events ({@link io.lanes.binlog.RowsEvent}) keep their images as logged and
 * decode them on demand, whole ({@link io.lanes.binlog.RowsEvent#rows()}) or column by column
 * ({@link io.lanes.binlog.RowCursor}); {@link io.lanes.binlog.TransactionPayloadEvent} decompresses its inner events as a
 * stream.
 *
 * <h2>Contracts</h2>
 * Readers, decoders, assemblers and cursors belong to one thread each. Events and transactions are immutable and may be
 * handed to other threads. Every problem with the input is a {@link io.lanes.binlog.BinlogFormatException} that names the
 * file or stream and the absolute byte offset; nothing of a bad event is handed out, and every event before it was.
 */
package io.lanes.binlog;
