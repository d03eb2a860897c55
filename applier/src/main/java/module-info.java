/**
 * Lanes' applier: binlog transactions to the parallel engine to JDBC targets (H2, PostgreSQL, MySQL/MariaDB) or a
 * user's sink; the {@code Lanes} facade, its configuration, the schema history and the target SPIs. Packages named
 * {@code internal} are implementation and are not exported.
 */
module io.lanes.applier {
    requires transitive io.lanes.binlog; // BinlogTransaction, StartPosition, ReplicationClient.Builder in the API
    requires transitive io.lanes.core; // Engine, ApplierFactory, CheckpointStore, RecoveryPoint in the API
    requires transitive java.sql; // ConnectionFactory, Dialect, the JDBC target
    requires org.slf4j;

    exports io.lanes.applier;
    exports io.lanes.applier.checkpoint;
    exports io.lanes.applier.ddl;
    exports io.lanes.applier.jdbc;
    exports io.lanes.applier.schema;
    exports io.lanes.applier.sink;
    exports io.lanes.applier.value;
}
