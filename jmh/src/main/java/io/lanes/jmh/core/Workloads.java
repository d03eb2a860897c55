package io.lanes.jmh.core;

import io.lanes.core.LogicalClock;
import io.lanes.core.LogicalClockScheduler;
import io.lanes.core.PartitionScheduler;
import io.lanes.core.Scheduler;
import io.lanes.core.SequentialScheduler;
import io.lanes.core.Transaction;
import io.lanes.core.WritesetScheduler;

/**
 * Pre-built transaction streams for the engine benchmarks, one per scheduling model, each with {@code streams}
 * independent lanes of work: {@code streams} schemas (partition), {@code streams} rows updated over and over
 * (writeset: every transaction conflicts with the previous one of its lane, as in the seed's sysbench updates), or
 * groups of {@code streams} transactions committed together on the source (logical clock).
 */
final class Workloads {
    private Workloads() {
    }

    static Scheduler scheduler(String model) {
        switch (model) {
            case "sequential":
                return new SequentialScheduler();
            case "partition":
                return new PartitionScheduler();
            case "logical-clock":
                return new LogicalClockScheduler();
            case "writeset":
                return new WritesetScheduler();
            default:
                throw new IllegalArgumentException(model);
        }
    }

    static Transaction<Object>[] build(String model, int count, int streams) {
        @SuppressWarnings("unchecked")
        Transaction<Object>[] txns = new Transaction[count];
        String[] schemas = new String[streams];
        for (int i = 0; i < streams; i++) {
            schemas[i] = "sbtest" + i;
        }
        for (int i = 0; i < count; i++) {
            int lane = i % streams;
            Transaction.Builder<Object> b = Transaction.builder(null).position(Integer.toString(i)).sizeBytes(200)
                    .partitionKey(schemas[lane]).writeKeys(lane * 0x9E3779B97F4A7C15L + 1);
            // MySQL clocks: a group commit of `streams` transactions; each group waits for the previous one.
            long seqNo = i + 1;
            long groupStart = (long) (i / streams) * streams;
            b.logicalClock(LogicalClock.mysql(groupStart, seqNo));
            txns[i] = b.build();
        }
        return txns;
    }
}
