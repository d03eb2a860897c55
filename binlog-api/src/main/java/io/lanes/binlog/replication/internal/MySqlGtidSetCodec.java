package io.lanes.binlog.replication.internal;

import io.lanes.binlog.gtid.MySqlGtid;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.internal.TaggedGtidParser;
import io.lanes.binlog.internal.VarLen;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;

/**
 * The wire forms of MySQL GTIDs: the binary GTID set that COM_BINLOG_DUMP_GTID and PREVIOUS_GTIDS carry, and the
 * identity in a GTID_TAGGED event's body. The set itself, its text form and its rules are {@link MySqlGtidSet}'s.
 * Stateless and thread-safe.
 */
public final class MySqlGtidSetCodec {
    /** Format byte of the tagged binary encoding (MySQL's Gtid_format::tagged). */
    private static final int FORMAT_TAGGED = 1;

    private MySqlGtidSetCodec() {
    }

    /**
     * The binary form (all integers little-endian). Untagged sets use the original format, which every server reads:
     * n_sids (8 bytes), then per source its 16-byte UUID, n_intervals (8 bytes) and [start, end) pairs (8 + 8 bytes).
     * A set with any tag uses MySQL 8.3+'s tagged format: the first 8 bytes are {@code (1 << 56) | (n_sids << 8) | 1}
     * and every source, untagged ones too, has its tag after the UUID as a serialization-library variable-length
     * length and the tag's bytes (length 0 when untagged).
     */
    public static void encode(MySqlGtidSet set, ByteBuf out) {
        boolean tagged = set.hasTags();
        long n = set.sourceCount();
        out.writeLongLE(tagged ? ((long) FORMAT_TAGGED << 56) | (n << 8) | FORMAT_TAGGED : n);
        // per source: UUID, tag, count, then the intervals; the consumer sees each source's intervals in a row
        String[] source = new String[2];
        ByteBuf[] intervals = {null};
        int[] count = {0};
        set.forEachInterval((uuid, tag, first, last) -> {
            if (!(uuid.equals(source[0]) && tag.equals(source[1]))) {
                flushSource(out, intervals[0], count[0]);
                source[0] = uuid;
                source[1] = tag;
                writeUuid(out, uuid);
                if (tagged) {
                    byte[] t = tag.getBytes(StandardCharsets.US_ASCII);
                    writeVarLen(out, t.length);
                    out.writeBytes(t);
                }
                intervals[0] = out.alloc().buffer();
                count[0] = 0;
            }
            intervals[0].writeLongLE(first).writeLongLE(last + 1);
            count[0]++;
        });
        flushSource(out, intervals[0], count[0]);
    }

    private static void flushSource(ByteBuf out, ByteBuf intervals, int count) {
        if (intervals != null) {
            out.writeLongLE(count).writeBytes(intervals);
            intervals.release();
        }
    }

