package io.lanes.testkit.internal;

import static io.lanes.binlog.replication.internal.Protocol.*;

import io.lanes.binlog.gtid.MariaDbGtidPosition;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.replication.internal.AuthScrambles;
import io.lanes.binlog.replication.internal.FramedFile;
import io.lanes.binlog.replication.internal.MySqlGtidSetCodec;
import io.lanes.binlog.replication.internal.Packet;
import io.lanes.binlog.replication.internal.PacketFrameDecoder;
import io.lanes.binlog.replication.internal.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import javax.crypto.Cipher;

/**
 * One connection of the fake source, on its event loop: handshake and authentication (mysql_native_password,
 * caching_sha2_password fast and full paths, auth switch), the replica setup statements, COM_REGISTER_SLAVE, then the
 * binlog dump: a fake ROTATE, the FORMAT_DESCRIPTION (with log_pos 0 when starting after it), the files' events as
 * stored, and heartbeats once everything was sent. Writes only while the channel is writable, so a slow client slows the
 * fake down instead of filling its memory.
 */
public final class FakeSourceHandler extends ChannelInboundHandlerAdapter {
    private static final SecureRandom RANDOM = new SecureRandom();

    private enum Phase {
        HANDSHAKE, AUTH_SWITCH, SHA2_FULL, SHA2_RSA, COMMANDS, STREAMING
    }

    private final FakeSourceState state;
    private final PacketFrameDecoder frames;
    private final long connectionId;
    private byte[] nonce = newNonce();
    private Phase phase = Phase.HANDSHAKE;
    private int clientCaps;
    private boolean tls;
    private String checksumRequested;
    private long heartbeatNanos;
    private String slaveConnectState;
    private ChannelHandlerContext ctx;

    // streaming
    private int seq;
    private int fileIndex;
    private int offset;
    private final List<byte[]> pendingSynthetic = new ArrayList<>();
    private ScheduledFuture<?> heartbeat;
    private ScheduledFuture<?> stallPoll;
    private boolean atEnd;
    private long cutRemaining = -1;
    /** The framing of file {@link #framedIndex} (null: frame event by event). */
    private FramedFile framed;
    private int framedIndex = -1;
    /** The event {@link #pump()} is sending: {@link #evLength} bytes of {@link #evBytes} from {@link #evOffset}. */
    private byte[] evBytes;
    private int evOffset;
    private int evLength;
    /** Events framed into the chunk not yet written (counted into eventsSent when it is). */
    private int chunkEvents;
    /** Set when the stream was asked to start in the file the last file rotates to, which the fake does not have. */
    private String heartbeatFile;
    private long heartbeatPos;

    public FakeSourceHandler(FakeSourceState state, PacketFrameDecoder frames, long connectionId) {
        this.state = state;
        this.frames = frames;
        this.connectionId = connectionId;
    }

    private static byte[] newNonce() {
        byte[] n = new byte[20];
        for (int i = 0; i < n.length; i++) {
            n[i] = (byte) (RANDOM.nextInt(94) + 33); // printable, never NUL, as servers do
        }
        return n;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        state.connections.incrementAndGet();
        ByteBuf b = Unpooled.buffer(128);
        int caps = CLIENT_LONG_PASSWORD | CLIENT_LONG_FLAG | CLIENT_CONNECT_WITH_DB | CLIENT_PROTOCOL_41
                | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH
                | CLIENT_CONNECT_ATTRS | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | CLIENT_DEPRECATE_EOF
                | (state.tls != null ? CLIENT_SSL : 0);
        b.writeByte(10);
        Wire.writeNulString(b, state.mariaDb ? "5.5.5-" + state.serverVersion : state.serverVersion);
        b.writeIntLE((int) connectionId);
        b.writeBytes(nonce, 0, 8).writeByte(0);
        b.writeShortLE(caps & 0xffff).writeByte(45).writeShortLE(2).writeShortLE(caps >>> 16);
        b.writeByte(21).writeZero(10);
        b.writeBytes(nonce, 8, 12).writeByte(0);
        Wire.writeNulString(b, state.handshakePlugin);
        ctx.writeAndFlush(new Packet(0, b));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Packet p = (Packet) msg;
        try {
            switch (phase) {
                case HANDSHAKE -> handshakeResponse(p);
                case AUTH_SWITCH -> authSwitchResponse(p);
                case SHA2_FULL -> sha2Full(p);
                case SHA2_RSA -> sha2Rsa(p);
                case COMMANDS, STREAMING -> command(p);
                default -> throw new IllegalStateException(phase.name());
            }
        } finally {
            p.release();
        }
    }

