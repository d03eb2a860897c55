/**
 * Lanes' Micrometer binder: {@code io.lanes.micrometer} ({@code LanesMetrics}, {@code LanesMeter}), meters for a
 * pipeline read from its own statistics. The module has no internal package; Micrometer stays out of the library
 * modules and lives here only.
 */
module io.lanes.micrometer {
    requires transitive io.lanes.applier; // LanesMetrics.of(Lanes), Supplier<LanesStats> in the API
    requires io.lanes.core; // EngineStats, WorkerStats, WaitState: read, not in the API
    // micrometer-core has no module descriptor; its jar names itself micrometer.core (Automatic-Module-Name)
    requires transitive micrometer.core; // MeterBinder, MeterRegistry, Tag in the API

    exports io.lanes.micrometer;
}
