package io.lanes.binlog.replication.internal;

import static io.lanes.binlog.replication.internal.Protocol.*;

import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.replication.ReplicationException;
import io.lanes.binlog.replication.ReplicationException.Kind;
import io.lanes.binlog.replication.ServerInfo;
import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.replication.TlsMode;
import io.lanes.binlog.replication.TlsSettings;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens one replication connection: TCP connect, handshake v10, optional TLS upgrade, authentication (with auth switch),
 * the replica setup statements, COM_REGISTER_SLAVE and the dump command, up to the first packet of the stream. Runs on
 * the calling thread, on a blocking socket that then moves to a Netty channel on the event loops for streaming (or,
 * for TLS, before the handshake: the setup then goes on through the event loop).
 */
public final class SourceConnector {
    private static final Logger LOG = LoggerFactory.getLogger(SourceConnector.class);
    private static final int CHARSET_UTF8MB4_GENERAL_CI = 45;

    /** An open connection whose dump command was answered with its first packet. */
    public record Session(PacketChannel channel, ServerInfo serverInfo, boolean checksums, Packet firstPacket) {
    }

    private final ClientSettings settings;
    private final EventLoopGroup group;
    private final Supplier<String> where;

    public SourceConnector(ClientSettings settings, EventLoopGroup group, Supplier<String> where) {
        this.settings = settings;
        this.group = group;
        this.where = where;
    }

    private long timeoutMillis() {
        return Math.max(1000, settings.connectTimeout().toMillis());
    }

    /**
     * Connects and starts streaming from {@code start}.
     *
     * @throws ReplicationException for failures a retry would not cure (authentication, TLS, purged logs)
     * @throws IOException for failures worth retrying (connection refused or lost)
     */
    /** Bytes of answers queued during the setup past which reading stops until they are taken (the answers are small). */
    static final int SETUP_QUEUE_LIMIT = 16 * 1024;

    /** Netty's usual largest socket read, and where reads start. */
    static final int MIN_READ = 64 * 1024;
    static final int MAX_READ = 1 << 20;

    /**
     * The largest socket read for a buffer budget: a 32nd of it, between 64 KiB and 1 MiB. What one read brings is
     * what the buffer can hold beyond its budget, so it stays a small part of it; and large reads cost less per byte:
     * on loopback at full speed, reads of up to 1 MiB took about a fifth less of the network thread than 64 KiB ones
     * (fewer reads, and half the window-update ACKs, whose sending was a tenth of that thread's time).
     */
    static int maxRead(long budgetBytes) {
        return (int) Math.max(MIN_READ, Math.min(MAX_READ, budgetBytes / 32));
    }

    public Session open(StartPosition start) throws IOException, InterruptedException {
        int maxPayload = (int) Math.min(Integer.MAX_VALUE - 8L, settings.maxEventSize() + 3L);
        PacketChannel pc = connectChannel(maxPayload);
        boolean ok = false;
        try {
            Session s = setUp(pc, start);
            ok = true;
            return s;
        } catch (IOException e) {
            Throwable f = pc.failure();
            if (f != null && rootCause(f) instanceof PacketFrameDecoder.PacketTooLargeException tooLarge) {
                throw new ReplicationException(Kind.EVENT_TOO_LARGE, tooLarge.getMessage(), 0, tooLarge);
            }
            throw e;
        } catch (ProtocolException e) {
            throw new ReplicationException(Kind.PROTOCOL, settings.address() + ": " + e.getMessage(), 0, e);
        } catch (ReplicationException e) {
            throw e;
        } catch (RuntimeException e) {
            // a malformed answer the parsers did not anticipate (a bad length, a number that is not one): a server
            // that sends it will send it again, so this is not worth retrying
            throw new ReplicationException(Kind.PROTOCOL, settings.address() + ": malformed answer from the server"
                    + " while connecting from " + start + ": " + e, 0, e);
        } finally {
            if (!ok) {
                pc.close();
                pc.drain();
            }
        }
    }

