package io.lanes.micrometer;

import java.util.List;
import java.util.Locale;

/**
 * One meter {@link LanesMetrics} registers: its Micrometer name, kind, base unit, tags and meaning. The metric reference
 * in docs/operations.md is generated from {@link LanesMetrics#meters()} and a test checks it against what a registry
 * really exports.
 *
 * @param name the Micrometer name (dot-separated)
 * @param kind counter (only ever grows while the pipeline runs) or gauge (a value now)
 * @param baseUnit seconds, bytes, or null for a count
 * @param tags the tag keys besides {@code pipeline}
 * @param source the {@code LanesStats} / {@code EngineStats} / {@code WorkerStats} field it reads
 * @param description what it means
 */
public record LanesMeter(String name, Kind kind, String baseUnit, List<String> tags, String source,
        String description) {

    /** Counter or gauge. */
    public enum Kind {
        COUNTER, GAUGE
    }

    public LanesMeter {
        tags = List.copyOf(tags);
    }

    /**
     * The name Prometheus shows (Micrometer's Prometheus naming): dots become underscores, the base unit is appended
     * unless the name ends with it, and counters end in {@code _total}.
     */
    public String prometheusName() {
        String n = name.replace('.', '_').toLowerCase(Locale.ROOT);
        if (baseUnit != null && !n.endsWith("_" + baseUnit)) {
            n = n + "_" + baseUnit;
        }
        return kind == Kind.COUNTER ? n + "_total" : n;
    }
}
