package io.lanes.binlog.gtid;

/**
 * A MariaDB GTID; {@code toString()} is the server's form {@code domain-server-sequence}.
 *
 * @param domainId replication domain id (unsigned 32 bits)
 * @param serverId originating server id (unsigned 32 bits)
 * @param sequence sequence number within the domain (unsigned 64 bits, held as a raw long)
 */
public record MariaDbGtid(long domainId, long serverId, long sequence) implements Gtid {
    @Override
    public String toString() {
        return domainId + "-" + serverId + "-" + Long.toUnsignedString(sequence);
    }
}
