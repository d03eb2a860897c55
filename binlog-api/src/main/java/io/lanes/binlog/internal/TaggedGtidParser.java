package io.lanes.binlog.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the body of a GTID_TAGGED event (type 42, MySQL 8.3+), which MySQL writes with its serialization library: the
 * format version, the payload size (counted from the body's first byte), the last non-ignorable field's number, then
 * numbered fields, each a variable-length number and its value: 0 flags, 1 the source UUID (16 variable-length bytes),
 * 2 the transaction number (zig-zag), 3 the tag (a variable-length length and its bytes), 4 last_committed and 5
 * sequence_number (zig-zag), 6 and 7 the immediate and original commit timestamps, 8 the transaction length, 9 and 10
 * the immediate and original server versions, 11 the commit group ticket. A field this reader does not know ends what
 * it reads when MySQL marked it ignorable (its number is above the last non-ignorable one: its size is unknown here),
 * and is an error otherwise.
 *
 * <p>The one reader of the format: the binlog decoder ({@code BinlogEventDecoder}) and the replication client's stream
 * tracker (through {@code MySqlGtidSetCodec.readTaggedGtidEvent}) both call it, each with an {@link ErrorFactory} that
 * names the position in its own terms. Stateless and thread-safe.
 */
public final class TaggedGtidParser {
    /** The highest field number known here (the commit group ticket). */
    private static final int LAST_FIELD = 11;

    private TaggedGtidParser() {
    }

    /**
     * The fields of one GTID_TAGGED event; -1 for a numeric field the event does not carry.
     *
     * @param uuid the 16 bytes of the source UUID, or null when the event has none
     * @param tag the tag as written, or null when the event has no tag field
     * @param hasGno whether the event carries a transaction number
     */
    public record Fields(int flags, byte[] uuid, long gno, boolean hasGno, String tag, long lastCommitted,
            long sequenceNumber, long immediateCommitTimestamp, long originalCommitTimestamp, long transactionLength,
            long immediateServerVersion, long originalServerVersion, long commitGroupTicket) {
    }

    /**
     * Parses the body {@code b[from, to)} (the event after its 19-byte header, without its checksum).
     *
     * @throws RuntimeException made by {@code errors}, with the index of the offending byte, when the body is
     *     truncated, its payload size does not fit it, a UUID byte is out of range, or a non-ignorable field is unknown
     */
    public static Fields parse(byte[] b, int from, int to, ErrorFactory errors) {
        int[] pos = {from};
        VarLen.readUnsigned(b, pos, to, errors); // serialization format version
        int sizeAt = pos[0];
        long payloadSize = VarLen.readUnsigned(b, pos, to, errors);
        long lastNonIgnorable = VarLen.readUnsigned(b, pos, to, errors);
        long consumed = pos[0] - from;
        if (payloadSize < consumed || payloadSize > to - from) {
            throw errors.error(sizeAt, "GTID_TAGGED payload size " + payloadSize + " does not fit the event's "
                    + (to - from) + " bytes");
        }
        int end = from + (int) payloadSize;
        int flags = 0;
        byte[] uuid = null;
        long gno = 0;
        boolean hasGno = false;
        String tag = null;
        // fields 4 to 11, by number: the logical clock (zig-zag), then unsigned timestamps, length, versions, ticket
        long[] numbers = new long[LAST_FIELD + 1];
        Arrays.fill(numbers, -1);
        while (pos[0] < end) {
            int fieldAt = pos[0];
            long id = VarLen.readUnsigned(b, pos, end, errors);
            switch ((int) Math.min(id, 1000)) {
                case 0 -> flags = (int) VarLen.readUnsigned(b, pos, end, errors);
                case 1 -> {
                    uuid = new byte[16];
                    for (int i = 0; i < 16; i++) {
                        int byteAt = pos[0];
                        long v = VarLen.readUnsigned(b, pos, end, errors);
                        if (v > 255) {
                            throw errors.error(byteAt, "GTID_TAGGED UUID byte " + v + " out of range");
                        }
                        uuid[i] = (byte) v;
                    }
                }
                case 2 -> {
                    gno = VarLen.zigZag(VarLen.readUnsigned(b, pos, end, errors));
                    hasGno = true;
                }
                case 3 -> {
                    int lengthAt = pos[0];
                    long len = VarLen.readUnsigned(b, pos, end, errors);
                    if (len > end - pos[0]) {
                        throw errors.error(lengthAt, "GTID_TAGGED tag of " + len + " bytes exceeds the payload");
                    }
                    tag = new String(b, pos[0], (int) len, StandardCharsets.UTF_8);
                    pos[0] += (int) len;
                }
                case 4, 5 -> numbers[(int) id] = VarLen.zigZag(VarLen.readUnsigned(b, pos, end, errors));
                case 6, 7, 8, 9, 10, LAST_FIELD -> numbers[(int) id] = VarLen.readUnsigned(b, pos, end, errors);
                default -> {
                    if (id <= lastNonIgnorable) {
                        throw errors.error(fieldAt, "unknown non-ignorable field " + id + " in GTID_TAGGED event");
                    }
                    pos[0] = end; // an ignorable field of unknown size ends what can be read
                }
            }
        }
        return new Fields(flags, uuid, gno, hasGno, tag, numbers[4], numbers[5], numbers[6], numbers[7], numbers[8],
                numbers[9], numbers[10], numbers[LAST_FIELD]);
    }
}
