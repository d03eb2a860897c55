package io.lanes.binlog.gtid;

/**
 * The transactions a consumer has, in one server flavour's terms: a {@link MySqlGtidSet} (every transaction, as
 * intervals of transaction numbers per source UUID and tag) or a {@link MariaDbGtidPosition} (per replication domain,
 * the last transaction). Both parse and print the server's own text form ({@code gtid_executed}, {@code gtid_binlog_pos})
 * so that {@code parse(x.toString())} equals {@code x}.
 *
 * <p>Mutable and not thread-safe: a stream adds each transaction's GTID in source order. {@link #copy()} gives an
 * independent set to hand to another thread.
 */
public sealed interface GtidSet permits MySqlGtidSet, MariaDbGtidPosition {

    /**
     * Parses either flavour, telling them apart by the one rule used everywhere in Lanes: a text that is nothing but
     * {@code domain-server-sequence} triples of decimal digits, comma-separated, is a MariaDB GTID position; anything
     * else is read as a MySQL GTID set (whose elements start with a server UUID), and fails as one. Whitespace is
     * ignored.
     *
     * @throws IllegalArgumentException when the text is empty (an empty set names no flavour: use
     *     {@link MySqlGtidSet#parse} or {@link MariaDbGtidPosition#parse})
     * @throws GtidSetFormatException when it is not a MySQL GTID set either (it names the offset)
     */
    static GtidSet parse(String text) {
        String t = MariaDbGtidPosition.withoutWhitespace(text);
        if (t.isEmpty()) {
            throw new IllegalArgumentException("an empty GTID set names neither MySQL nor MariaDB");
        }
        return MariaDbGtidPosition.isPosition(t) ? MariaDbGtidPosition.parse(t) : MySqlGtidSet.parse(text);
    }

    /**
     * Adds one transaction.
     *
     * @throws IllegalArgumentException for a GTID of the other flavour, or one the server could not have written
     */
    void add(Gtid gtid);

    /** Whether the transaction is in the set; false for a GTID of the other flavour. */
    boolean contains(Gtid gtid);

    /** Whether every transaction of {@code other} is in this set; false when {@code other} is of the other flavour. */
    boolean containsAll(GtidSet other);

    boolean isEmpty();

    /** An independent copy. */
    GtidSet copy();

    /** The server's text form, on one line; empty when empty. */
    @Override
    String toString();
}
