package io.lanes.binlog.gtid;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A mutable MySQL GTID set: per source UUID and tag (MySQL 8.3+; untagged is the empty tag), sorted disjoint intervals of
 * transaction numbers. Parses and prints the server's text form; the replication client reads and writes the binary
 * form that COM_BINLOG_DUMP_GTID and PREVIOUS_GTIDS carry through {@link #forEachInterval} and {@link #addRange}.
 * Not thread-safe.
 *
 * <p>Text form, as MySQL's {@code Gtid_set::add_gtid_text} reads it: elements separated by commas (empty ones allowed);
 * each element is a UUID (8-4-4-4-12 hex digits, any case) followed by {@code :}-separated items, each either a tag,
 * which applies to the intervals after it, or an interval {@code N} or {@code N-M}. A tag is 1 to 32 characters
 * {@code [A-Za-z_][A-Za-z0-9_]*}, lower-cased as MySQL stores it. Whitespace is allowed around the items.
 * Stricter than the server in two ways, so that no text is silently read differently: numbers must be plain decimal
 * without leading zeros (the server reads {@code 010} as octal and {@code 0x10} as hex) and an interval must not end
 * before it starts (the server ignores {@code 5-3}).
 *
 * <p>Printed as MySQL prints it, without the newline the server puts after each comma: sources ordered by UUID, each
 * UUID once with its untagged intervals first and then each tag (alphabetical) with its intervals:
 * {@code 3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7:mytag:1-3,4e11fa47-71ca-11e1-9e33-c80aa9429562:3}.
 */
public final class MySqlGtidSet implements GtidSet {
    /** Longest tag MySQL accepts. */
    public static final int TAG_MAX_LENGTH = 32;
    /** The first transaction number MySQL no longer accepts (GNO_END = INT64_MAX). */
    private static final long GNO_END = Long.MAX_VALUE;

    /** A source: UUID (lower case, with dashes) and tag (lower case; empty when untagged). */
    private record Tsid(String uuid, String tag) implements Comparable<Tsid> {
        @Override
        public int compareTo(Tsid o) {
            int c = uuid.compareTo(o.uuid);
            return c != 0 ? c : tag.compareTo(o.tag);
        }
    }

    /** source -> intervals as [start, end) pairs, sorted and disjoint; never empty. A source keeps its list object. */
    private final TreeMap<Tsid, List<long[]>> sets = new TreeMap<>();

    /*
     * A stream adds one transaction to the set and prints it once per transaction (each event's resume position), nearly
     * always extending the last interval of the same source. So the text is kept as what comes before and after that
     * interval, and printing renders only the interval; any other change drops the cache.
     */
    /** The source whose last interval the cached text leaves out, or null when there is no cached text. */
    private Tsid textSource;
    /** {@link #textSource}'s interval list (the map's own object). */
    private List<long[]> textIntervals;
    /** The text before and after {@link #textSource}'s last interval. */
    private String textBefore;
    private String textAfter;
    /** The source the latest change was to: the next full print caches around its last interval. */
    private Tsid lastChanged;
    /** The latest {@link #add(String, String, long)} arguments (the same String objects come again) and their source. */
    private String lastUuidArg;
    private String lastTagArg;
    private Tsid lastTsid;

    /** Parses the text form. @throws GtidSetFormatException naming the text and the offset of the first bad character */
    public static MySqlGtidSet parse(String text) {
        return new Parser(text).parse();
    }

    /** Adds one untagged transaction; {@code uuid16} is 16 raw bytes as in a GTID event. */
    public void add(byte[] uuid16, int offset, long gno) {
        add(uuidText(uuid16, offset), "", gno);
    }

    /**
     * Adds one transaction.
     *
     * @param uuid the source UUID in its text form (any case)
     * @param tag the tag, or null or empty for an untagged GTID
     */
    public void add(String uuid, String tag, long gno) {
        if (gno < 1 || gno >= GNO_END) {
            throw new IllegalArgumentException("GTID transaction number " + gno + " is out of range 1.."
                    + (GNO_END - 1));
        }
        Tsid source = lastTsid;
        if (source == null || uuid != lastUuidArg || tag != lastTagArg) {
            source = new Tsid(normaliseUuid(uuid), normaliseTag(tag));
            lastUuidArg = uuid;
            lastTagArg = tag;
            lastTsid = source;
        }
        addInterval(source, gno, gno + 1);
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

    /** Whether the untagged GTID {@code uuid:gno} is in the set. */
    public boolean contains(String uuid, long gno) {
        return contains(uuid, null, gno);
    }

    /** Whether {@code uuid[:tag]:gno} is in the set; a null or empty tag is the untagged GTID. */
    public boolean contains(String uuid, String tag, long gno) {
        List<long[]> list = sets.get(new Tsid(normaliseUuid(uuid), normaliseTag(tag)));
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

    public boolean isEmpty() {
        return sets.isEmpty();
    }

    /** Whether any transaction in the set is tagged (and so the binary form is the tagged one). */
    public boolean hasTags() {
        for (Tsid t : sets.keySet()) {
            if (!t.tag.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Adds every transaction of {@code other}. */
    public void addAll(MySqlGtidSet other) {
        other.sets.forEach((k, v) -> v.forEach(iv -> addInterval(k, iv[0], iv[1])));
    }

    /** An empty set (everything, as a start: the server sends every transaction). */
    public MySqlGtidSet() {
    }

    /** @throws IllegalArgumentException for a MariaDB GTID, or a transaction number out of range */
    @Override
    public void add(Gtid gtid) {
        if (!(gtid instanceof MySqlGtid g)) {
            throw new IllegalArgumentException("a MariaDB GTID (" + gtid + ") in a MySQL GTID set");
        }
        add(g.sourceId().toString(), g.tag(), g.gno());
    }

    @Override
    public boolean contains(Gtid gtid) {
        return gtid instanceof MySqlGtid g && contains(g.sourceId().toString(), g.tag(), g.gno());
    }

    @Override
    public boolean containsAll(GtidSet other) {
        if (!(other instanceof MySqlGtidSet o)) {
            return false;
        }
        for (Map.Entry<Tsid, List<long[]>> e : o.sets.entrySet()) {
            List<long[]> have = sets.get(e.getKey());
            for (long[] want : e.getValue()) {
                if (have == null || !covered(have, want[0], want[1])) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether one of the disjoint, merged intervals holds all of [start, end). */
    private static boolean covered(List<long[]> intervals, long start, long end) {
        for (long[] iv : intervals) {
            if (iv[0] <= start && end <= iv[1]) {
                return true;
            }
        }
        return false;
    }

    /** Receives a set's intervals: {@link #forEachInterval}. */
    @FunctionalInterface
    public interface IntervalConsumer {
        /**
         * @param uuid the source UUID, lower case with dashes
         * @param tag the tag, lower case; empty when untagged
         * @param first the interval's first transaction number
         * @param last its last transaction number (inclusive)
         */
        void accept(String uuid, String tag, long first, long last);
    }

    /** Hands every interval to {@code to}: sources in print order, each source's intervals ascending and disjoint. */
    public void forEachInterval(IntervalConsumer to) {
        sets.forEach((k, v) -> v.forEach(iv -> to.accept(k.uuid, k.tag, iv[0], iv[1] - 1)));
    }

    /** The number of (UUID, tag) sources. */
    public int sourceCount() {
        return sets.size();
    }

    /**
     * Adds the transactions {@code first..last} (inclusive) of one source.
     *
     * @param tag the tag, or null or empty when untagged
     * @throws IllegalArgumentException for a malformed UUID or tag, or numbers out of 1..2^63-2 or in the wrong order
     */
    public void addRange(String uuid, String tag, long first, long last) {
        if (first < 1 || last < first || last >= GNO_END) {
            throw new IllegalArgumentException("bad GTID interval " + first + "-" + last + " (1 <= first <= last <= "
                    + (GNO_END - 1) + ")");
        }
        addInterval(new Tsid(normaliseUuid(uuid), normaliseTag(tag)), first, last + 1);
    }

    private void addInterval(Tsid source, long start, long end) {
        List<long[]> list = sets.computeIfAbsent(source, k -> new ArrayList<>());
        lastChanged = source;
        // fast path: appending at the end, the common case while following a stream
        if (!list.isEmpty()) {
            long[] last = list.get(list.size() - 1);
            if (start >= last[0] && start <= last[1]) {
                last[1] = Math.max(last[1], end);
                if (textIntervals != list) {
                    textSource = null; // another source's text changed
                }
                return;
            }
        }
        textSource = null;
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

    // ------------------------------------------------------------------------------------------------ text form

    /** Whether {@code s} is a valid tag (either case): 1-32 of {@code [A-Za-z_][A-Za-z0-9_]*}. */
    public static boolean isTag(String s) {
        if (s.isEmpty() || s.length() > TAG_MAX_LENGTH || !isTagStart(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            if (!isTagPart(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isTagStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isTagPart(char c) {
        return isTagStart(c) || (c >= '0' && c <= '9');
    }

    private static String normaliseTag(String tag) {
        if (tag == null || tag.isEmpty()) {
            return "";
        }
        if (!isTag(tag)) {
            throw new IllegalArgumentException("bad GTID tag '" + tag + "' (1-32 characters [a-z_][a-z0-9_]*)");
        }
        return tag.toLowerCase(Locale.ROOT);
    }

    private static String normaliseUuid(String s) {
        if (!isUuid(s, 0)) {
            throw new IllegalArgumentException("bad server UUID '" + s + "' (expected 8-4-4-4-12 hex digits)");
        }
        return s.toLowerCase(Locale.ROOT);
    }

    /** Whether the 36 characters at {@code at} are a UUID in the 8-4-4-4-12 form. */
    private static boolean isUuid(String s, int at) {
        if (s.length() - at < 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(at + i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : Character.digit(c, 16) < 0 || c > 'f') {
                return false;
            }
        }
        return true;
    }

    /** The reader of the text form; offsets in its errors are offsets in the text given. */
    private static final class Parser {
        private final String text;
        private int i;
        private final MySqlGtidSet set = new MySqlGtidSet();

        Parser(String text) {
            this.text = java.util.Objects.requireNonNull(text, "text");
        }

        MySqlGtidSet parse() {
            skipSpace();
            while (true) {
                while (peek() == ',') {
                    i++;
                    skipSpace();
                }
                if (i >= text.length()) {
                    return set;
                }
                element();
                if (i < text.length() && peek() != ',') {
                    throw error("expected ':', ',' or the end");
                }
            }
        }

        /** {@code uuid(:tag|:interval)*}. */
        private void element() {
            if (!isUuid(text, i)) {
                throw error("expected a server UUID (8-4-4-4-12 hex digits)");
            }
            String uuid = text.substring(i, i + 36).toLowerCase(Locale.ROOT);
            i += 36;
            Tsid source = new Tsid(uuid, "");
            skipSpace();
            while (peek() == ':') {
                i++;
                skipSpace();
                if (isTagStart(peek())) {
                    int start = i;
                    while (isTagPart(peek())) {
                        i++;
                    }
                    if (i - start > TAG_MAX_LENGTH) {
                        i = start + TAG_MAX_LENGTH;
                        throw error("a tag has at most " + TAG_MAX_LENGTH + " characters");
                    }
                    source = new Tsid(uuid, text.substring(start, i).toLowerCase(Locale.ROOT));
                    skipSpace();
                    if (i < text.length() && peek() != ':' && peek() != ',') {
                        throw error("a tag is letters, digits and '_' (not starting with a digit), followed by ':', ','"
                                + " or the end");
                    }
                } else {
                    long start = number();
                    long end = start;
                    if (peek() == '-') {
                        i++;
                        skipSpace();
                        int at = i;
                        end = number();
                        if (end < start) {
                            i = at;
                            throw error("the interval ends (" + end + ") before it starts (" + start + ")");
                        }
                    }
                    set.addInterval(source, start, end + 1);
                }
            }
        }

        /** A transaction number 1..2^63-2, in plain decimal; skips the whitespace after it. */
        private long number() {
            int start = i;
            if (peek() < '0' || peek() > '9') {
                throw error("expected a tag or a transaction number");
            }
            if (peek() == '0') {
                throw error(i + 1 < text.length() && Character.isLetterOrDigit(text.charAt(i + 1))
                        ? "a number with a leading zero (the server would read it as octal or hex)"
                        : "transaction numbers start at 1");
            }
            long v = 0;
            while (peek() >= '0' && peek() <= '9') {
                int d = peek() - '0';
                if (v > (GNO_END - 1 - d) / 10) {
                    i = start;
                    throw error("transaction number out of range (at most " + (GNO_END - 1) + ")");
                }
                v = v * 10 + d;
                i++;
            }
            skipSpace();
            return v;
        }

        private char peek() {
            return i < text.length() ? text.charAt(i) : '\0';
        }

        private void skipSpace() {
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
        }

        private GtidSetFormatException error(String problem) {
            return new GtidSetFormatException(text, i, problem);
        }
    }

    @Override
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
    public boolean equals(Object o) {
        return o instanceof MySqlGtidSet other && toString().equals(other.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    @Override
    public String toString() {
        if (textSource != null) {
            long[] last = textIntervals.get(textIntervals.size() - 1);
            StringBuilder sb = new StringBuilder(textBefore.length() + 40 + textAfter.length()).append(textBefore);
            return appendInterval(sb, last).append(textAfter).toString();
        }
        StringBuilder sb = new StringBuilder();
        String lastUuid = null;
        int cutFrom = -1;
        int cutTo = -1;
        for (Map.Entry<Tsid, List<long[]>> e : sets.entrySet()) {
            Tsid t = e.getKey();
            if (!t.uuid.equals(lastUuid)) {
                if (lastUuid != null) {
                    sb.append(',');
                }
                sb.append(t.uuid);
                lastUuid = t.uuid;
            }
            if (!t.tag.isEmpty()) {
                sb.append(':').append(t.tag);
            }
            List<long[]> intervals = e.getValue();
            for (int i = 0; i < intervals.size(); i++) {
                sb.append(':');
                boolean cut = i == intervals.size() - 1 && t.equals(lastChanged);
                if (cut) {
                    cutFrom = sb.length();
                }
                appendInterval(sb, intervals.get(i));
                if (cut) {
                    cutTo = sb.length();
                }
            }
        }
        String text = sb.toString();
        if (cutFrom >= 0) {
            textSource = lastChanged;
            textIntervals = sets.get(lastChanged);
            textBefore = text.substring(0, cutFrom);
            textAfter = text.substring(cutTo);
        }
        return text;
    }

    /** {@code start} or {@code start-last} of a [start, end) interval. */
    private static StringBuilder appendInterval(StringBuilder sb, long[] iv) {
        sb.append(iv[0]);
        if (iv[1] - 1 > iv[0]) {
            sb.append('-').append(iv[1] - 1);
        }
        return sb;
    }
}