    private void reply(Packet request, ByteBuf payload) {
        ctx.writeAndFlush(new Packet(request.sequenceId() + 1, payload));
    }

    private static ByteBuf ok() {
        ByteBuf b = Unpooled.buffer(11);
        b.writeByte(0).writeByte(0).writeByte(0).writeShortLE(2).writeShortLE(0);
        return b;
    }

    private static ByteBuf err(int code, String state, String message) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte(0xff).writeShortLE(code).writeByte('#').writeBytes(state.getBytes(StandardCharsets.US_ASCII))
                .writeBytes(message.getBytes(StandardCharsets.UTF_8));
        return b;
    }

    private void fail(Packet request, int code, String sqlState, String message) {
        ctx.writeAndFlush(new Packet(request.sequenceId() + 1, err(code, sqlState, message)))
                .addListener(ChannelFutureListener.CLOSE);
    }

    private void accessDenied(Packet p, String user) {
        fail(p, ER_ACCESS_DENIED_ERROR, "28000", "Access denied for user '" + user + "'@'127.0.0.1' (using password: "
                + "YES)");
    }

    private String clientUser;

    private void handshakeResponse(Packet p) {
        ByteBuf b = p.payload();
        clientCaps = b.readIntLE();
        b.skipBytes(4 + 1 + 23);
        if (!b.isReadable() && (clientCaps & CLIENT_SSL) != 0 && state.tls != null) {
            startTls();
            return;
        }
        clientUser = Wire.readNulString(b);
        byte[] response;
        if ((clientCaps & CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
            response = Wire.readLenEncBytes(b);
        } else {
            int n = b.readUnsignedByte();
            response = new byte[n];
            b.readBytes(response);
        }
        if ((clientCaps & CLIENT_CONNECT_WITH_DB) != 0) {
            Wire.readNulString(b);
        }
        String plugin = (clientCaps & CLIENT_PLUGIN_AUTH) != 0 && b.isReadable() ? Wire.readNulString(b)
                : "mysql_native_password";
        if (!state.user.equals(clientUser)) {
            accessDenied(p, clientUser);
            return;
        }
        if (!plugin.equals(state.authPlugin)) {
            state.authSwitches.incrementAndGet();
            nonce = newNonce();
            ByteBuf sw = Unpooled.buffer();
            sw.writeByte(0xfe);
            Wire.writeNulString(sw, state.authPlugin);
            sw.writeBytes(nonce).writeByte(0);
            phase = Phase.AUTH_SWITCH;
            reply(p, sw);
            return;
        }
        verify(p, response);
    }

    private void startTls() {
        // stop decoding: bytes after the SSL request are TLS records, to be decoded by the TLS handler first
        // Stop decoding packets and reading the socket: what follows the SSL request is TLS records, which must go
        // through the TLS handler first, in order, once this read is over.
        frames.suspend();
        ctx.channel().config().setAutoRead(false);
        SslHandler ssl = state.tls.newHandler(ctx.alloc());
        ctx.pipeline().addFirst("tls", ssl);
        tls = true;
        ctx.executor().execute(() -> {
            ByteBuf left = frames.takeLeftover();
            frames.resume();
            if (left != null) {
                ctx.pipeline().fireChannelRead(left);
                ctx.pipeline().fireChannelReadComplete();
            }
            ctx.channel().config().setAutoRead(true);
        });
    }

    private void authSwitchResponse(Packet p) {
        verify(p, Wire.readRest(p.payload()));
    }

    private void verify(Packet p, byte[] response) {
        if (state.authPlugin.equals("mysql_native_password")) {
            if (checkScramble(response, "SHA-1", state.nativeStage2, true)) {
                phase = Phase.COMMANDS;
                reply(p, ok());
            } else {
                accessDenied(p, clientUser);
            }
            return;
        }
        // caching_sha2_password
        if (state.emptyPassword ? response.length == 0 : checkScramble(response, "SHA-256", state.sha2Stage2, false)) {
            if (state.sha2Cached || state.emptyPassword) {
                state.fastAuthentications.incrementAndGet();
                ctx.write(new Packet(p.sequenceId() + 1, Unpooled.wrappedBuffer(new byte[] {1, 3})));
                phase = Phase.COMMANDS;
                ctx.writeAndFlush(new Packet(p.sequenceId() + 2, ok()));
                return;
            }
        } else if (response.length != 0 && response.length != 32) {
            accessDenied(p, clientUser);
            return;
        }
        phase = Phase.SHA2_FULL;
        reply(p, Unpooled.wrappedBuffer(new byte[] {1, 4}));
    }

    /** native: stage1 = resp XOR H(nonce + stage2); sha2: stage1 = resp XOR H(stage2 + nonce); then H(stage1) == stage2. */
    private boolean checkScramble(byte[] response, String algorithm, byte[] stage2, boolean nonceFirst) {
        MessageDigest md = AuthScrambles.digest(algorithm);
        if (response.length != stage2.length) {
            return state.emptyPassword && response.length == 0;
        }
        if (nonceFirst) {
            md.update(nonce);
            md.update(stage2);
        } else {
            md.update(stage2);
            md.update(nonce);
        }
        byte[] mix = md.digest();
        for (int i = 0; i < mix.length; i++) {
            mix[i] ^= response[i];
        }
        return MessageDigest.isEqual(md.digest(mix), stage2);
    }

    private void sha2Full(Packet p) {
        byte[] data = Wire.readRest(p.payload());
        if (data.length == 1 && data[0] == 2) {
            ByteBuf key = Unpooled.buffer();
            key.writeByte(1).writeBytes(state.publicKeyPem().getBytes(StandardCharsets.US_ASCII));
            phase = Phase.SHA2_RSA;
            reply(p, key);
            return;
        }
        if (tls) {
            int len = data.length > 0 && data[data.length - 1] == 0 ? data.length - 1 : data.length;
            fullAuthResult(p, Arrays.copyOf(data, len));
        } else {
            // without TLS the only acceptable full-auth answer is the RSA-encrypted password
            sha2Rsa(p, data);
        }
    }

    private void sha2Rsa(Packet p) {
        sha2Rsa(p, Wire.readRest(p.payload()));
    }

    private void sha2Rsa(Packet p, byte[] data) {
        byte[] plain;
        try {
            Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPWithSHA-1AndMGF1Padding");
            rsa.init(Cipher.DECRYPT_MODE, state.rsaKeys().getPrivate());
            plain = rsa.doFinal(data);
        } catch (java.security.GeneralSecurityException e) {
            accessDenied(p, clientUser);
            return;
        }
        for (int i = 0; i < plain.length; i++) {
            plain[i] ^= nonce[i % nonce.length];
        }
        int len = plain.length > 0 && plain[plain.length - 1] == 0 ? plain.length - 1 : plain.length;
        fullAuthResult(p, Arrays.copyOf(plain, len));
    }

    private void fullAuthResult(Packet p, byte[] password) {
        byte[] h = AuthScrambles.digest("SHA-256").digest(password);
        Arrays.fill(password, (byte) 0);
        if (MessageDigest.isEqual(h, state.sha2Stage1)) {
            state.fullAuthentications.incrementAndGet();
            state.sha2Cached = true;
            phase = Phase.COMMANDS;
            reply(p, ok());
        } else {
            accessDenied(p, clientUser);
        }
    }

    private void command(Packet p) {
        ByteBuf b = p.payload();
        int cmd = b.readUnsignedByte();
        switch (cmd) {
            case COM_QUIT -> ctx.close();
            case COM_QUERY -> query(p, Wire.readRestString(b).trim());
            case COM_REGISTER_SLAVE -> reply(p, ok());
            case COM_BINLOG_DUMP -> {
                long pos = b.readUnsignedIntLE();
                b.skipBytes(2 + 4);
                String file = Wire.readRestString(b);
                dump(p, file, pos, null);
            }
            case COM_BINLOG_DUMP_GTID -> {
                b.skipBytes(2 + 4);
                int nameLen = b.readIntLE();
                String file = b.readCharSequence(nameLen, StandardCharsets.UTF_8).toString();
                long pos = b.readLongLE();
                int dataLen = b.readIntLE();
                MySqlGtidSet set = MySqlGtidSetCodec.decode(b.readSlice(dataLen));
                dump(p, file, pos, set);
            }
            case 0x0e -> reply(p, ok()); // COM_PING
            default -> reply(p, err(1047, "08S01", "Unknown command " + cmd));
        }
    }

    private static final Pattern SET = Pattern.compile("(?is)SET\\s+@(\\w+)\\s*=\\s*(.+)");
    private static final Pattern SELECT_VARS = Pattern.compile("(?is)SELECT\\s+(@@[\\w.]+(\\s*,\\s*@@[\\w.]+)*)");
    private static final Pattern SHOW_VARS = Pattern.compile("(?is)SHOW\\s+(GLOBAL\\s+|SESSION\\s+)?VARIABLES\\s+LIKE\\s+'([^']*)'");

    private void query(Packet p, String sql) {
        Matcher m;
        if ((m = SET.matcher(sql)).matches()) {
            String name = m.group(1).toLowerCase(Locale.ROOT);
            String value = m.group(2).trim();
            if (value.startsWith("'") && value.endsWith("'") && value.length() >= 2) {
                value = value.substring(1, value.length() - 1);
            } else if (value.equalsIgnoreCase("@@global.binlog_checksum")) {
                value = state.checksums ? "CRC32" : "NONE";
            }
            switch (name) {
                case "master_binlog_checksum" -> checksumRequested = value.toUpperCase(Locale.ROOT);
                case "master_heartbeat_period" -> heartbeatNanos = Long.parseLong(value);
                case "slave_connect_state" -> slaveConnectState = value;
                default -> {
                }
            }
            reply(p, ok());
        } else if ((m = SELECT_VARS.matcher(sql)).matches()) {
            List<String> names = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (String v : m.group(1).split(",")) {
                String name = v.trim();
                String key = name.substring(2).toLowerCase(Locale.ROOT).replaceFirst("^(global|session)\\.", "");
                if (!state.variables.containsKey(key)) {
                    reply(p, err(1193, "HY000", "Unknown system variable '" + key + "'"));
                    return;
                }
                names.add(name);
                values.add(state.variables.get(key));
            }
            resultSet(p, names, List.of(values));
        } else if ((m = SHOW_VARS.matcher(sql)).matches()) {
            String key = m.group(2).toLowerCase(Locale.ROOT);
            List<List<String>> rows = state.variables.containsKey(key) ? List.of(List.of(key, state.variables.get(key)))
                    : List.of();
            resultSet(p, List.of("Variable_name", "Value"), rows);
        } else if (sql.equalsIgnoreCase("SHOW MASTER STATUS") || sql.equalsIgnoreCase("SHOW BINARY LOG STATUS")) {
            FakeSourceState.BinlogImage last = state.files.get(state.files.size() - 1);
            resultSet(p, List.of("File", "Position", "Binlog_Do_DB", "Binlog_Ignore_DB"),
                    List.of(List.of(last.name(), String.valueOf(last.bytes().length), "", "")));
        } else {
            reply(p, err(1064, "42000", "the fake source does not understand: " + sql));
        }
    }

    private void resultSet(Packet p, List<String> columns, List<List<String>> rows) {
        int s = p.sequenceId() + 1;
        ByteBuf count = Unpooled.buffer();
        Wire.writeLenEncInt(count, columns.size());
        ctx.write(new Packet(s++, count));
        for (String c : columns) {
            ByteBuf d = Unpooled.buffer();
            Wire.writeLenEncString(d, "def");
            Wire.writeLenEncString(d, "");
            Wire.writeLenEncString(d, "");
            Wire.writeLenEncString(d, "");
            Wire.writeLenEncString(d, c);
            Wire.writeLenEncString(d, c);
            d.writeByte(0x0c).writeShortLE(33).writeIntLE(1024).writeByte(0xfd).writeShortLE(0).writeByte(0)
                    .writeShortLE(0);
            ctx.write(new Packet(s++, d));
        }
        boolean deprecateEof = (clientCaps & CLIENT_DEPRECATE_EOF) != 0;
        if (!deprecateEof) {
            ctx.write(new Packet(s++, eof()));
        }
        for (List<String> row : rows) {
            ByteBuf r = Unpooled.buffer();
            for (String v : row) {
                if (v == null) {
                    r.writeByte(0xfb);
                } else {
                    Wire.writeLenEncString(r, v);
                }
            }
            ctx.write(new Packet(s++, r));
        }
        if (deprecateEof) {
            ByteBuf end = Unpooled.buffer();
            end.writeByte(0xfe).writeByte(0).writeByte(0).writeShortLE(2).writeShortLE(0);
            ctx.writeAndFlush(new Packet(s, end));
        } else {
            ctx.writeAndFlush(new Packet(s, eof()));
        }
    }

    private static ByteBuf eof() {
        ByteBuf b = Unpooled.buffer(5);
        b.writeByte(0xfe).writeShortLE(0).writeShortLE(2);
        return b;
    }

    // ---------------------------------------------------------------- streaming

    private void dump(Packet p, String file, long pos, MySqlGtidSet mysqlGtids) {
        state.dumps.incrementAndGet();
        Long cut = state.cuts.poll();
        cutRemaining = cut == null ? -1 : cut;
        if (state.checksums && !"CRC32".equals(checksumRequested)) {
            fail(p, ER_MASTER_FATAL_ERROR_READING_BINLOG, "HY000", "Slave can not handle replication events with the"
                    + " checksum that master is configured to log");
            return;
        }
        seq = p.sequenceId() + 1;
        int index;
        long start;
        if (mysqlGtids != null || (state.mariaDb && slaveConnectState != null)) {
            long[] found = mysqlGtids != null ? findMySqlStart(mysqlGtids) : findMariaDbStart(slaveConnectState);
            if (found == null) {
                fail(p, ER_MASTER_FATAL_ERROR_READING_BINLOG, "HY000", "Could not find GTID state requested by slave"
                        + " in any binlog files. Probably the slave state is too old and required binlog files have"
                        + " been purged.");
                return;
            }
            index = (int) found[0];
            start = found[1];
        } else {
            index = -1;
            for (int i = 0; i < state.files.size(); i++) {
                if (state.files.get(i).name().equals(file)) {
                    index = i;
                }
            }
            if (index < 0 && file.equals(lastRotateTarget()) && pos == 4) {
                // the position just after everything the fake has: nothing to send, until the end of time
                phase = Phase.STREAMING;
                fileIndex = state.files.size() - 1;
                offset = state.files.get(fileIndex).bytes().length;
                heartbeatFile = file;
                heartbeatPos = pos;
                pendingSynthetic.add(fakeRotate(file, pos));
                pump();
                return;
            }
            if (index < 0) {
                fail(p, ER_MASTER_FATAL_ERROR_READING_BINLOG, "HY000",
                        "Could not find first log file name in binary log index file");
                return;
            }
            start = pos;
            if (start < 4 || start > state.files.get(index).bytes().length) {
                fail(p, ER_MASTER_FATAL_ERROR_READING_BINLOG, "HY000", "Client requested master to start replication"
                        + " from impossible position");
                return;
            }
        }
        phase = Phase.STREAMING;
        fileIndex = index;
        FakeSourceState.BinlogImage img = state.files.get(index);
        pendingSynthetic.add(fakeRotate(img.name(), start));
        if (start > 4) {
            byte[] fde = eventAt(img.bytes(), 4).clone();
            // as servers do: log_pos 0 marks it as not at this position, and the in-use flag is cleared
            Wire.put32(fde, EVENT_LOG_POS_OFFSET, 0);
            fde[EVENT_FLAGS_OFFSET] &= (byte) ~LOG_EVENT_BINLOG_IN_USE_F;
            fixChecksum(fde);
            pendingSynthetic.add(fde);
        }
        offset = (int) start;
        pump();
    }

    /** The file named by the ROTATE event that ends the last file, or null. */
    private String lastRotateTarget() {
        byte[] b = state.files.get(state.files.size() - 1).bytes();
        String target = null;
        for (int off = 4; off + EVENT_HEADER_LENGTH <= b.length; ) {
            long size = Wire.u32(b, off + EVENT_SIZE_OFFSET);
            if (size < EVENT_HEADER_LENGTH || off + size > b.length) {
                break;
            }
            if ((b[off + EVENT_TYPE_OFFSET] & 0xff) == ROTATE_EVENT) {
                int end = (int) (off + size - (state.checksums ? 4 : 0));
                target = new String(b, off + EVENT_HEADER_LENGTH + 8, end - off - EVENT_HEADER_LENGTH - 8,
                        StandardCharsets.UTF_8);
            } else {
                target = null;
            }
            off += (int) size;
        }
        return target;
    }

    private long[] findMariaDbStart(String connectState) {
        MariaDbGtidPosition wanted = MariaDbGtidPosition.parse(connectState);
        if (connectState.isEmpty()) {
            return new long[] {0, 4};
        }
        // the first transaction after the wanted position (per domain); the wanted GTID itself must exist
        boolean seenWanted = false;
        for (int i = 0; i < state.files.size(); i++) {
            byte[] b = state.files.get(i).bytes();
            for (int off = 4; off + EVENT_HEADER_LENGTH <= b.length; off += (int) Wire.u32(b, off + EVENT_SIZE_OFFSET)) {
                if ((b[off + EVENT_TYPE_OFFSET] & 0xff) == MARIA_GTID_EVENT) {
                    long seqNo = Wire.u64(b, off + EVENT_HEADER_LENGTH);
                    long domain = Wire.u32(b, off + EVENT_HEADER_LENGTH + 8);
                    long want = wanted.sequence(domain);
                    if (seqNo == want) {
                        seenWanted = true;
                    } else if (seqNo > want && seenWanted) {
                        return new long[] {i, off};
                    }
                }
                if (Wire.u32(b, off + EVENT_SIZE_OFFSET) < EVENT_HEADER_LENGTH) {
                    break;
                }
            }
        }
        if (seenWanted) {
            FakeSourceState.BinlogImage last = state.files.get(state.files.size() - 1);
            return new long[] {state.files.size() - 1, last.bytes().length};
        }
        return null;
    }

    private long[] findMySqlStart(MySqlGtidSet have) {
        for (int i = 0; i < state.files.size(); i++) {
            byte[] b = state.files.get(i).bytes();
            for (int off = 4; off + EVENT_HEADER_LENGTH <= b.length; off += (int) Wire.u32(b, off + EVENT_SIZE_OFFSET)) {
                int type = b[off + EVENT_TYPE_OFFSET] & 0xff;
                if (type == GTID_LOG_EVENT) {
                    String uuid = MySqlGtidSet.uuidText(b, off + EVENT_HEADER_LENGTH + 1);
                    long gno = Wire.u64(b, off + EVENT_HEADER_LENGTH + 17);
                    if (!have.contains(uuid, gno)) {
                        return new long[] {i, off};
                    }
                } else if (type == GTID_TAGGED_LOG_EVENT) {
                    // the first transaction, tagged or not, whose GTID the replica lacks (a tag is part of the GTID)
                    int end = off + (int) Wire.u32(b, off + EVENT_SIZE_OFFSET) - (state.checksums ? 4 : 0);
                    if (!have.contains(MySqlGtidSetCodec.readTaggedGtidEvent(b, off + EVENT_HEADER_LENGTH, end))) {
                        return new long[] {i, off};
                    }
                }
                if (Wire.u32(b, off + EVENT_SIZE_OFFSET) < EVENT_HEADER_LENGTH) {
                    break;
                }
            }
        }
        FakeSourceState.BinlogImage last = state.files.get(state.files.size() - 1);
        return new long[] {state.files.size() - 1, last.bytes().length};
    }

    private static byte[] eventAt(byte[] file, int off) {
        int size = (int) Wire.u32(file, off + EVENT_SIZE_OFFSET);
        return Arrays.copyOfRange(file, off, off + size);
    }

    private void fixChecksum(byte[] ev) {
        if (state.checksums) {
            CRC32 crc = new CRC32();
            crc.update(ev, 0, ev.length - 4);
            Wire.put32(ev, ev.length - 4, crc.getValue());
        }
    }

    private byte[] syntheticEvent(int type, long logPos, byte[] body) {
        int size = EVENT_HEADER_LENGTH + body.length + (state.checksums ? 4 : 0);
        byte[] ev = new byte[size];
        ev[EVENT_TYPE_OFFSET] = (byte) type;
        Wire.put32(ev, EVENT_SERVER_ID_OFFSET, state.serverId);
        Wire.put32(ev, EVENT_SIZE_OFFSET, size);
        Wire.put32(ev, EVENT_LOG_POS_OFFSET, logPos);
        ev[EVENT_FLAGS_OFFSET] = (byte) LOG_EVENT_ARTIFICIAL_F;
        System.arraycopy(body, 0, ev, EVENT_HEADER_LENGTH, body.length);
        fixChecksum(ev);
        return ev;
    }

    private byte[] fakeRotate(String name, long pos) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[8 + n.length];
        Wire.put64(body, 0, pos);
        System.arraycopy(n, 0, body, 8, n.length);
        return syntheticEvent(ROTATE_EVENT, 0, body);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (phase == Phase.STREAMING && ctx.channel().isWritable()) {
            pump();
        }
        super.channelWritabilityChanged(ctx);
    }

    /** Bytes of framed events the fake gathers into one socket write. */
    private static final int WRITE_CHUNK = 64 * 1024;

    /**
     * Sends events while the channel is writable; at the end of the files, arms the heartbeat. Events are framed into
     * chunks of about {@value #WRITE_CHUNK} bytes (copied straight from the file's bytes, one write per chunk) rather
     * than written as a packet each: the fake serves benchmarks, and must not be slower than the clients it is measured
     * with. A ByteBuf wrapped around each event and released after the copy cost more than the copy itself.
     */
    private void pump() {
        if (!ctx.channel().isActive()) {
            return;
        }
        ByteBuf chunk = null;
        try {
            while (ctx.channel().isWritable()) {
                if (framedIndex != fileIndex) {
                    framed = state.framed(fileIndex);
                    framedIndex = fileIndex;
                }
                if (state.stalled) {
                    scheduleStallPoll();
                    break;
                }
                if (cutRemaining == 0) {
                    chunk = writeChunk(chunk);
                    ctx.flush();
                    ctx.close();
                    return;
                }
                if (cutRemaining < 0 && pendingSynthetic.isEmpty() && framed != null) {
                    int k = framed.indexOf(offset);
                    ByteBuf framing = k >= 0 && k < framed.events() - 1 ? framed.framing((seq - k) & 0xff) : null;
                    if (framing != null) {
                        chunk = writeChunk(chunk); // what was framed event by event goes first
                        sendFramed(framed, framing, k);
                        continue;
                    }
                }
                if (!nextEvent()) {
                    atEnd = true;
                    scheduleHeartbeat();
                    break;
                }
                if (cutRemaining > 0) {
                    cutRemaining--;
                }
                int len = evLength + 1;
                if (len < MAX_PACKET_PAYLOAD) {
                    if (chunk == null) {
                        chunk = ctx.alloc().buffer(Math.max(WRITE_CHUNK, len + 4) + 1024);
                    }
                    chunk.writeMediumLE(len).writeByte(seq).writeByte(0).writeBytes(evBytes, evOffset, evLength);
                    chunkEvents++;
                    if (chunk.readableBytes() >= WRITE_CHUNK) {
                        chunk = writeChunk(chunk);
                    }
                } else {
                    chunk = writeChunk(chunk);
                    ByteBuf payload = Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(new byte[] {0}),
                            Unpooled.wrappedBuffer(evBytes, evOffset, evLength));
                    ctx.write(new Packet(seq, payload));
                    state.eventsSent.incrementAndGet();
                }
                seq = (seq + len / MAX_PACKET_PAYLOAD + 1) & 0xff;
            }
            chunk = writeChunk(chunk);
        } finally {
            if (chunk != null) {
                chunk.release();
            }
        }
        ctx.flush();
    }

    /**
     * Sends the file's events from event {@code k} as one slice of the file's framing: as many whole events as fit in
     * {@value #WRITE_CHUNK} bytes (at least one), never the file's last event, which {@link #nextEvent()} sends (a
     * ROTATE moves the stream to the next file).
     */
    private void sendFramed(FramedFile file, ByteBuf framing, int k) {
        int last = file.events() - 1;
        int from = file.framedOffset(k);
        int j = k + 1;
        while (j < last && file.framedOffset(j + 1) - from <= WRITE_CHUNK) {
            j++;
        }
        // the stream moves on before the write: a write can make the channel unwritable and writable again, which
        // runs pump() again from inside it
        state.eventsSent.addAndGet(j - k);
        seq = (seq + j - k) & 0xff;
        offset = file.start(j);
        ctx.writeAndFlush(framing.retainedSlice(from, file.framedOffset(j) - from));
    }

    /** Writes and flushes the framed events gathered so far (if any); returns null, the chunk to gather into next. */
    private ByteBuf writeChunk(ByteBuf chunk) {
        if (chunkEvents > 0) {
            state.eventsSent.addAndGet(chunkEvents);
            chunkEvents = 0;
        }
        if (chunk != null && chunk.isReadable()) {
            ctx.writeAndFlush(chunk);
        } else if (chunk != null) {
            chunk.release();
        }
        return null;
    }

    private void scheduleStallPoll() {
        if (stallPoll == null || stallPoll.isDone()) {
            stallPoll = ctx.executor().schedule(this::pump, 20, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Moves to the next event to send: sets {@link #evBytes}, {@link #evOffset} and {@link #evLength}; false at the end
     * of the files.
     */
    private boolean nextEvent() {
        if (!pendingSynthetic.isEmpty()) {
            return current(pendingSynthetic.remove(0), 0, -1);
        }
        while (true) {
            byte[] b = state.files.get(fileIndex).bytes();
            if (offset + EVENT_HEADER_LENGTH <= b.length) {
                long size = Wire.u32(b, offset + EVENT_SIZE_OFFSET);
                if (size >= EVENT_HEADER_LENGTH && offset + size <= b.length) {
                    int at = offset;
                    boolean rotate = (b[offset + EVENT_TYPE_OFFSET] & 0xff) == ROTATE_EVENT;
                    offset += (int) size;
                    if (rotate && fileIndex + 1 < state.files.size()) {
                        fileIndex++;
                        offset = 4;
                    }
                    return current(b, at, (int) size);
                }
            }
            if (fileIndex + 1 >= state.files.size()) {
                return false;
            }
            // a file that ends without a ROTATE (a crashed server's): tell the client where the stream goes on
            fileIndex++;
            offset = 4;
            return current(fakeRotate(state.files.get(fileIndex).name(), 4), 0, -1);
        }
    }

    /** Sets the event {@link #pump()} sends next ({@code length} -1: all of {@code bytes}); returns true. */
    private boolean current(byte[] bytes, int from, int length) {
        evBytes = bytes;
        evOffset = from;
        evLength = length < 0 ? bytes.length : length;
        return true;
    }

    private void scheduleHeartbeat() {
        if (heartbeatNanos <= 0 || (heartbeat != null && !heartbeat.isDone())) {
            return;
        }
        heartbeat = ctx.executor().schedule(() -> {
            heartbeat = null;
            if (!ctx.channel().isActive() || state.stalled) {
                if (ctx.channel().isActive()) {
                    scheduleHeartbeat();
                }
                return;
            }
            byte[] hb = syntheticEvent(HEARTBEAT_LOG_EVENT, heartbeatFile == null ? offset : heartbeatPos,
                    (heartbeatFile == null ? state.files.get(fileIndex).name() : heartbeatFile)
                            .getBytes(StandardCharsets.UTF_8));
            ctx.writeAndFlush(new Packet(seq, Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(new byte[] {0}),
                    Unpooled.wrappedBuffer(hb))));
            seq = (seq + 1) & 0xff;
            scheduleHeartbeat();
        }, heartbeatNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (heartbeat != null) {
            heartbeat.cancel(false);
        }
        if (stallPoll != null) {
            stallPoll.cancel(false);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    /** Whether everything was sent (for tests). */
    public boolean atEnd() {
        return atEnd;
    }
}