    /**
     * Opens a plain connection (TCP, handshake, TLS as configured, authentication), sends {@code statements} together
     * and closes it (COM_QUIT): per statement, its {@link TextQuery.Result} or the {@link ServerError} it was answered
     * with. For what a replication connection cannot ask once it streams (where the server's binlog ends now).
     *
     * @throws ReplicationException for failures a retry would not cure (authentication, TLS)
     * @throws IOException when the server cannot be reached or the connection is lost
     */
    public java.util.List<Object> query(java.util.List<String> statements) throws IOException, InterruptedException {
        PacketChannel pc = connectChannel(1 << 24);
        try {
            int caps = login(pc).capabilities();
            TextQuery q = new TextQuery(pc, (caps & CLIENT_DEPRECATE_EOF) != 0, timeoutMillis());
            q.send(statements);
            java.util.List<Object> answers = q.readAnswers(statements.size());
            pc.writeCommand(Unpooled.wrappedBuffer(new byte[] {COM_QUIT}));
            return answers;
        } catch (ProtocolException e) {
            throw new ReplicationException(Kind.PROTOCOL, settings.address() + ": " + e.getMessage(), 0, e);
        } finally {
            pc.close();
            pc.drain();
        }
    }

    /**
     * Reads the answers to {@link io.lanes.binlog.replication.ReplicationClient#binlogStatus()}'s statements: SHOW
     * MASTER STATUS, SHOW BINARY LOG STATUS, SHOW BINARY LOGS, {@code @@gtid_binlog_pos}, {@code @@global.gtid_executed}.
     */
    public static io.lanes.binlog.replication.BinlogStatus binlogStatus(java.util.List<Object> answers, long atMillis) {
        StartPosition.FilePosition end = null;
        String problem = null;
        for (int i = 0; i < 2 && end == null; i++) {
            if (answers.get(i) instanceof TextQuery.Result r && !r.rows().isEmpty() && r.rows().get(0).size() >= 2) {
                java.util.List<String> row = r.rows().get(0);
                if (row.get(0) != null && row.get(1) != null) {
                    end = StartPosition.file(row.get(0), Long.parseLong(row.get(1)));
                }
            }
        }
        if (end == null && answers.get(0) instanceof ServerError e) {
            problem = "SHOW MASTER STATUS: " + e;
        }
        java.util.List<io.lanes.binlog.replication.BinlogStatus.BinlogFile> files = new java.util.ArrayList<>();
        if (answers.get(2) instanceof TextQuery.Result r) {
            for (java.util.List<String> row : r.rows()) {
                if (row.size() >= 2 && row.get(0) != null && row.get(1) != null) {
                    files.add(new io.lanes.binlog.replication.BinlogStatus.BinlogFile(row.get(0),
                            Long.parseLong(row.get(1))));
                }
            }
        } else if (answers.get(2) instanceof ServerError e && problem == null) {
            problem = "SHOW BINARY LOGS: " + e;
        }
        String gtid = null;
        for (int i = 3; i < 5 && gtid == null; i++) {
            if (answers.get(i) instanceof TextQuery.Result r && r.scalar() != null) {
                gtid = r.scalar().strip();
            }
        }
        return new io.lanes.binlog.replication.BinlogStatus(end, gtid, files, atMillis, problem);
    }

    /** A blocking connection to the server (no packet read yet) that can move to Netty ({@link PacketChannel#attach}). */
    private PacketChannel connectChannel(int maxPayload) throws IOException, InterruptedException {
        // The setup runs on a blocking socket on this thread (no thread wake-ups per round trip); the socket moves to
        // Netty for TLS or, at the latest, for streaming.
        SocketChannel socket = SocketChannel.open();
        try {
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            socket.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            socket.socket().connect(new InetSocketAddress(settings.host(), settings.port()), (int) timeoutMillis());
        } catch (IOException | RuntimeException e) {
            socket.close();
            if (e instanceof java.nio.channels.ClosedByInterruptException) {
                throw new InterruptedException("interrupted while connecting to " + settings.address());
            }
            String why = e instanceof java.net.SocketTimeoutException ? "timed out"
                    : e instanceof java.nio.channels.UnresolvedAddressException || e instanceof java.net.UnknownHostException
                            ? "unknown host" : String.valueOf(e.getMessage());
            throw new IOException("cannot connect to " + settings.address() + ": " + why, e);
        }
        return PacketChannel.blocking(socket, maxPayload, (connected, handler) -> {
            NioSocketChannel ch = new NioSocketChannel(connected);
            ch.config().setAutoRead(false);
            ch.config().setRecvByteBufAllocator(new AdaptiveRecvByteBufAllocator(512, MIN_READ,
                    maxRead(settings.bufferBytes())));
            ch.pipeline().addLast("frames", new PacketFrameDecoder(maxPayload, where))
                    .addLast("encoder", new PacketEncoder()).addLast("packets", handler);
            // not awaited (a thread wake-up): whatever is done with the channel next runs on its event loop, after the
            // registration, and a registration that fails closes the channel, which the stream reports
            ChannelFuture registered = group.register(ch);
            if (registered.isDone() && !registered.isSuccess()) {
                ch.unsafe().closeForcibly();
                throw new IOException("cannot hand the connection to " + settings.address() + " to an event loop: "
                        + registered.cause().getMessage(), registered.cause());
            }
            registered.addListener(f -> {
                if (!f.isSuccess()) {
                    ch.unsafe().closeForcibly();
                }
            });
            return ch;
        });
    }

