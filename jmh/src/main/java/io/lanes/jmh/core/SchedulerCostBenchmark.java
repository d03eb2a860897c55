package io.lanes.jmh.core;

import io.lanes.core.CommitOrder;
import io.lanes.core.PartitionScheduler;
import io.lanes.core.Placement;
import io.lanes.core.Scheduler;
import io.lanes.core.SchedulingContext;
import io.lanes.core.Transaction;
import io.lanes.core.WritesetScheduler;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a scheduler costs the dispatching thread per transaction, on its own: the time of {@link Scheduler#schedule}
 * over a stream of transactions shaped like issue 19's logs, with an engine that keeps the last {@link #IN_FLIGHT}
 * transactions in flight on worker 0 (as on 2 processors shared with the target, where every scheduler places the
 * work there) under the default commit order. The dispatching thread also reads, decodes and converts, and on such a
 * machine it is what worker 0 waits for part of the time, so the scheduler's cost is paid on the critical path.
 *
 * <p>Workloads: {@code oltp}, one schema and sysbench oltp_write_only's shape (four row keys per transaction, from 4
 * tables of 10,000 rows); {@code mixed}, two schemas of small transactions with one of 40,000 rows every
 * {@link #TRANSACTIONS} (issue 19's workload 1 has one such bulk transaction in 2,503).
 *
 * <pre>{@code java -jar jmh/target/benchmarks.jar SchedulerCost -f 1 -wi 3 -i 5}</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SchedulerCostBenchmark {
    /** Transactions per invocation. */
    public static final int TRANSACTIONS = 20_000;
    /** Transactions dispatched and not committed at any time. */
    public static final int IN_FLIGHT = 256;

    @Param({"schema", "writeset"})
    public String scheduler;

    @Param({"oltp", "mixed"})
    public String workload;

    private Transaction<?>[] stream;
    private Scheduler policy;
    private final Window window = new Window();

    @Setup
    public void setUp() {
        stream = workload(workload, 42);
        policy = switch (scheduler) {
            case "schema" -> new PartitionScheduler();
            case "writeset" -> new WritesetScheduler();
            default -> throw new IllegalArgumentException("scheduler: " + scheduler);
        };
    }

    @Benchmark
    @OperationsPerInvocation(TRANSACTIONS)
    public long schedule() {
        window.next = 0;
        window.placement.waits = 0;
        policy.init(window);
        long workers = 0;
        for (Transaction<?> t : stream) {
            window.next++;
            window.placement.worker = -1;
            policy.schedule(t, window.placement);
            workers += window.placement.worker;
        }
        return workers;
    }

    /** The sum of every wait the scheduler recorded in the last pass (a check that it recorded some). */
    long recordedWaits() {
        return window.placement.waits;
    }

    /** The transactions of a workload: the same for the same seed. */
    static Transaction<?>[] workload(String name, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Transaction<?>[] out = new Transaction<?>[TRANSACTIONS];
        for (int i = 0; i < TRANSACTIONS; i++) {
            String schema;
            long[] keys;
            if (name.equals("oltp")) {
                schema = "sb";
                keys = rowKeys(random, 4, 4, 10_000, 0);
            } else if (name.equals("mixed")) {
                schema = random.nextBoolean() ? "mix1" : "mix2";
                keys = i == TRANSACTIONS / 2 ? rowKeys(random, 40_000, 1, 1_000_000, 1L << 40)
                        : rowKeys(random, 1 + random.nextInt(6), 6, 5_000, schema.equals("mix1") ? 0 : 1L << 32);
            } else {
                throw new IllegalArgumentException("workload: " + name);
            }
            out[i] = Transaction.builder(null).position(Integer.toString(i)).partitionKeys(schema).writeKeys(keys)
                    .build();
        }
        return out;
    }

    /** {@code count} hashed row keys of {@code tables} tables of {@code rows} rows each. */
    private static long[] rowKeys(SplittableRandom random, int count, int tables, int rows, long space) {
        long[] keys = new long[count];
        for (int k = 0; k < count; k++) {
            long row = space + (long) random.nextInt(tables) * rows + random.nextInt(rows);
            keys[k] = row * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        }
        return keys;
    }

    /** The engine as a scheduler sees it: the last {@link #IN_FLIGHT} transactions in flight on worker 0, busy processors. */
    static final class Window implements SchedulingContext {
        long next;
        final Decision placement = new Decision();

        Window() {
            placement.window = this;
        }

        @Override
        public int workerCount() {
            return 4;
        }

        @Override
        public boolean isCommitted(long sequence) {
            return sequence <= lowWaterMark();
        }

        @Override
        public int workerOf(long sequence) {
            return isCommitted(sequence) ? -1 : 0;
        }

        @Override
        public int leastLoadedWorker() {
            return 0;
        }

        @Override
        public int workerForIdleKey(int previous) {
            return 0;
        }

        @Override
        public boolean processorsToSpare() {
            return false;
        }

        @Override
        public int pendingTransactions(int worker) {
            return worker == 0 ? (int) Math.min(next - 1, IN_FLIGHT) : 0;
        }

        @Override
        public long lowWaterMark() {
            return Math.max(0, next - 1 - IN_FLIGHT);
        }

        @Override
        public CommitOrder commitOrder() {
            return CommitOrder.PER_PARTITION;
        }
    }

    /** The placement a scheduler records, reduced to what it costs to record. */
    static final class Decision implements Placement {
        Window window;
        int worker;
        long waits;

        @Override
        public long sequence() {
            return window.next;
        }

        @Override
        public Placement toWorker(int w) {
            worker = w;
            return this;
        }

        @Override
        public Placement after(long sequence) {
            waits += sequence;
            return this;
        }

        @Override
        public Placement afterAllUpTo(long sequence) {
            waits += sequence;
            return this;
        }

        @Override
        public Placement asBarrier() {
            return this;
        }
    }
}
