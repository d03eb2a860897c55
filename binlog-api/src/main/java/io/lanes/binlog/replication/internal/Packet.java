package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * One logical protocol packet: its payload (multi-packet payloads already joined) and the sequence id of its last
 * physical packet. Reference-counted: whoever receives it releases it.
 */
public final class Packet extends DefaultByteBufHolder {
    private final int sequenceId;

    public Packet(int sequenceId, ByteBuf payload) {
        super(payload);
        this.sequenceId = sequenceId;
    }

    public int sequenceId() {
        return sequenceId;
    }

    public ByteBuf payload() {
        return content();
    }

    /** The first payload byte (0x00 OK, 0xff ERR, 0xfe EOF or auth switch, ...), or -1 for an empty payload. */
    public int header() {
        ByteBuf p = content();
        return p.isReadable() ? p.getUnsignedByte(p.readerIndex()) : -1;
    }

    public boolean isError() {
        return header() == 0xff;
    }

    /** An EOF packet (0xfe with a short payload), or with CLIENT_DEPRECATE_EOF the OK packet that replaces it. */
    public boolean isEof() {
        return header() == 0xfe && content().readableBytes() < 9;
    }
}