    static Throwable rootCause(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c;
    }

    /** What {@link #login} agreed with the server. */
    private record Login(ServerHandshake handshake, int capabilities) {
    }

    /** Reads the handshake, upgrades to TLS as configured and authenticates. */
    private Login login(PacketChannel pc) throws IOException, InterruptedException {
        ServerHandshake hs;
        Packet first = pc.read(timeoutMillis());
        try {
            if (first.isError()) {
                ServerError err = ServerError.parse(first.payload());
                throw new ReplicationException(Kind.CONNECTION, settings.address() + " refused the connection: " + err,
                        err.code(), null);
            }
            hs = ServerHandshake.parse(first.payload());
        } finally {
            first.release();
        }
        if (!hs.has(CLIENT_PROTOCOL_41) || !hs.has(CLIENT_SECURE_CONNECTION)) {
            throw new ReplicationException(Kind.PROTOCOL, settings.address() + " (" + hs.serverVersion()
                    + ") does not speak protocol 4.1 with secure authentication");
        }
        int caps = CLIENT_LONG_PASSWORD | CLIENT_LONG_FLAG | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS
                | CLIENT_SECURE_CONNECTION | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH
                | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | CLIENT_CONNECT_ATTRS | CLIENT_DEPRECATE_EOF;
        caps &= hs.capabilities();
        TlsSettings tls = settings.tls();
        boolean useTls = false;
        if (tls.mode() != TlsMode.DISABLED) {
            if (hs.has(CLIENT_SSL)) {
                useTls = true;
            } else if (tls.mode() != TlsMode.PREFERRED) {
                throw new ReplicationException(Kind.TLS, settings.address() + " (" + hs.serverVersion()
                        + ") does not offer TLS, but the TLS mode is " + tls.mode()
                        + " (configure the server with ssl_cert/ssl_key, or lower the TLS mode)");
            }
        }
        if (useTls) {
            caps |= CLIENT_SSL;
            ByteBuf req = Unpooled.buffer(32);
            req.writeIntLE(caps).writeIntLE(MAX_PACKET_PAYLOAD).writeByte(CHARSET_UTF8MB4_GENERAL_CI).writeZero(23);
            pc.writeReplyAndWait(req);
            try {
                pc.startTls(sslContext(tls), settings.host(), settings.port(), tls.mode() == TlsMode.VERIFY_IDENTITY,
                        timeoutMillis());
            } catch (IOException e) {
                throw new ReplicationException(Kind.TLS, settings.address() + ": TLS handshake failed: "
                        + e.getMessage(), 0, e);
            }
        }
        authenticate(pc, hs, caps);
        return new Login(hs, caps);
    }

