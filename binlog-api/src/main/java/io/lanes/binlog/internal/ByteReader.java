package io.lanes.binlog.internal;

import io.lanes.binlog.BinlogFormatException;
import java.nio.charset.Charset;

/**
 * A little-endian cursor over a slice of a byte array, with every read bounds-checked against the slice's limit.
 *
 * <p>Every failure is a {@link BinlogFormatException} naming the source and the absolute byte offset
 * ({@code baseOffset + position - start}), so code built on this class never throws an index exception and never allocates
 * more than the input can hold: {@link #bytes(int)} and {@link #checkAvailable(long)} refuse a length larger than what is
 * left before allocating anything.
 *
 * <p>Not thread-safe; one reader belongs to one decoding thread.
 */
public final class ByteReader {
    private final byte[] buf;
    private final int start;
    private final int limit;
    private final String source;
    private final long baseOffset;
    private int pos;

    /**
     * @param buf the bytes
     * @param start the first readable index
     * @param limit one past the last readable index
     * @param source file or stream name for error messages
     * @param baseOffset the absolute offset in {@code source} of {@code buf[start]}
     */
    public ByteReader(byte[] buf, int start, int limit, String source, long baseOffset) {
        if (start < 0 || limit > buf.length || start > limit) {
            throw new IllegalArgumentException("bad slice [" + start + ", " + limit + ") of " + buf.length);
        }
        this.buf = buf;
        this.start = start;
        this.limit = limit;
        this.pos = start;
        this.source = source;
        this.baseOffset = baseOffset;
    }

    public ByteReader(byte[] buf, String source, long baseOffset) {
        this(buf, 0, buf.length, source, baseOffset);
    }

    public byte[] array() {
        return buf;
    }

    /** Index into {@link #array()} of the next byte to read. */
    public int position() {
        return pos;
    }

    public void position(int newPos) {
        if (newPos < start || newPos > limit) {
            throw error("position " + (newPos - start) + " outside 0.." + (limit - start));
        }
        pos = newPos;
    }

    public int start() {
        return start;
    }

    public int limit() {
        return limit;
    }

    public int remaining() {
        return limit - pos;
    }

    public boolean hasRemaining() {
        return pos < limit;
    }

    public String source() {
        return source;
    }

    /** The absolute offset in the source of the next byte to read. */
    public long absoluteOffset() {
        return baseOffset + (pos - start);
    }

    public long absoluteOffset(int index) {
        return baseOffset + (index - start);
    }

    /** A new reader over the next {@code length} bytes; this reader skips past them. */
    public ByteReader slice(int length) {
        checkAvailable(length);
        ByteReader r = new ByteReader(buf, pos, pos + length, source, absoluteOffset());
        pos += length;
        return r;
    }

    /** A reader over the remaining bytes up to {@code limit() - trailer}, leaving this reader unchanged. */
    public ByteReader view(int from, int to) {
        if (from < start || to > limit || from > to) {
            throw error("bad view");
        }
        return new ByteReader(buf, from, to, source, baseOffset + (from - start));
    }

    /** Throws a {@link BinlogFormatException} unless at least {@code n} bytes remain. */
    public void checkAvailable(long n) {
        if (n < 0 || n > limit - pos) {
            throw error("need " + n + " bytes but only " + (limit - pos) + " remain");
        }
    }

    public BinlogFormatException error(String reason) {
        return new BinlogFormatException(source, absoluteOffset(), reason);
    }

    public BinlogFormatException error(String reason, Throwable cause) {
        return new BinlogFormatException(source, absoluteOffset(), reason, cause);
    }

    public void skip(long n) {
        checkAvailable(n);
        pos += (int) n;
    }

    public int u8() {
        checkAvailable(1);
        return buf[pos++] & 0xff;
    }

    public int i8() {
        checkAvailable(1);
        return buf[pos++];
    }

    public int u16() {
        checkAvailable(2);
        int v = (buf[pos] & 0xff) | (buf[pos + 1] & 0xff) << 8;
        pos += 2;
        return v;
    }

