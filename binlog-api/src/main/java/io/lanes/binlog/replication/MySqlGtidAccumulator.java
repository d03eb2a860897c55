package io.lanes.binlog.replication;

import io.lanes.binlog.replication.internal.MySqlGtidSet;

/**
 * A MySQL GTID set built up from a stream's GTIDs, tags included (MySQL 8.3+), printed as MySQL prints
 * {@code gtid_executed} (one line): for resuming with {@link StartPosition#mysqlGtidSet(String)}. Not thread-safe.
 */
public final class MySqlGtidAccumulator {
    private final MySqlGtidSet set = new MySqlGtidSet();

    /**
     * Adds one transaction.
     *
     * @param uuid the source's server UUID, dashed
     * @param tag the GTID's tag, or null (or empty) for an untagged GTID
     * @param gno the transaction number, 1 or more
     * @throws IllegalArgumentException for a GTID MySQL could not have written
     */
    public void add(String uuid, String tag, long gno) {
        set.add(uuid, tag, gno);
    }

    /**
     * Adds every transaction of a GTID set in MySQL's text form.
     *
     * @throws GtidSetFormatException when the text does not parse (it names the offset)
     */
    public void addAll(String gtidSetText) {
        set.addAll(MySqlGtidSet.parse(gtidSetText));
    }

    /** Whether the set holds the transaction. */
    public boolean contains(String uuid, String tag, long gno) {
        return set.contains(uuid, tag, gno);
    }

    public boolean isEmpty() {
        return set.isEmpty();
    }

    /** The set as MySQL prints it, on one line (empty when empty). */
    @Override
    public String toString() {
        return set.toString();
    }
}
