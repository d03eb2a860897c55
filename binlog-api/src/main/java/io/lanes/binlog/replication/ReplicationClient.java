package io.lanes.binlog.replication;

import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogEventDecoder;
import io.lanes.binlog.BinlogFormatException;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.ChecksumAlgorithm;
import io.lanes.binlog.replication.ReplicationException.Kind;
import io.lanes.binlog.replication.internal.ClientSettings;
import io.lanes.binlog.replication.internal.EventBuffer;
import io.lanes.binlog.replication.internal.SourceConnector;
import io.lanes.binlog.replication.internal.StreamSession;
import io.lanes.binlog.replication.internal.StreamTracker;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows a MySQL or MariaDB server's binary log as a replica does, over one Netty connection, and hands each event's
 * bytes to the consumer with its binlog file and position.
 *
 * <pre>{@code
 * try (ReplicationClient client = ReplicationClient.builder()
 *         .host("db1").port(3306).user("repl").password(() -> secret.clone())
 *         .serverId(4242).startPosition(StartPosition.file("bin.000001", 4))
 *         .build()) {
 *     client.start();                                   // connects; throws ReplicationException on a clear failure
 *     ReplicationEvent e = client.poll(Duration.ofSeconds(1));
 * }
 * }</pre>
 *
 * <p><b>Delivery and backpressure.</b> Events go into a buffer bounded by {@link Builder#bufferBytes(long)}; the consumer
 * takes them with {@link #poll(Duration)} / {@link #drainTo(List, int)} on its own threads, or has them pushed to a
 * {@link ReplicationListener} on an executor of its choice with {@link #deliverTo}. When the buffer is full the client
 * stops reading the socket (Netty autoRead off; the server then blocks on TCP flow control) and resumes once the
 * consumer drained half of it. Memory held is at most the budget plus one socket read; events are never dropped. Or the
 * listener is called on the network thread itself as events are read ({@link #deliverInline}), without a buffer or a
 * consumer thread: the listener's own pace is then the backpressure.
 *
 * <p><b>Order.</b> Events are delivered in stream order, each once. After a lost connection (socket error, server
 * restart, no heartbeat within twice the heartbeat period) the client reconnects with exponential backoff and resumes at
 * the last transaction boundary it received (a GTID position in GTID mode, else file and position), so the server sends
 * a cut transaction again from its start (with its TABLE_MAPs); the events of it the consumer already has are skipped,
 * so the consumer sees every transaction's events exactly once and in order. Events outside transactions
 * (FORMAT_DESCRIPTION, a ROTATE, MariaDB's GTID_LIST) may be delivered again after a reconnect.
 *
 * <p><b>Failures.</b> What a retry would not cure (authentication refused, TLS required but refused, start position
 * purged, event over the size limit, checksum mismatch) ends the stream: {@link #start()} throws it, or the consumer
 * receives it as a {@link ReplicationException} after the last event before it.
 *
 * <p>Thread-safe. The password is never logged, stored as a String or shown by {@link #toString()}.
 */
public final class ReplicationClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationClient.class);

    private final ClientSettings settings;
    private final EventBuffer buffer;
    private final StreamTracker tracker;
    private final Runnable onClose;
    private final AtomicLong reconnects = new AtomicLong();
    private EventLoopGroup group;
    private SourceConnector connector;
    private volatile StreamSession session;
    private volatile ServerInfo serverInfo;
    private volatile boolean closed;
    private volatile Thread supervisor;

    /** The most events {@link #deliverTo} takes from the buffer at once. */
    private static final int DELIVERY_BATCH = 256;

    /** The event loops this client was given (the caller's to shut down), or null for the shared ones. */
    private final EventLoopGroup eventLoops;

    /**
     * The event loops of every client not given its own: one daemon thread per processor, started on first use and
     * never shut down (an idle loop waits in its selector and costs nothing). Sharing them makes a client's start and
     * close cost a connection, not a thread's start and stop as well; channels are spread over the loops in turn.
     */
    private static final class SharedEventLoops {
        static final EventLoopGroup GROUP = new NioEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                new DefaultThreadFactory("lanes-replication-io", true));
    }

    private ReplicationClient(ClientSettings settings, EventLoopGroup eventLoops, Runnable onClose) {
        this.settings = settings;
        this.eventLoops = eventLoops;
        this.onClose = onClose;
        this.buffer = new EventBuffer(settings.bufferBytes());
        this.tracker = new StreamTracker(settings.startPosition(), settings.verifyChecksums(), settings.address());
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Connects, authenticates, sets the replica up and starts the dump; returns once the server answered the dump with
     * its first event. Later disconnects are handled in the background.
     *
     * @throws ReplicationException when the first connection fails (kind CONNECTION when the server cannot be
     *     reached; AUTHENTICATION, TLS, LOG_UNAVAILABLE and the others as documented on {@link ReplicationException.Kind})
     */
    public synchronized ServerInfo start() {
        if (group != null) {
            throw new IllegalStateException("already started");
        }
        if (closed) {
            throw new IllegalStateException("closed");
        }
        group = eventLoops != null ? eventLoops : SharedEventLoops.GROUP;
        connector = new SourceConnector(settings, group, tracker::where);
        try {
            connect(false);
        } catch (IOException e) {
            close();
            String m = String.valueOf(e.getMessage());
            throw new ReplicationException(Kind.CONNECTION, (m.contains(settings.address()) ? m
                    : settings.address() + ": " + m) + " (starting at " + tracker.resumePosition() + ")", 0, e);
        } catch (InterruptedException e) {
            close();
            Thread.currentThread().interrupt();
            throw new ReplicationException(Kind.CONNECTION, "interrupted while connecting to " + settings.address());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        return serverInfo;
    }

    /** Opens a connection and starts its stream; a reconnection is counted before any of its events can be taken. */
    private void connect(boolean reconnection) throws IOException, InterruptedException {
        StartPosition from = tracker.resumePosition();
        SourceConnector.Session s = connector.open(from);
        serverInfo = s.serverInfo();
        tracker.startConnection(settings.address(), s.checksums());
        StreamSession stream = new StreamSession(s.channel(), tracker, buffer, connector, from, settings.semiSync(),
                settings.heartbeatPeriod().toMillis());
        session = stream;
        if (closed) {
            stream.close();
            s.firstPacket().release();
            return;
        }
        if (reconnection) {
            reconnects.incrementAndGet();
        }
        stream.start(s.firstPacket());
        stream.ended().whenComplete((cause, error) -> recoverInBackground(error != null ? error : cause));
    }

    /**
     * Starts a thread that reconnects after a lost connection (or reports a stream that ended for good). The thread
     * exists only while it works: a stream that never breaks costs no thread beyond the event loop, and starting the
     * stream does not wait for one to be scheduled. Runs where the session's end completes (its event loop, or here).
     */
    private void recoverInBackground(Throwable cause) {
        if (closed) {
            return;
        }
        Throwable c = cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null
                ? cause.getCause() : cause;
        Thread t = new Thread(() -> recover(c), "lanes-replication-" + settings.address());
        t.setDaemon(true);
        supervisor = t;
        t.start();
    }

    private void recover(Throwable cause) {
        if (closed) {
            return;
        }
        if (cause instanceof ReplicationException re) {
            LOG.error("Replication from {} stopped: {}", settings.address(), re.getMessage());
            buffer.fail(re);
            return;
        }
        buffer.forgetPause();
        tracker.connectionLost();
        LOG.warn("Lost the replication connection to {} ({}); resuming at {}", settings.address(),
                cause == null ? "closed by the server" : cause.getMessage(), tracker.resumePosition());
        reconnect(); // a new session recovers on its own when it ends in turn
    }

    private boolean reconnect() {
        long backoff = settings.reconnectInitialBackoff().toMillis();
        for (int attempt = 1; !closed; attempt++) {
            try {
                long jitter = ThreadLocalRandom.current().nextLong(backoff / 4 + 1);
                Thread.sleep(backoff + jitter);
                connect(true);
                return true;
            } catch (InterruptedException e) {
                return false;
            } catch (RuntimeException e) {
                if (closed) {
                    return false;
                }
                ReplicationException re = e instanceof ReplicationException r ? r
                        : new ReplicationException(Kind.PROTOCOL, settings.address() + ": reconnecting at "
                                + tracker.resumePosition() + " failed: " + e, 0, e);
                LOG.error("Reconnecting to {} failed for good: {}", settings.address(), re.getMessage());
                buffer.fail(re);
                return false;
            } catch (IOException e) {
                if (closed) {
                    return false;
                }
                if (settings.maxReconnectAttempts() > 0 && attempt >= settings.maxReconnectAttempts()) {
                    buffer.fail(new ReplicationException(Kind.CONNECTION, "gave up reconnecting to "
                            + settings.address() + " after " + attempt + " attempts (to resume at "
                            + tracker.resumePosition() + "): " + e.getMessage(), 0, e));
                    return false;
                }
                LOG.info("Reconnect attempt {} to {} failed: {}", attempt, settings.address(), e.getMessage());
                backoff = Math.min(settings.reconnectMaxBackoff().toMillis(), backoff * 2);
            }
        }
        return false;
    }

    /**
     * The next event, waiting at most {@code timeout}; null when none came in time or the client is closed.
     *
     * @throws ReplicationException when the stream ended for good, once every event before the failure was taken
     */
    public ReplicationEvent poll(Duration timeout) throws InterruptedException {
        return buffer.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Moves up to {@code max} buffered events into {@code sink} without waiting.
     *
     * @return how many were moved
     * @throws ReplicationException when the stream ended for good and nothing is buffered any more
     */
    public int drainTo(List<ReplicationEvent> sink, int max) {
        return buffer.drainTo(sink, max);
    }

    /**
     * Pushes events to {@code listener} from one task run on {@code executor} (which the task occupies until the client
     * is closed or the stream fails). The listener sees events one at a time, in order; a slow listener slows reading.
     */
    public void deliverTo(ReplicationListener listener, Executor executor) {
        Objects.requireNonNull(listener, "listener");
        executor.execute(() -> {
            try {
                // taken a batch at a time (the buffer's locking is paid per batch), handed over one at a time
                List<ReplicationEvent> batch = new ArrayList<>(DELIVERY_BATCH);
                while (!closed) {
                    batch.clear();
                    int n = buffer.take(batch, DELIVERY_BATCH, 100, TimeUnit.MILLISECONDS);
                    for (int i = 0; i < n && !closed; i++) {
                        ReplicationEvent e = batch.get(i);
                        try {
                            listener.onEvent(e);
                        } catch (Exception ex) {
                            close();
                            listener.onError(listenerFailure(e, ex));
                            return;
                        }
                    }
                }
            } catch (ReplicationException e) {
                listener.onError(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** What a listener that threw on {@code e} hears: its own ReplicationException, or {@code thrown} as LISTENER. */
    private static ReplicationException listenerFailure(ReplicationEvent e, Throwable thrown) {
        return thrown instanceof ReplicationException r ? r
                : new ReplicationException(Kind.LISTENER, "the listener failed on " + e + ": " + thrown, 0, thrown);
    }

    /**
     * A decoder for this stream's events: it assumes the source's checksum setting for the events that come before the
     * first FORMAT_DESCRIPTION (the synthetic ROTATE). Feed it every event in stream order, from one thread.
     */
    public BinlogEventDecoder newDecoder(BinlogReaderOptions options) {
        BinlogEventDecoder d = new BinlogEventDecoder(settings.address(), options);
        ServerInfo info = serverInfo;
        if (info != null) {
            d.assumeChecksum("CRC32".equals(info.binlogChecksum()) ? ChecksumAlgorithm.CRC32 : ChecksumAlgorithm.OFF);
        }
        return d;
    }

    /**
     * A decoder for the events this client hands over ({@link #poll}, {@link #deliverTo}), as {@link #newDecoder}, except
     * that when the client verifies checksums ({@link Builder#verifyChecksums}) the decoder does not check them again:
     * every event in the client's buffer was checked on the network thread before the stream moved past it, so a second
     * check would only spend the consumer's time.
     */
    public BinlogEventDecoder newDecoderForDelivered(BinlogReaderOptions options) {
        return newDecoder(settings.verifyChecksums() && options.verifyChecksums()
                ? options.toBuilder().verifyChecksums(false).build() : options);
    }

    /**
     * Pushes decoded events to {@code listener} from one task run on {@code executor}, which also decodes them (with
     * {@link #newDecoderForDelivered}); the same ordering and backpressure as {@link #deliverTo}. Heartbeats are never
     * delivered.
     */
    public void deliverDecodedTo(DecodedEventListener listener, BinlogReaderOptions options, Executor executor) {
        deliverTo(decoding(listener, options), executor);
    }

    /**
     * Calls {@code listener} on the network thread, with each event as soon as it is read, instead of buffering the
     * events for a consumer thread: one thread reads, checks and delivers, as a blocking client's does, and the
     * hand-over to another thread (a lock and a wake-up per batch, and the event's bytes moving to another core's
     * cache) is gone. For a listener that is quick (it decodes, filters, or hands the events on to a queue of its own):
     * on a machine with few cores, where a consumer thread would compete with the network thread, or to keep latency at
     * its lowest.
     *
     * <p>Contracts: events arrive one at a time, in stream order, each once (a reconnection skips what was delivered,
     * as for the other ways of taking events). Events buffered before this call are delivered first, on the network
     * thread too. The calls come from the connection's event loop thread, which changes when the client reconnects;
     * they never overlap, and each call sees what earlier ones did. While the listener runs the client reads nothing:
     * a slow listener slows the stream down, and nothing is buffered beyond one socket read, so the buffer budget holds
     * trivially. The listener must not block for long: the event loop may serve other clients' connections too (the
     * shared loops do), and those wait as well. Throwing from {@link ReplicationListener#onEvent} closes the client and
     * reports a LISTENER {@link ReplicationException} to {@link ReplicationListener#onError}, which also receives a
     * failure of the stream after the last event before it (on the thread that gave up reconnecting).
     *
     * <p>Use one way of taking events per client: after this call, {@link #poll} and {@link #drainTo} throw
     * {@link IllegalStateException}; this call throws it when events were taken already or it was made before.
     */
    public void deliverInline(ReplicationListener listener) {
        Objects.requireNonNull(listener, "listener");
        buffer.deliverInline(new EventBuffer.InlineSink() {
            private boolean stopped;

            @Override
            public void onEvent(ReplicationEvent e) {
                if (stopped || closed) {
                    return;
                }
                try {
                    listener.onEvent(e);
                } catch (Exception | LinkageError | AssertionError ex) {
                    // an error too: thrown into the event loop it would only drop the connection, and the reconnection
                    // would go on past the event the listener failed on
                    stopped = true;
                    close();
                    listener.onError(listenerFailure(e, ex));
                }
            }

            @Override
            public void onFailure(ReplicationException failure) {
                if (!stopped) {
                    stopped = true;
                    listener.onError(failure);
                }
            }
        });
        // what was buffered before goes first, from the thread that delivers the rest
        StreamSession s = session;
        if (s == null) {
            buffer.drainInline();
        } else {
            try {
                s.eventLoop().execute(buffer::drainInline);
            } catch (java.util.concurrent.RejectedExecutionException loopGone) {
                buffer.drainInline(); // the caller's event loops were shut down: no network thread will run again
            }
        }
    }

    /**
     * {@link #deliverInline} for decoded events: decodes each event on the network thread (with
     * {@link #newDecoderForDelivered}) and calls {@code listener} there; heartbeats are never delivered. The contracts
     * of {@link #deliverInline}; the stream's failures and decoding failures (kind PROTOCOL) go to
     * {@link DecodedEventListener#onError}.
     */
    public void deliverDecodedInline(DecodedEventListener listener, BinlogReaderOptions options) {
        deliverInline(decoding(listener, options));
    }

    /** A listener that decodes each event (one thread at a time, in order) and passes it to {@code listener}. */
    private ReplicationListener decoding(DecodedEventListener listener, BinlogReaderOptions options) {
        Objects.requireNonNull(listener, "listener");
        BinlogEventDecoder decoder = newDecoderForDelivered(options);
        return new ReplicationListener() {
            @Override
            public void onEvent(ReplicationEvent raw) throws Exception {
                BinlogEvent event;
                try {
                    event = decoder.decodeRetainingIfAccepted(raw.bytes(), raw.position());
                } catch (BinlogFormatException e) {
                    throw new ReplicationException(Kind.PROTOCOL, "cannot decode " + raw + " from "
                            + settings.address() + ": " + e.getMessage(), 0, e);
                }
                if (event != null) {
                    listener.onEvent(event, raw);
                }
            }

            @Override
            public void onError(ReplicationException error) {
                listener.onError(error);
            }
        };
    }

    /**
     * Asks the server where its binary log stands now, over a short connection of its own (same address, account and
     * TLS; the stream, if any, is not disturbed): the end of the binlog it writes, its GTID state and its binlog files
     * with their sizes. Works before {@link #start()} and after {@link #close()} too. The account needs REPLICATION
     * CLIENT (MySQL) or BINLOG MONITOR (MariaDB 10.5+) for the position and the files; what the server refuses is left
     * out and named in {@link BinlogStatus#problem()}. Blocks for a round trip; any thread.
     *
     * @throws ReplicationException kind CONNECTION when the server cannot be reached; AUTHENTICATION, TLS, PROTOCOL
     *     as for {@link #start()}
     */
    public BinlogStatus binlogStatus() {
        EventLoopGroup loops = eventLoops != null ? eventLoops : SharedEventLoops.GROUP;
        SourceConnector side = new SourceConnector(settings, loops, settings::address);
        // Each statement keeps its own answer: the old and new names of the status statement, and the GTID variable
        // of each server kind (the other one is an error answer, ignored).
        java.util.List<String> statements = java.util.List.of("SHOW MASTER STATUS", "SHOW BINARY LOG STATUS",
                "SHOW BINARY LOGS", "SELECT @@gtid_binlog_pos", "SELECT @@global.gtid_executed");
        java.util.List<Object> answers;
        try {
            answers = side.query(statements);
        } catch (IOException e) {
            throw new ReplicationException(Kind.CONNECTION, settings.address() + ": asking for the binlog status: "
                    + e.getMessage(), 0, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReplicationException(Kind.CONNECTION, "interrupted while asking " + settings.address()
                    + " for its binlog status");
        }
        return SourceConnector.binlogStatus(answers, System.currentTimeMillis());
    }

    /**
     * Runs read-only statements (for instance SELECTs of {@code information_schema}) over a short connection of its own
     * (same address, account and TLS; the stream is not disturbed), all in one round trip. Works before {@link #start()}
     * and after {@link #close()}. Any thread.
     *
     * @return per statement, its rows; each value as the server's text, or null for NULL
     * @throws ReplicationException kind SERVER_ERROR naming the statement when the server answers one with an error;
     *     CONNECTION when the server cannot be reached; AUTHENTICATION, TLS, PROTOCOL as for {@link #start()}
     */
    public java.util.List<java.util.List<java.util.List<String>>> queryRows(java.util.List<String> statements) {
        EventLoopGroup loops = eventLoops != null ? eventLoops : SharedEventLoops.GROUP;
        SourceConnector side = new SourceConnector(settings, loops, settings::address);
        java.util.List<Object> answers;
        try {
            answers = side.query(statements);
        } catch (IOException e) {
            throw new ReplicationException(Kind.CONNECTION, settings.address() + ": " + e.getMessage(), 0, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReplicationException(Kind.CONNECTION, "interrupted while querying " + settings.address());
        }
        java.util.List<java.util.List<java.util.List<String>>> out = new java.util.ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i) instanceof io.lanes.binlog.replication.internal.TextQuery.Result r) {
                out.add(r.rows());
            } else {
                io.lanes.binlog.replication.internal.ServerError err =
                        (io.lanes.binlog.replication.internal.ServerError) answers.get(i);
                throw new ReplicationException(Kind.SERVER_ERROR, settings.address() + " refused " + statements.get(i)
                        + ": " + err, err.code(), null);
            }
        }
        return out;
    }

    /** When the last heartbeat from the server arrived (epoch milliseconds), 0 before any. Any thread. */
    public long lastHeartbeatMillis() {
        return tracker.lastHeartbeatMillis();
    }

    /** The heartbeat period asked of the server (zero: none); the stream counts as dead after twice this. */
    public Duration heartbeatPeriod() {
        return settings.heartbeatPeriod();
    }

    /** What the server reported at the latest connect; null before {@link #start()}. */
    public ServerInfo serverInfo() {
        return serverInfo;
    }

    /** Bytes buffered and not yet taken by the consumer. */
    public long bufferedBytes() {
        return buffer.bufferedBytes();
    }

    /** The most bytes ever buffered at once (to check the budget holds). */
    public long maxBufferedBytes() {
        return buffer.highWaterBytes();
    }

    /** How many times the client reconnected after a lost connection. */
    public long reconnectCount() {
        return reconnects.get();
    }

    /**
     * How many times a lost connection cut a transaction part of which was already queued; each was sent again from its
     * start and its first events skipped.
     */
    public long cutTransactionCount() {
        return tracker.cutTransactions();
    }

    /** Closes the connection and stops; buffered events are dropped. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        StreamSession s = session;
        if (s != null) {
            s.close();
        }
        buffer.close();
        if (supervisor != null) {
            supervisor.interrupt();
        }
        onClose.run();
    }

    @Override
    public String toString() {
        return "ReplicationClient[" + settings.user() + "@" + settings.address() + ", serverId=" + settings.serverId()
                + ", start=" + settings.startPosition() + "]";
    }

    /**
     * Builds an immutable {@link ReplicationClient}. Required: host, user, server id and start position; the rest has
     * defaults: port 3306, no password, TLS PREFERRED, heartbeat every 5 s, reconnect backoff 200 ms doubling to 10 s
     * without limit, 64 MiB max event size, 32 MiB buffer, no semi-sync, checksums verified.
     */
    public static final class Builder {
        private String host;
        private int port = 3306;
        private String user;
        private Supplier<char[]> password;
        private char[] ownedPassword;
        private TlsSettings tls = TlsSettings.of(TlsMode.PREFERRED);
        private long serverId = -1;
        private StartPosition startPosition;
        private Duration heartbeatPeriod = Duration.ofSeconds(5);
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration reconnectInitialBackoff = Duration.ofMillis(200);
        private Duration reconnectMaxBackoff = Duration.ofSeconds(10);
        private int maxReconnectAttempts;
        private int maxEventSize = 64 << 20;
        private long bufferBytes = 32L << 20;
        private boolean semiSync;
        private boolean verifyChecksums = true;
        private String serverPublicKeyPem;
        private boolean allowPublicKeyRetrieval;
        private boolean gtidStrictMode;
        private final Map<String, String> connectAttributes = new LinkedHashMap<>();
        private EventLoopGroup eventLoops;

        private Builder() {
        }

        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        public Builder port(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " outside 1..65535");
            }
            this.port = port;
            return this;
        }

        public Builder user(String user) {
            this.user = Objects.requireNonNull(user, "user");
            return this;
        }

        /**
         * The password, fetched at each connect; the supplier must return a new array each time (the client wipes it
         * after use).
         */
        public Builder password(Supplier<char[]> password) {
            this.password = Objects.requireNonNull(password, "password");
            this.ownedPassword = null;
            return this;
        }

        /** The password; the client keeps a private copy (wiped on {@link ReplicationClient#close()}). */
        public Builder password(char[] password) {
            char[] copy = password.clone();
            this.ownedPassword = copy;
            this.password = copy::clone;
            return this;
        }

        public Builder tls(TlsSettings tls) {
            this.tls = Objects.requireNonNull(tls, "tls");
            return this;
        }

        /** This replica's server id, unique among the source's replicas (1..4294967295). */
        public Builder serverId(long serverId) {
            if (serverId < 1 || serverId > 0xFFFFFFFFL) {
                throw new IllegalArgumentException("server id " + serverId + " outside 1..4294967295");
            }
            this.serverId = serverId;
            return this;
        }

        public Builder startPosition(StartPosition startPosition) {
            this.startPosition = Objects.requireNonNull(startPosition, "startPosition");
            return this;
        }

        /** How often the server sends a heartbeat when it has no event to send; zero turns heartbeats off. */
        public Builder heartbeatPeriod(Duration period) {
            if (period.isNegative()) {
                throw new IllegalArgumentException("negative heartbeat period");
            }
            this.heartbeatPeriod = period;
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = Objects.requireNonNull(timeout);
            return this;
        }

        /** Backoff between reconnect attempts: starts at {@code initial}, doubles up to {@code max}. */
        public Builder reconnectBackoff(Duration initial, Duration max) {
            if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("need 0 < initial <= max");
            }
            this.reconnectInitialBackoff = initial;
            this.reconnectMaxBackoff = max;
            return this;
        }

        /** Give up after this many failed attempts in a row; 0 (the default) retries until closed. */
        public Builder maxReconnectAttempts(int attempts) {
            this.maxReconnectAttempts = Math.max(0, attempts);
            return this;
        }

        /** The largest event accepted (default 64 MiB); a larger one fails the stream, naming its position. */
        public Builder maxEventSize(int bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("maxEventSize below 1024 bytes");
            }
            this.maxEventSize = bytes;
            return this;
        }

        /** Bytes of events buffered before the client stops reading the socket (default 32 MiB). */
        public Builder bufferBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("bufferBytes must be positive");
            }
            this.bufferBytes = bytes;
            return this;
        }

        /** Acknowledge events to a semi-synchronous source (it must have semi-sync enabled). */
        public Builder semiSync(boolean semiSync) {
            this.semiSync = semiSync;
            return this;
        }

        /** Check each event's CRC32 when the stream carries checksums (default true). */
        public Builder verifyChecksums(boolean verify) {
            this.verifyChecksums = verify;
            return this;
        }

        /** The server's RSA public key (PEM), for caching_sha2_password full authentication without TLS. */
        public Builder serverPublicKey(String pem) {
            this.serverPublicKeyPem = pem;
            return this;
        }

        /** Let caching_sha2_password fetch the server's RSA public key over the (unencrypted) connection. */
        public Builder allowPublicKeyRetrieval(boolean allow) {
            this.allowPublicKeyRetrieval = allow;
            return this;
        }

        /** MariaDB GTID start: ask the server for strict mode (@slave_gtid_strict_mode). */
        public Builder gtidStrictMode(boolean strict) {
            this.gtidStrictMode = strict;
            return this;
        }

        /**
         * The Netty event loops to run the connection on (one loop of the group serves it). The caller owns them and
         * shuts them down after closing the client. By default clients share process-wide daemon loops, one per
         * processor.
         */
        public Builder eventLoopGroup(EventLoopGroup group) {
            this.eventLoops = Objects.requireNonNull(group, "group");
            return this;
        }

        public Builder connectAttribute(String key, String value) {
            connectAttributes.put(key, value);
            return this;
        }

        public ReplicationClient build() {
            if (host == null || user == null) {
                throw new IllegalStateException("host and user are required");
            }
            if (serverId < 0) {
                throw new IllegalStateException("serverId is required (unique among the source's replicas)");
            }
            if (startPosition == null) {
                throw new IllegalStateException("startPosition is required");
            }
            char[] owned = ownedPassword;
            ClientSettings s = new ClientSettings(host, port, user, password, tls, serverId, startPosition,
                    heartbeatPeriod, connectTimeout, reconnectInitialBackoff, reconnectMaxBackoff, maxReconnectAttempts,
                    maxEventSize, bufferBytes, semiSync, verifyChecksums, serverPublicKeyPem, allowPublicKeyRetrieval,
                    gtidStrictMode, Map.copyOf(connectAttributes));
            ownedPassword = null;
            password = null;
            return new ReplicationClient(s, eventLoops, () -> {
                if (owned != null) {
                    java.util.Arrays.fill(owned, '\0');
                }
            });
        }
    }
}
