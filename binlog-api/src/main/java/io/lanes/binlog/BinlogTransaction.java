package io.lanes.binlog;

import io.lanes.binlog.gtid.Gtid;
import io.lanes.binlog.gtid.MySqlGtid;
import io.lanes.binlog.gtid.MariaDbGtid;
import java.util.List;
import java.util.Locale;

/**
 * One committed transaction (or standalone statement) of a binlog, as a {@link TransactionReader} groups it: from its GTID
 * event (or BEGIN, or the first statement) to its terminating XID, COMMIT, XA PREPARE, or the standalone statement itself.
 * Events that arrived inside a TRANSACTION_PAYLOAD are listed as the transaction's own events. Immutable.
 *
 * @param events the transaction's events in log order, GTID event and terminator included
 * @param tableMaps the TABLE_MAP events among them, in order
 * @param startFile the file (or stream) holding the first event
 * @param startPosition the offset of the first event
 * @param endFile the file holding the last event
 * @param endPosition the offset just past the last event: where a reader resumes after this transaction
 * @param gtid the transaction's GTID ({@link MySqlGtid} or {@link MariaDbGtid}), or {@code null} when anonymous / none
 * @param lastCommitted MySQL logical clock: the sequence number this transaction depends on, or -1
 * @param sequenceNumber MySQL logical clock: this transaction's sequence number, or -1
 * @param commitId MariaDB group commit id (equal ids committed together), or -1
 * @param sizeBytes the bytes the transaction occupies in the log (a compressed payload counts as logged)
 * @param ending how the transaction ended
 */
public record BinlogTransaction(List<BinlogEvent> events, List<TableMapEvent> tableMaps, String startFile,
        long startPosition, String endFile, long endPosition, Gtid gtid, long lastCommitted, long sequenceNumber,
        long commitId, long sizeBytes, Ending ending) {

    /** How a transaction ended. */
    public enum Ending {
        /** An XID event: committed on a transactional engine. */
        XID,
        /** A {@code COMMIT} query (non-XA engines, or MariaDB non-transactional groups). */
        COMMIT,
        /** A {@code ROLLBACK} query: the transaction was rolled back but touched non-transactional tables. */
        ROLLBACK,
        /** An XA_PREPARE event or MariaDB {@code XA PREPARE} query: the first phase of an XA transaction. */
        XA_PREPARE,
        /** A statement outside BEGIN..COMMIT (DDL, or an autocommitted statement in statement format). */
        STANDALONE
    }

    private static final List<String> DDL_VERBS = List.of("CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE", "GRANT",
            "REVOKE", "ANALYZE", "OPTIMIZE", "REPAIR", "FLUSH", "INSTALL", "UNINSTALL", "SET PASSWORD");

    public BinlogTransaction {
        events = List.copyOf(events);
        tableMaps = List.copyOf(tableMaps);
    }

    /** The GTID event that opened the transaction ({@link GtidEvent} or {@link MariaGtidEvent}), or {@code null}. */
    public BinlogEvent gtidEvent() {
        for (BinlogEvent e : events) {
            if (e instanceof GtidEvent || e instanceof MariaGtidEvent) {
                return e;
            }
        }
        return null;
    }

    /** The statement of a {@link Ending#STANDALONE} transaction, or {@code null}. */
    public QueryEvent standaloneStatement() {
        if (ending != Ending.STANDALONE) {
            return null;
        }
        BinlogEvent last = events.get(events.size() - 1);
        return last instanceof QueryEvent q ? q : null;
    }

    /**
     * Whether this is a DDL statement: MariaDB flagged its GTID as DDL, or a standalone statement starts with a DDL verb.
     * Schedulers treat DDL as a barrier.
     */
    public boolean isDdl() {
        BinlogEvent g = gtidEvent();
        if (g instanceof MariaGtidEvent m && m.hasFlag(MariaGtidEvent.FL_DDL)) {
            return true;
        }
        QueryEvent q = standaloneStatement();
        if (q == null) {
            return false;
        }
        String sql = stripComments(q.sql()).toUpperCase(Locale.ROOT);
        for (String verb : DDL_VERBS) {
            if (sql.startsWith(verb)) {
                return true;
            }
        }
        return false;
    }

    private static String stripComments(String sql) {
        String s = sql.stripLeading();
        while (s.startsWith("/*")) {
            int end = s.indexOf("*/");
            if (end < 0) {
                return s;
            }
            s = s.substring(end + 2).stripLeading();
        }
        return s;
    }

    /**
     * Whether some of the transaction's row images wait in a temporary file
     * ({@link BinlogReaderOptions#spillThresholdBytes()}): once one event's did, every later one's did, so the last row
     * event tells.
     */
    public boolean hasSpilledRows() {
        RowsEvent last = lastRowsEvent();
        return last != null && last.rowsOnDisk();
    }

    /**
     * Closes (and so removes) the temporary file holding the transaction's spilled row images now, rather than when the
     * transaction becomes unreachable: for a caller that knows nothing will read its rows again (it is committed). Rows
     * read afterwards fail with a {@link BinlogFormatException}. Nothing when none were spilled; any thread, once.
     */
    public void releaseSpilledRows() {
        RowsEvent last = lastRowsEvent();
        if (last != null) {
            last.releaseSpill();
        }
    }

    private RowsEvent lastRowsEvent() {
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i) instanceof RowsEvent r) {
                return r;
            }
        }
        return null;
    }

    /** The row events of the transaction, in order. */
    public List<RowsEvent> rowsEvents() {
        return events.stream().filter(e -> e instanceof RowsEvent).map(e -> (RowsEvent) e).toList();
    }

    /** The schemas the transaction's row events and statements touch (default databases of its queries included). */
    public List<String> schemas() {
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        for (TableMapEvent t : tableMaps) {
            out.add(t.schema());
        }
        for (BinlogEvent e : events) {
            if (e instanceof QueryEvent q && !q.isBegin() && !q.isCommit() && !q.database().isEmpty()) {
                out.add(q.database());
            }
        }
        return List.copyOf(out);
    }

    /** Whether the log carried a logical clock for this transaction (MySQL sequence number or MariaDB commit id). */
    public boolean hasLogicalClock() {
        return sequenceNumber >= 0 || commitId >= 0;
    }

    @Override
    public String toString() {
        return "BinlogTransaction[" + (gtid == null ? "anonymous" : gtid) + " " + startFile + ":" + startPosition + ".."
                + endPosition + " " + events.size() + " events, " + sizeBytes + " bytes, " + ending + "]";
    }
}
