package io.lanes.binlog;

import io.lanes.binlog.gtid.MariaDbGtid;
import java.util.List;

/**
 * MariaDB GTID_LIST (163): the binlog state (last GTID per domain and server) at the start of a file.
 *
 * @param flags the high 4 bits of the count word (FLAG_UNTIL_REACHED 1, FLAG_IGN_GTIDS 2)
 */
public record MariaGtidListEvent(EventHeader header, int flags, List<MariaDbGtid> gtids) implements BinlogEvent {
    public MariaGtidListEvent {
        gtids = List.copyOf(gtids);
    }
}
