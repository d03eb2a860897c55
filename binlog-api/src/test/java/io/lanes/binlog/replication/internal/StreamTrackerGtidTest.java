package io.lanes.binlog.replication.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.lanes.binlog.replication.ReplicationEvent;
import io.lanes.binlog.replication.StartPosition;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The tracker's MySQL GTID bookkeeping when transactions from several sources interleave (as after a failover, or on a
 * multi-source replica): each transaction's resume position holds exactly the GTIDs that ended before it.
 */
class StreamTrackerGtidTest {
    private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String B = "4e11fa47-71ca-11e1-9e33-c80aa9429563";

    private long logPos = 4;

    /** An event of {@code type} with {@code body} after the 19-byte header and no checksum, at the next position. */
    private byte[] event(int type, byte[] body) {
        byte[] ev = new byte[19 + body.length];
        ev[4] = (byte) type;
        ev[5] = 1; // server id 1
        Wire.put32(ev, 9, ev.length);
        logPos += ev.length;
        Wire.put32(ev, 13, logPos);
        System.arraycopy(body, 0, ev, 19, body.length);
        return ev;
    }

    private byte[] gtid(String uuid, long gno) {
        byte[] body = new byte[42];
        body[0] = 1; // FL_COMMIT
        System.arraycopy(HexFormat.of().parseHex(uuid.replace("-", "")), 0, body, 1, 16);
        for (int i = 0; i < 8; i++) {
            body[17 + i] = (byte) (gno >>> (8 * i));
        }
        return event(Protocol.GTID_LOG_EVENT, body);
    }

    private byte[] xid() {
        return event(Protocol.XID_EVENT, new byte[8]);
    }

    @Test
    void interleavedSourcesEachKeepTheirOwnIntervals() {
        StreamTracker t = new StreamTracker(StartPosition.mysqlGtidSet(""), false, "test");
        t.startConnection("test", false);
        String[][] steps = {
            {A, "1", A + ":1"},
            {A, "2", A + ":1-2"},
            {B, "1", A + ":1-2," + B + ":1"},
            {A, "3", A + ":1-3," + B + ":1"},
            {B, "2", A + ":1-3," + B + ":1-2"},
            {B, "5", A + ":1-3," + B + ":1-2:5"},
            {A, "4", A + ":1-4," + B + ":1-2:5"},
        };
        for (String[] s : steps) {
            ReplicationEvent begin = t.onEvent(gtid(s[0], Long.parseLong(s[1])));
            assertFalse(begin.endsTransaction());
            ReplicationEvent end = t.onEvent(xid());
            assertTrue(end.endsTransaction());
            assertEquals(new StartPosition.MySqlGtids(s[2]), end.resumePosition(), s[0] + ":" + s[1]);
            assertEquals(end.resumePosition(), t.resumePosition());
        }
    }
}
