package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.connect.internal.PartitionPipeline;
import io.lanes.connect.testing.Tables;
import io.lanes.core.CommitOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * KIP-875 on a real PostgreSQL: {@link LanesSinkConnector#alterOffsets} rewrites a partition's checkpoint so that the
 * next owner resumes at the given offset, removes it for a null offset, and fences the previous owner (epoch bumped).
 */
class AlterOffsetsTest {
    static final String PG = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    @Test
    void alteredOffsetsAreWhereTheNextOwnerResumesAndTheOldOwnerIsFenced() throws Exception {
        String ckpt = "lc_alter_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100000;
        Map<String, String> config = new HashMap<>();
        config.put("name", "alter-test");
        config.put(LanesSinkConfig.TARGET_URL, PG);
        config.put(LanesSinkConfig.CHECKPOINT_SCHEMA, ckpt);
        PartitionPipeline.Settings settings = new PartitionPipeline.Settings("alter-test", PG,
                ConnectionFactory.of(PG, new Properties()), Dialect.postgresql(), SchemaMapping.identity(), ckpt, 1,
                CommitOrder.PER_PARTITION, true);
        try {
            PartitionPipeline first = new PartitionPipeline("t-0", settings);
            assertEquals(-1, first.open());
            first.close();
            long epochBefore = Tables.count(PG, "SELECT epoch FROM " + ckpt + ".lanes_connect_owner");

            Map<TopicPartition, Long> offsets = new HashMap<>();
            offsets.put(new TopicPartition("t", 0), 4242L);
            assertTrue(new LanesSinkConnector().alterOffsets(config, offsets));
            assertTrue(Tables.count(PG, "SELECT epoch FROM " + ckpt + ".lanes_connect_owner") > epochBefore,
                    "the previous owner is fenced");
            PartitionPipeline next = new PartitionPipeline("t-0", settings);
            assertEquals(4242, next.open());
            next.close();

            offsets.put(new TopicPartition("t", 0), null);
            new LanesSinkConnector().alterOffsets(config, offsets);
            PartitionPipeline reset = new PartitionPipeline("t-0", settings);
            assertEquals(-1, reset.open(), "a reset leaves the partition to Connect's committed offset");
            reset.close();
        } finally {
            Tables.execute(PG, List.of("DROP SCHEMA IF EXISTS " + ckpt + " CASCADE"));
        }
    }
}
