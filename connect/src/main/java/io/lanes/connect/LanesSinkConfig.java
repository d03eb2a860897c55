package io.lanes.connect;

import io.lanes.applier.LanesConfig;
import io.lanes.applier.SchemaMapping;
import io.lanes.connect.internal.PartitionAssembler;
import io.lanes.core.CommitOrder;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/**
 * The {@link LanesSinkConnector}'s options (besides Connect's own: {@code topics}, {@code tasks.max}, converters ...).
 * docs/kafka-connect.md's reference table is generated from {@link #CONFIG_DEF} and checked by a test. Immutable.
 */
public final class LanesSinkConfig extends AbstractConfig {
    public static final String TARGET_URL = "lanes.target.url";
    public static final String TARGET_USER = "lanes.target.user";
    public static final String TARGET_PASSWORD = "lanes.target.password";
    public static final String WORKERS = "lanes.workers";
    public static final String COMMIT_ORDER = "lanes.commit.order";
    public static final String SCHEMA_MAP = "lanes.schema.map";
    public static final String CHECKPOINT_SCHEMA = "lanes.checkpoint.schema";
    public static final String TRANSACTION_END = "lanes.transaction.end";
    public static final String SNAPSHOT_CHUNK_ROWS = "lanes.snapshot.chunk.rows";
    public static final String BUFFER_TRANSACTIONS = "lanes.buffer.transactions";
    public static final String BUFFER_BYTES = "lanes.buffer.bytes";
    public static final String MAX_TRANSACTION_BYTES = "lanes.max.transaction.bytes";
    public static final String SKIP_DUPLICATES = "lanes.skip.duplicates";
    public static final String VALUE_CONVERTER = "lanes.value.converter";
    /** Settings of {@link #VALUE_CONVERTER}, this prefix removed (e.g. {@code lanes.value.converter.schemas.enable}). */
    public static final String VALUE_CONVERTER_PREFIX = VALUE_CONVERTER + ".";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(TARGET_URL, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "JDBC URL of the target: jdbc:postgresql:..., jdbc:mariadb:... / jdbc:mysql:..., or jdbc:h2:...")
            .define(TARGET_USER, Type.STRING, "", Importance.HIGH, "Target user (empty: the URL's or the driver's default).")
            .define(TARGET_PASSWORD, Type.PASSWORD, "", Importance.HIGH,
                    "Target password; Connect masks it in its REST API and logs, and Lanes never logs it.")
            .define(WORKERS, Type.INT, 4, ConfigDef.Range.between(1, 256), Importance.HIGH,
                    "Lanes workers (target connections) per topic-partition: each partition has its own engine whose"
                            + " writeset scheduler applies independent transactions of the partition in parallel.")
            .define(COMMIT_ORDER, Type.STRING, "partition", ConfigDef.ValidString.in("strict", "partition", "none"),
                    Importance.MEDIUM, "Commit order within a partition's engine: strict (source order: readers never see a"
                            + " state the source never had), partition (each schema's commits in source order), none.")
            .define(SCHEMA_MAP, Type.LIST, "", Importance.MEDIUM,
                    "Source schema renames, as source:target pairs (e.g. inventory:inventory_copy); other schemas keep"
                            + " their names.")
            .define(CHECKPOINT_SCHEMA, Type.STRING, "lanes", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                    "Target schema of the checkpoint table (lanes_checkpoint: Kafka offset and source position per"
                            + " partition and worker, written with the data) and the owner table (lanes_connect_owner).")
            .define(TRANSACTION_END, Type.STRING, "marker", ConfigDef.ValidString.in("marker", "next"), Importance.MEDIUM,
                    "What completes a Debezium transaction: marker (its END record from the transaction topic, routed into"
                            + " the same partition by io.lanes.connect.SchemaGroupRouter; the event count is checked) or"
                            + " next (the next transaction's first event: a lost tail cannot be detected). Lanes-format"
                            + " records carry their own count and ignore this.")
            .define(SNAPSHOT_CHUNK_ROWS, Type.INT, 1000, ConfigDef.Range.between(1, 1_000_000), Importance.LOW,
                    "Snapshot reads (no transaction) are applied in chunks of at most this many rows.")
            .define(BUFFER_TRANSACTIONS, Type.INT, 20_000, ConfigDef.Range.between(1, 10_000_000), Importance.LOW,
                    "Complete transactions queued per partition before put() pauses the partition (resumed at half).")
            .define(BUFFER_BYTES, Type.LONG, 64L << 20, ConfigDef.Range.atLeast(1 << 16), Importance.LOW,
                    "Estimated bytes queued per partition before put() pauses the partition (resumed at half).")
            .define(MAX_TRANSACTION_BYTES, Type.LONG, -1L, ConfigDef.Range.atLeast(-1), Importance.LOW,
                    "Estimated bytes of one transaction's records the task may hold (a transaction is applied whole,"
                            + " so all of them wait for its last); past it the task stops naming the record, rather than"
                            + " running the worker's heap out. -1: a quarter of the worker's maximum heap; 0: no limit.")
            .define(SKIP_DUPLICATES, Type.BOOLEAN, true, Importance.LOW,
                    "Skip (and count) a transaction whose source position is at or below the highest one already taken in"
                            + " its partition: what an at-least-once source sends again after a restart.")
            .define(VALUE_CONVERTER, Type.CLASS, "org.apache.kafka.connect.json.JsonConverter", Importance.MEDIUM,
                    "The converter of record values that arrive as bytes (the connector's value.converter set to "
                            + "org.apache.kafka.connect.converters.ByteArrayConverter): each partition's thread converts "
                            + "its own records with it, instead of Connect converting every partition's on the task's one "
                            + "thread. Its settings are given with the prefix lanes.value.converter. (schemas.enable "
                            + "defaults to true). Values that arrive converted are read as they are.");

