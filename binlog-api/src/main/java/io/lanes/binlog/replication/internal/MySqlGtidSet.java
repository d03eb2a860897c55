package io.lanes.binlog.replication.internal;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A mutable MySQL GTID set (untagged): per source UUID, sorted disjoint intervals of transaction numbers. Parses and
 * prints the server's text form ({@code uuid:1-5:7,uuid2:1-3}) and writes the binary form COM_BINLOG_DUMP_GTID carries.
 * Not thread-safe.
 */
public final class MySqlGtidSet {
    /** uuid (lower case, with dashes) -> intervals as [start, end) pairs, sorted and disjoint. */
    private final TreeMap<String, List<long[]>> sets = new TreeMap<>();

    public static MySqlGtidSet parse(String text) {
        MySqlGtidSet set = new MySqlGtidSet();
        String t = text.replaceAll("\\s", "");
        if (t.isEmpty()) {
            return set;
        }
        for (String part : t.split(",")) {
            String[] fields = part.split(":");
            if (fields.length < 2) {
                throw new IllegalArgumentException("bad GTID set element '" + part + "' (expected uuid:interval[:interval])");
            }
            String uuid = normaliseUuid(fields[0]);
            for (int i = 1; i < fields.length; i++) {
                String f = fields[i];
                if (!f.matches("\\d+(-\\d+)?")) {
                    throw new IllegalArgumentException("bad GTID interval '" + f + "' in '" + part
                            + "' (tagged GTIDs are not supported)");
                }
                int dash = f.indexOf('-');
                long start = Long.parseLong(dash < 0 ? f : f.substring(0, dash));
                long end = dash < 0 ? start : Long.parseLong(f.substring(dash + 1));
                if (start < 1 || end < start) {
                    throw new IllegalArgumentException("bad GTID interval '" + f + "' in '" + part + "'");
                }
                set.addInterval(uuid, start, end + 1);
            }
        }
        return set;
    }

    private static String normaliseUuid(String s) {
        String hex = s.replace("-", "").toLowerCase(Locale.ROOT);
        if (!hex.matches("[0-9a-f]{32}")) {
            throw new IllegalArgumentException("bad server UUID '" + s + "' in GTID set");
        }
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
                + hex.substring(16, 20) + "-" + hex.substring(20);
    }

    /** Adds one transaction; {@code uuid} is 16 raw bytes as in a GTID event. */
    public void add(byte[] uuid16, int offset, long gno) {
        addInterval(uuidText(uuid16, offset), gno, gno + 1);
    }

    /** The text form of 16 raw UUID bytes. */
    public static String uuidText(byte[] uuid16, int offset) {
        StringBuilder sb = new StringBuilder(36);
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                sb.append('-');
            }
            int b = uuid16[offset + i] & 0xff;
            sb.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
        }
        return sb.toString();
    }

    public boolean contains(String uuid, long gno) {
        List<long[]> list = sets.get(normaliseUuid(uuid));
        if (list == null) {
            return false;
        }
        for (long[] iv : list) {
            if (gno >= iv[0] && gno < iv[1]) {
                return true;
            }
        }
        return false;
    }

    private void addInterval(String uuid, long start, long end) {
        List<long[]> list = sets.computeIfAbsent(uuid, k -> new ArrayList<>());
        // fast path: appending at the end, the common case while following a stream
        if (!list.isEmpty()) {
            long[] last = list.get(list.size() - 1);
            if (start >= last[0] && start <= last[1]) {
                last[1] = Math.max(last[1], end);
                return;
            }
        }
        list.add(new long[] {start, end});
        list.sort((a, b) -> Long.compare(a[0], b[0]));
        List<long[]> merged = new ArrayList<>(list.size());
        for (long[] iv : list) {
            if (!merged.isEmpty() && iv[0] <= merged.get(merged.size() - 1)[1]) {
                long[] m = merged.get(merged.size() - 1);
                m[1] = Math.max(m[1], iv[1]);
            } else {
                merged.add(new long[] {iv[0], iv[1]});
            }
        }
        list.clear();
        list.addAll(merged);
    }

    /** The binary form: n_sids, then per source its 16-byte UUID, n_intervals and [start, end) pairs, all little-endian. */
    public void encode(ByteBuf out) {
        out.writeLongLE(sets.size());
        for (Map.Entry<String, List<long[]>> e : sets.entrySet()) {
            String hex = e.getKey().replace("-", "");
            for (int i = 0; i < 16; i++) {
                out.writeByte(Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16));
            }
            out.writeLongLE(e.getValue().size());
            for (long[] iv : e.getValue()) {
                out.writeLongLE(iv[0]).writeLongLE(iv[1]);
            }
        }
    }

    public int encodedLength() {
        int n = 8;
        for (List<long[]> l : sets.values()) {
            n += 16 + 8 + 16 * l.size();
        }
        return n;
    }

    /** Reads the binary form (used by the fake server). */
    public static MySqlGtidSet decode(ByteBuf in) {
        MySqlGtidSet set = new MySqlGtidSet();
        Wire.need(in, 8, "GTID set");
        long n = in.readLongLE();
        for (long s = 0; s < n; s++) {
            Wire.need(in, 24, "GTID set");
            byte[] uuid = new byte[16];
            in.readBytes(uuid);
            long intervals = in.readLongLE();
            Wire.need(in, intervals * 16, "GTID set");
            for (long i = 0; i < intervals; i++) {
                long start = in.readLongLE();
                long end = in.readLongLE();
                if (start < 1 || end <= start) {
                    throw new ProtocolException("bad GTID interval [" + start + ", " + end + ")");
                }
                set.addInterval(uuidText(uuid, 0), start, end);
            }
        }
        return set;
    }

    public MySqlGtidSet copy() {
        MySqlGtidSet c = new MySqlGtidSet();
        sets.forEach((k, v) -> {
            List<long[]> l = new ArrayList<>(v.size());
            v.forEach(iv -> l.add(iv.clone()));
            c.sets.put(k, l);
        });
        return c;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, List<long[]>> e : sets.entrySet()) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(e.getKey());
            for (long[] iv : e.getValue()) {
                sb.append(':').append(iv[0]);
                if (iv[1] - 1 > iv[0]) {
                    sb.append('-').append(iv[1] - 1);
                }
            }
        }
        return sb.toString();
    }
}
