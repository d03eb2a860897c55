package io.lanes.connect;

/**
 * The Kafka record headers a {@link LanesSourceConnector} adds to every record it emits: what a binlog transaction
 * carries that no Debezium source gives, so that a downstream {@link LanesSinkConnector} (or any consumer) can reassemble
 * and schedule transactions without re-deriving them. Every value is written as text (decimal numbers, {@code true} /
 * {@code false}, lower-case hex), so it reads the same under any header converter.
 */
public final class LanesHeaders {
    /** The transaction's sequence number in the source stream (1, 2, ... per source task since its first start). */
    public static final String TRANSACTION_SEQUENCE = "lanes.txn.seq";
    /** The transaction's GTID (MySQL {@code uuid:n}, MariaDB {@code domain-server-seq}); absent without GTIDs. */
    public static final String GTID = "lanes.txn.gtid";
    /** How many records the transaction has (all in the same topic-partition). */
    public static final String EVENT_COUNT = "lanes.txn.events";
    /** This record's 1-based place among them. */
    public static final String EVENT_INDEX = "lanes.txn.index";
    /** MySQL's logical clock: {@code last_committed}. */
    public static final String LAST_COMMITTED = "lanes.clock.last_committed";
    /** MySQL's logical clock: {@code sequence_number}. */
    public static final String SEQUENCE_NUMBER = "lanes.clock.sequence_number";
    /** MariaDB's group commit id. */
    public static final String COMMIT_ID = "lanes.clock.commit_id";
    /**
     * The transaction's write keys (64-bit row-key hashes), as {@code x} followed by 16 hex digits per key; on its first
     * record only (record {@link #EVENT_INDEX} 1), absent for a barrier and for a large transaction converted as it is
     * handed out (which runs alone).
     */
    public static final String WRITE_KEYS = "lanes.write.keys";
    /** {@code true} when the transaction must run alone (DDL, or a table whose keys are unknown). */
    public static final String BARRIER = "lanes.barrier";
    /**
     * {@code true} when the transaction starts only after every transaction before it committed, later ones not held
     * back (a parent's change that the target cascades to child rows whose parent key the log did not carry); absent
     * otherwise.
     */
    public static final String STARTS_AFTER_ALL_BEFORE = "lanes.starts_after_all_before";
    /** The binlog position just past the transaction ({@code file:offset [gtid=STATE]}), where a restart resumes. */
    public static final String POSITION = "lanes.position";

    private LanesHeaders() {
    }

    /** Write keys in {@link #WRITE_KEYS}' text form. */
    public static String formatKeys(long[] keys) {
        StringBuilder sb = new StringBuilder(1 + keys.length * 16).append('x');
        for (long k : keys) {
            String h = Long.toHexString(k);
            sb.append("0".repeat(16 - h.length())).append(h);
        }
        return sb.toString();
    }

    /** Reads {@link #formatKeys}' form. @throws IllegalArgumentException when malformed */
    public static long[] parseKeys(String text) {
        if (text.isEmpty() || text.charAt(0) != 'x' || (text.length() - 1) % 16 != 0) {
            throw new IllegalArgumentException("not a " + WRITE_KEYS + " header value: "
                    + (text.codePointCount(0, text.length()) > 40 // never half a character
                            ? text.substring(0, text.offsetByCodePoints(0, 40)) + "..." : text));
        }
        long[] keys = new long[(text.length() - 1) / 16];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = Long.parseUnsignedLong(text.substring(1 + i * 16, 17 + i * 16), 16);
        }
        return keys;
    }
}
