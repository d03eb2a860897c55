package io.lanes.connect.bench;

import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * For the peer run's Confluent JDBC sink, which names a record's table after its topic: gives each Debezium change
 * event the topic {@code <source db>_<source table>} (the table it has on the flat peer targets) and drops every other
 * record of the shared topic (the transaction topic's BEGIN/END records that {@code SchemaGroupRouter} routed into it).
 * What a user of that sink would write for a topic that carries several tables; Debezium's JDBC sink does the same with
 * {@code collection.name.format=${source.db}_${source.table}}.
 */
public final class SourceTableTopic<R extends ConnectRecord<R>> implements Transformation<R> {
    @Override
    public R apply(R record) {
        if (!(record.value() instanceof Struct value) || value.schema().field("source") == null
                || value.schema().field("op") == null) {
            return null;
        }
        Struct source = value.getStruct("source");
        String topic = source.getString("db") + "_" + source.getString("table");
        return record.newRecord(topic, record.kafkaPartition(), record.keySchema(), record.key(), record.valueSchema(),
                record.value(), record.timestamp(), record.headers());
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef();
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }

    @Override
    public void close() {
    }
}
