package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;

/** An ERR packet: error code, SQL state (may be empty) and message. */
public record ServerError(int code, String sqlState, String message) {
    public static ServerError parse(ByteBuf p) {
        Wire.need(p, 3, "ERR packet");
        p.skipBytes(1);
        int code = p.readUnsignedShortLE();
        String state = "";
        if (p.isReadable() && p.getByte(p.readerIndex()) == '#' && p.readableBytes() >= 6) {
            p.skipBytes(1);
            state = p.readCharSequence(5, java.nio.charset.StandardCharsets.US_ASCII).toString();
        }
        return new ServerError(code, state, Wire.readRestString(p));
    }

    @Override
    public String toString() {
        return "error " + code + (sqlState.isEmpty() ? "" : " (" + sqlState + ")") + ": " + message;
    }
}
