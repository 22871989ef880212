package dev.consistentcut.bench.micro;

import dev.consistentcut.bench.JobShape;
import dev.consistentcut.bench.engine.CountingSink;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyedCount;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The macro benchmark's job with no engine around it: the same operators in one thread, no
 * channels, no tasks, no checkpoints. Each operation makes the next record of one of the two
 * sources (alternating, as two unthrottled sources share the count's input), routes it by its key
 * to one of the two {@link KeyedCount} instances as the hash edge does, and hands the count's
 * output to the sink. Its score, records per microsecond, is what the operators alone cost: the
 * engine's throughput over it is what running them as a dataflow costs.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PipelineLimitBenchmark {

    private KeyedCount[] counts;
    private CountingSink sink;
    private long offset;

    @Setup(Level.Iteration)
    public void setUp() {
        counts = new KeyedCount[JobShape.COUNT_PARALLELISM];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new KeyedCount();
        }
        sink = new CountingSink(0);
        offset = 0;
    }

    @Benchmark
    public Record singleThreadPipeline() {
        long n = offset++;
        long sourceOffset = n >>> 1;
        Record r = new Record(new RecordId((n & 1) == 0 ? "s1" : "s2", sourceOffset), JobShape.keyAt(sourceOffset), 1);
        KeyedCount count = counts[Partitioning.hashTarget(r.key(), counts.length, dev.consistentcut.graph.KeyGroups.DEFAULT_MAX_PARALLELISM)];
        return sink.process(0, count.process(0, r));
    }
}
