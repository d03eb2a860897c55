package io.lanes.binlog.internal;

/**
 * MySQL's serialization-library variable-length integers (used by GTID_TAGGED events and tagged GTID sets): the number of
 * trailing one bits of the first byte, plus one, is the encoded length (9 when the first byte is 0xff); the value is the
 * little-endian bytes shifted right by that length. Signed values are zig-zag encoded.
 */
public final class VarLen {
    private VarLen() {
    }

    public static long readUnsigned(ByteReader in) {
        int first = in.u8();
        int n = Integer.numberOfTrailingZeros(~first) + 1;
        if (n == 1) {
            return first >>> 1;
        }
        if (n > 9) {
            n = 9;
        }
        long rest = in.uint(n - 1);
        if (n == 9) {
            return rest;
        }
        return (first >>> n) | (rest << (8 - n));
    }

    public static long readSigned(ByteReader in) {
        long u = readUnsigned(in);
        return (u >>> 1) ^ -(u & 1);
    }
}
