package io.lanes.binlog.internal;

/**
 * MySQL's serialization-library variable-length integers (used by GTID_TAGGED events and tagged GTID sets): the number of
 * trailing one bits of the first byte, plus one, is the encoded length (9 when the first byte is 0xff); the value is the
 * little-endian bytes shifted right by that length. Signed values are zig-zag encoded.
 *
 * <p>The one decoding of the format: the binlog decoder reads through {@link #readUnsigned(ByteReader)}, the GTID_TAGGED
 * parser through {@link #readUnsigned(byte[], int[], int, ErrorFactory)}, and the replication protocol's GTID set reader
 * through {@link #length(int)} and {@link #value(byte[], int, int)}. Stateless and thread-safe.
 */
public final class VarLen {
    private VarLen() {
    }

    /** The encoded length, 1 to 9 bytes, that a first byte announces. */
    public static int length(int firstByte) {
        return Integer.numberOfTrailingZeros(~firstByte & 0xff | 0x100) + 1; // 0xff: eight ones, 9 bytes
    }

    /** The unsigned value of the {@code n} bytes {@code b[at, at + n)}, {@code n} being {@link #length} of the first. */
    public static long value(byte[] b, int at, int n) {
        int first = b[at] & 0xff;
        if (n == 1) {
            return first >>> 1;
        }
        long rest = 0;
        for (int i = 1; i < n; i++) {
            rest |= (long) (b[at + i] & 0xff) << (8 * (i - 1));
        }
        return n == 9 ? rest : (first >>> n) | (rest << (8 - n));
    }

    /** The signed value of a zig-zag encoded unsigned one. */
    public static long zigZag(long u) {
        return (u >>> 1) ^ -(u & 1);
    }

    /**
     * Reads one unsigned integer at {@code b[pos[0]]}, not past {@code end}, and advances {@code pos[0]} past it.
     *
     * @throws RuntimeException made by {@code errors} with the integer's index when it does not fit before {@code end}
     */
    public static long readUnsigned(byte[] b, int[] pos, int end, ErrorFactory errors) {
        int p = pos[0];
        if (p >= end) {
            throw errors.error(p, "variable-length integer truncated");
        }
        int n = length(b[p] & 0xff);
        if (n > end - p) {
            throw errors.error(p, "variable-length integer of " + n + " bytes truncated");
        }
        pos[0] = p + n;
        return value(b, p, n);
    }

    /** Reads one unsigned integer. @throws io.lanes.binlog.BinlogFormatException naming the offset when truncated */
    public static long readUnsigned(ByteReader in) {
        in.checkAvailable(1);
        int at = in.position();
        int n = length(in.array()[at] & 0xff);
        in.checkAvailable(n);
        in.skip(n);
        return value(in.array(), at, n);
    }

    public static long readSigned(ByteReader in) {
        return zigZag(readUnsigned(in));
    }
}
