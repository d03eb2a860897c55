package io.lanes.connect;

import io.lanes.applier.LanesConfig;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/**
 * The {@link LanesSourceConnector}'s options. docs/kafka-connect.md's reference table is generated from
 * {@link #CONFIG_DEF} and checked by a test. Immutable.
 */
public final class LanesSourceConfig extends AbstractConfig {
    public static final String HOST = "lanes.source.host";
    public static final String PORT = "lanes.source.port";
    public static final String USER = "lanes.source.user";
    public static final String PASSWORD = "lanes.source.password";
    public static final String SERVER_ID = "lanes.source.server.id";
    public static final String START = "lanes.source.start";
    public static final String TOPIC = "lanes.topic";
    public static final String PARTITIONS = "lanes.topic.partitions";
    public static final String GROUPS = "lanes.schema.groups";
    public static final String KEY = "lanes.record.key";
    public static final String PREFIX = "lanes.schema.name.prefix";
    public static final String INCLUDE_SCHEMAS = "lanes.source.schemas";
    public static final String LARGE_TRANSACTION_BYTES = "lanes.source.large.transaction.bytes";
    public static final String SPILL_THRESHOLD_BYTES = "lanes.source.spill.threshold.bytes";
    public static final String SPILL_DIRECTORY = "lanes.source.spill.directory";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(HOST, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "The MySQL/MariaDB server to follow (one task per server).")
            .define(PORT, Type.INT, 3306, ConfigDef.Range.between(1, 65535), Importance.HIGH, "Its port.")
            .define(USER, Type.STRING, "root", Importance.HIGH,
                    "A user with REPLICATION SLAVE, REPLICATION CLIENT and SELECT on information_schema.")
            .define(PASSWORD, Type.PASSWORD, "", Importance.HIGH, "Its password (masked by Connect, never logged).")
            .define(SERVER_ID, Type.LONG, 6400L, ConfigDef.Range.between(1, 4294967295L), Importance.HIGH,
                    "The replica server id to register with (unique among the server's replicas).")
            .define(START, Type.STRING, "", Importance.MEDIUM,
                    "Where a first start reads from: FILE:POS, a MySQL GTID set, a MariaDB GTID position, or empty for"
                            + " the server's current end. Later starts resume from Connect's source offsets.")
            .define(TOPIC, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "The topic every record goes to (create it with lanes.topic.partitions partitions).")
            .define(PARTITIONS, Type.INT, 1, ConfigDef.Range.atLeast(1), Importance.HIGH,
                    "The topic's partitions: each schema group's transactions go whole to one of them.")
            .define(GROUPS, Type.STRING, "", Importance.MEDIUM,
                    "Schemas written together ('a,b;c'): a group shares a partition. A transaction writing two groups"
                            + " stops the task (it would be split).")
            .define(KEY, Type.STRING, "schema", ConfigDef.ValidString.in("schema", "table"), Importance.LOW,
                    "Record key: the schema name, or schema.table.")
            .define(PREFIX, Type.STRING, "lanes", Importance.LOW,
                    "Prefix of the value schema names (prefix.schema.table.Envelope), as Debezium's topic.prefix.")
            .define(INCLUDE_SCHEMAS, Type.LIST, "", Importance.MEDIUM,
                    "Schemas whose changes are emitted (empty: all but the system schemas).")
            .define(LARGE_TRANSACTION_BYTES, Type.LONG, LanesConfig.DEFAULT_LARGE_TRANSACTION_BYTES,
                    ConfigDef.Range.atLeast(0), Importance.LOW,
                    "A transaction of row changes whose row events take at least this many bytes is converted as its"
                            + " records are handed to Connect, 2,000 a poll, never whole (0: every transaction whole).")
            .define(SPILL_THRESHOLD_BYTES, Type.LONG, -1L, ConfigDef.Range.atLeast(-1), Importance.LOW,
                    "Bytes of row images a transaction being read keeps in the heap; the rest wait in a temporary file"
                            + " until its records are handed out. -1: an eighth of the worker's maximum heap, at least "
                            + LARGE_TRANSACTION_BYTES + " (0 when that is 0); 0: never.")
            .define(SPILL_DIRECTORY, Type.STRING, "", Importance.LOW,
                    "Where those files go (removed as soon as they are open); empty: the JVM's temporary directory.");

    public LanesSourceConfig(Map<String, String> props) {
        super(CONFIG_DEF, props);
    }

    public String host() {
        return getString(HOST);
    }

    public int port() {
        return getInt(PORT);
    }

    public String user() {
        return getString(USER);
    }

    public Password password() {
        return getPassword(PASSWORD);
    }

    public long serverId() {
        return getLong(SERVER_ID);
    }

    public String start() {
        return getString(START);
    }

    public String topic() {
        return getString(TOPIC);
    }

    public SchemaGroups groups() {
        return new SchemaGroups(getString(GROUPS), getInt(PARTITIONS));
    }

    public boolean keyByTable() {
        return "table".equals(getString(KEY));
    }

    public String prefix() {
        return getString(PREFIX);
    }

    /** {@link #LARGE_TRANSACTION_BYTES}. */
    public long largeTransactionBytes() {
        return getLong(LARGE_TRANSACTION_BYTES);
    }

    /** {@link #SPILL_THRESHOLD_BYTES} in a JVM whose maximum heap is {@code maxHeapBytes}, as Lanes' own pipeline reads it. */
    public long spillThresholdBytes(long maxHeapBytes) {
        long set = getLong(SPILL_THRESHOLD_BYTES);
        return set >= 0 ? set : LanesConfig.defaultSpillThresholdBytes(largeTransactionBytes(), maxHeapBytes);
    }

    /** {@link #SPILL_DIRECTORY}; null: the JVM's temporary directory. */
    public Path spillDirectory() {
        String dir = getString(SPILL_DIRECTORY);
        return dir.isEmpty() ? null : Path.of(dir);
    }

    public java.util.List<String> schemas() {
        return getList(INCLUDE_SCHEMAS);
    }
}
