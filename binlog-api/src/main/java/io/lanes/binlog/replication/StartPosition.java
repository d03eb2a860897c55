package io.lanes.binlog.replication;

import io.lanes.binlog.internal.GtidText;
import java.util.Objects;

/**
 * Where a replication stream starts (and where a reconnect or a later run resumes): a binlog file and byte position, a
 * MySQL GTID set (the transactions already seen: the server sends every other one), or a MariaDB GTID position (the last
 * transaction seen in each replication domain).
 *
 * <p>Values are immutable and may be persisted through {@code toString()} and parsed back with {@link #parse(String)}.
 */
public sealed interface StartPosition {

    /** Binlog file name and the byte offset of the first event to send (4 is the start of a file). */
    static FilePosition file(String file, long position) {
        return new FilePosition(file, position);
    }

    /**
     * A MySQL GTID set such as {@code 3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5,3E11FA47-...:7}, with tags on MySQL 8.3+
     * ({@code 3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:mytag:1-3}); empty = everything.
     *
     * @throws GtidSetFormatException when the set does not parse (it names the text and the offset)
     */
    static MySqlGtidSet mysqlGtidSet(String gtidSet) {
        MySqlGtidSet set = new MySqlGtidSet(gtidSet);
        io.lanes.binlog.replication.internal.MySqlGtidSet.parse(set.gtidSet());
        return set;
    }

    /** A MariaDB GTID position such as {@code 0-1-100,1-2-7}; empty = from the first binlog. */
    static MariaDbGtid mariaDbGtid(String gtidPosition) {
        return new MariaDbGtid(gtidPosition);
    }

    /**
     * Parses what {@code toString()} wrote: {@code file:NAME:POS}, {@code mysql-gtid:SET} or {@code mariadb-gtid:POS}.
     *
     * @throws IllegalArgumentException when malformed ({@link GtidSetFormatException} for a bad MySQL GTID set)
     */
    static StartPosition parse(String text) {
        if (text.startsWith("file:")) {
            int colon = text.lastIndexOf(':');
            if (colon <= 5) {
                throw new IllegalArgumentException("expected file:NAME:POS, got " + text);
            }
            return new FilePosition(text.substring(5, colon), Long.parseLong(text.substring(colon + 1)));
        } else if (text.startsWith("mysql-gtid:")) {
            return mysqlGtidSet(text.substring("mysql-gtid:".length()));
        } else if (text.startsWith("mariadb-gtid:")) {
            return new MariaDbGtid(text.substring("mariadb-gtid:".length()));
        }
        throw new IllegalArgumentException("expected file:NAME:POS, mysql-gtid:SET or mariadb-gtid:POS, got " + text);
    }

    /** A binlog file and byte position. */
    record FilePosition(String file, long position) implements StartPosition {
        public FilePosition {
            Objects.requireNonNull(file, "file");
            if (file.isEmpty() || position < 4 || position > 0xFFFFFFFFL) {
                throw new IllegalArgumentException("bad binlog position " + file + ":" + position
                        + " (the file name must not be empty and the position must be within 4..4294967295)");
            }
        }

        @Override
        public String toString() {
            return "file:" + file + ":" + position;
        }
    }

    /**
     * A MySQL GTID set: the transactions the consumer already has. The text is kept as given, less whitespace.
     * {@link StartPosition#mysqlGtidSet} and {@link StartPosition#parse} check that it parses as MySQL reads GTID sets,
     * tags included; this constructor does not (the stream builds one per transaction from a set it printed), so a bad
     * set made with it fails when the client connects.
     */
    record MySqlGtidSet(String gtidSet) implements StartPosition {
        public MySqlGtidSet {
            Objects.requireNonNull(gtidSet, "gtidSet");
            gtidSet = GtidText.withoutWhitespace(gtidSet);
        }

        @Override
        public String toString() {
            return "mysql-gtid:" + gtidSet;
        }
    }

    /** A MariaDB GTID position: per domain, the last transaction the consumer has. */
    record MariaDbGtid(String gtidPosition) implements StartPosition {
        public MariaDbGtid {
            Objects.requireNonNull(gtidPosition, "gtidPosition");
            gtidPosition = GtidText.withoutWhitespace(gtidPosition);
            if (!gtidPosition.isEmpty() && !GtidText.isMariaDbPosition(gtidPosition)) {
                throw new IllegalArgumentException("bad MariaDB GTID position '" + gtidPosition
                        + "' (expected domain-server-sequence, comma-separated)");
            }
        }

        @Override
        public String toString() {
            return "mariadb-gtid:" + gtidPosition;
        }
    }
}
