package io.lanes.binlog.replication;

import java.util.List;
import java.util.Objects;

/**
 * Where a server's binary log stands at one moment, as {@link ReplicationClient#binlogStatus()} asked it over a
 * connection of its own. Immutable.
 *
 * @param end the end of the binlog the server writes ({@code SHOW MASTER STATUS}, or {@code SHOW BINARY LOG STATUS} on
 *     MySQL 8.4 and later), null when the server refused both (the account lacks REPLICATION CLIENT / BINLOG MONITOR)
 *     or has no binlog
 * @param gtidPosition MariaDB's {@code @@gtid_binlog_pos} or MySQL's {@code @@global.gtid_executed}, null when unknown
 * @param files the server's binlog files and their sizes in bytes ({@code SHOW BINARY LOGS}), oldest first; empty when
 *     refused
 * @param askedAtMillis when the server answered (epoch milliseconds)
 * @param problem the server's first refusal among those statements (for a message), null when none was refused
 */
public record BinlogStatus(StartPosition.FilePosition end, String gtidPosition, List<BinlogFile> files,
        long askedAtMillis, String problem) {

    /** One binlog file of the server and its size. */
    public record BinlogFile(String name, long size) {
        public BinlogFile {
            Objects.requireNonNull(name, "name");
        }
    }

    public BinlogStatus {
        files = List.copyOf(files);
    }

    /**
     * The bytes the server's binlog holds after {@code offset} in {@code file}: the rest of that file plus every later
     * file (the last one up to {@link #end()} when known, which is fresher than its listed size). -1 when {@code file}
     * is not among {@link #files()} (purged, another server's, or the list was refused). Binlog bytes, not
     * transactions: DDL and large rows weigh more than small updates.
     */
    public long bytesAfter(String file, long offset) {
        int at = -1;
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).name().equals(file)) {
                at = i;
                break;
            }
        }
        if (at < 0) {
            return -1;
        }
        long total = 0;
        for (int i = at; i < files.size(); i++) {
            BinlogFile f = files.get(i);
            long size = end != null && end.file().equals(f.name()) ? Math.max(end.position(), f.size()) : f.size();
            total += i == at ? Math.max(0, size - offset) : size;
        }
        return total;
    }
}
