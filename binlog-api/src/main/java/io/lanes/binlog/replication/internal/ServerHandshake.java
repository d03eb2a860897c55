package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;

/**
 * The server's initial handshake packet (protocol version 10).
 *
 * @param serverVersion e.g. {@code 8.0.36} or {@code 5.5.5-10.11.6-MariaDB-log}
 * @param connectionId the server's thread id for this connection
 * @param scramble the authentication nonce (normally 20 bytes, without the trailing NUL)
 * @param capabilities the server's capability flags (lower 32 bits)
 * @param charset the server's default collation id
 * @param authPlugin the default authentication plugin, e.g. {@code mysql_native_password}
 */
public record ServerHandshake(String serverVersion, long connectionId, byte[] scramble, int capabilities, int charset,
        String authPlugin) {

    public boolean isMariaDb() {
        return serverVersion.contains("MariaDB");
    }

    public boolean has(int capability) {
        return (capabilities & capability) != 0;
    }

    public static ServerHandshake parse(ByteBuf p) {
        Wire.need(p, 1, "protocol version");
        int protocol = p.readUnsignedByte();
        if (protocol != 10) {
            throw new ProtocolException("unsupported handshake protocol version " + protocol + " (expected 10)");
        }
        String version = Wire.readNulString(p);
        Wire.need(p, 4 + 8 + 1 + 2, "handshake");
        long connectionId = p.readUnsignedIntLE();
        byte[] part1 = new byte[8];
        p.readBytes(part1);
        p.skipBytes(1);
        int caps = p.readUnsignedShortLE();
        int charset = 0;
        int authDataLen = 0;
        byte[] part2 = new byte[0];
        String plugin = "mysql_native_password";
        if (p.isReadable()) {
            Wire.need(p, 1 + 2 + 2 + 1 + 10, "handshake");
            charset = p.readUnsignedByte();
            p.skipBytes(2); // status flags
            caps |= p.readUnsignedShortLE() << 16;
            authDataLen = p.readUnsignedByte();
            p.skipBytes(10); // reserved (MariaDB: extended capabilities in the last 4)
            if ((caps & Protocol.CLIENT_SECURE_CONNECTION) != 0) {
                int n = Math.min(Math.max(13, authDataLen - 8), p.readableBytes());
                // the second part ends with a NUL that is not part of the nonce (20 bytes in all for every known plugin)
                int nonceLen = Math.min(n, authDataLen > 8 ? authDataLen - 9 : 12);
                part2 = new byte[nonceLen];
                p.readBytes(part2);
                p.skipBytes(n - nonceLen);
            }
            if ((caps & Protocol.CLIENT_PLUGIN_AUTH) != 0 && p.isReadable()) {
                plugin = Wire.readNulString(p);
            }
        }
        byte[] scramble = new byte[8 + part2.length];
        System.arraycopy(part1, 0, scramble, 0, 8);
        System.arraycopy(part2, 0, scramble, 8, part2.length);
        return new ServerHandshake(version, connectionId, scramble, caps, charset, plugin);
    }
}
