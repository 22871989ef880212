package dev.consistentcut.bench.micro;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyedCount;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The synchronous part of a checkpoint in an operator task: {@link KeyedCount#snapshotState()}
 * of a keyed state with a given number of keys (the demo job's count holds 1,000). The task
 * thread stops processing records for this long at every snapshot.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KeyedStateSnapshotBenchmark {

    @Param({"1000", "10000", "100000"})
    public int keys;

    private KeyedCount count;

    @Setup(Level.Trial)
    public void fill() {
        count = new KeyedCount();
        for (int k = 0; k < keys; k++) {
            count.process(0, new Record(new RecordId("s#0", k), k, 1));
        }
    }

    @Benchmark
    public byte[] snapshot() {
        return count.snapshotState();
    }
}
