package io.lanes.testkit;

import io.lanes.binlog.replication.internal.AuthScrambles;
import io.lanes.testkit.internal.FakeSourceHandler;
import io.lanes.testkit.internal.FakeSourceState;
import io.lanes.binlog.replication.internal.PacketEncoder;
import io.lanes.binlog.replication.internal.PacketFrameDecoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

/**
 * An in-process replication source for tests: a Netty server that speaks enough of the MySQL protocol to serve binlog
 * files to a replica (this project's {@link io.lanes.binlog.replication.ReplicationClient}, or any other replication
 * client), so a pipeline can be tested without a database server.
 *
 * <p>It accepts one account with mysql_native_password or caching_sha2_password (fast path once the account is cached,
 * full path over TLS or with RSA, auth switch when the client starts with another plugin), answers the replica setup
 * statements plausibly ({@code SET @...}, {@code SELECT @@var}, {@code SHOW VARIABLES LIKE}, {@code SHOW MASTER STATUS}),
 * accepts COM_REGISTER_SLAVE, and serves COM_BINLOG_DUMP (file and position, or a MariaDB GTID position) and
 * COM_BINLOG_DUMP_GTID (from the first transaction not in the set): a fake ROTATE, the FORMAT_DESCRIPTION (with log_pos 0
 * when the start is after it), then the files' events exactly as stored (checksums included, so the client must
 * negotiate them as servers require), walking each file by its event headers. After the last event it sends heartbeats
 * at the period the client asked for and keeps the connection open.
 *
 * <p>Faults can be injected: {@link #cutAfterEvents(long...)} closes the connection after a number of events,
 * {@link #stall(boolean)} stops sending (connections stay open), {@link #disconnectAll()} closes every connection.
 *
 * <p>Thread-safe. Events are written only while the connection is writable, so a client that stops reading makes the
 * fake wait, as a real server does.
 */
public final class FakeBinlogServer implements AutoCloseable {
    /** The authentication plugins the fake source can require. */
    public enum AuthMethod {
        MYSQL_NATIVE_PASSWORD("mysql_native_password"), CACHING_SHA2_PASSWORD("caching_sha2_password");

        private final String pluginName;

        AuthMethod(String pluginName) {
            this.pluginName = pluginName;
        }

        public String pluginName() {
            return pluginName;
        }
    }

    private final FakeSourceState state;
    private final String host;
    private final int requestedPort;
    private final AtomicLong connectionIds = new AtomicLong(100);
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private Channel serverChannel;
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