    private Session setUp(PacketChannel pc, StartPosition start) throws IOException, InterruptedException {
        Login login = login(pc);
        ServerHandshake hs = login.handshake();
        int caps = login.capabilities();
        boolean deprecateEof = (caps & CLIENT_DEPRECATE_EOF) != 0;
        TextQuery q = new TextQuery(pc, deprecateEof, timeoutMillis());
        // The whole replica setup goes to the server in one flight: its statements (none depends on an earlier one's
        // answer), COM_REGISTER_SLAVE and the dump. The server runs them in order, so the SETs act before the dump,
        // and a server that refuses the registration answers the dump after it, its ERR read first. From the dump on
        // the server sends as fast as the network allows: the socket is read only while less than the setup's answers
        // need is queued (whatever one read brings beyond that stays queued), until the stream is handed to the
        // byte-bounded buffer: nothing piles up meanwhile, and the stream's packets take the fast path from the start.
        Setup setup = replicaSetup(hs, start);
        q.queue(setup.statements);
        pc.queueCommand(registerCommand());
        pc.limitQueue(SETUP_QUEUE_LIMIT);
        pc.writeCommand(dumpCommand(start, hs.isMariaDb()));
        setup.answers = q.readAnswers(setup.statements.size());
        checkRegistered(pc.read(timeoutMillis()));
        boolean[] startUnknown = new boolean[1];
        ServerInfo info = serverInfo(hs, start, setup, startUnknown);
        boolean checksums = "CRC32".equalsIgnoreCase(info.binlogChecksum());
        Packet firstEvent = pc.read(timeoutMillis());
        if (firstEvent.isError()) {
            ServerError err;
            try {
                err = ServerError.parse(firstEvent.payload());
            } finally {
                firstEvent.release();
            }
            throw streamError(err, start);
        }
        if (startUnknown[0]) {
            // The server accepted the dump (a purged or unknown file would have been refused above, with its own
            // error) yet could not map the position to GTIDs: it is past the file's end or inside an event, and the
            // stream would be garbage from there.
            firstEvent.release();
            throw new ReplicationException(Kind.LOG_UNAVAILABLE, settings.address() + " does not know the start"
                    + " position " + start + " (BINLOG_GTID_POS is NULL): it is past the file's end or not where an"
                    + " event starts");
        }
        try {
            pc.attach(); // streaming runs on Netty; reading starts when the stream's handler is in place
        } catch (IOException | InterruptedException | RuntimeException e) {
            firstEvent.release();
            throw e;
        }
        LOG.info("Replicating from {} ({}) as server id {} starting at {}{}", settings.address(), info.version(),
                settings.serverId(), start, pc.isTls() ? " over TLS" : "");
        return new Session(pc, info, checksums, firstEvent);
    }

    /** Classifies an ERR packet received in answer to the dump command or during the stream. */
    public ReplicationException streamError(ServerError err, StartPosition start) {
        if (err.code() == ER_MASTER_FATAL_ERROR_READING_BINLOG) {
            return new ReplicationException(Kind.LOG_UNAVAILABLE, settings.address()
                    + " cannot send the binlog from " + start + ": the position is not (or no longer) in its binary logs"
                    + " (purged, or never written). Server " + err, err.code(), null);
        }
        return new ReplicationException(Kind.SERVER_ERROR, settings.address() + " stopped the binlog stream at "
                + where.get() + ": " + err, err.code(), null);
    }

    private SslContext sslContext(TlsSettings tls) throws SSLException {
        SslContextBuilder b = SslContextBuilder.forClient();
        if (tls.trustedCertificates() != null) {
            b.trustManager(tls.trustedCertificates().toFile());
        } else if (!tls.verifiesCertificate()) {
            b.trustManager(InsecureTrustManagerFactory.INSTANCE);
        }
        if (tls.clientCertificateChain() != null) {
            b.keyManager(tls.clientCertificateChain().toFile(), tls.clientKey().toFile());
        }
        return b.build();
    }

