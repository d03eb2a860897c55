package io.lanes.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A saved statement of progress, immutable. Two kinds:
 *
 * <ul>
 *   <li>A worker checkpoint (worker id &gt;= 0), written by a worker inside the target transaction of each commit: "every
 *       transaction up to {@link #lowWaterMark()} (source position {@link #position()}) is applied, and so are the
 *       transactions beyond it whose bits are set" (bit {@code i} stands for sequence number {@code lowWaterMark + 1 + i}).
 *       A worker's bits are the transactions it committed beyond the low-water mark it last saw, plus transactions a
 *       recovery found already applied; the newest checkpoint of a worker id replaces the older ones.</li>
 *   <li>A low-water-mark checkpoint ({@link #workerId()} == {@link #LOW_WATER_MARK}, no bits), written by the engine every
 *       checkpoint period or group, and at a graceful stop.</li>
 * </ul>
 * Storing the newest checkpoint per worker id (plus the newest low-water mark) is all {@link RecoveryPoint} needs.
 * {@link #toBytes()} gives a compact, versioned binary form for stores that keep one blob per row.
 */
public final class Checkpoint {
    /** The worker id of the engine's own low-water-mark checkpoints. */
    public static final int LOW_WATER_MARK = -1;

    private static final byte FORMAT_VERSION = 1;
    private static final long[] NO_BITS = new long[0];

    private final int workerId;
    private final long lowWaterMark;
    private final String position;
    private final long[] bits;

    private Checkpoint(int workerId, long lowWaterMark, String position, long[] bits) {
        if (workerId < LOW_WATER_MARK) {
            throw new IllegalArgumentException("worker id " + workerId);
        }
        if (lowWaterMark < 0) {
            throw new IllegalArgumentException("low-water mark < 0: " + lowWaterMark);
        }
        this.workerId = workerId;
        this.lowWaterMark = lowWaterMark;
        this.position = position;
        this.bits = trim(bits);
    }

    /**
     * A worker checkpoint.
     *
     * @param position the source position of transaction {@code lowWaterMark}; null only for low-water mark 0 with no
     *     configured start position
     * @param doneBits bit i: transaction {@code lowWaterMark + 1 + i} is applied (copied)
     */
    public static Checkpoint ofWorker(int workerId, long lowWaterMark, String position, long[] doneBits) {
        if (workerId < 0) {
            throw new IllegalArgumentException("worker id < 0: " + workerId);
        }
        return new Checkpoint(workerId, lowWaterMark, position, doneBits.clone());
    }

    /** A worker checkpoint from a bitmap in {@link #bitmap()}'s byte form. */
    public static Checkpoint ofWorker(int workerId, long lowWaterMark, String position, byte[] bitmap) {
        if (workerId < 0) {
            throw new IllegalArgumentException("worker id < 0: " + workerId);
        }
        long[] words = new long[(bitmap.length + 7) / 8];
        for (int i = 0; i < bitmap.length; i++) {
            words[i >>> 3] |= (bitmap[i] & 0xFFL) << ((i & 7) * 8);
        }
        return new Checkpoint(workerId, lowWaterMark, position, words);
    }

    /** The engine's low-water-mark checkpoint. */
    public static Checkpoint ofLowWaterMark(long lowWaterMark, String position) {
        return new Checkpoint(LOW_WATER_MARK, lowWaterMark, position, NO_BITS);
    }

    public int workerId() {
        return workerId;
    }

    public boolean isLowWaterMark() {
        return workerId == LOW_WATER_MARK;
    }

    /** Every transaction with a sequence number at or below this is applied. */
    public long lowWaterMark() {
        return lowWaterMark;
    }

    /** The source position of the low-water mark's transaction: where to re-read the source from. */
    public String position() {
        return position;
    }

    /** True when this checkpoint says the transaction with sequence number {@code sequence} is applied. */
    public boolean isApplied(long sequence) {
        if (sequence <= lowWaterMark) {
            return true;
        }
        long bit = sequence - lowWaterMark - 1;
        return bit < (long) bits.length * 64 && (bits[(int) (bit >>> 6)] & (1L << bit)) != 0;
    }

    /** Sequence numbers beyond the low-water mark this checkpoint marks applied, ascending. */
    public long[] appliedBeyondLowWaterMark() {
        int count = 0;
        for (long w : bits) {
            count += Long.bitCount(w);
        }
        long[] out = new long[count];
        int n = 0;
        for (int i = 0; i < bits.length; i++) {
            long w = bits[i];
            while (w != 0) {
                int b = Long.numberOfTrailingZeros(w);
                out[n++] = lowWaterMark + 1 + (long) i * 64 + b;
                w &= w - 1;
            }
        }
        return out;
    }

    /** The bitmap as bytes, bit i of the map = bit (i % 8) of byte i / 8; no trailing zero bytes. */
    public byte[] bitmap() {
        int len = bits.length * 8;
        byte[] out = new byte[len];
        for (int i = 0; i < len; i++) {
            out[i] = (byte) (bits[i >>> 3] >>> ((i & 7) * 8));
        }
        int end = len;
        while (end > 0 && out[end - 1] == 0) {
            end--;
        }
        return end == len ? out : Arrays.copyOf(out, end);
    }

    /**
     * Versioned binary form: version (1 byte), worker id (int), low-water mark (long), position length (int, -1 for
     * null) and UTF-8 bytes, bitmap word count (int) and words (longs), big-endian.
     */
    public byte[] toBytes() {
        byte[] pos = position == null ? null : position.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buf = ByteBuffer.allocate(1 + 4 + 8 + 4 + (pos == null ? 0 : pos.length) + 4 + bits.length * 8);
        buf.put(FORMAT_VERSION).putInt(workerId).putLong(lowWaterMark).putInt(pos == null ? -1 : pos.length);
        if (pos != null) {
            buf.put(pos);
        }
        buf.putInt(bits.length);
        for (long w : bits) {
            buf.putLong(w);
        }
        return buf.array();
    }

    /** Reads {@link #toBytes()}'s form; lengths are checked against the input before anything is allocated. */
    public static Checkpoint fromBytes(byte[] data) {
        ByteBuffer buf = ByteBuffer.wrap(data);
        need(buf, 1 + 4 + 8 + 4, "header");
        byte version = buf.get();
        if (version != FORMAT_VERSION) {
            throw new CorruptCheckpointException("unknown checkpoint format version " + version, 0);
        }
        int workerId = buf.getInt();
        if (workerId < LOW_WATER_MARK) {
            throw new CorruptCheckpointException("bad worker id " + workerId, 1);
        }
        long lwm = buf.getLong();
        if (lwm < 0) {
            throw new CorruptCheckpointException("negative low-water mark " + lwm, 5);
        }
        int posLen = buf.getInt();
        String position = null;
        if (posLen < -1) {
            throw new CorruptCheckpointException("bad position length " + posLen, 13);
        }
        if (posLen >= 0) {
            need(buf, posLen, "position");
            byte[] pos = new byte[posLen];
            buf.get(pos);
            position = new String(pos, StandardCharsets.UTF_8);
        }
        need(buf, 4, "bitmap length");
        int words = buf.getInt();
        if (words < 0 || (long) words * 8 > buf.remaining()) {
            throw new CorruptCheckpointException("bitmap of " + words + " words does not fit in " + buf.remaining()
                    + " remaining bytes", buf.position() - 4);
        }
        long[] bits = new long[words];
        for (int i = 0; i < words; i++) {
            bits[i] = buf.getLong();
        }
        if (buf.hasRemaining()) {
            throw new CorruptCheckpointException(buf.remaining() + " trailing bytes", buf.position());
        }
        if (workerId == LOW_WATER_MARK && trim(bits).length != 0) {
            throw new CorruptCheckpointException("low-water-mark checkpoint with a bitmap", buf.position());
        }
        return new Checkpoint(workerId, lwm, position, bits);
    }

    private static void need(ByteBuffer buf, int n, String what) {
        if (buf.remaining() < n) {
            throw new CorruptCheckpointException("truncated checkpoint: " + what + " needs " + n + " bytes, "
                    + buf.remaining() + " left", buf.position());
        }
    }

    private static long[] trim(long[] bits) {
        int end = bits.length;
        while (end > 0 && bits[end - 1] == 0) {
            end--;
        }
        return end == bits.length ? bits : Arrays.copyOf(bits, end);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Checkpoint)) {
            return false;
        }
        Checkpoint c = (Checkpoint) o;
        return workerId == c.workerId && lowWaterMark == c.lowWaterMark && Objects.equals(position, c.position)
                && Arrays.equals(bits, c.bits);
    }

    @Override
    public int hashCode() {
        return Objects.hash(workerId, lowWaterMark, position) * 31 + Arrays.hashCode(bits);
    }

    @Override
    public String toString() {
        return (isLowWaterMark() ? "Checkpoint{lwm " : "Checkpoint{worker " + workerId + ", lwm ") + lowWaterMark + " @ "
                + position + (bits.length == 0 ? "" : ", applied beyond " + Arrays.toString(appliedBeyondLowWaterMark()))
                + '}';
    }
}
