package io.lanes.binlog.gtid;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A MariaDB GTID position: per replication domain, the last transaction the consumer has ({@code gtid_binlog_pos},
 * {@code gtid_slave_pos}). A transaction {@code d-s-n} is {@linkplain #contains contained} when the position's GTID for
 * domain {@code d} has a sequence number of at least {@code n}: MariaDB numbers a domain's transactions in commit order.
 *
 * <p>Text form {@code domain-server-sequence}, comma-separated ({@code 0-1-12,1-2-3}), printed ordered by domain; empty
 * when empty. Parsing drops whitespace (anywhere, as a regular expression's {@code \s}) and skips empty elements; a
 * domain written twice keeps its later GTID. Mutable, not
 * thread-safe.
 */
public final class MariaDbGtidPosition implements GtidSet {
    private static final String WHAT = "MariaDB GTID position";

    private final TreeMap<Long, MariaDbGtid> byDomain = new TreeMap<>();

    /** An empty position (from the first binlog). */
    public MariaDbGtidPosition() {
    }

    /**
     * Parses the server's text form.
     *
     * @throws GtidSetFormatException naming the text and the offset when an element is not
     *     {@code domain-server-sequence} of unsigned decimal numbers (32, 32 and 64 bits)
     */
    public static MariaDbGtidPosition parse(String text) {
        Objects.requireNonNull(text, "text");
        MariaDbGtidPosition p = new MariaDbGtidPosition();
        for (MariaDbGtid g : parseList(text)) {
            p.add(g);
        }
        return p;
    }

    /**
     * The GTIDs of a position's text form in the order written (a domain may come more than once, as in a GTID_LIST).
     *
     * @throws GtidSetFormatException as {@link #parse}
     */
    public static List<MariaDbGtid> parseList(String given) {
        // whitespace is dropped everywhere, as the server's text is read by every earlier release; offsets in errors
        // are offsets in the text without it, which the error names
        String text = withoutWhitespace(Objects.requireNonNull(given, "text"));
        List<MariaDbGtid> out = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            if (text.charAt(i) == ',') {
                i++;
                continue;
            }
            long[] parts = new long[3];
            for (int part = 0; part < 3; part++) {
                int start = i;
                long v = 0;
                while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                    int d = text.charAt(i) - '0';
                    long max = part == 2 ? -1L : 0xFFFF_FFFFL; // -1: unsigned 64 bits
                    if (Long.compareUnsigned(v, Long.divideUnsigned(max - d, 10)) > 0) {
                        throw new GtidSetFormatException(WHAT, text, start, "number out of range (at most "
                                + Long.toUnsignedString(max) + ")");
                    }
                    v = v * 10 + d;
                    i++;
                }
                if (i == start) {
                    throw new GtidSetFormatException(WHAT, text, i, "expected a number (domain-server-sequence)");
                }
                parts[part] = v;
                if (part < 2) {
                    if (i >= n || text.charAt(i) != '-') {
                        throw new GtidSetFormatException(WHAT, text, i, "expected '-' (domain-server-sequence)");
                    }
                    i++;
                }
            }
            if (i < n && text.charAt(i) != ',') {
                throw new GtidSetFormatException(WHAT, text, i, "expected ',' or the end");
            }
            out.add(new MariaDbGtid(parts[0], parts[1], parts[2]));
        }
        return out;
    }

    /** Sets the domain's GTID to {@code gtid}, whatever it was: the transaction a stream just read. */
    public void add(MariaDbGtid gtid) {
        byDomain.put(gtid.domainId(), Objects.requireNonNull(gtid, "gtid"));
    }

    /** @throws IllegalArgumentException for a MySQL GTID */
    @Override
    public void add(Gtid gtid) {
        if (!(gtid instanceof MariaDbGtid m)) {
            throw new IllegalArgumentException("a MySQL GTID (" + gtid + ") in a MariaDB GTID position");
        }
        add(m);
    }

    /**
     * Sets the domain's GTID only when the position has none for it: for history learnt after later transactions were
     * already added (a domain already present keeps its GTID, which is as late or later).
     */
    public void addIfAbsent(MariaDbGtid gtid) {
        byDomain.putIfAbsent(gtid.domainId(), Objects.requireNonNull(gtid, "gtid"));
    }

    /** The domain's GTID, or null when the position has none for it. */
    public MariaDbGtid get(long domain) {
        return byDomain.get(domain);
    }

    /** The domain's sequence number, or -1 when the position has none for it. */
    public long sequence(long domain) {
        MariaDbGtid g = byDomain.get(domain);
        return g == null ? -1 : g.sequence();
    }

    /** The GTIDs, one per domain, ordered by domain. */
    public List<MariaDbGtid> gtids() {
        return List.copyOf(byDomain.values());
    }

    @Override
    public boolean contains(Gtid gtid) {
        if (!(gtid instanceof MariaDbGtid m)) {
            return false;
        }
        MariaDbGtid have = byDomain.get(m.domainId());
        return have != null && Long.compareUnsigned(have.sequence(), m.sequence()) >= 0;
    }

    /** Whether every domain of {@code other} is here with at least its sequence number (an absent domain counts as 0). */
    @Override
    public boolean containsAll(GtidSet other) {
        if (!(other instanceof MariaDbGtidPosition p)) {
            return false;
        }
        for (MariaDbGtid want : p.byDomain.values()) {
            MariaDbGtid have = byDomain.get(want.domainId());
            if (Long.compareUnsigned(have == null ? 0 : have.sequence(), want.sequence()) < 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean isEmpty() {
        return byDomain.isEmpty();
    }

    @Override
    public MariaDbGtidPosition copy() {
        MariaDbGtidPosition c = new MariaDbGtidPosition();
        c.byDomain.putAll(byDomain);
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MariaDbGtidPosition p && byDomain.equals(p.byDomain);
    }

    @Override
    public int hashCode() {
        return byDomain.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (MariaDbGtid g : byDomain.values()) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(g);
        }
        return sb.toString();
    }

    /**
     * Whether {@code text} is {@code D-S-N} triples of ASCII digits, comma-separated, with no whitespace: the rule
     * {@link GtidSet#parse} tells the flavours apart by. A scan, not a regular expression: streams ask it per transaction.
     */
    public static boolean isPosition(String text) {
        int n = text.length();
        int i = 0;
        while (true) {
            for (int part = 0; part < 3; part++) {
                int start = i;
                while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                    i++;
                }
                if (i == start) {
                    return false;
                }
                if (part < 2) {
                    if (i == n || text.charAt(i) != '-') {
                        return false;
                    }
                    i++;
                }
            }
            if (i == n) {
                return true;
            }
            if (text.charAt(i) != ',') {
                return false;
            }
            i++;
        }
    }

    /**
     * {@code text} less the characters a regular expression's {@code \s} matches; {@code text} itself when none (a scan:
     * positions are normalised once per transaction).
     */
    public static String withoutWhitespace(String text) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean space = isSpace(c);
            if (space && b == null) {
                b = new StringBuilder(text.length()).append(text, 0, i);
            } else if (!space && b != null) {
                b.append(c);
            }
        }
        return b == null ? text : b.toString();
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }
}