    private void authenticate(PacketChannel pc, ServerHandshake hs, int caps) throws IOException, InterruptedException {
        char[] pwChars = settings.password() == null ? new char[0] : settings.password().get();
        byte[] pw = AuthScrambles.utf8(pwChars);
        Arrays.fill(pwChars, '\0');
        try {
            String plugin = hs.authPlugin();
            byte[] nonce = hs.scramble();
            byte[] response = authResponse(plugin, pw, nonce);
            ByteBuf out = Unpooled.buffer(128);
            out.writeIntLE(caps).writeIntLE(MAX_PACKET_PAYLOAD).writeByte(CHARSET_UTF8MB4_GENERAL_CI).writeZero(23);
            Wire.writeNulString(out, settings.user());
            if ((caps & CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
                Wire.writeLenEncBytes(out, response);
            } else {
                out.writeByte(response.length).writeBytes(response);
            }
            if ((caps & CLIENT_PLUGIN_AUTH) != 0) {
                Wire.writeNulString(out, plugin);
            }
            if ((caps & CLIENT_CONNECT_ATTRS) != 0) {
                ByteBuf attrs = Unpooled.buffer();
                Map<String, String> a = new java.util.LinkedHashMap<>();
                a.put("_client_name", "lanes-replication");
                a.put("program_name", "lanes");
                a.putAll(settings.connectAttributes());
                a.forEach((k, v) -> {
                    Wire.writeLenEncString(attrs, k);
                    Wire.writeLenEncString(attrs, v);
                });
                Wire.writeLenEncInt(out, attrs.readableBytes());
                out.writeBytes(attrs);
                attrs.release();
            }
            pc.writeReply(out);
            while (true) {
                Packet p = pc.read(timeoutMillis());
                try {
                    int h = p.header();
                    ByteBuf pl = p.payload();
                    if (h == 0x00) {
                        return;
                    } else if (h == 0xff) {
                        ServerError err = ServerError.parse(pl);
                        throw new ReplicationException(Kind.AUTHENTICATION, settings.address() + " refused user '"
                                + settings.user() + "' (plugin " + plugin + "): " + err, err.code(), null);
                    } else if (h == 0xfe) {
                        pl.skipBytes(1);
                        plugin = Wire.readNulString(pl);
                        nonce = Wire.readRest(pl);
                        int nonceLen = "client_ed25519".equals(plugin) ? 32 : 20;
                        if (nonce.length > nonceLen) {
                            nonce = Arrays.copyOf(nonce, nonceLen);
                        }
                        pc.writeReply(Unpooled.wrappedBuffer(authResponse(plugin, pw, nonce)));
                    } else if (h == 0x01) {
                        pl.skipBytes(1);
                        if (!"caching_sha2_password".equals(plugin) || !pl.isReadable()) {
                            throw new ReplicationException(Kind.AUTHENTICATION, settings.address()
                                    + ": unexpected extra authentication data for plugin " + plugin);
                        }
                        int status = pl.readUnsignedByte();
                        if (status == 3) {
                            continue; // fast authentication succeeded; the OK packet follows
                        }
                        if (status != 4) {
                            throw new ReplicationException(Kind.AUTHENTICATION, settings.address()
                                    + ": unexpected caching_sha2_password status " + status);
                        }
                        fullCachingSha2(pc, pw, nonce);
                    } else {
                        throw new ReplicationException(Kind.PROTOCOL, settings.address()
                                + ": unexpected packet 0x" + Integer.toHexString(h) + " during authentication");
                    }
                } finally {
                    p.release();
                }
            }
        } finally {
            Arrays.fill(pw, (byte) 0);
        }
    }

    private void fullCachingSha2(PacketChannel pc, byte[] pw, byte[] nonce) throws IOException, InterruptedException {
        if (pc.isTls()) {
            byte[] clear = Arrays.copyOf(pw, pw.length + 1);
            try {
                pc.writeReply(Unpooled.copiedBuffer(clear));
            } finally {
                Arrays.fill(clear, (byte) 0);
            }
            return;
        }
        String pem = settings.serverPublicKeyPem();
        if (pem == null) {
            if (!settings.allowPublicKeyRetrieval()) {
                throw new ReplicationException(Kind.AUTHENTICATION, settings.address() + ": caching_sha2_password needs"
                        + " full authentication for user '" + settings.user() + "', which requires TLS, the server's RSA"
                        + " public key (serverPublicKey), or allowPublicKeyRetrieval");
            }
            pc.writeReply(Unpooled.wrappedBuffer(new byte[] {2}));
            Packet keyPacket = pc.read(timeoutMillis());
            try {
                ByteBuf kp = keyPacket.payload();
                if (keyPacket.header() != 0x01) {
                    if (keyPacket.isError()) {
                        ServerError err = ServerError.parse(kp);
                        throw new ReplicationException(Kind.AUTHENTICATION, settings.address() + " refused user '"
                                + settings.user() + "': " + err, err.code(), null);
                    }
                    throw new ReplicationException(Kind.AUTHENTICATION, settings.address()
                            + ": expected the server's RSA public key");
                }
                kp.skipBytes(1);
                pem = Wire.readRestString(kp);
            } finally {
                keyPacket.release();
            }
        }
        pc.writeReply(Unpooled.wrappedBuffer(AuthScrambles.rsaEncryptPassword(pw, nonce, pem)));
    }

    private byte[] authResponse(String plugin, byte[] pw, byte[] nonce) {
        switch (plugin) {
            case "mysql_native_password":
                return AuthScrambles.nativePassword(pw, nonce);
            case "caching_sha2_password":
                return AuthScrambles.cachingSha2(pw, nonce);
            case "client_ed25519":
                return Ed25519Password.sign(pw, nonce);
            case "mysql_clear_password":
                throw new ReplicationException(Kind.AUTHENTICATION, settings.address() + " asked for the password in"
                        + " clear text (mysql_clear_password), which this client refuses to send");
            default:
                throw new ReplicationException(Kind.AUTHENTICATION, settings.address()
                        + " asked for the unsupported authentication plugin " + plugin + " for user '"
                        + settings.user() + "'");
        }
    }

    /** The replica setup's statements for this server and start position; fails on a start the server cannot serve. */
    private Setup replicaSetup(ServerHandshake hs, StartPosition start) {
        boolean maria = hs.isMariaDb();
        if (!maria && start instanceof StartPosition.MariaDbGtids) {
            throw new ReplicationException(Kind.SERVER_ERROR, settings.address() + " (" + hs.serverVersion()
                    + ") is not MariaDB and cannot start from a MariaDB GTID position");
        }
        if (maria && start instanceof StartPosition.MySqlGtids) {
            throw new ReplicationException(Kind.SERVER_ERROR, settings.address() + " (" + hs.serverVersion()
                    + ") is MariaDB and cannot start from a MySQL GTID set; use a MariaDB GTID position");
        }
        // Each statement keeps its own answer: one a server refuses (an unknown variable, a statement of another
        // version) spoils no other.
        Setup s = new Setup();
        s.version = s.add("SELECT @@version");
        s.serverId = s.add("SELECT @@server_id");
        s.uuid = maria ? -1 : s.add("SELECT @@server_uuid");
        s.gtidMode = maria ? -1 : s.add("SELECT @@gtid_mode");
        s.rowMetadata = s.add("SELECT @@binlog_row_metadata");
        s.checksum = s.add("SELECT @@global.binlog_checksum");
        s.gtidPos = s.add(maria ? "SELECT @@gtid_binlog_pos" : "SELECT @@global.gtid_executed");
        // both names: MySQL 8.4 dropped the first, servers before 8.2 do not know the second
        s.status = s.add("SHOW MASTER STATUS");
        s.statusNewName = maria ? -1 : s.add("SHOW BINARY LOG STATUS");
        s.startGtidPos = maria && start instanceof StartPosition.FilePosition f ? s.add(binlogGtidPosQuery(f)) : -1;
        s.set(s.add("SET @master_binlog_checksum = @@global.binlog_checksum"));
        long heartbeatNanos = settings.heartbeatPeriod().toNanos();
        if (heartbeatNanos > 0) {
            s.set(s.add("SET @master_heartbeat_period = " + heartbeatNanos));
        }
        if (maria) {
            s.set(s.add("SET @mariadb_slave_capability = " + MARIA_SLAVE_CAPABILITY_GTID));
            if (start instanceof StartPosition.MariaDbGtids g) {
                s.set(s.add("SET @slave_connect_state = '" + g.gtidPosition() + "'"));
                s.set(s.add("SET @slave_gtid_strict_mode = " + (settings.gtidStrictMode() ? 1 : 0)));
                s.set(s.add("SET @slave_gtid_ignore_duplicates = 0"));
            }
        }
        if (settings.semiSync()) {
            // asked for before the dump, checked after its answers: a source without semi-sync fails the connection
            s.semiSyncEnabled = s.add("SELECT @@global.rpl_semi_sync_master_enabled");
            s.semiSyncEnabledNewName = s.add("SELECT @@global.rpl_semi_sync_source_enabled");
            s.set(s.add("SET @rpl_semi_sync_slave = 1"));
            if (!maria) {
                s.add("SET @rpl_semi_sync_replica = 1"); // MySQL 8.0.26 on; older ones refuse it, which is fine
            }
        }
        return s;
    }

    /**
     * What the setup's answers say about the server. {@code startUnknown[0]} is set when the server answered NULL to
     * BINLOG_GTID_POS for a MariaDB file start: the caller fails the connection once the dump command has had its say.
     */
    private ServerInfo serverInfo(ServerHandshake hs, StartPosition start, Setup setup, boolean[] startUnknown) {
        try {
            for (int i : setup.sets) {
                setup.result(i);
            }
        } catch (TextQuery.ServerErrorException e) {
            throw new ReplicationException(Kind.SERVER_ERROR, settings.address() + " refused a replica setup statement: "
                    + e.error(), e.error().code(), e);
        }
        if (setup.semiSyncEnabled >= 0) {
            String enabled = setup.scalarOrNull(setup.semiSyncEnabled);
            if (enabled == null) {
                enabled = setup.scalarOrNull(setup.semiSyncEnabledNewName);
            }
            if (!"1".equals(enabled) && !"ON".equalsIgnoreCase(enabled)) {
                throw new ReplicationException(Kind.SERVER_ERROR, settings.address()
                        + " does not have semi-synchronous replication enabled on the source side"
                        + " (rpl_semi_sync_master_enabled), but the client was asked to acknowledge");
            }
        }
        TextQuery.Result status = setup.resultOrNull(setup.status);
        if (status == null) {
            status = setup.resultOrNull(setup.statusNewName);
        }
        StartPosition.FilePosition end = null;
        if (status != null && !status.rows().isEmpty() && status.rows().get(0).size() >= 2) {
            ResultRow r = new ResultRow(status.rows().get(0));
            if (r.get(0) != null && r.get(1) != null) {
                end = StartPosition.file(r.get(0), Long.parseLong(r.get(1)));
            }
        }
        String startGtid = null;
        if (setup.startGtidPos >= 0) {
            TextQuery.Result r = setup.resultOrNull(setup.startGtidPos);
            if (r == null) {
                LOG.info("{} refused BINLOG_GTID_POS for {}: {}; the GTID position before the start is unknown",
                        settings.address(), start, setup.error(setup.startGtidPos));
            }
            startGtid = r == null ? null : r.scalar();
            startUnknown[0] = r != null && startGtid == null;
            startGtid = startGtid == null ? null : startGtid.strip();
        }
        String version = setup.scalarOrNull(setup.version);
        String checksum = setup.scalarOrNull(setup.checksum);
        String serverId = setup.scalarOrNull(setup.serverId);
        return new ServerInfo(version == null ? hs.serverVersion() : version, hs.isMariaDb(),
                serverId == null ? 0 : Long.parseLong(serverId), setup.scalarOrNull(setup.uuid),
                setup.scalarOrNull(setup.gtidMode), setup.scalarOrNull(setup.rowMetadata),
                (checksum == null ? "NONE" : checksum).toUpperCase(java.util.Locale.ROOT),
                setup.scalarOrNull(setup.gtidPos), end, startGtid);
    }

    /**
     * MariaDB's {@code BINLOG_GTID_POS(file, pos)}: the GTID position of the server's binlogs at a file position (the
     * file's GTID_LIST plus the GTID events before the position), which a stream that starts there is told no other
     * way. The file name goes as a hex literal, so no name can break out of the statement. Checked on MariaDB 10.11:
     * the function needs no privilege beyond REPLICATION SLAVE; it answers NULL for a file not in the binlog index, a
     * position past the file's end or inside an event, and the file's GTID_LIST for positions 0 to 4. Its answer: one
     * row holding the position ({@code ""} when no GTID precedes it) or NULL when the server does not know the
     * position; an error (an older or non-conforming server) means nothing is known, which is not a reason to refuse
     * the stream.
     */
    private static String binlogGtidPosQuery(StartPosition.FilePosition f) {
        StringBuilder hex = new StringBuilder();
        for (byte b : f.file().getBytes(StandardCharsets.UTF_8)) {
            hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return "SELECT BINLOG_GTID_POS(X'" + hex + "', " + f.position() + ")";
    }

    /**
     * The replica setup's statements, sent together ({@link TextQuery#queue}), the index of each one whose answer is
     * read (-1: not sent to this server), and the answers.
     */
    private static final class Setup {
        final java.util.List<String> statements = new java.util.ArrayList<>();
        final java.util.List<Integer> sets = new java.util.ArrayList<>();
        java.util.List<Object> answers;
        int version;
        int serverId;
        int uuid;
        int gtidMode;
        int rowMetadata;
        int checksum;
        int gtidPos;
        int status;
        int statusNewName;
        int startGtidPos;
        int semiSyncEnabled = -1;
        int semiSyncEnabledNewName = -1;

        /** Adds a statement; returns its index. */
        int add(String sql) {
            statements.add(sql);
            return statements.size() - 1;
        }

        /** Marks a statement the server must accept (a SET the stream depends on). */
        void set(int i) {
            sets.add(i);
        }

        /** The statement's result; throws its error. */
        TextQuery.Result result(int i) throws TextQuery.ServerErrorException {
            Object a = answers.get(i);
            if (a instanceof ServerError e) {
                throw new TextQuery.ServerErrorException(e);
            }
            return (TextQuery.Result) a;
        }

        /** The statement's result, or null when it was refused or not sent ({@code i} -1). */
        TextQuery.Result resultOrNull(int i) {
            return i >= 0 && answers.get(i) instanceof TextQuery.Result r ? r : null;
        }

        ServerError error(int i) {
            return i >= 0 && answers.get(i) instanceof ServerError e ? e : null;
        }

        /** The first value of the statement's first row, or null (refused, no row, not sent). */
        String scalarOrNull(int i) {
            TextQuery.Result r = resultOrNull(i);
            return r == null ? null : r.scalar();
        }
    }

    /** Row access that tolerates short rows. */
    private record ResultRow(java.util.List<String> values) {
        String get(int i) {
            return i < values.size() ? values.get(i) : null;
        }
    }

    private ByteBuf registerCommand() {
        ByteBuf b = Unpooled.buffer(32);
        b.writeByte(COM_REGISTER_SLAVE).writeIntLE((int) settings.serverId());
        b.writeByte(0); // hostname
        b.writeByte(0); // user
        b.writeByte(0); // password
        b.writeShortLE(0); // port
        b.writeIntLE(0); // replication rank
        b.writeIntLE(0); // master id
        return b;
    }

    private void checkRegistered(Packet p) {
        try {
            if (p.isError()) {
                ServerError err = ServerError.parse(p.payload());
                Kind kind = err.code() == 1045 || err.code() == 1227 ? Kind.AUTHENTICATION : Kind.SERVER_ERROR;
                throw new ReplicationException(kind, settings.address() + " refused COM_REGISTER_SLAVE for user '"
                        + settings.user() + "' (it needs the REPLICATION SLAVE privilege): " + err, err.code(), null);
            }
        } finally {
            p.release();
        }
    }

    private ByteBuf dumpCommand(StartPosition start, boolean maria) {
        ByteBuf b = Unpooled.buffer(64);
        int flags = maria ? BINLOG_SEND_ANNOTATE_ROWS_EVENT : 0;
        if (start instanceof StartPosition.FilePosition f) {
            b.writeByte(COM_BINLOG_DUMP).writeIntLE((int) f.position()).writeShortLE(flags)
                    .writeIntLE((int) settings.serverId()).writeBytes(f.file().getBytes(StandardCharsets.UTF_8));
        } else if (start instanceof StartPosition.MariaDbGtids) {
            b.writeByte(COM_BINLOG_DUMP).writeIntLE(4).writeShortLE(flags).writeIntLE((int) settings.serverId());
        } else {
            MySqlGtidSet set = ((StartPosition.MySqlGtids) start).gtids();
            b.writeByte(COM_BINLOG_DUMP_GTID).writeShortLE(BINLOG_THROUGH_GTID).writeIntLE((int) settings.serverId())
                    .writeIntLE(0).writeLongLE(4).writeIntLE(MySqlGtidSetCodec.encodedLength(set));
            MySqlGtidSetCodec.encode(set, b);
        }
        return b;
    }
}
