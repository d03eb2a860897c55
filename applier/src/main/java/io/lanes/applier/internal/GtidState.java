package io.lanes.applier.internal;

import io.lanes.binlog.Gtid;
import io.lanes.binlog.MariaGtid;
import io.lanes.binlog.MysqlGtid;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GTID state after the transactions seen so far: MariaDB's last GTID per domain ({@code 0-1-55,1-2-7}), or the MySQL
 * GTID set ({@code uuid:1-5:7,uuid2:tag:1-3}) as merged intervals. Not thread-safe: the bridge updates it in source order.
 */
public final class GtidState {
    private final TreeMap<Long, MariaGtid> mariaDomains = new TreeMap<>();
    /** "uuid" or "uuid:tag" to sorted, disjoint, non-adjacent [start, end] intervals. */
    private final TreeMap<String, List<long[]>> mysqlSets = new TreeMap<>();

    public void add(Gtid gtid) {
        if (gtid instanceof MariaGtid m) {
            mariaDomains.put(m.domainId(), m);
        } else if (gtid instanceof MysqlGtid g) {
            String source = g.sourceId() + (g.tag() == null ? "" : ":" + g.tag());
            addInterval(mysqlSets.computeIfAbsent(source, s -> new ArrayList<>()), g.gno());
        }
    }

    private static void addInterval(List<long[]> intervals, long n) {
        int i = 0;
        while (i < intervals.size() && intervals.get(i)[1] < n - 1) {
            i++;
        }
        if (i < intervals.size() && intervals.get(i)[0] <= n + 1) {
            long[] iv = intervals.get(i);
            iv[0] = Math.min(iv[0], n);
            iv[1] = Math.max(iv[1], n);
            if (i + 1 < intervals.size() && intervals.get(i + 1)[0] <= iv[1] + 1) {
                iv[1] = Math.max(iv[1], intervals.get(i + 1)[1]);
                intervals.remove(i + 1);
            }
        } else {
            intervals.add(i, new long[] {n, n});
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (MariaGtid m : mariaDomains.values()) {
            sb.append(sb.isEmpty() ? "" : ",").append(m);
        }
        for (Map.Entry<String, List<long[]>> e : mysqlSets.entrySet()) {
            sb.append(sb.isEmpty() ? "" : ",").append(e.getKey());
            for (long[] iv : e.getValue()) {
                sb.append(':').append(iv[0]);
                if (iv[1] != iv[0]) {
                    sb.append('-').append(iv[1]);
                }
            }
        }
        return sb.toString();
    }
}
