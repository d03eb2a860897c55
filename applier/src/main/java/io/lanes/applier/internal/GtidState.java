package io.lanes.applier.internal;

import io.lanes.binlog.gtid.Gtid;
import io.lanes.binlog.gtid.MariaDbGtid;
import io.lanes.binlog.gtid.MariaDbGtidPosition;
import io.lanes.binlog.gtid.MySqlGtid;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.replication.StartPosition;
import java.util.List;

/**
 * The GTID state after the transactions seen so far: MariaDB's last GTID per domain ({@code 0-1-55,1-2-7}), or the MySQL
 * GTID set as merged intervals, tags included (MySQL 8.3+), printed as MySQL prints it
 * ({@code uuid:1-5:7:tag:1-3,uuid2:1-3}). A live stream that starts from a GTID state is {@link #seed seeded} with it: the
 * server sends only what is not in it, so the state after a transaction is the start plus what came since. A stream
 * that starts at a file position learns the MySQL history before it from the PREVIOUS_GTIDS event at the start of the
 * file ({@link #addMySqlSet}) plus the transactions between that event and the start position; a MariaDB stream
 * learns it from the server's {@code BINLOG_GTID_POS} for the position it dumps from ({@link #addMariaPosition}) plus
 * the transactions it reads before the start position. MariaDB binlog files applied as files carry it in the GTID_LIST
 * event at the start of each file ({@link #addMariaList}). Not thread-safe: the bridge updates it in source order.
 *
 * <p>The two flavours are kept apart, in a {@link MariaDbGtidPosition} and a {@link MySqlGtidSet}, and printed one
 * after the other; a source is one or the other, so one of them is empty.
 */
public final class GtidState {
    private final MariaDbGtidPosition mariaDb = new MariaDbGtidPosition();
    private final MySqlGtidSet mysql = new MySqlGtidSet();

    /**
     * Adds a transaction's GTID.
     *
     * @throws IllegalArgumentException for a MySQL GTID MySQL could not have written (a transaction number below 1 or
     *     a malformed tag): it could not be resumed from
     */
    public void add(Gtid gtid) {
        if (gtid instanceof MariaDbGtid) {
            mariaDb.add(gtid);
        } else if (gtid instanceof MySqlGtid) {
            mysql.add(gtid);
        }
    }

    /**
     * Starts from the GTID state a stream starts at: a MySQL GTID set's transactions, or a MariaDB position's last GTID
     * per domain (a domain's later transactions replace it). A file position adds nothing.
     *
     * @throws IllegalArgumentException when the state does not parse
     */
    public void seed(StartPosition start) {
        if (start instanceof StartPosition.MySqlGtids s) {
            mysql.addAll(s.gtids());
        } else if (start instanceof StartPosition.MariaDbGtids m) {
            addMariaPosition(m.gtidPosition());
        }
    }

    /**
     * Adds a MariaDB GTID position in the server's text form ({@code 0-1-12,1-1-3}; empty adds nothing): the server's
     * {@code BINLOG_GTID_POS} of the position a stream that starts at a file position dumps from, i.e. the last GTID of
     * every domain before it. A stream that started at a file position is told no other way about the domains it does
     * not see. Call before the stream's first transaction: a domain already in the state keeps its GTID (the later one).
     *
     * @throws IllegalArgumentException when the text does not parse
     */
    public void addMariaPosition(String position) {
        for (MariaDbGtid g : MariaDbGtidPosition.parse(position).gtids()) {
            mariaDb.addIfAbsent(g);
        }
    }

    /**
     * Adds a MariaDB GTID_LIST event's list: the server's binlog state at the start of a binlog file, one entry per
     * (domain, server id) that wrote in the domain. A domain's current GTID, the one {@code @@gtid_binlog_pos} prints,
     * is its last entry in list order: MariaDB writes the list with {@code rpl_binlog_state::get_gtid_list}, which for
     * each domain puts the domain's other servers' entries first and its {@code last_gtid} last, and reads it back with
     * {@code rpl_binlog_state::load(rpl_gtid *list, uint32 count)}, which replays the entries in order so that the last
     * one becomes {@code last_gtid} again ({@code sql/rpl_gtid.cc}, MariaDB 10.x/11.x). A domain already in the state
     * keeps its GTID (the transactions seen before, or a seeded position, are as late or later); the others join it.
     */
    public void addMariaList(List<MariaDbGtid> list) {
        MariaDbGtidPosition last = new MariaDbGtidPosition(); // a domain's later entries replace its earlier ones
        list.forEach(last::add);
        for (MariaDbGtid g : last.gtids()) {
            mariaDb.addIfAbsent(g);
        }
    }

    /**
     * Adds a MySQL GTID set in the server's text form: a PREVIOUS_GTIDS event's set (every transaction in the server's
     * earlier binlog files). A stream that started at a file position is told no other way what came before it; for a
     * stream that started from a GTID set it adds nothing (the server sends from the first file whose PREVIOUS_GTIDS
     * the start set covers, and later files' sets are what came before plus what the stream carried).
     *
     * @throws IllegalArgumentException when the text does not parse
     */
    public void addMySqlSet(String gtidSet) {
        mysql.addAll(MySqlGtidSet.parse(gtidSet));
    }

    @Override
    public String toString() {
        if (mysql.isEmpty()) {
            return mariaDb.toString();
        }
        return mariaDb.isEmpty() ? mysql.toString() : mariaDb + "," + mysql;
    }
}
