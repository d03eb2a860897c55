package io.lanes.binlog;

import java.util.List;
import java.util.UUID;

/**
 * PREVIOUS_GTIDS (35): the GTID set of all transactions in earlier log files, in either the untagged or (MySQL 8.4+)
 * tagged encoding. {@link #toString()} is the server's text form ({@code uuid:1-5:7,uuid2:tag:1}).
 */
public record PreviousGtidsEvent(EventHeader header, List<Entry> entries) implements BinlogEvent {
    public PreviousGtidsEvent {
        entries = List.copyOf(entries);
    }

    /** One UUID (and tag) with its transaction number ranges. */
    public record Entry(UUID sourceId, String tag, List<Range> ranges) {
        public Entry {
            ranges = List.copyOf(ranges);
        }
    }

    /** Transaction numbers {@code first..last}, both inclusive. */
    public record Range(long first, long last) {
    }

    /** The GTID set in the server's text form. */
    public String gtidSet() {
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(e.sourceId());
            if (e.tag() != null) {
                sb.append(':').append(e.tag());
            }
            for (Range r : e.ranges()) {
                sb.append(':').append(r.first());
                if (r.last() != r.first()) {
                    sb.append('-').append(r.last());
                }
            }
        }
        return sb.toString();
    }
}
