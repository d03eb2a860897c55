package io.lanes.binlog.replication;

import io.lanes.binlog.gtid.GtidSet;
import io.lanes.binlog.gtid.GtidSetFormatException;
import io.lanes.binlog.gtid.MariaDbGtidPosition;
import io.lanes.binlog.gtid.MySqlGtidSet;
import io.lanes.binlog.gtid.SourcePosition;
import java.util.Objects;

/**
 * Where a replication stream starts (and where a reconnect or a later run resumes): a binlog file and byte position, a
 * MySQL GTID set (the transactions already seen: the server sends every other one), or a MariaDB GTID position (the last
 * transaction seen in each replication domain).
 *
 * <p>Values are immutable. Text form ({@code toString()}, read back by {@link #parse(String)}): a file position as every
 * position in Lanes is written, {@code NAME:POS} (see {@link SourcePosition}); a GTID start as {@code gtid=SET}, whose
 * flavour the set's text tells ({@link GtidSet#parse}); an empty GTID start, which names no flavour by its text, as
 * {@code mysql-gtid:} or {@code mariadb-gtid:}.
 */
public sealed interface StartPosition {
    /** Prefix of a GTID start's text. */
    String GTID_PREFIX = "gtid=";
    /** Prefixes that name the flavour (the only form of an empty GTID start; older releases wrote every GTID so). */
    String MYSQL_GTID_PREFIX = "mysql-gtid:";
    String MARIADB_GTID_PREFIX = "mariadb-gtid:";

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
    static MySqlGtids mysqlGtidSet(String gtidSet) {
        MySqlGtids start = new MySqlGtids(gtidSet);
        MySqlGtidSet.parse(start.gtidSet());
        return start;
    }

    /**
     * A MariaDB GTID position such as {@code 0-1-100,1-2-7}; empty = from the first binlog.
     *
     * @throws GtidSetFormatException when it does not parse (it names the offset)
     */
    static MariaDbGtids mariaDbGtid(String gtidPosition) {
        return new MariaDbGtids(gtidPosition);
    }

    /** A GTID start from a set of either flavour (its text at this moment). */
    static StartPosition gtids(GtidSet set) {
        return set instanceof MySqlGtidSet ? new MySqlGtids(set.toString()) : new MariaDbGtids(set.toString());
    }

    /**
     * Where a stream resumes after {@code at}: its GTID state when it has one (of the flavour its text tells), else its
     * file and offset.
     *
     * @throws IllegalArgumentException when the GTID state does not parse, or the offset is not a binlog position
     */
    static StartPosition resumingAt(SourcePosition at) {
        return at.hasGtids() ? gtids(at.gtidState()) : file(at.file(), at.offset());
    }

    /**
     * A GTID start from a set's text, its flavour told by {@link GtidSet#parse}; the text is kept as given (less
     * whitespace).
     *
     * @throws IllegalArgumentException when empty or malformed ({@link GtidSetFormatException} naming the offset)
     */
    static StartPosition gtids(String text) {
        return GtidSet.parse(text) instanceof MySqlGtidSet ? new MySqlGtids(text) : new MariaDbGtids(text);
    }

    /**
     * Parses what {@code toString()} wrote, and every position text Lanes writes: {@code NAME:POS},
     * {@code gtid=SET}, {@code mysql-gtid:SET}, {@code mariadb-gtid:POS}, a checkpoint's {@code NAME:POS gtid=STATE}
     * (resuming from its GTID state) and the older {@code file:NAME:POS}.
     *
     * @throws IllegalArgumentException when malformed ({@link GtidSetFormatException} for a bad GTID set)
     */
    static StartPosition parse(String text) {
        Objects.requireNonNull(text, "text");
        if (text.startsWith(MYSQL_GTID_PREFIX)) {
            return mysqlGtidSet(text.substring(MYSQL_GTID_PREFIX.length()));
        } else if (text.startsWith(MARIADB_GTID_PREFIX)) {
            return new MariaDbGtids(text.substring(MARIADB_GTID_PREFIX.length()));
        } else if (text.startsWith(GTID_PREFIX)) {
            return gtids(text.substring(GTID_PREFIX.length()));
        }
        SourcePosition p;
        try {
            p = SourcePosition.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected NAME:POS, gtid=SET, mysql-gtid:SET or mariadb-gtid:POS, got "
                    + text, e);
        }
        return resumingAt(p);
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
            return new SourcePosition(file, position).toString();
        }
    }

    /**
     * A MySQL GTID set: the transactions the consumer already has. The text is kept as given, less whitespace (a
     * stream makes one start per transaction, from a set it printed). {@link StartPosition#mysqlGtidSet} and
     * {@link StartPosition#parse} check that it parses as MySQL reads GTID sets, tags included; this constructor does
     * not, so a bad set made with it fails when the client connects.
     */
    record MySqlGtids(String gtidSet) implements StartPosition {
        public MySqlGtids {
            Objects.requireNonNull(gtidSet, "gtidSet");
            gtidSet = MariaDbGtidPosition.withoutWhitespace(gtidSet);
        }

        /** The set, parsed: a new set on each call. @throws GtidSetFormatException when it does not parse */
        public MySqlGtidSet gtids() {
            return MySqlGtidSet.parse(gtidSet);
        }

        @Override
        public String toString() {
            return gtidSet.isEmpty() ? MYSQL_GTID_PREFIX : GTID_PREFIX + gtidSet;
        }
    }

    /** A MariaDB GTID position: per domain, the last transaction the consumer has. Whitespace is dropped. */
    record MariaDbGtids(String gtidPosition) implements StartPosition {
        public MariaDbGtids {
            Objects.requireNonNull(gtidPosition, "gtidPosition");
            gtidPosition = MariaDbGtidPosition.withoutWhitespace(gtidPosition);
            if (!gtidPosition.isEmpty() && !MariaDbGtidPosition.isPosition(gtidPosition)) {
                MariaDbGtidPosition.parse(gtidPosition); // throws, naming the offset
                throw new IllegalArgumentException("bad MariaDB GTID position '" + gtidPosition
                        + "' (expected domain-server-sequence, comma-separated, without empty elements)");
            }
        }

        /** The position, parsed: a new one on each call. */
        public MariaDbGtidPosition gtids() {
            return MariaDbGtidPosition.parse(gtidPosition);
        }

        @Override
        public String toString() {
            return gtidPosition.isEmpty() ? MARIADB_GTID_PREFIX : GTID_PREFIX + gtidPosition;
        }
    }
}
