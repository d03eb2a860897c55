package io.lanes.binlog;

import com.github.luben.zstd.ZstdInputStream;
import io.lanes.binlog.internal.EventInput;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * TRANSACTION_PAYLOAD (40, MySQL 8.0.20+ binlog_transaction_compression): a whole transaction's events, compressed
 * together. The event keeps only its compressed bytes; {@link #events()} decompresses them as a stream (zstd's streaming
 * decoder, never the whole payload at once) and decodes one inner event at a time.
 *
 * <p>Inner events carry no checksum of their own (the payload event's covers them). Their {@link EventHeader#position()}
 * is the payload event's position: a transaction can be resumed only at the payload event. Decoding problems inside the
 * payload are {@link BinlogFormatException}s at the payload event's position.
 *
 * <p>Immutable; each {@link #events()} iterator belongs to one thread.
 */
public final class TransactionPayloadEvent implements BinlogEvent {
    public static final int COMPRESSION_ZSTD = 0;
    public static final int COMPRESSION_NONE = 255;

    private final EventHeader header;
    private final int compressionType;
    private final long uncompressedSize;
    private final byte[] payload;
    private final long payloadOffset;
    private final BinlogEventDecoder template;

    TransactionPayloadEvent(EventHeader header, int compressionType, long uncompressedSize, byte[] payload,
            long payloadOffset, BinlogEventDecoder template) {
        this.header = header;
        this.compressionType = compressionType;
        this.uncompressedSize = uncompressedSize;
        this.payload = payload;
        this.payloadOffset = payloadOffset;
        this.template = template;
    }

    @Override
    public EventHeader header() {
        return header;
    }

    /** {@link #COMPRESSION_ZSTD} or {@link #COMPRESSION_NONE}. */
    public int compressionType() {
        return compressionType;
    }

    /** The declared size of the inner events once decompressed, or -1 when not logged. */
    public long uncompressedSize() {
        return uncompressedSize;
    }

    /** Size of the compressed payload in bytes. */
    public int payloadSize() {
        return payload.length;
    }

    /**
     * A new iterator over the inner events, decoding them as it goes. Close it if you stop early (it holds a native zstd
     * stream); it closes itself when exhausted or failing.
     */
    public PayloadEvents events() {
        return new PayloadEvents();
    }

    @Override
    public String toString() {
        return "TransactionPayloadEvent[" + payload.length + " bytes at " + header.position() + "]";
    }

    /** Iterator over a payload's inner events; see {@link TransactionPayloadEvent#events()}. */
    public final class PayloadEvents implements Iterator<BinlogEvent>, AutoCloseable {
        private final BinlogEventDecoder decoder;
        private EventInput input;
        private BinlogEvent pending;
        private boolean done;

        private PayloadEvents() {
            this.decoder = template.payloadDecoder(template.source(), template.formatDescription());
        }

        private void open() {
            InputStream raw = new ByteArrayInputStream(payload);
            InputStream in;
            try {
                in = compressionType == COMPRESSION_ZSTD ? new ZstdInputStream(raw) : raw;
            } catch (IOException e) {
                throw error("cannot start zstd decompression: " + e.getMessage(), e);
            }
            long max = Math.min(template.options().maxEventLength(),
                    uncompressedSize >= 0 ? uncompressedSize : Long.MAX_VALUE);
            input = new EventInput(in, template.source(), 0, Math.max(max, EventHeader.LENGTH_V4),
                    uncompressedSize >= 0 ? uncompressedSize : -1);
        }

        @Override
        public boolean hasNext() {
            if (pending != null) {
                return true;
            }
            if (done) {
                return false;
            }
            try {
                if (input == null) {
                    open();
                }
                while (true) {
                    int len = input.next();
                    if (len < 0) {
                        if (uncompressedSize >= 0 && input.position() != uncompressedSize) {
                            throw error("payload holds " + input.position() + " bytes, header says " + uncompressedSize,
                                    null);
                        }
                        close();
                        return false;
                    }
                    BinlogEvent e;
                    try {
                        e = decoder.decode(input.buffer(), input.offset(), len, header.position());
                    } finally {
                        input.consume(len);
                    }
                    pending = e;
                    return true;
                }
            } catch (BinlogFormatException e) {
                close();
                if (e.offset() == header.position()) {
                    throw e;
                }
                throw error("inner offset " + e.offset() + ": " + reasonOf(e), e);
            } catch (UncheckedIOException e) {
                close();
                throw error("corrupt compressed payload: " + e.getMessage(), e);
            } catch (RuntimeException e) {
                close();
                throw error("cannot decode payload: " + e, e);
            }
        }

        private String reasonOf(BinlogFormatException e) {
            String m = e.getMessage();
            int i = m.indexOf(": ");
            return i >= 0 ? m.substring(i + 2) : m;
        }

        private BinlogFormatException error(String reason, Throwable cause) {
            return new BinlogFormatException(template.source(), header.position(), "in TRANSACTION_PAYLOAD: " + reason,
                    cause);
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

        @Override
        public void close() {
            done = true;
            if (input != null) {
                try {
                    input.close();
                } catch (IOException ignored) {
                    // a ByteArrayInputStream or zstd stream over one: nothing to report
                }
            }
        }
    }
}
