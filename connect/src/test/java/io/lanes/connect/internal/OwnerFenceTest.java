package io.lanes.connect.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;
import io.lanes.applier.SchemaMapping;
import io.lanes.applier.TableRef;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.connect.testing.Tables;
import io.lanes.core.CommitOrder;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Zombie fencing on a real PostgreSQL: a pipeline that lost its partition to a newer owner (which incremented the owner
 * epoch) fails its next commit instead of applying; the new owner resumes from the checkpoint the old one left.
 */
class OwnerFenceTest {
    static final String PG = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    private static AssembledTransaction insert(String schema, long offset, int id) {
        RowChange c = RowChange.insert(new TableRef(schema, "t"), new RowImage(List.of("id", "v"), new Object[] {id, "x" + id}));
        return new AssembledTransaction("tx" + offset, List.of(c), offset, offset + 1,
                new SourceOrder("bin.000001", 1000 + offset, ""), false, false, 100, null);
    }

    @Test
    void aZombieCommitIsRefusedAndTheNewOwnerResumesAtTheCheckpoint() throws Exception {
        String schema = "lc_fence_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100000;
        String ckpt = schema + "_ck";
        Tables.execute(PG, List.of("CREATE SCHEMA " + schema, "CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, v TEXT)"));
        try {
            PartitionPipeline.Settings settings = new PartitionPipeline.Settings("fence-test", PG,
                    ConnectionFactory.of(PG, new Properties()), Dialect.postgresql(), SchemaMapping.identity(), ckpt, 2,
                    CommitOrder.PER_PARTITION, true);
            PartitionPipeline old = new PartitionPipeline("topic-0", settings);
            assertEquals(-1, old.open());
            old.offer(insert(schema, 0, 1));
            old.offer(insert(schema, 1, 2));
            awaitRows(schema, 2);

            PartitionPipeline next = new PartitionPipeline("topic-0", settings);
            long resumeAt = next.open(); // takes the partition over: the old owner's epoch is stale from now on
            assertEquals(2, resumeAt, "the new owner resumes past what the old one committed");

            old.offer(insert(schema, 2, 3)); // the zombie goes on applying
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (old.failure() == null && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertNotNull(old.failure(), "the zombie's commit must fail");
            assertTrue(String.valueOf(rootMessage(old.failure())).contains("zombie fencing"), rootMessage(old.failure()));
            assertEquals(2, Tables.count(PG, "SELECT COUNT(*) FROM " + schema + ".t"), "nothing of the zombie's commit");

            next.offer(insert(schema, 2, 3));
            awaitRows(schema, 3);
            next.close();
            old.abort();
        } finally {
            Tables.execute(PG, List.of("DROP SCHEMA IF EXISTS " + schema + " CASCADE", "DROP SCHEMA IF EXISTS " + ckpt + " CASCADE"));
        }
    }

    private static String rootMessage(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getMessage()).append(" / ");
        }
        return sb.toString();
    }

    private static void awaitRows(String schema, long n) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (Tables.count(PG, "SELECT COUNT(*) FROM " + schema + ".t") < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("rows not applied in 20 s");
            }
            Thread.sleep(50);
        }
        // and the checkpoint with them (the low-water mark is saved by the checkpoint thread)
        Thread.sleep(700);
    }
}