    private FakeBinlogServer(FakeSourceState state, String host, int port) {
        this.state = state;
        this.host = host;
        this.requestedPort = port;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Binds and starts accepting connections. */
    public synchronized FakeBinlogServer start() {
        if (serverChannel != null) {
            throw new IllegalStateException("already started");
        }
        boss = new NioEventLoopGroup(1, new DefaultThreadFactory("lanes-fake-source-accept", true));
        workers = new NioEventLoopGroup(2, new DefaultThreadFactory("lanes-fake-source", true));
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        PacketFrameDecoder frames = new PacketFrameDecoder(64 << 20, () -> "fake source client "
                                + ch.remoteAddress());
                        ch.pipeline().addLast("frames", frames).addLast("encoder", new PacketEncoder())
                                .addLast("source", new FakeSourceHandler(state, frames, connectionIds.incrementAndGet()));
                    }
                });
        try {
            serverChannel = b.bind(host, requestedPort).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while binding", e);
        }
        return this;
    }

    public String host() {
        return host;
    }

    /** The port it listens on (the one chosen by the system when built with port 0). */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** The RSA public key (PEM) used for caching_sha2_password full authentication without TLS. */
    public String publicKeyPem() {
        return RsaKeys.pem();
    }

    /**
     * One RSA key pair per JVM, made on first use: generating a 2048-bit key costs up to seconds on a busy machine and
     * a test source needs no fresh one.
     */
    private static final class RsaKeys {
        private static KeyPair keys;
        private static String pem;

        static synchronized KeyPair get() {
            if (keys == null) {
                try {
                    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
                    g.initialize(2048);
                    keys = g.generateKeyPair();
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException(e);
                }
                pem = "-----BEGIN PUBLIC KEY-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                                .encodeToString(keys.getPublic().getEncoded())
                        + "\n-----END PUBLIC KEY-----\n";
            }
            return keys;
        }

        static synchronized String pem() {
            get();
            return pem;
        }
    }

    /**
     * Cuts the next dumps short: the k-th dump command received from now on has its connection closed after
     * {@code events[k]} events (synthetic ones included); later dumps run normally.
     */
    public void cutAfterEvents(long... events) {
        for (long n : events) {
            if (n < 0) {
                throw new IllegalArgumentException("negative event count");
            }
            state.cuts.add(n);
        }
    }

    /** Stops (true) or resumes (false) sending events and heartbeats; connections stay open meanwhile. */
    public void stall(boolean stalled) {
        state.stalled = stalled;
    }

    /** Closes every client connection. */
    public void disconnectAll() {
        channels.close().awaitUninterruptibly();
    }

    /** Events sent so far, over all connections (synthetic ones included). */
    public long eventsSent() {
        return state.eventsSent.get();
    }

    public int connectionsAccepted() {
        return state.connections.get();
    }

    /** caching_sha2_password logins that took the fast path. */
    public int fastAuthentications() {
        return state.fastAuthentications.get();
    }

    /** caching_sha2_password logins that took the full path (password over TLS or RSA). */
    public int fullAuthentications() {
        return state.fullAuthentications.get();
    }

    /** Logins where the fake asked the client to switch authentication plugin. */
    public int authSwitches() {
        return state.authSwitches.get();
    }

    /** Dump commands received. */
    public int dumps() {
        return state.dumps.get();
    }

    @Override
    public synchronized void close() {
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly();
        }
        channels.close().awaitUninterruptibly();
        if (boss != null) {
            boss.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).awaitUninterruptibly();
        }
        if (workers != null) {
            workers.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    @Override
    public String toString() {
        return "FakeBinlogServer[" + host + ":" + (serverChannel == null ? requestedPort : port()) + ", "
                + state.files.size() + " files, user " + state.user + "]";
    }

    /** Builds a {@link FakeBinlogServer}. */
    public static final class Builder {
        private final List<Path> files = new ArrayList<>();
        private String user = "repl";
        private char[] password = new char[0];
        private AuthMethod authMethod = AuthMethod.MYSQL_NATIVE_PASSWORD;
        private AuthMethod handshakePlugin;
        private boolean sha2Cached;
        private String serverVersion;
        private long serverId = 1;
        private String host = "127.0.0.1";
        private int port;
        private Path tlsCertificateChain;
        private Path tlsKey;
        private final Map<String, String> variables = new HashMap<>();

        private Builder() {
        }

        /**
         * The binlog files to serve, in order (a {@code .gz} file is decompressed; its name without {@code .gz} is the
         * binlog name).
         */
        public Builder binlogFiles(List<Path> paths) {
            files.addAll(paths);
            return this;
        }

        public Builder binlogFile(Path path) {
            files.add(path);
            return this;
        }

        public Builder user(String user) {
            this.user = Objects.requireNonNull(user);
            return this;
        }

        /** The account's password (copied; only hashes of it are kept once built). */
        public Builder password(char[] password) {
            this.password = password.clone();
            return this;
        }

        public Builder authMethod(AuthMethod method) {
            this.authMethod = Objects.requireNonNull(method);
            return this;
        }

        /** The plugin named in the handshake; when it differs from the account's, the fake sends an auth switch. */
        public Builder handshakePlugin(AuthMethod method) {
            this.handshakePlugin = method;
            return this;
        }

        /** caching_sha2_password: whether the account is already in the server's cache (fast path at once). */
        public Builder cachingSha2Cached(boolean cached) {
            this.sha2Cached = cached;
            return this;
        }

        /** The version announced; by default the first file's FORMAT_DESCRIPTION server version. */
        public Builder serverVersion(String version) {
            this.serverVersion = version;
            return this;
        }

        public Builder serverId(long id) {
            this.serverId = id;
            return this;
        }

        public Builder listen(String host, int port) {
            this.host = host;
            this.port = port;
            return this;
        }

        /** Offer TLS with this certificate chain and PKCS#8 key (PEM files). */
        public Builder tls(Path certificateChain, Path key) {
            this.tlsCertificateChain = certificateChain;
            this.tlsKey = key;
            return this;
        }

        /**
         * A value for {@code SELECT @@name} / {@code SHOW VARIABLES LIKE 'name'}; null removes the variable, as on a
         * server version without it (selecting it is then refused with error 1193).
         */
        public Builder variable(String name, String value) {
            variables.put(name.toLowerCase(java.util.Locale.ROOT), value);
            return this;
        }

        public FakeBinlogServer build() {
            if (files.isEmpty()) {
                throw new IllegalStateException("no binlog files to serve");
            }
            List<FakeSourceState.BinlogImage> images = new ArrayList<>();
            for (Path p : files) {
                images.add(load(p));
            }
            byte[] first = images.get(0).bytes();
            String fdeVersion = fdeVersion(first, images.get(0).name());
            String version = serverVersion != null ? serverVersion : fdeVersion;
            boolean maria = version.contains("MariaDB");
            boolean checksums = first.length > 4 + 19 + 57 + 5 && first[4 + (int) u32(first, 4 + 9) - 5] == 1
                    && (first[4 + 4] & 0xff) == 15;
            SslContext tls = null;
            if (tlsCertificateChain != null) {
                try {
                    tls = SslContextBuilder.forServer(tlsCertificateChain.toFile(), tlsKey.toFile()).build();
                } catch (javax.net.ssl.SSLException e) {
                    throw new IllegalStateException("cannot load the TLS certificate or key: " + e.getMessage(), e);
                }
            }
            Map<String, String> vars = new HashMap<>();
            vars.put("version", version);
            vars.put("server_id", Long.toString(serverId));
            vars.put("binlog_checksum", checksums ? "CRC32" : "NONE");
            vars.put("binlog_format", "ROW");
            vars.put("binlog_row_metadata", "MINIMAL");
            if (!maria) {
                vars.put("server_uuid", "7c6a2f4e-0000-4000-8000-00000000fa4e");
                vars.put("gtid_mode", "ON");
                vars.put("gtid_executed", "");
            } else {
                vars.put("gtid_binlog_pos", "");
            }
            vars.put("rpl_semi_sync_master_enabled", "0");
            variables.forEach((name, value) -> {
                if (value == null) {
                    vars.remove(name);
                } else {
                    vars.put(name, value);
                }
            });
            byte[] pw = AuthScrambles.utf8(password);
            Arrays.fill(password, '\0');
            try {
                FakeSourceState state = new FakeSourceState(images, user, pw, authMethod.pluginName(),
                        (handshakePlugin == null ? authMethod : handshakePlugin).pluginName(), sha2Cached, version,
                        serverId, maria, checksums, RsaKeys::get, tls, vars);
                return new FakeBinlogServer(state, host, port);
            } finally {
                Arrays.fill(pw, (byte) 0);
            }
        }

        private static long u32(byte[] b, int off) {
            return (b[off] & 0xffL) | (b[off + 1] & 0xffL) << 8 | (b[off + 2] & 0xffL) << 16
                    | (b[off + 3] & 0xffL) << 24;
        }

        private static String fdeVersion(byte[] file, String name) {
            if (file.length < 4 + 19 + 2 + 50 || (file[4 + 4] & 0xff) != 15) {
                throw new IllegalArgumentException(name + " does not start with a FORMAT_DESCRIPTION event");
            }
            String v = new String(file, 4 + 19 + 2, 50, StandardCharsets.ISO_8859_1);
            int nul = v.indexOf('\0');
            return nul >= 0 ? v.substring(0, nul) : v;
        }

        private static FakeSourceState.BinlogImage load(Path p) {
            String name = p.getFileName().toString();
            try (InputStream raw = Files.newInputStream(p);
                    InputStream in = name.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw) {
                byte[] bytes = in.readAllBytes();
                if (bytes.length < 4 || bytes[0] != (byte) 0xfe || bytes[1] != 'b' || bytes[2] != 'i' || bytes[3] != 'n') {
                    throw new IllegalArgumentException(p + " is not a binlog file (no fe 62 69 6e magic)");
                }
                return new FakeSourceState.BinlogImage(name.endsWith(".gz") ? name.substring(0, name.length() - 3) : name,
                        bytes);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read binlog " + p, e);
            }
        }
    }
}
