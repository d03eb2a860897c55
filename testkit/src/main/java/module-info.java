/**
 * Lanes' test kit, for tests and benchmarks of code that uses Lanes: {@code io.lanes.testkit} ({@code FakeBinlogServer},
 * a fake MySQL/MariaDB source serving binlog files over the replication protocol, and {@code Workloads}, seeded
 * synthetic workloads). {@code io.lanes.testkit.internal} is implementation and is not exported.
 *
 * <p>The fake source speaks the protocol with binlog-api's own framing and authentication code, which
 * {@code io.lanes.binlog} exports to this module alone (a qualified export), not to its users.
 */
module io.lanes.testkit {
    requires transitive io.lanes.binlog; // BinlogWriter, Table in Workloads' API
    requires transitive io.lanes.core; // Scheduler, Transaction in Workloads' API
    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.transport;

    exports io.lanes.testkit;
}
