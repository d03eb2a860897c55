package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Reading and writing the protocol's basic types (little-endian integers, length-encoded integers and strings,
 * NUL-terminated strings) on Netty buffers. Every read checks the remaining length first and throws
 * {@link ProtocolException} instead of an index exception.
 */
public final class Wire {
    private Wire() {
    }

    public static void need(ByteBuf buf, long n, String what) {
        if (n < 0 || buf.readableBytes() < n) {
            throw new ProtocolException("truncated packet: " + what + " needs " + n + " bytes, " + buf.readableBytes()
                    + " left");
        }
    }

    /** A length-encoded integer, or -1 for the NULL marker 0xfb. */
    public static long readLenEncInt(ByteBuf buf) {
        need(buf, 1, "length-encoded integer");
        int first = buf.readUnsignedByte();
        switch (first) {
            case 0xfb:
                return -1;
            case 0xfc:
                need(buf, 2, "length-encoded integer");
                return buf.readUnsignedShortLE();
            case 0xfd:
                need(buf, 3, "length-encoded integer");
                return buf.readUnsignedMediumLE();
            case 0xfe:
                need(buf, 8, "length-encoded integer");
                long v = buf.readLongLE();
                if (v < 0) {
                    throw new ProtocolException("length-encoded integer out of range");
                }
                return v;
            case 0xff:
                throw new ProtocolException("0xff is not a length-encoded integer");
            default:
                return first;
        }
    }

    /** A length-encoded string as bytes, or null for NULL. */
    public static byte[] readLenEncBytes(ByteBuf buf) {
        long len = readLenEncInt(buf);
        if (len < 0) {
            return null;
        }
        need(buf, len, "length-encoded string");
        byte[] out = new byte[(int) len];
        buf.readBytes(out);
        return out;
    }

    public static String readLenEncString(ByteBuf buf) {
        byte[] b = readLenEncBytes(buf);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** Bytes up to (not including) the next NUL, consuming the NUL; the rest of the buffer if there is none. */
    public static String readNulString(ByteBuf buf) {
        int nul = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        int end = nul < 0 ? buf.writerIndex() : nul;
        String s = buf.toString(buf.readerIndex(), end - buf.readerIndex(), StandardCharsets.UTF_8);
        buf.readerIndex(nul < 0 ? end : end + 1);
        return s;
    }

    public static byte[] readNulBytes(ByteBuf buf) {
        int nul = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        int end = nul < 0 ? buf.writerIndex() : nul;
        byte[] out = new byte[end - buf.readerIndex()];
        buf.readBytes(out);
        if (nul >= 0) {
            buf.skipBytes(1);
        }
        return out;
    }

    public static String readRestString(ByteBuf buf) {
        String s = buf.toString(StandardCharsets.UTF_8);
        buf.skipBytes(buf.readableBytes());
        return s;
    }

    public static byte[] readRest(ByteBuf buf) {
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        return out;
    }

    public static void writeLenEncInt(ByteBuf buf, long v) {
        if (v < 0xfb) {
            buf.writeByte((int) v);
        } else if (v < 0x10000) {
            buf.writeByte(0xfc).writeShortLE((int) v);
        } else if (v < 0x1000000) {
            buf.writeByte(0xfd).writeMediumLE((int) v);
        } else {
            buf.writeByte(0xfe).writeLongLE(v);
        }
    }

    public static void writeLenEncBytes(ByteBuf buf, byte[] b) {
        writeLenEncInt(buf, b.length);
        buf.writeBytes(b);
    }

    public static void writeLenEncString(ByteBuf buf, String s) {
        writeLenEncBytes(buf, s.getBytes(StandardCharsets.UTF_8));
    }

    public static void writeNulString(ByteBuf buf, String s) {
        buf.writeBytes(s.getBytes(StandardCharsets.UTF_8)).writeByte(0);
    }

    // Little-endian access to byte arrays (event headers).
    public static int u16(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8;
    }

    public static long u32(byte[] b, int off) {
        return (b[off] & 0xffL) | (b[off + 1] & 0xffL) << 8 | (b[off + 2] & 0xffL) << 16 | (b[off + 3] & 0xffL) << 24;
    }

    public static long u64(byte[] b, int off) {
        return u32(b, off) | u32(b, off + 4) << 32;
    }

    public static void put32(byte[] b, int off, long v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    public static void put64(byte[] b, int off, long v) {
        put32(b, off, v);
        put32(b, off + 4, v >>> 32);
    }
}
