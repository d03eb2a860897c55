package io.lanes.binlog.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A temporary file holding one large transaction's row images while it is read, queued and applied, so that the heap
 * holds only the events' descriptions: appended by the thread that assembles the transaction and {@link #seal sealed}
 * when it ends, then read by any thread (positional reads of a channel are safe to run side by side).
 *
 * <p>The file is unlinked as soon as it is open where the platform allows it (POSIX): nothing is left behind by a crash,
 * and its space is freed when the channel closes. The channel closes when the last event that refers to the file becomes
 * unreachable (a {@link Cleaner}), or at {@link #close()}.
 */
public final class SpillFile implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create(r -> {
        Thread t = new Thread(r, "lanes-spill-cleaner");
        t.setDaemon(true);
        return t;
    });

    /** Appends are gathered into writes of this size: a row event is some KB, a system call per event costs. */
    private static final int WRITE_BUFFER_BYTES = 1 << 20;

    private final FileChannel channel;
    private final Path path;
    private final Cleaner.Cleanable cleanable;
    /** Appended bytes not yet written; made on the first append, dropped once the file is sealed. */
    private ByteBuffer pending;
    /** Bytes appended, written or not. */
    private long length;
    /** Bytes written to the file: what a read may see without writing first. */
    private volatile long written;

    private SpillFile(FileChannel channel, Path path, boolean unlinked) {
        this.channel = channel;
        this.path = path;
        this.cleanable = CLEANER.register(this, new Closer(channel, unlinked ? null : path));
    }

    /**
     * A new, empty spill file in {@code directory} (the JVM's temporary directory when null).
     *
     * @throws IOException when the file cannot be made
     */
    public static SpillFile create(Path directory) throws IOException {
        Path p = directory == null ? Files.createTempFile("lanes-spill-", ".rows")
                : Files.createTempFile(directory, "lanes-spill-", ".rows");
        FileChannel ch;
        try {
            ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.DELETE_ON_CLOSE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(p);
            throw e;
        }
        boolean unlinked;
        try {
            Files.delete(p); // POSIX keeps the open file's bytes until the channel closes
            unlinked = true;
        } catch (IOException e) {
            unlinked = false; // Windows: DELETE_ON_CLOSE removes it when the channel closes
        }
        return new SpillFile(ch, p, unlinked);
    }

    /** The file's path (already unlinked on POSIX). */
    public Path path() {
        return path;
    }

    /**
     * Appends {@code len} bytes of {@code bytes} from {@code off}; returns the offset they start at. Called by one
     * thread, which {@link #seal}s the file before anything that refers to the bytes is handed to another.
     */
    public synchronized long append(byte[] bytes, int off, int len) throws IOException {
        long at = length;
        if (pending == null) {
            pending = ByteBuffer.allocateDirect(WRITE_BUFFER_BYTES);
        }
        if (len > pending.remaining()) {
            writePending();
        }
        if (len > pending.capacity()) {
            writeFully(ByteBuffer.wrap(bytes, off, len), at);
            written = at + len;
        } else {
            pending.put(bytes, off, len);
        }
        length = at + len;
        return at;
    }

    /** Writes what is appended and releases the write buffer: reads from any thread see every byte after this. */
    public synchronized void seal() throws IOException {
        writePending();
        pending = null;
    }

    private void writePending() throws IOException {
        if (pending != null && pending.position() > 0) {
            pending.flip();
            writeFully(pending, written);
            written += pending.limit();
            pending.clear();
        }
    }

    private void writeFully(ByteBuffer b, long position) throws IOException {
        long pos = position;
        while (b.hasRemaining()) {
            pos += channel.write(b, pos);
        }
    }

    /**
     * Reads {@code len} bytes from {@code offset} into a new array; any thread.
     *
     * @throws UncheckedIOException when the file cannot be read (its channel closed, or the disk failed)
     */
    public byte[] read(long offset, int len) {
        byte[] out = new byte[len];
        ByteBuffer b = ByteBuffer.wrap(out);
        try {
            if (offset + len > written) {
                seal(); // the appending thread reads before sealing (a test, or a caller of RowsEvent.spilledTo)
            }
            long pos = offset;
            while (b.hasRemaining()) {
                int n = channel.read(b, pos);
                if (n < 0) {
                    throw new IOException("spill file " + path + " ends at " + pos + ", before " + (offset + len));
                }
                pos += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Closes (and so removes) the file now; reads after this fail. */
    @Override
    public void close() {
        cleanable.clean();
    }

    /** Holds no reference to the spill file itself, or it would never become unreachable. */
    private record Closer(FileChannel channel, Path stillLinked) implements Runnable {
        @Override
        public void run() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing to do: the descriptor is gone either way
            }
            if (stillLinked != null) {
                try {
                    Files.deleteIfExists(stillLinked);
                } catch (IOException ignored) {
                    // DELETE_ON_CLOSE has had its go; a file left in a temporary directory is all that remains
                }
            }
        }
    }
}
