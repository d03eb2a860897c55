package io.lanes.binlog.replication.internal;

import io.lanes.binlog.MariaGtid;
import java.util.Map;
import java.util.TreeMap;

/** A MariaDB GTID position: per replication domain, the last GTID (domain-server-sequence). Not thread-safe. */
public final class MariaDbGtidState {
    private final TreeMap<Long, long[]> byDomain = new TreeMap<>();

    public static MariaDbGtidState parse(String text) {
        MariaDbGtidState s = new MariaDbGtidState();
        for (MariaGtid g : MariaGtid.parsePosition(text)) {
            s.set(g.domainId(), g.serverId(), g.sequence());
        }
        return s;
    }

    public void set(long domain, long serverId, long sequence) {
        byDomain.put(domain, new long[] {serverId, sequence});
    }

    /** The sequence number recorded for a domain, or -1. */
    public long sequence(long domain) {
        long[] v = byDomain.get(domain);
        return v == null ? -1 : v[1];
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Long, long[]> e : byDomain.entrySet()) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(e.getKey()).append('-').append(Long.toUnsignedString(e.getValue()[0])).append('-')
                    .append(Long.toUnsignedString(e.getValue()[1]));
        }
        return sb.toString();
    }
}
