package io.lanes.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One unit of work from the source, as the engine sees it: an opaque payload plus what the schedulers need.
 *
 * <p>Immutable and therefore safe to publish to any thread. The engine assigns each submitted transaction a sequence
 * number (see {@link Engine#submit}); the transaction itself carries the source's own, opaque {@link #position()}.
 *
 * @param <P> the payload type; the engine never looks inside it (the MySQL applier puts a binlog transaction there)
 */
public final class Transaction<P> {
    private static final String[] NO_KEYS = new String[0];
    private static final long[] NO_WRITE_KEYS = new long[0];

    private final P payload;
    private final String position;
    private final long sizeBytes;
    private final String[] partitionKeys;
    private final long[] writeKeys;
    private final LogicalClock logicalClock;
    private final boolean barrier;
    private final boolean startsAfterAllBefore;

    private Transaction(Builder<P> b) {
        this.payload = b.payload;
        this.position = Objects.requireNonNull(b.position, "position");
        this.sizeBytes = b.sizeBytes;
        this.partitionKeys = b.partitionKeys;
        this.writeKeys = b.writeKeys;
        this.logicalClock = b.logicalClock;
        this.barrier = b.barrier;
        this.startsAfterAllBefore = b.startsAfterAllBefore;
    }

    /** Starts a transaction carrying {@code payload} (may be null when the applier needs nothing but the keys). */
    public static <P> Builder<P> builder(P payload) {
        return new Builder<>(payload);
    }

    public P payload() {
        return payload;
    }

    /**
     * The source position at the end of this transaction: re-reading the source from here yields the transactions that
     * follow it, in the same order. Opaque to the engine; stored in checkpoints and handed back by recovery.
     */
    public String position() {
        return position;
    }

    /** Bytes this transaction occupies while queued; counted against the engine's queue budget. */
    public long sizeBytes() {
        return sizeBytes;
    }

    public int partitionKeyCount() {
        return partitionKeys.length;
    }

    public String partitionKey(int index) {
        return partitionKeys[index];
    }

    /** The partition keys (schemas), as an unmodifiable list. */
    public List<String> partitionKeys() {
        return List.of(partitionKeys);
    }

    public int writeKeyCount() {
        return writeKeys.length;
    }

    public long writeKey(int index) {
        return writeKeys[index];
    }

    /** The write keys themselves, not copied, for the schedulers of this package: never to be modified. */
    long[] writeKeysShared() {
        return writeKeys;
    }

    /** A copy of the write keys (hashed row keys). */
    public long[] writeKeys() {
        return writeKeys.clone();
    }

    /** The source's logical clock, or null when the source gave none. */
    public LogicalClock logicalClock() {
        return logicalClock;
    }

    /** True for DDL and anything whose dependencies are unknown: it runs alone, after everything before it. */
    public boolean isBarrier() {
        return barrier;
    }

    /**
     * True when it may start only after every transaction before it committed, whatever its keys say; unlike a
     * barrier, the transactions after it are not held back. For a change whose conflicts with earlier transactions the
     * keys cannot show (the MySQL applier: a parent's DELETE whose cascade on the target reaches child rows that earlier
     * transactions changed without their foreign key's columns in the log).
     */
    public boolean startsAfterAllBefore() {
        return startsAfterAllBefore;
    }

    @Override
    public String toString() {
        return "Transaction{position=" + position + ", size=" + sizeBytes + ", partitions=" + Arrays.toString(partitionKeys)
                + ", writeKeys=" + writeKeys.length + (logicalClock == null ? "" : ", clock=" + logicalClock)
                + (barrier ? ", barrier" : "") + (startsAfterAllBefore ? ", starts after all before" : "") + '}';
    }

    /** Builds a {@link Transaction}; not thread-safe, use one builder per transaction. */
    public static final class Builder<P> {
        private final P payload;
        private String position;
        private long sizeBytes;
        private String[] partitionKeys = NO_KEYS;
        private long[] writeKeys = NO_WRITE_KEYS;
        private LogicalClock logicalClock;
        private boolean barrier;
        private boolean startsAfterAllBefore;

        private Builder(P payload) {
            this.payload = payload;
        }

        /** Required: see {@link Transaction#position()}. */
        public Builder<P> position(String position) {
            this.position = Objects.requireNonNull(position, "position");
            return this;
        }

        public Builder<P> sizeBytes(long sizeBytes) {
            if (sizeBytes < 0) {
                throw new IllegalArgumentException("sizeBytes < 0: " + sizeBytes);
            }
            this.sizeBytes = sizeBytes;
            return this;
        }

        /** A single partition key (the common case: one schema). */
        public Builder<P> partitionKey(String key) {
            this.partitionKeys = new String[] {Objects.requireNonNull(key, "key")};
            return this;
        }

        public Builder<P> partitionKeys(String... keys) {
            String[] copy = keys.clone();
            for (String k : copy) {
                Objects.requireNonNull(k, "partition key");
            }
            this.partitionKeys = copy;
            return this;
        }

        public Builder<P> partitionKeys(List<String> keys) {
            return partitionKeys(keys.toArray(NO_KEYS));
        }

        public Builder<P> writeKeys(long... keys) {
            this.writeKeys = keys.clone();
            return this;
        }

        public Builder<P> logicalClock(LogicalClock clock) {
            this.logicalClock = clock;
            return this;
        }

        public Builder<P> barrier(boolean barrier) {
            this.barrier = barrier;
            return this;
        }

        /** See {@link Transaction#startsAfterAllBefore()}. */
        public Builder<P> startsAfterAllBefore(boolean startsAfterAllBefore) {
            this.startsAfterAllBefore = startsAfterAllBefore;
            return this;
        }

        public Transaction<P> build() {
            return new Transaction<>(this);
        }
    }
}
