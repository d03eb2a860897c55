package io.lanes.binlog;

import io.lanes.binlog.gtid.Gtid;
import io.lanes.binlog.internal.SpillFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Push-style transaction grouping: feed it events in log order with {@link #accept(BinlogEvent, String)} and take the
 * completed transactions with {@link #poll()}. {@link TransactionReader} drives one over a {@link BinlogReader}; a
 * replication consumer drives one over decoded network events. The grouping rules are described on
 * {@link TransactionReader}.
 *
 * <p>A large transaction: with {@link BinlogReaderOptions#spillThresholdBytes()} set, once the open transaction holds
 * that many bytes of row images, the images of its later row events go to a temporary file of its own and the events
 * keep only their descriptions ({@link RowsEvent#rowsOnDisk()}); their rows are counted as they go, which checks their
 * framing. A transaction dropped before it ends has its file removed at once.
 *
 * <p>Not thread-safe: one assembler belongs to the thread that feeds it. The transactions it returns are immutable.
 */
public final class TransactionAssembler {
    private final ArrayDeque<BinlogTransaction> completed = new ArrayDeque<>();
    private final long spillThresholdBytes;
    private final Path spillDirectory;
    private Builder current;
    private long dropped;

    /** An assembler that holds every transaction in the heap. */
    public TransactionAssembler() {
        this(BinlogReaderOptions.defaults());
    }

    /** An assembler that spills large transactions' row images as {@code options} say. */
    public TransactionAssembler(BinlogReaderOptions options) {
        this.spillThresholdBytes = options.spillThresholdBytes();
        this.spillDirectory = options.spillDirectory();
    }

    /**
     * Takes the next event. A TRANSACTION_PAYLOAD is expanded here (its inner events decoded as a stream).
     *
     * @param event the event
     * @param file the file (or stream) the event is in, recorded as the transaction's start and end file
     */
    public void accept(BinlogEvent event, String file) {
        if (event instanceof TransactionPayloadEvent p) {
            try (TransactionPayloadEvent.PayloadEvents inner = p.events()) {
                while (inner.hasNext()) {
                    handle(inner.next(), p, file);
                }
            }
        } else {
            handle(event, event, file);
        }
    }

    /** The next completed transaction, or {@code null} if none is ready. */
    public BinlogTransaction poll() {
        return completed.poll();
    }

    /** Discards an open transaction (the input ended, or a stream reconnects elsewhere); counts it as dropped. */
    public void discardOpen() {
        if (current != null) {
            dropped++;
            current.discard();
            current = null;
        }
    }

    /** Transactions dropped because the input started or ended inside them. */
    public long droppedIncomplete() {
        return dropped;
    }

    /** Whether the events accepted so far end inside an open transaction. */
    public boolean insideTransaction() {
        return current != null;
    }

    private void handle(BinlogEvent e, BinlogEvent top, String file) {
        if (e instanceof GtidEvent g) {
            restart(file, top);
            current.add(e, top, file);
            current.gtid = g.gtid();
            current.lastCommitted = g.lastCommitted();
            current.sequenceNumber = g.sequenceNumber();
        } else if (e instanceof MariaGtidEvent g) {
            restart(file, top);
            current.add(e, top, file);
            current.gtid = g.gtid();
            current.commitId = g.commitId();
            // MariaDB logs no BEGIN after a transactional GTID: the group is open now.
            current.open = !g.isStandalone();
        } else if (e instanceof QueryEvent q) {
            handleQuery(q, top, file);
        } else if (e instanceof ExecuteLoadQueryEvent) {
            ensure(file, top, false).add(e, top, file);
            if (!current.open) {
                finish(BinlogTransaction.Ending.STANDALONE);
            }
        } else if (e instanceof XidEvent || e instanceof XaPrepareEvent) {
            if (current == null) {
                dropped++;
                return;
            }
            current.add(e, top, file);
            BinlogTransaction.Ending ending =
                    e instanceof XidEvent ? BinlogTransaction.Ending.XID : BinlogTransaction.Ending.XA_PREPARE;
            finish(current.headless ? null : ending);
        } else if (e instanceof TableMapEvent || e instanceof RowsEvent) {
            ensure(file, top, true).add(e, top, file);
            current.open = true;
        } else if (e instanceof IntVarEvent || e instanceof RandEvent || e instanceof UserVarEvent
                || e instanceof RowsQueryEvent || e instanceof MariaAnnotateRowsEvent || e instanceof BeginLoadQueryEvent
                || e instanceof AppendBlockEvent || e instanceof CreateFileEvent || e instanceof ExecLoadEvent
                || e instanceof DeleteFileEvent || e instanceof LoadEvent || e instanceof TransactionContextEvent) {
            ensure(file, top, false).add(e, top, file);
        } else if (e instanceof IgnorableEvent || e instanceof ViewChangeEvent) {
            if (current != null) {
                current.add(e, top, file); // part of the transaction's bytes (Aurora padding sits after the GTID)
            }
        }
        // FORMAT_DESCRIPTION, ROTATE, STOP, PREVIOUS_GTIDS, GTID lists, checkpoints, heartbeats, incidents,
        // START_ENCRYPTION: not part of any transaction.
    }

    private void handleQuery(QueryEvent q, BinlogEvent top, String file) {
        String sql = q.sql();
        boolean begin = q.isBegin() || sql.regionMatches(true, 0, "XA START", 0, 8)
                || sql.regionMatches(true, 0, "XA BEGIN", 0, 8);
        if (begin) {
            if (current != null && current.open) {
                restart(file, top); // a BEGIN inside an open transaction: the previous one never ended
            }
            ensure(file, top, false).add(q, top, file);
            current.open = true;
            return;
        }
        if (current != null && current.open) {
            current.add(q, top, file);
            if (q.isCommit()) {
                finish(current.headless ? null : BinlogTransaction.Ending.COMMIT);
            } else if (q.isRollback()) {
                finish(current.headless ? null : BinlogTransaction.Ending.ROLLBACK);
            } else if (q.isXaPrepare()) {
                finish(current.headless ? null : BinlogTransaction.Ending.XA_PREPARE);
            }
            return;
        }
        ensure(file, top, false).add(q, top, file);
        finish(BinlogTransaction.Ending.STANDALONE);
    }

    private void restart(String file, BinlogEvent top) {
        if (current != null) {
            dropped++;
            current.discard();
        }
        current = new Builder(file, top.position());
    }

    private Builder ensure(String file, BinlogEvent top, boolean rowsEvent) {
        if (current == null) {
            current = new Builder(file, top.position());
            current.headless = rowsEvent;
        }
        return current;
    }

    private void finish(BinlogTransaction.Ending ending) {
        Builder b = current;
        current = null;
        if (ending == null) {
            dropped++;
            b.discard();
            return;
        }
        b.sealSpill();
        completed.add(new BinlogTransaction(b.events, b.tableMaps, b.startFile, b.startPosition, b.endFile, b.endPosition,
                b.gtid, b.lastCommitted, b.sequenceNumber, b.commitId, b.size, ending));
    }

    private final class Builder {
        final List<BinlogEvent> events = new ArrayList<>();
        final List<TableMapEvent> tableMaps = new ArrayList<>();
        final String startFile;
        final long startPosition;
        String endFile;
        long endPosition;
        Gtid gtid;
        long lastCommitted = -1;
        long sequenceNumber = -1;
        long commitId = -1;
        long size;
        boolean open;
        boolean headless;
        BinlogEvent lastTop;
        /** Bytes of row images held in the heap. */
        long residentRowBytes;
        SpillFile spill;

        Builder(String file, long position) {
            this.startFile = file;
            this.startPosition = position;
        }

        void add(BinlogEvent e, BinlogEvent top, String file) {
            if (e instanceof RowsEvent r && spillThresholdBytes > 0) {
                if (residentRowBytes >= spillThresholdBytes) {
                    e = spilled(r, file);
                } else {
                    residentRowBytes += r.rowDataLength();
                }
            }
            events.add(e);
            if (e instanceof TableMapEvent t) {
                tableMaps.add(t);
            }
            if (top != lastTop) {
                lastTop = top;
                size += top.header().eventLength();
                endFile = file;
                endPosition = top.position() + top.header().eventLength();
            }
        }

        private RowsEvent spilled(RowsEvent r, String file) {
            try {
                if (spill == null) {
                    spill = SpillFile.create(spillDirectory);
                }
                return r.spilledTo(spill);
            } catch (IOException e) {
                discard();
                throw new BinlogFormatException(file, r.position(), "the transaction that starts at " + startFile + ":"
                        + startPosition + " holds more than " + spillThresholdBytes + " bytes of row images, and the rest "
                        + "cannot be written to a temporary file in " + (spillDirectory == null
                                ? System.getProperty("java.io.tmpdir") : spillDirectory) + ": " + e, e);
            }
        }

        /** The transaction ends: its spilled images are written out before it is handed to other threads. */
        void sealSpill() {
            if (spill != null) {
                try {
                    spill.seal();
                } catch (IOException e) {
                    discard();
                    throw new BinlogFormatException(endFile, endPosition, "the row images of the transaction that starts"
                            + " at " + startFile + ":" + startPosition + " cannot be written to its temporary file "
                            + spill.path() + ": " + e, e);
                }
            }
        }

        /** A transaction that will not be handed out: its spill file goes now rather than when collected. */
        void discard() {
            if (spill != null) {
                spill.close();
            }
        }
    }
}
