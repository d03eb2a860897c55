/**
 * Lanes' MySQL/MariaDB binary log API: decode and encode binlog events ({@code io.lanes.binlog},
 * {@code io.lanes.binlog.encode}, {@code io.lanes.binlog.value}, {@code io.lanes.binlog.json}), the GTID model
 * ({@code io.lanes.binlog.gtid}) and the replication client ({@code io.lanes.binlog.replication}). Packages named
 * {@code internal} are not exported: they are implementation, free to change between releases.
 */
@SuppressWarnings("module") // the qualified export's target, io.lanes.testkit, is built after this module
module io.lanes.binlog {
    requires java.sql; // SqlSecrets: masks secrets in SQLException messages
    requires org.slf4j;
    requires com.github.luben.zstd_jni;
    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.common;
    requires io.netty.handler;
    requires transitive io.netty.transport; // ReplicationClient.Builder takes an EventLoopGroup

    exports io.lanes.binlog;
    exports io.lanes.binlog.encode;
    exports io.lanes.binlog.gtid;
    exports io.lanes.binlog.json;
    exports io.lanes.binlog.replication;
    exports io.lanes.binlog.value;

    // Not API: lanes-testkit's fake source speaks the replication protocol with the client's own packet framing and
    // authentication code; exported to that module alone, so that it, too, can carry a module descriptor.
    exports io.lanes.binlog.replication.internal to io.lanes.testkit;
}
