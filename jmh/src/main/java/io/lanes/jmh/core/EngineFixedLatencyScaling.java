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
 * Scaling with a fixed apply latency (each apply parks for {@code latencyMicros}, like a round trip to a database):
 * 10 independent lanes (the seed's 10 schemas), workers from 1 to 1024. The goals: 10 workers at least 9x one worker,
 * and 1024 workers no worse than 90% of the best count, in every model. One operation is one transaction. Each
 * invocation submits {@value #BATCH} transactions and then waits until the previous invocation's have committed: the
 * engine never runs dry between invocations, as with a continuous binlog (waiting for its own would measure a drain
 * per 400 transactions, where one late wake-up of any of 10 workers delays the whole invocation).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class EngineFixedLatencyScaling {
    static final int BATCH = 400;

    @Param({"partition", "logical-clock", "writeset"})
    public String model;

    @Param({"1", "2", "4", "8", "10", "16", "64", "256", "1024"})
    public int workers;

    @Param({"1000"})
    public long latencyMicros;

    @Param({"10"})
    public int streams;

    @Param({"NONE"})
    public CommitOrder commitOrder;

    private Engine<Object> engine;
    private Transaction<Object>[] txns;
    /** The last transaction the previous invocation submitted. */
    private long previousLast;

    @Setup(Level.Trial)
    public void start() {
        txns = Workloads.engineTransactions(model, BATCH, streams);
        long nanos = latencyMicros * 1000;
        engine = Engine.builder(w -> new ParkingApplier(nanos)).scheduler(Workloads.engineScheduler(model))
                .workers(workers).commitOrder(commitOrder).name("bench").build();
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
