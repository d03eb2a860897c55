/**
 * Following a live MySQL or MariaDB server's binary log as a replica does, and an in-process fake source to test with.
 *
 * <ul>
 *   <li>{@link io.lanes.binlog.replication.ReplicationClient}: one Netty connection (handshake v10; mysql_native_password,
 *       caching_sha2_password, MariaDB client_ed25519, auth switch; TLS by {@link io.lanes.binlog.replication.TlsMode});
 *       replica setup (checksums, heartbeat period, MariaDB slave capability and GTID connect state, COM_REGISTER_SLAVE);
 *       COM_BINLOG_DUMP by file and position or MariaDB GTID, COM_BINLOG_DUMP_GTID by MySQL GTID set; semi-sync
 *       acknowledgements on request. Events are handed over as {@link io.lanes.binlog.replication.ReplicationEvent}s
 *       (raw bytes with file and position) through a byte-bounded buffer: pulled with {@code poll}, or pushed to a
 *       {@link io.lanes.binlog.replication.ReplicationListener} or, decoded, to a
 *       {@link io.lanes.binlog.replication.DecodedEventListener} on the consumer's executor. A full buffer stops the
 *       socket reads (backpressure); a lost connection is re-opened with backoff at the last transaction boundary and
 *       the events of a cut transaction the consumer already has are skipped.</li>
 *   <li>{@link io.lanes.binlog.replication.StartPosition}: where a stream starts; every event carries the position to
 *       resume from after it ({@link io.lanes.binlog.replication.ReplicationEvent#resumePosition()}).</li>
 *   <li>{@link io.lanes.binlog.replication.ReplicationException}: failures a retry would not cure, by
 *       {@link io.lanes.binlog.replication.ReplicationException.Kind}; never containing a password.</li>
 * </ul>
 *
 * <p>A fake source that serves binlog files over this protocol, with fault injection, for tests without a database
 * server, is {@code io.lanes.testkit.FakeBinlogServer} in the separate {@code lanes-testkit} artifact.
 *
 * <p>Implementation classes live in {@code io.lanes.binlog.replication.internal} and are not API.
 */
package io.lanes.binlog.replication;
