package io.lanes.binlog.internal;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * MariaDB's compressed event blocks (QUERY_COMPRESSED, *_ROWS_COMPRESSED): one header byte {@code 0x80 | alg << 4 |
 * lenlen} (alg 0 = zlib), the uncompressed length in {@code lenlen} (1..4) big-endian bytes, then a zlib stream.
 */
public final class Zlib {
    /** zlib cannot expand data by more than about 1032:1; a larger declared size is a corrupt header. */
    private static final long MAX_RATIO = 1100;

    private Zlib() {
    }

    /** Inflates the block that fills the rest of {@code in}, checking the declared size before allocating. */
    public static byte[] inflateMariaBlock(ByteReader in, long maxLength) {
        long at = in.absoluteOffset();
        int head = in.u8();
        if ((head & 0xe0) != 0x80) {
            throw new io.lanes.binlog.BinlogFormatException(in.source(), at, "bad compressed block header 0x"
                    + Integer.toHexString(head));
        }
        int lenlen = head & 0x07;
        if (lenlen < 1 || lenlen > 4) {
            throw new io.lanes.binlog.BinlogFormatException(in.source(), at, "bad compressed length size " + lenlen);
        }
        long declared = in.uintBigEndian(lenlen);
        int compressedLength = in.remaining();
        if (declared > maxLength || declared > (compressedLength + 64L) * MAX_RATIO) {
            throw new io.lanes.binlog.BinlogFormatException(in.source(), at, "declared uncompressed size " + declared
                    + " is impossible for " + compressedLength + " compressed bytes");
        }
        byte[] out = new byte[(int) declared];
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(in.array(), in.position(), compressedLength);
            int n = 0;
            while (n < out.length) {
                int k = inflater.inflate(out, n, out.length - n);
                if (k == 0) {
                    if (inflater.finished() || inflater.needsInput() || inflater.needsDictionary()) {
                        break;
                    }
                }
                n += k;
            }
            if (n != out.length || !inflater.finished()) {
                throw new io.lanes.binlog.BinlogFormatException(in.source(), at, "compressed block inflates to "
                        + (inflater.finished() ? n : "more than " + n) + " bytes, header says " + declared);
            }
        } catch (DataFormatException e) {
            throw new io.lanes.binlog.BinlogFormatException(in.source(), at, "corrupt zlib data: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
        in.skip(compressedLength);
        return out;
    }
}
