package io.lanes.core;

/**
 * The source's own statement of which transactions may run together.
 *
 * <ul>
 *   <li>{@link Kind#MYSQL}: {@code last_committed} and {@code sequence_number} from a MySQL GTID event. A transaction
 *       may start once every transaction whose sequence number is at most its {@code last_committed} has committed.
 *       Sequence numbers restart in every binlog file; a sequence number that does not grow is read as such a restart.</li>
 *   <li>{@link Kind#GROUP_COMMIT}: a MariaDB {@code commit_id}. Consecutive transactions with the same non-zero id
 *       committed together on the source and may run in parallel; a new id starts after the previous groups committed;
 *       id 0 means "no group" and runs alone.</li>
 * </ul>
 * Immutable.
 */
public final class LogicalClock {
    /** Which source convention the clock follows. */
    public enum Kind { MYSQL, GROUP_COMMIT }

    private final Kind kind;
    private final long lastCommitted;
    private final long sequenceNumber;

    private LogicalClock(Kind kind, long lastCommitted, long sequenceNumber) {
        this.kind = kind;
        this.lastCommitted = lastCommitted;
        this.sequenceNumber = sequenceNumber;
    }

    /** MySQL's (last_committed, sequence_number); requires {@code 0 <= lastCommitted < sequenceNumber}. */
    public static LogicalClock mysql(long lastCommitted, long sequenceNumber) {
        if (lastCommitted < 0 || lastCommitted >= sequenceNumber) {
            throw new IllegalArgumentException("need 0 <= last_committed < sequence_number, got " + lastCommitted + ", "
                    + sequenceNumber);
        }
        return new LogicalClock(Kind.MYSQL, lastCommitted, sequenceNumber);
    }

    /** MariaDB's group commit id (0: not part of a group). */
    public static LogicalClock groupCommit(long commitId) {
        if (commitId < 0) {
            throw new IllegalArgumentException("commit_id < 0: " + commitId);
        }
        return new LogicalClock(Kind.GROUP_COMMIT, 0, commitId);
    }

    public Kind kind() {
        return kind;
    }

    /** MySQL last_committed (0 for group commit clocks). */
    public long lastCommitted() {
        return lastCommitted;
    }

    /** MySQL sequence_number. */
    public long sequenceNumber() {
        return kind == Kind.MYSQL ? sequenceNumber : 0;
    }

    /** MariaDB commit_id. */
    public long commitId() {
        return kind == Kind.GROUP_COMMIT ? sequenceNumber : 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogicalClock && ((LogicalClock) o).kind == kind && ((LogicalClock) o).lastCommitted == lastCommitted
                && ((LogicalClock) o).sequenceNumber == sequenceNumber;
    }

    @Override
    public int hashCode() {
        return (kind.hashCode() * 31 + Long.hashCode(lastCommitted)) * 31 + Long.hashCode(sequenceNumber);
    }

    @Override
    public String toString() {
        return kind == Kind.MYSQL ? "mysql(" + lastCommitted + "," + sequenceNumber + ")" : "commit_id(" + sequenceNumber + ")";
    }
}
