package io.lanes.connect;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * A single message transform for a Debezium MySQL/MariaDB source: sends every record of the connector (row changes,
 * schema changes, and the transaction topic's END records) to one topic, partitioned by schema group, so that each
 * source transaction lands whole in one partition, in order, followed by its END record: what the
 * {@link LanesSinkConnector} needs to apply transactions whole.
 *
 * <p>Schema groups: {@code groups} lists the schemas that transactions write together ({@code a,b;c,d}: a with b, c with
 * d); every other schema is a group of its own. A group's partition is a hash of its first schema modulo
 * {@code partitions}. A transaction whose END lists tables of two groups is a {@link DataException} (it would be split):
 * put those schemas in one group ({@code lanes stat} reports which schemas a binlog writes together).
 * BEGIN records carry nothing the sink needs and are dropped; a schema change without a database goes to partition 0.
 *
 * <p>Stateless after configuration; thread-safe.
 */
public class SchemaGroupRouter<R extends ConnectRecord<R>> implements Transformation<R> {
    public static final String TOPIC = "topic";
    public static final String PARTITIONS = "partitions";
    public static final String GROUPS = "groups";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(TOPIC, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "The one topic every record goes to.")
            .define(PARTITIONS, Type.INT, 1, ConfigDef.Range.atLeast(1), Importance.HIGH,
                    "The topic's partition count (create the topic with it).")
            .define(GROUPS, Type.STRING, "", Importance.MEDIUM,
                    "Schemas written together, as groups separated by ';' of schemas separated by ','.");

    private String topic;
    private SchemaGroups groups;

    @Override
    public void configure(Map<String, ?> configs) {
        AbstractConfig c = new AbstractConfig(CONFIG_DEF, configs);
        topic = c.getString(TOPIC);
        groups = new SchemaGroups(c.getString(GROUPS), c.getInt(PARTITIONS));
    }

    /** The partition of a schema's group. */
    public int partitionOf(String schema) {
        return groups.partitionOf(schema);
    }

    @Override
    public R apply(R record) {
        if (!(record.value() instanceof Struct v)) {
            // A tombstone: it follows its delete, keyed like it; route it with the record's own table when known.
            return record.newRecord(topic, 0, record.keySchema(), record.key(), record.valueSchema(), record.value(),
                    record.timestamp(), record.headers());
        }
        int partition;
        if (v.schema().field("status") != null && v.schema().field("data_collections") != null) {
            if ("BEGIN".equals(v.getString("status"))) {
                return null;
            }
            partition = endPartition(v);
        } else if (v.schema().field("ddl") != null) {
            String db = v.schema().field("databaseName") != null ? v.getString("databaseName") : null;
            partition = db == null || db.isEmpty() ? 0 : partitionOf(db);
        } else if (v.schema().field("source") != null && v.getStruct("source") != null) {
            partition = partitionOf(v.getStruct("source").getString("db"));
        } else {
            throw new DataException("SchemaGroupRouter: a record of " + record.topic() + " that is neither a change event,"
                    + " a schema change nor a transaction marker");
        }
        return record.newRecord(topic, partition, record.keySchema(), record.key(), record.valueSchema(), record.value(),
                record.timestamp(), record.headers());
    }

    private int endPartition(Struct v) {
        List<?> collections = v.getArray("data_collections");
        int partition = -1;
        String first = null;
        if (collections != null) {
            for (Object o : collections) {
                String name = ((Struct) o).getString("data_collection");
                int dot = name.indexOf('.');
                String schema = dot < 0 ? name : name.substring(0, dot);
                int p = partitionOf(schema);
                if (partition >= 0 && p != partition) {
                    throw new DataException("transaction " + v.getString("id") + " writes " + first + " and " + name
                            + ", which are in different schema groups: list their schemas in one group of "
                            + "SchemaGroupRouter's 'groups' so the transaction is not split");
                }
                partition = p;
                first = name;
            }
        }
        return Math.max(partition, 0);
    }

    @Override
    public ConfigDef config() {
        return CONFIG_DEF;
    }

    @Override
    public void close() {
    }
}
