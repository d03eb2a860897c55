package io.lanes.jmh.apply;

import io.lanes.applier.Change;
import io.lanes.applier.Lanes;
import io.lanes.applier.LanesBuilder;
import io.lanes.applier.LanesStats;
import io.lanes.applier.RowChange;
import io.lanes.applier.SourceTransaction;
import io.lanes.applier.jdbc.CatalogTableMetadata;
import io.lanes.applier.jdbc.ConnectionFactory;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.JdbcTarget;
import io.lanes.core.Applier;
import io.lanes.core.ApplierFactory;
import io.lanes.core.ApplyContext;
import io.lanes.core.Batch;
import io.lanes.core.Checkpoint;
import io.lanes.core.CheckpointStore;
import io.lanes.core.Transaction;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * End-to-end apply throughput: one invocation runs a whole {@link Lanes} pipeline over a real binlog file (decode, bridge,
 * schedule, apply, commit with checkpoints) from start to caught-up to stop. The primary score is pipeline runs per
 * second; the secondary metric {@code transactions} (an {@link AuxCounters} operations counter) is the committed source
 * transactions per second, the figure the report uses. Pipeline start (worker threads, connections) is inside the timing:
 * this is what a user of {@code Lanes} pays; the files are sized so that it stays a small part.
 *
 * <p>Apply models: {@code noop} (a sink that does nothing), {@code cpu} ({@code cpuTokensPerRow} of
 * {@link Blackhole#consumeCPU} per row), {@code latency} (each target commit parks {@code latencyMicros}, standing for an
 * fsync or a network round trip), {@code h2} (the JDBC applier into an embedded in-memory H2, a fresh database each
 * invocation). {@code checkpoint}: {@code table} writes the worker's checkpoint row in each target transaction (the
 * exactly-once path); {@code none} drops those writes (h2 only; the sink models never write checkpoints).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class ApplyThroughput {
    @Param({"sequential", "schema", "logical-clock", "writeset"})
    public String scheduler;

    @Param({"0", "1", "2", "4", "8", "10", "16", "32", "64", "128", "256", "1024"})
    public int workers;

    /** uniform10, skewed, oneSchemaLowConcurrency, fkHeavy; sysbenchFixture (the recorded MariaDB log). */
    @Param({"uniform10", "skewed", "oneSchemaLowConcurrency", "fkHeavy"})
    public String workload;

    @Param({"noop", "cpu", "latency", "h2"})
    public String model;

    @Param({"table"})
    public String checkpoint;

    /** Workload transactions per generated file (the fixture has its own). */
    @Param({"2000"})
    public int transactions;

    @Param({"500"})
    public long latencyMicros;

    @Param({"2000"})
    public long cpuTokensPerRow;

    /**
     * Commit order: {@code partition} (source order within a schema, as MySQL's database-parallel replica), {@code strict}
     * (source order overall, Lanes's default; a commit latency then cannot overlap) or {@code none}.
     */
    @Param({"partition", "strict", "none"})
    public String commitOrder;

    /** Source transactions per target commit (1: each commits alone, as a replica's SQL thread commits them). */
    @Param({"1"})
    public int blockCommit;

    private Path file;
    private static final AtomicLong DATABASES = new AtomicLong();
    private String h2Url;

    /** Committed source transactions, reported by JMH per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Committed {
        public long transactions;

        @Setup(Level.Iteration)
        public void reset() {
            transactions = 0;
        }
    }

    /**
     * A benchmark instance outside JMH (the probes, tests), prepared for one run per {@link #applyFile} after
     * {@link #freshDatabase}: a 500 us commit latency, 2,000 CPU tokens a row, checkpoints in the target, block commit 1.
     */
    static ApplyThroughput configured(String model, String workload, String scheduler, int workers, int transactions,
            String commitOrder) throws Exception {
        ApplyThroughput b = new ApplyThroughput();
        b.scheduler = scheduler;
        b.workers = workers;
        b.workload = workload;
        b.model = model;
        b.checkpoint = "table";
        b.transactions = transactions;
        b.latencyMicros = 500;
        b.cpuTokensPerRow = 2000;
        b.commitOrder = commitOrder;
        b.blockCommit = 1;
        b.prepare();
        return b;
    }

    @Setup(Level.Trial)
    public void prepare() throws Exception {
        file = ApplyWorkloads.file(workload, transactions);
        if (!model.equals("h2") && !checkpoint.equals("table")) {
            throw new IllegalArgumentException("checkpoint=" + checkpoint + " is an h2 variant only");
        }
    }

    @Setup(Level.Invocation)
    public void freshDatabase() {
        h2Url = "jdbc:h2:mem:lanes_bench_" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1"
                + Dialect.h2RecommendedUrlOptions();
    }

    /** The H2 database of the current invocation (h2 model), for checks before {@link #dropDatabase()}. */
    String h2Url() {
        return h2Url;
    }

    @TearDown(Level.Invocation)
    public void dropDatabase() throws Exception {
        if (model.equals("h2")) {
            try (Connection c = DriverManager.getConnection(h2Url); Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
            }
        }
    }

    @Benchmark
    public long applyFile(Committed committed) throws Exception {
        return run(file, committed);
    }

    /**
     * The fixed cost of a pipeline run at this worker count: the same file's preparation and one workload transaction
     * (start, threads, connections, stop). The report subtracts it from {@link #applyFile}'s run time to estimate the
     * steady-state rate, which is what the "no negative scaling" goal is about. Not for the recorded fixture.
     */
    @Benchmark
    public long startAndStop(Committed committed) throws Exception {
        if (workload.equals("sysbenchFixture")) {
            throw new IllegalArgumentException("startAndStop needs a generated workload");
        }
        return run(ApplyWorkloads.file(workload, 1), committed);
    }

    private long run(Path source, Committed committed) throws Exception {
        LanesBuilder b = Lanes.builder().source(source).scheduler(scheduler).workers(workers).blockCommit(blockCommit)
                .commitOrder(commitOrder).pipeline("bench");
        switch (model) {
            case "noop" -> b.sink(w -> new ModelApplier(0, 0), CheckpointStore.none(), ApplyWorkloads.metadata());
            // A sink that computes applies on this process's processors, and says so (as an embedded H2 target does).
            case "cpu" -> b.sink(ApplierFactory.inProcess(w -> new ModelApplier(cpuTokensPerRow, 0)),
                    CheckpointStore.none(), ApplyWorkloads.metadata());
            case "latency" -> b.sink(w -> new ModelApplier(0, latencyMicros * 1000), CheckpointStore.none(),
                    ApplyWorkloads.metadata());
            case "h2" -> {
                boolean none = checkpoint.equals("none");
                Properties props = new Properties();
                ConnectionFactory base = ConnectionFactory.of(h2Url, props);
                ConnectionFactory connections = none ? withoutCheckpointWrites(base) : base;
                JdbcTarget target = JdbcTarget.builder(connections, Dialect.h2()).pipeline("bench").build();
                b.sink(target.applierFactory(), none ? CheckpointStore.none() : target.checkpointStore(),
                        new CatalogTableMetadata(connections, target.catalog()));
            }
            default -> throw new IllegalArgumentException("unknown model " + model);
        }
        try (Lanes lanes = b.build()) {
            lanes.start();
            if (!lanes.awaitCaughtUp(Duration.ofMinutes(5))) {
                throw new IllegalStateException("not caught up after 5 minutes: " + lanes.stats());
            }
            LanesStats stats = lanes.stop();
            committed.transactions += stats.transactions();
            return stats.transactions();
        }
    }

    /**
     * Connections whose checkpoint-row writes (the upsert into {@code lanes_checkpoint}) do nothing: everything else,
     * reading and creating the table included, reaches H2. The "none" side of the checkpoint cost.
     */
    static ConnectionFactory withoutCheckpointWrites(ConnectionFactory base) {
        return () -> {
            Connection real = base.open();
            return (Connection) Proxy.newProxyInstance(ApplyThroughput.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql
                                && isCheckpointWrite(sql)) {
                            return skippedStatement();
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        };
    }

    static boolean isCheckpointWrite(String sql) {
        String s = sql.trim().toUpperCase(Locale.ROOT);
        return s.contains("LANES_CHECKPOINT") && !s.startsWith("SELECT") && !s.startsWith("CREATE");
    }

    private static PreparedStatement skippedStatement() {
        return (PreparedStatement) Proxy.newProxyInstance(ApplyThroughput.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "executeUpdate" -> 1;
                    case "execute", "isClosed" -> false;
                    case "executeLargeUpdate" -> 1L;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "skipped checkpoint write";
                    default -> null;
                });
    }

    /** The synthetic apply models: CPU per row, and a parked latency per target commit. */
    static final class ModelApplier implements Applier<SourceTransaction> {
        private final long tokensPerRow;
        private final long commitNanos;

        ModelApplier(long tokensPerRow, long commitNanos) {
            this.tokensPerRow = tokensPerRow;
            this.commitNanos = commitNanos;
        }

        @Override
        public void apply(Transaction<SourceTransaction> txn, ApplyContext context) {
            if (tokensPerRow > 0) {
                for (Change c : txn.payload().changes()) {
                    if (c instanceof RowChange) {
                        Blackhole.consumeCPU(tokensPerRow);
                    }
                }
            }
        }

        @Override
        public void commit(Batch<SourceTransaction> batch, Checkpoint checkpoint) {
            if (commitNanos > 0) {
                long until = System.nanoTime() + commitNanos;
                for (long left = commitNanos; left > 0; left = until - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
            }
        }

        @Override
        public void rollback(Batch<SourceTransaction> batch) {
        }
    }
}