    public int i16() {
        return (short) u16();
    }

    public int u24() {
        checkAvailable(3);
        int v = (buf[pos] & 0xff) | (buf[pos + 1] & 0xff) << 8 | (buf[pos + 2] & 0xff) << 16;
        pos += 3;
        return v;
    }

    public int i24() {
        return u24() << 8 >> 8;
    }

    public long u32() {
        checkAvailable(4);
        long v = (buf[pos] & 0xffL) | (buf[pos + 1] & 0xffL) << 8 | (buf[pos + 2] & 0xffL) << 16 | (buf[pos + 3] & 0xffL) << 24;
        pos += 4;
        return v;
    }

    public int i32() {
        return (int) u32();
    }

    /** Reads {@code n} (0..8) bytes little-endian as an unsigned value (8 bytes may come back negative: it is a raw u64). */
    public long uint(int n) {
        checkAvailable(n);
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (buf[pos + i] & 0xffL) << (8 * i);
        }
        pos += n;
        return v;
    }

    public long u48() {
        return uint(6);
    }

    /** Eight bytes little-endian; the caller decides whether the value is signed or unsigned. */
    public long i64() {
        return uint(8);
    }

    /** Reads {@code n} bytes big-endian as an unsigned value (used by DECIMAL and the temporal2 types). */
    public long uintBigEndian(int n) {
        checkAvailable(n);
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = v << 8 | (buf[pos + i] & 0xffL);
        }
        pos += n;
        return v;
    }

    /**
     * A MySQL length-encoded integer (packed integer): 0..250 in one byte, 0xfc + 2 bytes, 0xfd + 3 bytes, 0xfe + 8 bytes.
     * 0xfb (SQL NULL in result sets) is returned as -1; 0xff is an error.
     */
    public long packedLength() {
        int first = u8();
        if (first < 0xfb) {
            return first;
        }
        switch (first) {
            case 0xfb: return -1;
            case 0xfc: return u16();
            case 0xfd: return u24();
            case 0xfe: return i64();
            default:
                pos--;
                throw error("invalid length-encoded integer prefix 0xff");
        }
    }

    /** A packed length that must be a usable, non-negative size no larger than what remains. */
    public int packedSize() {
        int at = pos;
        long n = packedLength();
        if (n < 0 || n > limit - pos) {
            pos = at;
            throw error("length " + n + " exceeds the " + (limit - at) + " bytes that remain");
        }
        return (int) n;
    }

    /** Copies the next {@code n} bytes; refuses before allocating when fewer remain. */
    public byte[] bytes(long n) {
        checkAvailable(n);
        byte[] out = new byte[(int) n];
        System.arraycopy(buf, pos, out, 0, (int) n);
        pos += (int) n;
        return out;
    }

    public byte[] remainingBytes() {
        return bytes(remaining());
    }

    public String string(int n, Charset cs) {
        checkAvailable(n);
        String s = new String(buf, pos, n, cs);
        pos += n;
        return s;
    }

    /** A string ended by a 0 byte (the terminator is consumed, not returned). */
    public String nulTerminated(Charset cs) {
        for (int i = pos; i < limit; i++) {
            if (buf[i] == 0) {
                String s = new String(buf, pos, i - pos, cs);
                pos = i + 1;
                return s;
            }
        }
        throw error("unterminated string");
    }

    /** A bitmap of {@code bits} bits, as MySQL writes them (bit i in byte i/8, least significant first). */
    public java.util.BitSet bitmap(int bits) {
        int n = (bits + 7) >>> 3;
        checkAvailable(n);
        long[] words = new long[(n + 7) >>> 3];
        for (int i = 0; i < n; i++) {
            long b = buf[pos + i] & 0xffL;
            if (i == n - 1 && (bits & 7) != 0) {
                b &= (1L << (bits & 7)) - 1; // the last byte's bits past the count are not part of the bitmap
            }
            words[i >>> 3] |= b << ((i & 7) << 3);
        }
        pos += n;
        return java.util.BitSet.valueOf(words);
    }
}
