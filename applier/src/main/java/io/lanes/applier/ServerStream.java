package io.lanes.applier;

import io.lanes.applier.internal.StartPrefix;
import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogEventDecoder;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.PreviousGtidsEvent;
import io.lanes.binlog.TransactionAssembler;
import io.lanes.binlog.gtid.GtidSet;
import io.lanes.binlog.gtid.MariaDbGtidPosition;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.ServerInfo;
import io.lanes.binlog.replication.StartPosition;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A live server's binlog, read over the replication protocol as whole transactions in source order: the one reading
 * loop behind Lanes' live source and the Kafka Connect source task, so that both hand their {@link BinlogBridge} the
 * same GTID state and agree on where a stream starts and when it has caught up.
 *
 * <p>What it does besides reading: the GTID state the stream carries outside transactions (each MySQL file's
 * PREVIOUS_GTIDS event) goes to the bridge; a MariaDB stream dumped from a file position gets its GTID position before
 * that point from the server ({@code BINLOG_GTID_POS}); a fresh start in the middle of a file
 * ({@link #open open(..., readPrefix = true)}) dumps from the file's beginning, and the transactions before the start
 * are handed out marked {@link #beforeStart()} so that the caller follows their GTIDs and definitions without applying
 * them (a MySQL server seeking straight to the position sends neither them nor the file's PREVIOUS_GTIDS); and where the
 * server's binlog ended when the stream connected ({@link #reachedConnectEnd()}).
 *
 * <p>Threads: not thread-safe; one reading thread calls {@link #start}, {@link #poll} and the state getters in turn.
 * {@link #client()} may be read from any thread (its counters and reconnect state are).
 */
public final class ServerStream implements AutoCloseable {
    private final ReplicationClient client;
    private final BinlogBridge bridge;
    private final StartPosition start;
    private final StartPrefix prefix;
    /** Made by {@link #start}, with its options' spill settings. */
    private TransactionAssembler assembler = new TransactionAssembler();
    /** Complete transactions not yet handed out: those before the start first, as they came first. */
    private final ArrayDeque<BinlogTransaction> beforeStartPending = new ArrayDeque<>();
    private final ArrayDeque<BinlogTransaction> pending = new ArrayDeque<>();
    private BinlogEventDecoder decoder;
    private ServerInfo atConnect;
    private CatchUpTarget connectEnd;
    private boolean reachedConnectEnd;
    private boolean lastBeforeStart;
    private long bytesRead;

    private ServerStream(ReplicationClient client, BinlogBridge bridge, StartPosition start, StartPrefix prefix) {
        this.client = client;
        this.bridge = bridge;
        this.start = start;
        this.prefix = prefix;
    }

    /**
     * A stream from {@code start}, not yet connected ({@link #start}); the bridge is seeded with the start's GTID state.
     *
     * @param clientBuilder the server, account and options; its start position is set here
     * @param readPrefix whether a start in the middle of a file reads the file from its beginning for the GTID state
     *     and definitions before it (a fresh start; a resume from a checkpoint or offset has them already)
     */
    public static ServerStream open(ReplicationClient.Builder clientBuilder, StartPosition start, BinlogBridge bridge,
            boolean readPrefix) {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(bridge, "bridge");
        bridge.startingAt(start); // positions carry the whole GTID state, not only what this run sees
        StartPrefix prefix = readPrefix ? StartPrefix.before(start) : null;
        ReplicationClient client = clientBuilder.startPosition(prefix == null ? start : prefix.dumpFrom()).build();
        return new ServerStream(client, bridge, start, prefix);
    }

    /** The client (its queries may be used before {@link #start}, its counters at any time). */
    public ReplicationClient client() {
        return client;
    }

    /** Where the stream starts: the configured or resumed position (the dump may begin earlier, see {@link #open}). */
    public StartPosition startPosition() {
        return start;
    }

    /** Where the server is asked to dump from: the start, or the start file's beginning when a prefix is read. */
    public StartPosition dumpedFrom() {
        return prefix == null ? start : prefix.dumpFrom();
    }

    /**
     * Connects and starts the dump. On MariaDB from a file position, the server's GTID position before the dump point
     * ({@link ServerInfo#startGtidPosition()}, when it gives one) seeds the bridge.
     *
     * @return what the server reported at connect (null when it reported nothing)
     */
    public ServerInfo start(BinlogReaderOptions options) {
        atConnect = client.start();
        decoder = client.newDecoderForDelivered(options);
        assembler = new TransactionAssembler(options);
        connectEnd = CatchUpTarget.of(atConnect);
        if (atConnect != null && atConnect.mariaDb() && start instanceof StartPosition.FilePosition
                && atConnect.startGtidPosition() != null) {
            // A MariaDB dump from a file position carries no history: every domain's last GTID before the dump point,
            // advanced to the start by the prefix's transactions when one is read.
            bridge.mariaDbPositionBefore(atConnect.startGtidPosition());
        }
        return atConnect;
    }

    /**
     * The next whole transaction, or null when no transaction completed and the server sent nothing for
     * {@code timeout} ({@link Duration#ZERO}: only what has arrived). A transaction for which {@link #beforeStart()}
     * then says true lies before the start: follow its GTID and definitions ({@link BinlogBridge#skip}), never apply it.
     */
    public BinlogTransaction poll(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (;;) {
            BinlogTransaction t = beforeStartPending.poll();
            if (t != null) {
                lastBeforeStart = true;
                return t;
            }
            t = pending.poll();
            if (t != null) {
                lastBeforeStart = false;
                return t;
            }
            long left = deadline - System.nanoTime();
            ReplicationEvent raw = client.poll(left > 0 ? Duration.ofNanos(left) : Duration.ZERO);
            if (raw == null) {
                return null;
            }
            take(raw);
        }
    }

    private void take(ReplicationEvent raw) {
        byte[] b = raw.bytes();
        BinlogEvent event = decoder.decodeRetainingIfAccepted(b, raw.position());
        if (event instanceof PreviousGtidsEvent p) {
            bridge.previousGtids(p);
        }
        if (prefix != null && prefix.take(raw, event)) {
            for (BinlogTransaction t; (t = prefix.poll()) != null; ) {
                beforeStartPending.add(t);
            }
        } else if (event != null) {
            bytesRead += b.length;
            assembler.accept(event, raw.binlogFile());
            for (BinlogTransaction t; (t = assembler.poll()) != null; ) {
                pending.add(t);
            }
        }
        if (!reachedConnectEnd && connectEnd != null && raw.endsTransaction() && !assembler.insideTransaction()
                && connectEnd.reachedBy(raw)) {
            reachedConnectEnd = true;
        }
    }

    /** Whether the transaction {@link #poll} returned last lies before the start (not to be applied). */
    public boolean beforeStart() {
        return lastBeforeStart;
    }

    /** Whether the stream is inside a transaction (some of its events read, not its end). */
    public boolean insideTransaction() {
        return assembler.insideTransaction();
    }

    /** Whether the server reported where its binlog ended when the stream connected (file position or GTID state). */
    public boolean knowsConnectEnd() {
        return connectEnd != null;
    }

    /**
     * True once every transaction up to where the server's binlog ended at connect has been handed out: the stream,
     * between transactions, reached that file position ({@link ServerInfo#endPosition()}), or its GTID state covers the
     * server's ({@code @@gtid_binlog_pos} on MariaDB, {@code @@global.gtid_executed} on MySQL).
     */
    public boolean reachedConnectEnd() {
        return reachedConnectEnd && pending.isEmpty() && beforeStartPending.isEmpty();
    }

    /** Bytes of events read after the start (the prefix not counted). */
    public long bytesRead() {
        return bytesRead;
    }

    /** Closes the connection; idempotent. */
    @Override
    public void close() {
        client.close();
    }

    /** Where the server's binlog ended when the stream connected: its file position and GTID state. */
    record CatchUpTarget(StartPosition.FilePosition end, GtidSet gtids) {
        static CatchUpTarget of(ServerInfo info) {
            if (info == null) {
                return null;
            }
            GtidSet gtids = parseGtids(info.currentGtidPosition(), info.mariaDb());
            if (info.endPosition() == null && gtids == null) {
                return null;
            }
            return new CatchUpTarget(info.endPosition(), gtids);
        }

        /** True when the stream, after {@code e} (between transactions), has everything up to the target. */
        boolean reachedBy(ReplicationEvent e) {
            if (gtids != null) {
                GtidSet have = null;
                if (e.resumePosition() instanceof StartPosition.MariaDbGtids g) {
                    have = parseGtids(g.gtidPosition(), true);
                } else if (e.resumePosition() instanceof StartPosition.MySqlGtids g) {
                    have = parseGtids(g.gtidSet(), false);
                }
                if (have != null && have.containsAll(gtids)) {
                    return true;
                }
            }
            if (end == null || e.binlogFile() == null) {
                return false;
            }
            int files = SourcePosition.compareBinlogFiles(e.binlogFile(), end.file());
            return files > 0 || (files == 0 && e.nextPosition() >= end.position());
        }

        /** A server's GTID state text of the given flavour; null when absent or not one. */
        static GtidSet parseGtids(String text, boolean mariaDb) {
            if (text == null) {
                return null;
            }
            try {
                return mariaDb ? MariaDbGtidPosition.parse(text) : MySqlGtidSet.parse(text);
            } catch (IllegalArgumentException notOne) {
                return null;
            }
        }
    }
}