    public LanesSinkConfig(Map<String, String> props) {
        super(CONFIG_DEF, props);
    }

    public String targetUrl() {
        return getString(TARGET_URL);
    }

    public String targetUser() {
        return getString(TARGET_USER);
    }

    public Password targetPassword() {
        return getPassword(TARGET_PASSWORD);
    }

    public int workers() {
        return getInt(WORKERS);
    }

    public CommitOrder commitOrder() {
        return LanesConfig.parseCommitOrder(getString(COMMIT_ORDER));
    }

    public String checkpointSchema() {
        return getString(CHECKPOINT_SCHEMA);
    }

    /** Package-private: its type is internal (the module exports io.lanes.connect only). */
    PartitionAssembler.End transactionEnd() {
        return PartitionAssembler.End.valueOf(getString(TRANSACTION_END).toUpperCase(Locale.ROOT));
    }

    public int snapshotChunkRows() {
        return getInt(SNAPSHOT_CHUNK_ROWS);
    }

    public int bufferTransactions() {
        return getInt(BUFFER_TRANSACTIONS);
    }

    public long bufferBytes() {
        return getLong(BUFFER_BYTES);
    }

    /** {@link #MAX_TRANSACTION_BYTES} in a JVM whose maximum heap is {@code maxHeapBytes}. */
    public long maxTransactionBytes(long maxHeapBytes) {
        long set = getLong(MAX_TRANSACTION_BYTES);
        return set >= 0 ? set : maxHeapBytes / 4;
    }

    public boolean skipDuplicates() {
        return getBoolean(SKIP_DUPLICATES);
    }

    /**
     * A new, configured converter for values that arrive as bytes (one per partition: converters keep caches and need
     * not be thread-safe).
     */
    public org.apache.kafka.connect.storage.Converter rawValueConverter() {
        Map<String, Object> settings = new java.util.HashMap<>();
        settings.put("schemas.enable", "true");
        settings.putAll(originalsWithPrefix(VALUE_CONVERTER_PREFIX));
        org.apache.kafka.connect.storage.Converter converter;
        try {
            converter = (org.apache.kafka.connect.storage.Converter) getClass(VALUE_CONVERTER).getDeclaredConstructor()
                    .newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new org.apache.kafka.common.config.ConfigException(VALUE_CONVERTER, getClass(VALUE_CONVERTER).getName(),
                    "not a Converter with a public no-argument constructor: " + e);
        }
        converter.configure(settings, false);
        return converter;
    }

    /** The schema renames as a mapping. @throws org.apache.kafka.common.config.ConfigException when malformed */
    public SchemaMapping mapping() {
        SchemaMapping.Builder b = SchemaMapping.builder();
        for (String pair : getList(SCHEMA_MAP)) {
            int colon = pair.indexOf(':');
            if (colon <= 0 || colon == pair.length() - 1) {
                throw new org.apache.kafka.common.config.ConfigException(SCHEMA_MAP, pair, "expected source:target");
            }
            b.rename(pair.substring(0, colon).trim(), pair.substring(colon + 1).trim());
        }
        return b.build();
    }
}
