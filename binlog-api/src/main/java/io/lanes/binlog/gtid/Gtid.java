package io.lanes.binlog.gtid;

/**
 * A global transaction identifier: MySQL's {@code uuid[:tag]:gno} ({@link MySqlGtid}) or MariaDB's
 * {@code domain-server-sequence} ({@link MariaDbGtid}). {@code toString()} gives the server's own text form. Immutable.
 *
 * <p>A {@link GtidSet} of the same flavour holds many: {@link MySqlGtidSet} for MySQL, {@link MariaDbGtidPosition} for
 * MariaDB.
 */
public sealed interface Gtid permits MySqlGtid, MariaDbGtid {
}
