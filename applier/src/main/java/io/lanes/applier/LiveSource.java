package io.lanes.applier;

import io.lanes.applier.internal.SourceEndMonitor;
import io.lanes.applier.schema.InformationSchemaSeed;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.gtid.SourcePosition;
import io.lanes.binlog.replication.ReplicationClient;
import io.lanes.binlog.replication.ReplicationException;
import io.lanes.binlog.replication.ServerInfo;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.core.Engine;
import io.lanes.core.RecoveryPoint;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live server followed over the replication protocol: the stream starts where the checkpoint says (its GTID state
 * when it has one, else its file and offset), or at the configured start on a fresh target, so the server sends exactly
 * the transactions after the low-water mark in their original order; the client reconnects by itself after a lost
 * connection.
 *
 * <p>Caught up: first once everything the server had written when this run connected is committed, that is once the
 * stream, between transactions, has reached the end of the server's binlog as SHOW MASTER STATUS reported it at connect
 * ({@link ServerInfo#endPosition()}), or, on a GTID stream, covers the server's {@code @@gtid_binlog_pos} (MariaDB) or
 * {@code @@global.gtid_executed} (MySQL) of then; writes after the connect are not waited for, and a pause in the stream
 * before that point is not taken for the end. Afterwards (a follower) again whenever the stream is idle between
 * transactions with everything read committed. When the server reported neither, only the idle rule applies.
 *
 * <p>Threads: as {@link Source}; {@link #client()} and {@link #sourceEnd()} may be read from any thread.
 */
final class LiveSource implements Source {
    // the pipeline's own category: what it logs reads as the pipeline's, and is quieted with it (CliLogging)
    private static final Logger LOG = LoggerFactory.getLogger(Lanes.class);

    private final ReplicationClient.Builder clientBuilder;
    private final StartPosition configuredStart;
    private final BinlogReaderOptions options;
    private final Duration statusInterval;
    private final SchemaMapping mapping;
    private final boolean seedHistory;
    private volatile ReplicationClient client;
    private volatile SourceEndMonitor sourceEnd;

    /**
     * @param seedHistory whether to add the source's information_schema definitions to the history (not when it was
     *     restored as in force at the checkpoint)
     */
    LiveSource(ReplicationClient.Builder clientBuilder, StartPosition configuredStart, BinlogReaderOptions options,
            Duration statusInterval, SchemaMapping mapping, boolean seedHistory) {
        this.clientBuilder = clientBuilder;
        this.configuredStart = configuredStart;
        this.options = options;
        this.statusInterval = statusInterval;
        this.mapping = mapping;
        this.seedHistory = seedHistory;
    }

    @Override
    public boolean live() {
        return true;
    }

    /** The connected client (null before the connect): its reconnect state and counters, for stats. */
    ReplicationClient client() {
        return client;
    }

    /** The monitor of the server's binlog end (null when not running or disabled), for lag in bytes. */
    SourceEndMonitor sourceEnd() {
        return sourceEnd;
    }

    @Override
    public void close() {
        SourceEndMonitor m = sourceEnd;
        if (m != null) {
            m.close();
        }
    }

    @Override
    public void run(Pipeline pipeline) throws Exception {
        RecoveryPoint from = pipeline.from();
        StartPosition start = from.position() == null ? configuredStart : resumePosition(from.position());
        // A fresh start in the middle of a file reads the file from its beginning for the GTIDs before the position; a
        // resume needs no such read: a checkpoint of a GTID source carries its GTID set and resumes by it.
        try (ServerStream stream = ServerStream.open(clientBuilder, start, pipeline.bridge(), from.position() == null)) {
            ReplicationClient c = stream.client();
            if (seedHistory) {
                seedFromSource(c, pipeline);
            }
            ServerInfo atConnect = stream.start(options);
            client = c;
            if (!statusInterval.isZero()) {
                sourceEnd = SourceEndMonitor.start(c, statusInterval, pipeline.name());
            }
            if (atConnect != null && atConnect.mariaDb() && start instanceof StartPosition.FilePosition) {
                String before = atConnect.startGtidPosition();
                if (before != null) {
                    LOG.info("lanes pipeline '{}': a MariaDB source followed from a file position ({}): GTID position"
                            + " before {} on the server: '{}'", pipeline.name(), start, stream.dumpedFrom(), before);
                } else {
                    LOG.warn("lanes pipeline '{}': a MariaDB source followed from a file position ({}) refused"
                            + " BINLOG_GTID_POS: checkpoints carry the last GTID of each domain this run saw (and the"
                            + " start file before the position), not the domains it did not see; start from a GTID"
                            + " position (?gtid=) for a complete one", pipeline.name(), start);
                }
            }
            follow(stream, pipeline);
        }
    }

    /**
     * Hands the stream's transactions to the pipeline and marks it caught up: once everything up to the server's binlog
     * end at connect is committed (marked for a second, so that a caller polling awaitCaughtUp in a loop cannot miss it
     * between two calls even if the stream never pauses afterwards), then whenever the stream is idle between
     * transactions with everything read committed.
     */
    private static void follow(ServerStream stream, Pipeline pipeline) throws Exception {
        Engine<SourceTransaction> e = pipeline.engine();
        long targetSequence = -1; // the last transaction up to the connect-time end, once the stream reached it
        long targetMarkedUntil = -1;
        while (!pipeline.stopRequested()) {
            BinlogTransaction t = stream.poll(Duration.ZERO);
            if (t == null) {
                // The stream paused: with 0 workers, commit what is open before waiting for more.
                e.flush();
                t = stream.poll(Duration.ofMillis(100));
            }
            if (t != null) {
                if (stream.beforeStart()) {
                    pipeline.skip(t); // executed before the start: its GTID (and definitions) only
                } else {
                    pipeline.sourceBytesRead(stream.bytesRead());
                    if (!pipeline.submit(t)) {
                        return;
                    }
                }
            }
            boolean idle = t == null && !stream.insideTransaction();
            if (targetSequence < 0 && (stream.reachedConnectEnd() || idle && !stream.knowsConnectEnd())) {
                targetSequence = pipeline.lastSequence(); // with no end to compare with: the idle rule alone
            }
            if (targetSequence >= 0 && e.lowWaterMark() >= targetSequence) {
                long now = System.nanoTime();
                if (targetMarkedUntil < 0) {
                    targetMarkedUntil = now + TimeUnit.SECONDS.toNanos(1);
                    pipeline.markCaughtUp();
                } else if (now - targetMarkedUntil < 0) {
                    pipeline.markCaughtUp();
                } else if (idle && e.lowWaterMark() >= pipeline.lastSequence()) {
                    pipeline.markCaughtUp();
                }
            }
        }
    }

    /**
     * Adds the definitions of the source's tables that neither a schema file nor a saved history gave, from its
     * information_schema. A server that refuses is logged: the log's own DDL and the target's catalog remain, and a
     * row event none of them explains stops the pipeline naming its table.
     */
    private void seedFromSource(ReplicationClient c, Pipeline pipeline) {
        try {
            int added = InformationSchemaSeed.seed(pipeline.history(), mapping, c::queryRows,
                    "the source's information_schema");
            LOG.info("lanes pipeline '{}': {} table definitions from the source's information_schema", pipeline.name(),
                    added);
        } catch (ReplicationException e) {
            LOG.warn("lanes pipeline '{}': cannot read the source's information_schema ({}): row events logged "
                    + "without column names rely on the log's own DDL, a schema file (lanes.source.schema-file) or "
                    + "the target's catalog", pipeline.name(), e.getMessage());
        }
    }

    /** The start of a stream that resumes after a checkpointed position: its GTID state, else its file position. */
    static StartPosition resumePosition(String checkpointed) {
        return StartPosition.resumingAt(SourcePosition.parse(checkpointed));
    }
}
