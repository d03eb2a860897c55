package io.lanes.connect;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Utils;

/**
 * Schema -> Kafka partition, by group: schemas that transactions write together form one group and share a partition,
 * so that no transaction is split across partitions; every schema not listed is a group of its own. A group's partition
 * is a hash (murmur2, as Kafka's own partitioner) of its first schema modulo the partition count. Immutable.
 *
 * <p>Text form: groups separated by {@code ;}, schemas of a group by {@code ,} ({@code shop,billing;crm}).
 */
public final class SchemaGroups {
    private final Map<String, String> groupOf = new HashMap<>();
    private final int partitions;

    public SchemaGroups(String groups, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, not " + partitions);
        }
        this.partitions = partitions;
        for (String group : groups.split(";")) {
            String[] schemas = group.split(",");
            String first = schemas[0].trim();
            for (String s : schemas) {
                if (!s.isBlank()) {
                    String prev = groupOf.put(s.trim(), first);
                    if (prev != null && !prev.equals(first)) {
                        throw new IllegalArgumentException("schema " + s.trim() + " is in two groups");
                    }
                }
            }
        }
    }

    /** The group (its first schema) of a schema. */
    public String groupOf(String schema) {
        return groupOf.getOrDefault(schema, schema);
    }

    /** The partition of a schema's group. */
    public int partitionOf(String schema) {
        return Utils.toPositive(Utils.murmur2(groupOf(schema).getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
