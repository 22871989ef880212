package dev.consistentcut.bench.engine;

import dev.consistentcut.bench.JobParams;
import dev.consistentcut.bench.JobShape;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.KeyedCount;

/**
 * The demo job on the reference engine, the same shape as the Flink job: sources {@code s1} and
 * {@code s2} (one instance each) hash-partitioned by key into {@code count} (parallelism 2), both
 * count instances into the one {@code sink}. Six channels: four from the sources, two into the
 * sink, each holding {@link JobShape#CHANNEL_CAPACITY} records.
 */
public final class DemoJob {

    private DemoJob() {
    }

    public static JobGraph graph(BenchmarkSourceLog first, BenchmarkSourceLog second, CountingSink sink) {
        return graph(first, second, sink, JobParams.DEMO);
    }

    /** The same shape with the count's parallelism and the channels' capacity of {@code params}. */
    public static JobGraph graph(BenchmarkSourceLog first, BenchmarkSourceLog second, CountingSink sink, JobParams params) {
        return JobGraph.builder()
                .defaultCapacity(params.capacity())
                .source("s1", first)
                .source("s2", second)
                .operator("count", params.parallelism(), KeyedCount::new)
                // The runtime asks the factory once per task instance (and again on a restore, which
                // a benchmark run never has): the one sink instance is the one whose count we read.
                .operator("sink", 1, () -> sink)
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build();
    }
}
