/**
 * Lanes on Kafka Connect: {@code io.lanes.connect} (the sink and source connectors, their configurations, the
 * {@code SchemaGroupRouter} transformation and the {@code LanesHeaders} names). {@code io.lanes.connect.internal} is
 * implementation and is not exported.
 *
 * <p>A Connect worker loads plugins from its {@code plugin.path} through class loaders, on the class path, where this
 * descriptor is ignored and the connectors are found through {@code META-INF/services}. The descriptor is there for
 * code that puts the jar on the module path (embedding a connector, or tests of one): it gets the same boundary as the
 * other Lanes modules, and the {@code provides} clauses below repeat the service files for the module path.
 */
module io.lanes.connect {
    requires transitive io.lanes.applier; // SchemaMapping, CommitOrder in LanesSinkConfig
    requires org.slf4j;
    // Kafka's jars have no module descriptor nor Automatic-Module-Name: these are the names the JDK derives from their
    // file names (connect-api-V.jar, kafka-clients-V.jar), not stable ones; the worker provides both (provided scope).
    requires transitive connect.api; // SinkConnector, SourceConnector, Transformation, ConnectRecord in the API
    requires transitive kafka.clients; // ConfigDef, AbstractConfig, Password, TopicPartition in the API

    exports io.lanes.connect;

    provides org.apache.kafka.connect.sink.SinkConnector with io.lanes.connect.LanesSinkConnector;
    provides org.apache.kafka.connect.source.SourceConnector with io.lanes.connect.LanesSourceConnector;
    provides org.apache.kafka.connect.transforms.Transformation with io.lanes.connect.SchemaGroupRouter;
}
