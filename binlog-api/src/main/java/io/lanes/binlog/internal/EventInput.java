package io.lanes.binlog.internal;

import io.lanes.binlog.BinlogFormatException;
import io.lanes.binlog.EventHeader;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.ZipException;

/**
 * Frames binlog events out of a byte stream: reads each event's header, checks its length against the limit and the
 * input's known size before buffering it, and hands out the whole event as a slice of a reused buffer. The buffer grows
 * geometrically as bytes actually arrive, so a lying length on a stream of unknown size costs at most twice the bytes the
 * stream really holds.
 *
 * <p>Not thread-safe.
 */
public final class EventInput implements Closeable {
    private static final int INITIAL = 256 * 1024;

    private final InputStream in;
    private final String source;
    private final long maxEventLength;
    private final long knownSize;
    private byte[] buf = new byte[INITIAL];
    private int start;
    private int end;
    private long position;
    private boolean eof;

    /**
     * @param position the absolute offset of the stream's next byte
     * @param knownSize the absolute offset at which the input ends, or -1 when unknown
     */
    public EventInput(InputStream in, String source, long position, long maxEventLength, long knownSize) {
        this.in = in;
        this.source = source;
        this.position = position;
        this.maxEventLength = maxEventLength;
        this.knownSize = knownSize;
    }

    public String source() {
        return source;
    }

    /** Absolute offset of the next unread byte. */
    public long position() {
        return position;
    }

    public byte[] buffer() {
        return buf;
    }

    /** Index in {@link #buffer()} of the current event's first byte. */
    public int offset() {
        return start;
    }

    /**
     * Buffers the next event whole and returns its length, or -1 at a clean end of input (no bytes left).
     */
    public int next() {
        long len = peekLength();
        if (len < 0) {
            return -1;
        }
        if (!fill((int) len)) {
            throw new BinlogFormatException(source, position, "truncated event: " + len + " bytes declared, "
                    + (end - start) + " present");
        }
        return (int) len;
    }

    /**
     * Reads the next event's length (buffering only its header), or -1 at a clean end of input.
     */
    public long peekLength() {
        if (!fill(EventHeader.LENGTH_V4)) {
            if (end == start) {
                return -1;
            }
            throw new BinlogFormatException(source, position, "truncated event header: " + (end - start) + " bytes");
        }
        int i = start + 9;
        long len = (buf[i] & 0xffL) | (buf[i + 1] & 0xffL) << 8 | (buf[i + 2] & 0xffL) << 16 | (buf[i + 3] & 0xffL) << 24;
        if (len < EventHeader.LENGTH_V4) {
            throw new BinlogFormatException(source, position, "event_length " + len + " is shorter than a header");
        }
        if (len > maxEventLength) {
            throw new BinlogFormatException(source, position, "event_length " + len + " exceeds the limit of "
                    + maxEventLength);
        }
        if (knownSize >= 0 && position + len > knownSize) {
            throw new BinlogFormatException(source, position, "event_length " + len + " runs past the end of the input ("
                    + (knownSize - position) + " bytes left)");
        }
        return len;
    }

    /** Bytes of the current event already buffered. */
    public int buffered() {
        return end - start;
    }

    /** Marks {@code n} bytes of the current event consumed; bytes not yet buffered are skipped on the stream. */
    public void consume(long n) {
        if (knownSize >= 0 && position + n > knownSize) {
            throw new BinlogFormatException(source, position, "cannot skip " + n + " bytes: the input ends at " + knownSize);
        }
        int inBuf = (int) Math.min(n, end - start);
        start += inBuf;
        position += inBuf;
        long rest = n - inBuf;
        if (rest > 0) {
            skipStream(rest);
        }
        if (start == end) {
            start = 0;
            end = 0;
            if (buf.length > 16 * INITIAL) {
                buf = new byte[INITIAL]; // do not keep a huge event's buffer for the small ones after it
            }
        }
    }

    private void skipStream(long n) {
        long left = n;
        try {
            while (left > 0) {
                long k = in.skip(left);
                if (k <= 0) {
                    if (in.read() < 0) {
                        throw new BinlogFormatException(source, position, "truncated event: " + left + " bytes missing");
                    }
                    k = 1;
                }
                left -= k;
                position += k;
            }
        } catch (IOException e) {
            throw ioError(e);
        }
    }

    private boolean fill(int n) {
        if (end - start >= n) {
            return true;
        }
        if (eof) {
            return false;
        }
        if (start > 0 && buf.length - start < n) {
            System.arraycopy(buf, start, buf, 0, end - start);
            end -= start;
            start = 0;
        }
        try {
            while (end - start < n) {
                if (end == buf.length) {
                    // grow geometrically, never beyond the event: memory follows the bytes that really arrive
                    int capacity = (int) Math.min(n, 2L * buf.length);
                    byte[] bigger = new byte[capacity];
                    System.arraycopy(buf, start, bigger, 0, end - start);
                    end -= start;
                    start = 0;
                    buf = bigger;
                }
                int k = in.read(buf, end, buf.length - end);
                if (k < 0) {
                    eof = true;
                    return false;
                }
                end += k;
            }
            return true;
        } catch (IOException e) {
            throw ioError(e);
        }
    }

    private RuntimeException ioError(IOException e) {
        if (e instanceof ZipException || e instanceof EOFException) {
            return new BinlogFormatException(source, position, "corrupt compressed input: " + e.getMessage(), e);
        }
        return new UncheckedIOException(source + ": " + e.getMessage(), e);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
