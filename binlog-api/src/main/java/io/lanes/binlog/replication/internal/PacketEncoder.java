package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/**
 * Writes a {@link Packet} as one or more physical packets: payloads of 16 MiB - 1 bytes or more are split, the sequence
 * id incremented for each part, and a payload that is an exact multiple of the part size is ended by an empty packet.
 */
public final class PacketEncoder extends MessageToByteEncoder<Packet> {
    @Override
    protected void encode(ChannelHandlerContext ctx, Packet msg, ByteBuf out) {
        ByteBuf payload = msg.payload();
        int seq = msg.sequenceId();
        while (true) {
            int len = Math.min(payload.readableBytes(), Protocol.MAX_PACKET_PAYLOAD);
            out.writeMediumLE(len).writeByte(seq & 0xff);
            out.writeBytes(payload, len);
            seq++;
            if (len < Protocol.MAX_PACKET_PAYLOAD) {
                return;
            }
        }
    }
}
