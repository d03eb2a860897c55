package io.lanes.binlog.gtid;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The set's text after every change, as a stream makes them (mostly the next transaction of the same source, sometimes
 * another source, a tag, a gap, an older transaction filling one), equals an independent rendering of the same
 * transactions: the printed text is cached around the last changed interval, and no change may leave it stale.
 */
class MySqlGtidSetTextTest {
    private static final String[] UUIDS = {"3e11fa47-71ca-11e1-9e33-c80aa9429562", "00000000-0000-0000-0000-000000000001",
        "ffffffff-71ca-11e1-9e33-c80aa9429562"};
    private static final String[] TAGS = {"", "", "", "mytag", "other_tag"};

    /** uuid -> tag -> transaction numbers, printed as MySQL does: by UUID, untagged first, then tags alphabetically. */
    private static String reference(Map<String, Map<String, TreeSet<Long>>> gtids) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Map<String, TreeSet<Long>>> u : gtids.entrySet()) {
            sb.append(sb.isEmpty() ? "" : ",").append(u.getKey());
            for (Map.Entry<String, TreeSet<Long>> t : u.getValue().entrySet()) {
                if (!t.getKey().isEmpty()) {
                    sb.append(':').append(t.getKey());
                }
                long start = -1;
                long prev = -1;
                for (long g : t.getValue()) {
                    if (start < 0) {
                        start = g;
                    } else if (g != prev + 1) {
                        sb.append(':').append(start).append(start == prev ? "" : "-" + prev);
                        start = g;
                    }
                    prev = g;
                }
                sb.append(':').append(start).append(start == prev ? "" : "-" + prev);
            }
        }
        return sb.toString();
    }

    @Test
    void theTextAfterEveryChangeIsTheSetsText() {
        for (long seed = 1; seed <= 40; seed++) {
            Random r = new Random(seed);
            MySqlGtidSet set = new MySqlGtidSet();
            Map<String, Map<String, TreeSet<Long>>> gtids = new TreeMap<>();
            String uuid = UUIDS[0];
            String tag = "";
            long next = 1;
            for (int step = 0; step < 400; step++) {
                int what = r.nextInt(20);
                long gno;
                if (what == 0) { // another source or tag: its own counter
                    uuid = UUIDS[r.nextInt(UUIDS.length)];
                    tag = TAGS[r.nextInt(TAGS.length)];
                    TreeSet<Long> have = gtids.getOrDefault(uuid, Map.of()).get(tag);
                    gno = have == null ? 1 + r.nextInt(3) : have.last() + 1;
                } else if (what == 1) { // a gap
                    gno = next + 1 + r.nextInt(5);
                } else if (what == 2) { // an older transaction, maybe filling a gap
                    gno = 1 + r.nextInt((int) Math.max(1, next));
                } else {
                    gno = next;
                }
                // the stream passes the same String objects again; sometimes equal text in new objects
                String u = r.nextInt(10) == 0 ? new String(uuid) : uuid;
                set.add(u, tag, gno);
                gtids.computeIfAbsent(uuid, k -> new TreeMap<>()).computeIfAbsent(tag, k -> new TreeSet<>()).add(gno);
                next = gtids.get(uuid).get(tag).last() + 1;
                if (r.nextInt(4) != 0) { // not printed after every change: changes pile up between prints too
                    assertEquals(reference(gtids), set.toString(), "seed " + seed + ", step " + step);
                }
            }
            assertEquals(reference(gtids), set.toString(), "seed " + seed);
            assertEquals(set.toString(), MySqlGtidSet.parse(set.toString()).toString(), "seed " + seed);
        }
    }
}
