package io.lanes.binlog;

import io.lanes.binlog.internal.GtidText;
import java.util.ArrayList;
import java.util.List;

/**
 * A MariaDB GTID.
 *
 * @param domainId replication domain id (unsigned 32 bits)
 * @param serverId originating server id (unsigned 32 bits)
 * @param sequence sequence number within the domain (unsigned 64 bits, held as a raw long)
 */
public record MariaGtid(long domainId, long serverId, long sequence) implements Gtid {
    /**
     * The GTIDs of a MariaDB GTID position in the server's text form ({@code 0-1-12,1-1-3}; whitespace ignored, empty
     * gives none), in the order written.
     *
     * @throws IllegalArgumentException when a part is not {@code domain-server-sequence} of unsigned numbers
     */
    public static List<MariaGtid> parsePosition(String text) {
        List<MariaGtid> out = new ArrayList<>();
        String t = GtidText.withoutWhitespace(text);
        if (t.isEmpty()) {
            return out;
        }
        for (String g : t.split(",")) {
            if (g.isEmpty()) {
                continue;
            }
            String[] f = g.split("-");
            if (f.length != 3) {
                throw new IllegalArgumentException("not a MariaDB GTID (domain-server-sequence): '" + g + "' in '"
                        + text + "'");
            }
            out.add(new MariaGtid(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseUnsignedLong(f[2])));
        }
        return out;
    }

    @Override
    public String toString() {
        return domainId + "-" + serverId + "-" + Long.toUnsignedString(sequence);
    }
}
