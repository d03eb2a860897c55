package io.lanes.applier.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.gtid.MariaDbGtid;
import io.lanes.binlog.gtid.MySqlGtid;
import io.lanes.binlog.replication.StartPosition;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The applier's GTID state with MySQL 8.3+ tagged GTIDs, and seeded with where a stream starts. */
class GtidStateTest {
    static final UUID A = UUID.fromString("3e11fa47-71ca-11e1-9e33-c80aa9429562");
    static final UUID B = UUID.fromString("4e11fa47-71ca-11e1-9e33-c80aa9429562");

    @Test
    void tracksTaggedGtidsAndPrintsThemAsMySqlDoes() {
        GtidState s = new GtidState();
        s.add(new MySqlGtid(B, null, 3));
        s.add(new MySqlGtid(A, "tb", 5));
        s.add(new MySqlGtid(A, "ta", 1));
        s.add(new MySqlGtid(A, "ta", 2));
        s.add(new MySqlGtid(A, null, 1));
        s.add(new MySqlGtid(A, null, 2));
        s.add(new MySqlGtid(A, null, 3));
        s.add(new MySqlGtid(A, "tb", 6));
        s.add(new MySqlGtid(A, "TB", 8));
        // each UUID once: untagged intervals first, then the tags in order
        assertEquals(A + ":1-3:ta:1-2:tb:5-6:8," + B + ":3", s.toString());
        // what it prints is a start position a stream accepts
        assertEquals("gtid=" + s, StartPosition.mysqlGtidSet(s.toString()).toString());
        assertThrows(IllegalArgumentException.class, () -> s.add(new MySqlGtid(A, null, 0)));
        assertThrows(IllegalArgumentException.class, () -> s.add(new MySqlGtid(A, "9x", 1)));
    }

    @Test
    void aStreamStartingFromAGtidStateCarriesIt() {
        GtidState mysql = new GtidState();
        mysql.seed(StartPosition.mysqlGtidSet(A + ":1-13:MyTag:1-2," + B + ":1-5"));
        mysql.add(new MySqlGtid(A, "mytag", 3));
        mysql.add(new MySqlGtid(B, null, 6));
        assertEquals(A + ":1-13:mytag:1-3," + B + ":1-6", mysql.toString());

        GtidState maria = new GtidState();
        maria.seed(StartPosition.mariaDbGtid("0-1-55,1-2-7"));
        maria.add(new MariaDbGtid(0, 1, 56));
        assertEquals("0-1-56,1-2-7", maria.toString(), "a domain not seen since the start keeps its position");

        GtidState file = new GtidState();
        file.seed(StartPosition.file("bin.000001", 4));
        file.seed(StartPosition.mysqlGtidSet(""));
        assertEquals("", file.toString());
    }

    /**
     * A MariaDB position as BINLOG_GTID_POS prints it (domains in no fixed order, maybe empty) joins the state; the
     * transactions after it replace their domain's GTID; text that is not a position is refused.
     */
    @Test
    void aMariaDbPositionFromTheServerJoinsTheState() {
        GtidState s = new GtidState();
        s.addMariaPosition("");
        assertEquals("", s.toString());
        s.addMariaPosition("1-1-1, 0-1-2,2-7-18446744073709551615");
        s.add(new MariaDbGtid(0, 1, 3));
        s.add(new MariaDbGtid(3, 2, 1));
        assertEquals("0-1-3,1-1-1,2-7-18446744073709551615,3-2-1", s.toString());
        assertThrows(IllegalArgumentException.class, () -> new GtidState().addMariaPosition("0-1"));
        assertThrows(IllegalArgumentException.class, () -> new GtidState().addMariaPosition("a-1-2"));
    }

    /**
     * A MariaDB GTID_LIST (one entry per domain and server id, a domain's current GTID last, whatever its sequence
     * number) joins the state: a domain's last entry for a domain not yet in the state, nothing for one already in it.
     */
    @Test
    void aMariaDbGtidListGivesEachNewDomainItsLastEntry() {
        GtidState s = new GtidState();
        s.add(new MariaDbGtid(0, 1, 7));
        s.addMariaList(List.of(new MariaDbGtid(2, 1, 10), new MariaDbGtid(0, 1, 5), new MariaDbGtid(2, 5, 3),
                new MariaDbGtid(1, 1, 4)));
        assertEquals("0-1-7,1-1-4,2-5-3", s.toString(), "domain 0 keeps its later GTID; domain 2 its last entry");
        s.addMariaList(List.of(new MariaDbGtid(1, 1, 9), new MariaDbGtid(3, 2, 1)));
        assertEquals("0-1-7,1-1-4,2-5-3,3-2-1", s.toString(), "a later list does not replace a domain");
        s.add(new MariaDbGtid(1, 1, 5));
        assertEquals("0-1-7,1-1-5,2-5-3,3-2-1", s.toString());
        s.addMariaList(List.of());
        assertEquals("0-1-7,1-1-5,2-5-3,3-2-1", s.toString());
    }
}
