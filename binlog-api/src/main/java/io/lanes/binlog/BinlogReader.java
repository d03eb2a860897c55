package io.lanes.binlog;

import io.lanes.binlog.internal.EventInput;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import java.util.zip.GZIPInputStream;

/**
 * Reads binlog files (plain or gzip-compressed, recognised by their magic bytes) or any byte stream that starts with the
 * binlog magic {@code fe 62 69 6e}, event by event, in bounded memory: each event's length is checked against
 * {@link BinlogReaderOptions#maxEventLength()} and against what the input can still hold before its bytes are buffered.
 *
 * <pre>{@code
 * try (BinlogReader reader = BinlogReader.open(Path.of("mysql-bin.000001"))) {
 *     for (BinlogEvent e; (e = reader.next()) != null; ) {
 *         if (e instanceof RowsEvent rows) { ... }
 *     }
 * }
 * }</pre>
 *
 * <p>Given several files, the reader reads them in order; each file starts with a fresh decoder state (its own
 * FORMAT_DESCRIPTION). {@link #currentSource()} names the file the last event came from; event positions are offsets in
 * that file (in the decompressed bytes for a {@code .gz} file).
 *
 * <p>Bad input is a {@link BinlogFormatException} naming the file and the offset; nothing of the bad event is returned.
 * Other I/O failures are {@link UncheckedIOException}s. Not thread-safe: one reader belongs to one thread; the events it
 * returns are immutable and may be handed to other threads.
 */
public final class BinlogReader implements Closeable, Iterable<BinlogEvent> {
    private static final byte[] MAGIC = {(byte) 0xfe, 0x62, 0x69, 0x6e};

    private final List<Path> files;
    private final BinlogReaderOptions options;
    private int nextFile;
    private EventInput input;
    private BinlogEventDecoder decoder;
    private String currentSource;
    private boolean closed;

    private long startPosition = 4;

    private BinlogReader(List<Path> files, BinlogReaderOptions options) {
        this.files = List.copyOf(files);
        this.options = options;
    }

    /** Opens one file (plain or gzip) with default options. */
    public static BinlogReader open(Path file) {
        return open(List.of(file), BinlogReaderOptions.defaults());
    }

    public static BinlogReader open(Path file, BinlogReaderOptions options) {
        return open(List.of(file), options);
    }

    /** Opens several files to be read one after the other (a rotated log sequence). */
    public static BinlogReader open(List<Path> files, BinlogReaderOptions options) {
        BinlogReader r = new BinlogReader(files, options);
        r.openNextFile();
        return r;
    }

    /**
     * Opens files to be read in order, starting in the first one at {@code startPosition} (an event boundary, such as a
     * transaction's {@link BinlogTransaction#endPosition()} saved by a checkpoint). The first file's FORMAT_DESCRIPTION
     * is read to set up decoding but not returned unless {@code startPosition} is 4; the events in between are skipped
     * without being decoded.
     *
     * @throws BinlogFormatException when {@code startPosition} lies inside the FORMAT_DESCRIPTION event or past the end,
     *     or when no valid event starts there
     */
    public static BinlogReader open(List<Path> files, long startPosition, BinlogReaderOptions options) {
        if (startPosition < 4) {
            throw new IllegalArgumentException("start position " + startPosition + " is before the first event (4)");
        }
        BinlogReader r = new BinlogReader(files, options);
        r.startPosition = startPosition;
        r.openNextFile();
        return r;
    }

    /**
     * Reads a stream that starts with the binlog magic (not gzip-decoded: wrap it yourself). The reader closes the stream
     * when it is closed.
     *
     * @param sourceName names the stream in error messages and {@link #currentSource()}
     */
    public static BinlogReader open(InputStream in, String sourceName, BinlogReaderOptions options) {
        BinlogReader r = new BinlogReader(List.of(), options);
        r.start(in, sourceName, -1);
        return r;
    }

    /** The name of the file or stream the last event came from. */
    public String currentSource() {
        return currentSource;
    }

    /** The decoder state of the current file (its FORMAT_DESCRIPTION, table maps). */
    public BinlogEventDecoder decoder() {
        return decoder;
    }

    public BinlogReaderOptions options() {
        return options;
    }

