package io.lanes.binlog;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * How a {@link BinlogReader} or {@link BinlogEventDecoder} decodes, and how a {@link TransactionAssembler} holds a
 * transaction. Immutable; build with {@link #builder()}.
 *
 * <ul>
 *   <li>{@code verifyChecksums} (default true): check each event's CRC32 when the log has checksums; a mismatch is a
 *       {@link BinlogFormatException}.
 *   <li>{@code eventTypes} (default all): the types handed to the caller. Others are still read (and FORMAT_DESCRIPTION,
 *       TABLE_MAP and START_ENCRYPTION still update the decoder's state) but never materialised, which makes scans that
 *       skip row events cheap.
 *   <li>{@code maxEventLength} (default 1 GiB): a longer event_length is refused before anything is allocated.
 *   <li>{@code spillThresholdBytes} (default 0: never) and {@code spillDirectory} (default the JVM's temporary
 *       directory): once a transaction being assembled holds this many bytes of row images, the images of its later row
 *       events go to a temporary file of its own ({@link RowsEvent#rowsOnDisk()}), so that a transaction of any size
 *       takes about this much heap while it is read and queued. The file is removed when the transaction's events are
 *       no longer reachable.
 * </ul>
 */
public final class BinlogReaderOptions {
    public static final long DEFAULT_MAX_EVENT_LENGTH = 1L << 30;

    private static final BinlogReaderOptions DEFAULTS = builder().build();

    private final boolean verifyChecksums;
    private final EnumSet<EventType> eventTypes;
    private final boolean allTypes;
    private final long maxEventLength;
    private final long spillThresholdBytes;
    private final Path spillDirectory;

    private BinlogReaderOptions(Builder b) {
        this.spillThresholdBytes = b.spillThresholdBytes;
        this.spillDirectory = b.spillDirectory;
        this.verifyChecksums = b.verifyChecksums;
        this.eventTypes = b.eventTypes == null ? EnumSet.allOf(EventType.class) : EnumSet.copyOf(b.eventTypes);
        this.allTypes = b.eventTypes == null;
        this.maxEventLength = b.maxEventLength;
    }

    public static BinlogReaderOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean verifyChecksums() {
        return verifyChecksums;
    }

    /** The event types handed to callers (a copy). */
    public Set<EventType> eventTypes() {
        return EnumSet.copyOf(eventTypes);
    }

    /** Whether events of this type code are handed to callers. Unknown ignorable types pass only when no filter is set. */
    public boolean accepts(int typeCode) {
        if (allTypes) {
            return true;
        }
        EventType t = EventType.of(typeCode);
        return t != null && eventTypes.contains(t);
    }

    public long maxEventLength() {
        return maxEventLength;
    }

    /** Row-image bytes a transaction holds in the heap before the rest go to a temporary file; 0: never. */
    public long spillThresholdBytes() {
        return spillThresholdBytes;
    }

    /** Where spill files are made; null: the JVM's temporary directory. */
    public Path spillDirectory() {
        return spillDirectory;
    }

    public Builder toBuilder() {
        Builder b = new Builder().verifyChecksums(verifyChecksums).maxEventLength(maxEventLength)
                .spillThresholdBytes(spillThresholdBytes).spillDirectory(spillDirectory);
        if (!allTypes) {
            b.eventTypes(eventTypes);
        }
        return b;
    }

    /** Builder for {@link BinlogReaderOptions}; not thread-safe. */
    public static final class Builder {
        private boolean verifyChecksums = true;
        private Set<EventType> eventTypes;
        private long maxEventLength = DEFAULT_MAX_EVENT_LENGTH;
        private long spillThresholdBytes;
        private Path spillDirectory;

        private Builder() {
        }

        /** Hold at most about this many bytes of a transaction's row images in the heap (0: all of them). */
        public Builder spillThresholdBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("spillThresholdBytes " + bytes);
            }
            this.spillThresholdBytes = bytes;
            return this;
        }

        /** The directory for spill files (null: the JVM's temporary directory). */
        public Builder spillDirectory(Path directory) {
            this.spillDirectory = directory;
            return this;
        }

        public Builder verifyChecksums(boolean verify) {
            this.verifyChecksums = verify;
            return this;
        }

        /** Hand only these event types to the caller. */
        public Builder eventTypes(Set<EventType> types) {
            Objects.requireNonNull(types, "types");
            this.eventTypes = types.isEmpty() ? EnumSet.noneOf(EventType.class) : EnumSet.copyOf(types);
            return this;
        }

        public Builder eventTypes(EventType first, EventType... rest) {
            return eventTypes(EnumSet.of(first, rest));
        }

        /** Refuse events longer than this many bytes (at least 19, at most 4 GiB - 1). */
        public Builder maxEventLength(long bytes) {
            if (bytes < EventHeader.LENGTH_V4 || bytes > 0xffffffffL) {
                throw new IllegalArgumentException("maxEventLength " + bytes);
            }
            this.maxEventLength = bytes;
            return this;
        }

        public BinlogReaderOptions build() {
            return new BinlogReaderOptions(this);
        }
    }
}