    private static void writeUuid(ByteBuf out, String uuid) {
        String hex = uuid.replace("-", "");
        for (int i = 0; i < 16; i++) {
            out.writeByte(Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16));
        }
    }

    /** The number of bytes {@link #encode} writes. */
    public static int encodedLength(MySqlGtidSet set) {
        boolean tagged = set.hasTags();
        int[] n = {8};
        String[] source = new String[2];
        set.forEachInterval((uuid, tag, first, last) -> {
            if (!(uuid.equals(source[0]) && tag.equals(source[1]))) {
                source[0] = uuid;
                source[1] = tag;
                n[0] += 16 + 8 + (tagged ? varLenSize(tag.length()) + tag.length() : 0);
            }
            n[0] += 16;
        });
        return n[0];
    }

    /** Reads the binary form, either format (used by the fake server). @throws ProtocolException when malformed */
    public static MySqlGtidSet decode(ByteBuf in) {
        MySqlGtidSet set = new MySqlGtidSet();
        Wire.need(in, 8, "GTID set");
        long word = in.readLongLE();
        int format = (int) (word >>> 56);
        if (format > FORMAT_TAGGED) {
            throw new ProtocolException("unknown GTID set encoding format " + format);
        }
        boolean tagged = format == FORMAT_TAGGED;
        long n = tagged ? (word >>> 8) & 0xffff_ffff_ffffL : word;
        for (long s = 0; s < n; s++) {
            Wire.need(in, tagged ? 25 : 24, "GTID set");
            byte[] uuid = new byte[16];
            in.readBytes(uuid);
            String tag = "";
            if (tagged) {
                long len = readVarLen(in);
                if (len > MySqlGtidSet.TAG_MAX_LENGTH) {
                    throw new ProtocolException("GTID tag of " + len + " bytes (at most " + MySqlGtidSet.TAG_MAX_LENGTH
                            + ")");
                }
                Wire.need(in, len, "GTID set");
                tag = in.readCharSequence((int) len, StandardCharsets.ISO_8859_1).toString();
                if (!tag.isEmpty() && !MySqlGtidSet.isTag(tag)) {
                    throw new ProtocolException("bad GTID tag '" + tag + "' in a GTID set");
                }
            }
            Wire.need(in, 8, "GTID set");
            long intervals = in.readLongLE();
            if (intervals < 0 || intervals > in.readableBytes() / 16) {
                throw new ProtocolException("GTID set claims " + intervals + " intervals in " + in.readableBytes()
                        + " bytes");
            }
            String uuidText = MySqlGtidSet.uuidText(uuid, 0);
            for (long i = 0; i < intervals; i++) {
                long start = in.readLongLE();
                long end = in.readLongLE();
                if (start < 1 || end <= start) {
                    throw new ProtocolException("bad GTID interval [" + start + ", " + end + ")");
                }
                set.addRange(uuidText, tag, start, end - 1);
            }
        }
        return set;
    }

    /** MySQL's serialization-library unsigned variable-length integer (1 to 9 bytes). */
    static void writeVarLen(ByteBuf out, long v) {
        int n = varLenSize(v);
        if (n == 9) {
            out.writeByte(0xff).writeLongLE(v);
            return;
        }
        // the low n - 1 bits of the first byte are ones followed by a zero; the value follows, little-endian
        long word = (v << n) | ((1L << (n - 1)) - 1);
        for (int i = 0; i < n; i++) {
            out.writeByte((int) (word >>> (8 * i)));
        }
    }

    static int varLenSize(long v) {
        for (int n = 1; n <= 8; n++) {
            if (Long.compareUnsigned(v, 1L << (7 * n)) < 0) {
                return n;
            }
        }
        return 9;
    }

    /** Reads one variable-length integer (decoded by {@link VarLen}). @throws ProtocolException when truncated */
    static long readVarLen(ByteBuf in) {
        Wire.need(in, 1, "variable-length integer");
        int n = VarLen.length(in.getUnsignedByte(in.readerIndex()));
        Wire.need(in, n, "variable-length integer");
        byte[] b = new byte[n];
        in.readBytes(b);
        return VarLen.value(b, 0, n);
    }

    /**
     * Reads the source UUID, tag and transaction number of a GTID_TAGGED event whose body (after the 19-byte header,
     * without the checksum) is {@code ev[from, to)}, with {@link TaggedGtidParser}, the binlog decoder's reader too.
     * The tag is lower-cased as MySQL stores it; null when untagged.
     *
     * @throws ProtocolException naming the byte index in {@code ev} when the body is malformed (see
     *     {@link TaggedGtidParser#parse}), or when the identity is missing, its tag is not one MySQL accepts or its
     *     transaction number is out of range; a stream reports it with the connection's position
     */
    public static MySqlGtid readTaggedGtidEvent(byte[] ev, int from, int to) {
        TaggedGtidParser.Fields f = TaggedGtidParser.parse(ev, from, to,
                (index, problem) -> new ProtocolException(problem + " (byte " + index + " of the event)"));
        if (f.uuid() == null || !f.hasGno()) {
            throw new ProtocolException("GTID_TAGGED event without " + (f.uuid() == null ? "a source UUID" : "a GNO"));
        }
        if (f.gno() < 1 || f.gno() == Long.MAX_VALUE) {
            throw new ProtocolException("GTID_TAGGED event with transaction number " + f.gno());
        }
        String tag = f.tag() == null ? "" : f.tag();
        if (!tag.isEmpty() && !MySqlGtidSet.isTag(tag)) {
            throw new ProtocolException("GTID_TAGGED event with a bad tag '" + tag + "'");
        }
        return new MySqlGtid(UUID.fromString(MySqlGtidSet.uuidText(f.uuid(), 0)),
                tag.isEmpty() ? null : tag.toLowerCase(Locale.ROOT), f.gno());
    }
}
