package io.lanes.jmh.core;

import io.lanes.testkit.Workloads;
import io.lanes.core.CommitOrder;
import io.lanes.core.Engine;
import io.lanes.core.Transaction;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Transactions per second through the whole engine (dispatch, hand-off, block commit with a checkpoint per commit,
 * low-water mark) when applying costs nothing: the engine's own overhead. One operation is one transaction; each
 * invocation submits {@value #BATCH} and then waits until the previous invocation's have committed (a continuous
 * stream, as from a binlog: the engine never runs dry between invocations).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EngineNoOpApplyThroughput {
    static final int BATCH = 20_000;

    @Param({"partition", "logical-clock", "writeset", "sequential"})
    public String model;

    @Param({"1", "2", "4", "8", "16", "64", "256", "1024"})
    public int workers;

    @Param({"NONE"})
    public CommitOrder commitOrder;

    /** Independent lanes of work in the stream (schemas, rows, or transactions per source group commit). */
    @Param({"64"})
    public int streams;

    private Engine<Object> engine;
    private Transaction<Object>[] txns;
    /** The last transaction the previous invocation submitted. */
    private long previousLast;

    @Setup(Level.Trial)
    public void start() {
        txns = Workloads.engineTransactions(model, BATCH, streams);
        engine = Engine.builder(w -> new ParkingApplier(0)).scheduler(Workloads.engineScheduler(model)).workers(workers)
                .commitOrder(commitOrder).name("bench").build();
        engine.start();
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        engine.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long submitAndCommit(ProcessCpu cpu) throws InterruptedException {
        long last = 0;
        for (Transaction<Object> t : txns) {
            last = engine.submit(t);
        }
        if (previousLast > 0 && !engine.awaitLowWaterMark(previousLast, Duration.ofMinutes(1))) {
            throw new IllegalStateException("engine stalled at " + engine.stats());
        }
        previousLast = last;
        cpu.sample();
        return last;
    }
}
