package io.lanes.binlog;

/**
 * A global transaction identifier: MySQL's {@code uuid[:tag]:gno} ({@link MysqlGtid}) or MariaDB's
 * {@code domain-server-sequence} ({@link MariaGtid}). {@code toString()} gives the server's own text form. Immutable.
 */
public sealed interface Gtid permits MysqlGtid, MariaGtid {
}
