package io.lanes.jmh.stream;

import io.lanes.binlog.replication.StartPosition;
import io.lanes.binlog.gtid.MySqlGtidSet;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a MySQL GTID stream spends per transaction on its position, on the network thread: the transaction's GTID added
 * to the set, the set printed, and the resume position made from the text (what {@code StreamTracker} does at every
 * transaction's end). {@code sources}: how many server UUIDs the set holds (1, or 4 with gaps, as after failovers);
 * the stream's transactions come from the first.
 *
 * <pre>{@code java -jar jmh/target/benchmarks.jar GtidPosition -f 1 -wi 3 -i 5}</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GtidPositionBenchmark {
    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    @Param({"1", "4"})
    public int sources;

    private MySqlGtidSet set;
    private long gno;

    @Setup(Level.Iteration)
    public void start() {
        set = MySqlGtidSet.parse(sources == 1 ? UUID + ":1-100000" : UUID + ":1-100000,"
                + "00000000-0000-0000-0000-000000000001:1-5:7-9:11-100,11111111-0000-0000-0000-000000000001:1-5000,"
                + "22222222-0000-0000-0000-000000000001:1-300");
        gno = 100_000;
    }

    @Benchmark
    public StartPosition transactionEnd() {
        set.add(UUID, "", ++gno);
        return new StartPosition.MySqlGtids(set.toString());
    }
}