    /**
     * The next event that passes the options' type filter, or {@code null} when all input is read.
     *
     * @throws BinlogFormatException on bad input
     */
    public BinlogEvent next() {
        while (input != null) {
            int len = input.next();
            if (endOfFile(len)) {
                continue;
            }
            long pos = input.position();
            BinlogEvent e;
            try {
                e = decoder.decodeIfAccepted(input.buffer(), input.offset(), len, pos);
            } finally {
                input.consume(len);
            }
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /**
     * The next event's header only, or {@code null} at the end: the fast path for scans. With checksum verification off,
     * event bodies are skipped without being copied; with it on, they are read and checked. Type filters do not apply.
     * Do not mix with {@link #next()} on one reader when row events are to be decoded (TABLE_MAP events are not kept).
     */
    public EventHeader nextHeader() {
        while (input != null) {
            long len = input.peekLength();
            if (endOfFile(len)) {
                continue;
            }
            long pos = input.position();
            int type = input.buffer()[input.offset() + 4] & 0xff;
            EventHeader h;
            if (options.verifyChecksums() || type == EventType.FORMAT_DESCRIPTION.code()
                    || type == EventType.START_V3.code() || type == EventType.MARIA_START_ENCRYPTION.code()) {
                int n = input.next();
                try {
                    h = decoder.decodeHeader(input.buffer(), input.offset(), n, pos);
                } finally {
                    input.consume(n);
                }
            } else {
                h = decoder.parseHeader(input.buffer(), input.offset(), (int) len, pos);
                input.consume(len);
            }
            return h;
        }
        return null;
    }

    /** Whether {@code len} (negative) says the current file is read to its end; if so, moves on to the next file. */
    private boolean endOfFile(long len) {
        if (len >= 0) {
            return false;
        }
        closeInput();
        openNextFile();
        return true;
    }

    /** Iterates the remaining events (each call to {@link Iterator#next()} reads one). */
    @Override
    public Iterator<BinlogEvent> iterator() {
        return new Iterator<>() {
            private BinlogEvent pending;

            @Override
            public boolean hasNext() {
                if (pending == null) {
                    pending = BinlogReader.this.next();
                }
                return pending != null;
            }

            @Override
            public BinlogEvent next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                BinlogEvent e = pending;
                pending = null;
                return e;
            }
        };
    }

    /** The remaining events as a sequential stream; closing the stream does not close the reader. */
    public Stream<BinlogEvent> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED
                | Spliterator.NONNULL), false);
    }

    private void openNextFile() {
        if (closed || nextFile >= files.size()) {
            return;
        }
        long skipTo = nextFile == 0 ? startPosition : 4;
        Path file = files.get(nextFile++);
        String name = file.toString();
        try {
            InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
            raw.mark(2);
            int b0 = raw.read();
            int b1 = raw.read();
            raw.reset();
            if (b0 == 0x1f && b1 == 0x8b) {
                start(new GZIPInputStream(raw, 1 << 16), name, -1);
            } else {
                start(raw, name, Files.size(file));
            }
            if (skipTo > 4) {
                skipTo(skipTo);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + e.getMessage(), e);
        }
    }

    private void start(InputStream in, String name, long size) {
        currentSource = name;
        decoder = new BinlogEventDecoder(name, options);
        byte[] magic = new byte[4];
        int n = 0;
        try {
            while (n < 4) {
                int k = in.read(magic, n, 4 - n);
                if (k < 0) {
                    break;
                }
                n += k;
            }
        } catch (IOException e) {
            closeQuietly(in);
            if (e instanceof java.util.zip.ZipException || e instanceof java.io.EOFException) {
                throw new BinlogFormatException(name, n, "corrupt compressed input: " + e.getMessage(), e);
            }
            throw new UncheckedIOException(name + ": " + e.getMessage(), e);
        }
        if (n < 4 || !java.util.Arrays.equals(magic, MAGIC)) {
            closeQuietly(in);
            throw new BinlogFormatException(name, 0, "not a binlog: the first bytes are not fe 62 69 6e");
        }
        input = new EventInput(in, name, 4, options.maxEventLength(), size);
    }

    /** Decodes the FORMAT_DESCRIPTION at 4 (state only), then skips to {@code target} and checks an event starts there. */
    private void skipTo(long target) {
        String name = currentSource;
        int len = input.next();
        if (len < 0) {
            throw new BinlogFormatException(name, 4, "empty log: cannot start at " + target);
        }
        BinlogEvent first;
        try {
            first = decoder.decode(input.buffer(), input.offset(), len, 4);
        } finally {
            input.consume(len);
        }
        if (!(first instanceof FormatDescriptionEvent) && !(first instanceof StartV3Event)) {
            throw new BinlogFormatException(name, 4, "the log does not start with a FORMAT_DESCRIPTION event");
        }
        long here = input.position();
        if (target < here) {
            throw new BinlogFormatException(name, target, "start position is inside the FORMAT_DESCRIPTION event (4.."
                    + here + ")");
        }
        input.consume(target - here);
        // the header there must be sane (its length fits the input); next() then checks the event whole, CRC included
        input.peekLength();
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // already failing with a better message
        }
    }

    private void closeInput() {
        if (input != null) {
            try {
                input.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                input = null;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        closeInput();
    }
}
