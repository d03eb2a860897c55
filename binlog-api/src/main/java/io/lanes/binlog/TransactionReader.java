package io.lanes.binlog;

import java.io.Closeable;
import java.nio.file.Path;
import java.util.List;

/**
 * Groups the events of a {@link BinlogReader} into {@link BinlogTransaction}s.
 *
 * <p>A transaction starts at a GTID event (MySQL GTID, ANONYMOUS_GTID, GTID_TAGGED, MariaDB GTID), or at a {@code BEGIN}
 * / {@code XA START} query, or at the first statement-context event (INTVAR, RAND, USER_VAR) before a statement. It ends
 * at an XID event, a {@code COMMIT} or {@code ROLLBACK} query, an XA_PREPARE event (or MariaDB's {@code XA PREPARE}
 * query), or, for a statement outside BEGIN (DDL; MariaDB FL_STANDALONE groups; autocommitted statements in statement
 * format), at that statement. Events of a TRANSACTION_PAYLOAD become the transaction's own events, decompressed as a
 * stream. Events between transactions (FORMAT_DESCRIPTION, ROTATE, PREVIOUS_GTIDS, GTID_LIST, BINLOG_CHECKPOINT, STOP,
 * heartbeats) belong to none; a transaction may continue across a file boundary (relay logs).
 *
 * <p>Only committed work is delivered: row events that arrive with no transaction open (input that starts in the middle
 * of one), and a transaction still open when the input ends or when the next GTID arrives, are dropped and counted in
 * {@link #droppedIncomplete()}.
 *
 * <p>Not thread-safe: one reader belongs to one thread. Transactions are immutable and may be handed to other threads.
 */
public final class TransactionReader implements Closeable {
    private final BinlogReader reader;
    private final TransactionAssembler assembler;

    /** Groups the events of {@code reader}, which must not filter event types; every transaction held in the heap. */
    public TransactionReader(BinlogReader reader) {
        this(reader, BinlogReaderOptions.defaults());
    }

    /** Groups the events of {@code reader}, which must not filter event types, spilling as {@code options} say. */
    public TransactionReader(BinlogReader reader, BinlogReaderOptions options) {
        this.reader = reader;
        this.assembler = new TransactionAssembler(options);
    }

    /**
     * Opens files (read in order) for grouping; any type filter in {@code options} is ignored, its spill settings are
     * the assembler's.
     */
    public static TransactionReader open(List<Path> files, BinlogReaderOptions options) {
        BinlogReaderOptions all = BinlogReaderOptions.builder().verifyChecksums(options.verifyChecksums())
                .maxEventLength(options.maxEventLength()).build();
        return new TransactionReader(BinlogReader.open(files, all), options);
    }

    public static TransactionReader open(Path file) {
        return open(List.of(file), BinlogReaderOptions.defaults());
    }

    /** The next complete transaction, or {@code null} when the input is exhausted. */
    public BinlogTransaction next() {
        BinlogTransaction t;
        while ((t = assembler.poll()) == null) {
            BinlogEvent e = reader.next();
            if (e == null) {
                assembler.discardOpen();
                return null;
            }
            assembler.accept(e, reader.currentSource());
        }
        return t;
    }

    /** Transactions dropped because the input started or ended inside them. */
    public long droppedIncomplete() {
        return assembler.droppedIncomplete();
    }

    /** Whether the events read so far end inside an open transaction. */
    public boolean insideTransaction() {
        return assembler.insideTransaction();
    }

    public BinlogReader reader() {
        return reader;
    }

    @Override
    public void close() {
        reader.close();
    }
}
